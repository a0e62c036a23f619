// English words that are never maths. One list: the embedded extractor never reads them as products
// of symbols ("us" is not u*s), and the model pipeline's guards skip them (with a few prepositions
// of place) when looking for a variable's description in a response. Pure.

/** Short English words that must never be read as products of symbols ("us" is not u*s). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an as at be by do go he if in is it me my no of ok on or so to up us we vs am hm hmm mm its the and for but not was ' +
    'has had get got let set per via etc ie eg kg cm km mm ms wrt yes yet how why who you she her him his our out off all ' +
    'any can may now one two six ten too use see say put try did does done way own new old big bit few lot thus then than ' +
    'that this with from into onto each also just only what when which where here there they them their these those ' +
    'some such same both have will would should could must make take gives give gets sets else over under s.t'
  ).split(/\s+/),
);

/**
 * Words of a variable's description that say nothing about which quantity it is ("height above the
 * ground": 'above'): the stopwords and prepositions of place.
 */
export const DESCRIPTION_STOPWORDS: ReadonlySet<string> = new Set([...STOPWORDS, 'relative', 'above', 'below']);
