// Retraction phrases: the words with which a student takes back working ("scratch that", "ignore
// the above", "ignore that line", "that step is wrong"). One vocabulary, used by the embedded
// extractor (shared/extract/retract.ts) and to tell the model pipeline a response retracts
// something. Pure.

/** How students take working back, as the model's instructions quote them (each matched by RETRACTION). */
export const RETRACTION_EXAMPLES = ['scratch that', 'ignore the above'] as const;

/**
 * Retractions of what came before ("scratch that", "ignore the above"): with "above" in it, all
 * before its sentence; otherwise the maths before it in its sentence, else the sentence before.
 */
export const RETRACTION =
  /\b((?:scratch|scrap|discard|erase|delete) that|ignore (?:all of )?(?:the|everything) above|(?:ignore|disregard) (?:it|that|this|the above)(?=\s*(?:[.,;!)]|$))|cross that out|strike that)/gi;

/**
 * Retractions of one line ("ignore that line", "(that line is wrong)", "disregard the previous
 * step", "cross out the line above"). Group 1 is set when the phrase points back ("previous",
 * "last", "above", "preceding"): the line before is retracted. Otherwise ("that line", "this
 * step") the line holding the phrase when maths is on it, else the line before.
 */
export const LINE_WORD = String.raw`(?:line|step|equation|working|bit|part)`;
export const BACK_WORD = String.raw`(?:previous|last|preceding|above|prior)`;
// ("that line" points back, as "the line above" does: "…oh P is in kW, ignore that line, it should
// be 36000: v = …" takes back the line before, not what follows it; "this line" is the line it is on.)
export const LINE_RETRACTION = new RegExp(
  [
    String.raw`\b(?:ignore|disregard|delete|scratch|scrap|discard|erase|forget|cross\s+out|strike(?:\s+out)?|remove|skip|drop)\s+(?:(?:the|my)\s+(${BACK_WORD})\s+${LINE_WORD}|(?:(that)|this)\s+(?:(${BACK_WORD})\s+)?${LINE_WORD}|(?:the\s+)?${LINE_WORD}\s+(above|before\s+this|before))\b`,
    String.raw`\b(?:(?:the|my)\s+(${BACK_WORD})|that|this)\s+${LINE_WORD}\s+(?:is|was|'s)\s+(?:wrong|incorrect|a\s+mistake|an\s+error|nonsense|rubbish)\b`,
    String.raw`\b(?:that|this)\s+${LINE_WORD}'s\s+(?:wrong|incorrect|a\s+mistake)\b`,
    // A line marked as struck through on paper: "U = … (crossed out, forgot the half)", "P = ½μv²
    // ← no, crossed out, that's just the KE rate", "[crossed out: R = V²/P − R_L]".
    String.raw`[([]\s*(?:crossed|struck|scribbled)\s+(?:out|through)\b`,
    String.raw`(?:^|\n)\s*(?:crossed|struck|scribbled)\s+(?:out|through)\s*:`,
    String.raw`(?:[←<]-?|\bno,?)\s*(?:crossed|struck|scribbled)\s+(?:out|through)\b`,
  ].join('|'),
  'gi',
);

/** Whether a text retracts something in words (either kind of phrase). */
export function mentionsRetraction(text: string): boolean {
  RETRACTION.lastIndex = 0;
  LINE_RETRACTION.lastIndex = 0;
  const hit = RETRACTION.test(text) || LINE_RETRACTION.test(text);
  RETRACTION.lastIndex = 0;
  LINE_RETRACTION.lastIndex = 0;
  return hit;
}

/** A cue that names an earlier attempt before it is written: the attempt follows the cue ("I first had V = …"). */
export const ATTEMPT_FIRST = /\bi\s+(?:first|originally|initially)\s+(?:had|wrote|put|got|used)\b|\bat\s+first\s+i\s+(?:had|wrote|put|got|used)\b/i;

/**
 * Self-corrections in discourse: a sentence that revises something said before it ("no wait",
 * "oops", "I mean", "that's only ...", "that should be ...", "or rather", "make that"). Strong cues
 * say a revision is meant: the earlier equation is retracted when the revision restates its left
 * side, and otherwise the response needs review. The cue "actually" (WEAK_CORRECTION) is also
 * ordinary prose: it revises only when an equation with the same left side follows it in its
 * sentence, and is otherwise left alone.
 */
export const CORRECTION = new RegExp(
  [
    String.raw`\bno,?\s+wait\b`,
    String.raw`\bwait,?\s+no\b`,
    // (At the start of any line, not only of the response.)
    String.raw`(?:^|\n)\s*(?:hmm+,?\s+|oh,?\s+)?wait\b\s*[,!.:]`,
    // … or after a dash or a comma that ends what it revises: "U = … × 20^2 — wait, V should be in volts".
    String.raw`(?:[—–,;]|\s-)\s*wait\s*[,!.:]`,
    // "no, …" opening a line turns on what came before ("No friction" has no comma).
    String.raw`(?:^|\n)\s*no\s*[,!.—–]\s`,
    // … or after a dash or an arrow that ends what it revises: "d = 2fα — no, α is the whole angle
    // so d = fα", "I_2 = I_0e^(−μ_bd)   ← not right, the beam still goes through D−d".
    // A comment mark does the same: "L = Δt c_s/(c_s − c_a)   # wrong, dropped c_a".
    String.raw`(?:[—–←#]|\s-|<-+)\s*(?:no\s*[,!.:;]\s|not\s+right\b|wrong\b|incorrect\b)`,
    // (A colon ends no word: "correction:" can't sit inside \b…\b.)
    String.raw`\bcorrection\s*:`,
    // "edit: parallel not series!!": a note added to correct what came before.
    String.raw`(?:^|\n)\s*edit(?:ed)?\s*:`,
    String.raw`\b(?:nope|hold\s+on|on\s+reflection|i\s+(?:messed|mucked|screwed)\s+(?:that\s+|it\s+)?up)\b`,
    String.raw`\b(?:oops|whoops|oh\s+no|my\s+(?:mistake|bad)|i\s+meant?|i\s+made\s+an?\s+(?:mistake|error|typo)|(?:that|this)\s+(?:was|is)\s+a\s+typo|or\s+rather|make\s+that)\b`,
    String.raw`\b(?:actually,?\s+no|no,?\s+actually)\b`,
    // A bare "no" turning on what was just written ("... no that's for a moving observer",
    // "N = m g sinθ no - cosθ", "no thats E again" typed without the apostrophe); "no friction",
    // "no S dependence" are not revisions.
    String.raw`\bno,?\s+(?:that|this|it)(?:['’]?s|\s+is|\s+was)\b`,
    String.raw`(?:\.\.\.|…)\s*no\b`,
    // "P = V^2 R?? no P = V^2/R", "… = 0.16×40/0.0015 ... no that ignores the incoming ball": "no"
    // opening a sentence (or after a question put to what was just written) with an equation, or
    // "that"/"this"/"it", straight after it.
    String.raw`(?:^|\?)\s*no\b(?=,?\s+(?:(?:that|this|it)\b|[A-Za-z][\w]*\s*=))`,
    String.raw`\b(?:hmm+|uh+|um+),?\s+no\b`,
    // Brackets said in words to be missing ("there should be brackets round the A − Z", "I missed
    // the brackets"): the equation as typed is not what was meant.
    String.raw`\b(?:should\s+(?:be|have\s+been|have)|forgot|missed|missing|left\s+out|needs?|meant\s+to\s+(?:have|put))\b[^.!?\n]{0,25}\b(?:brackets?|parenthes[ie]s)\b`,
    String.raw`\b(?:brackets?|parenthes[ie]s)\b[^.!?\n]{0,30}\b(?:missing|forgot(?:ten)?|left\s+out|should\s+(?:be|go))\b`,
    // "qE = qvB² — typo, the B isn't squared: qE = qvB": the word alone, set off by punctuation,
    // says what came before is mistyped ("sorry for the typos" and "a typo in the question" don't).
    String.raw`(?:^|[—–,;:.(←#]\s*|\s[-–—]\s*)typo\s*[,:;.!—–)-]`,
    // An earlier attempt named before it is written ("I first had V = … but … it must be V = …").
    ATTEMPT_FIRST.source,
    // "…, redo:" (the working that follows replaces what came before); "Correct way:" after an attempt.
    String.raw`\bredo(?:ing)?\b\s*[:,.!]`,
    String.raw`\b(?:the\s+)?(?:correct|right|proper)\s+(?:way|method|version|working|approach)\s*:`,
    String.raw`(?<=[A-Za-z0-9)²³\u0370-\u03FF?!])\s+no\s*[-–—]\s`,
    String.raw`\b(?:that|this|it)(?:['’]?s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right|backwards)\b`,
    String.raw`\bthat(?:['’]?s|\s+was)\s+only\b`,
    // "that can't be right, …", "I've got the ratio the wrong way up".
    String.raw`\b(?:can'?t|cannot|can\s+not|couldn'?t)\s+be\s+right\b`,
    String.raw`\b(?:the\s+)?wrong\s+way\s+(?:up|round|around)\b`,
    // "v = B/E... other way up, E/B".
    String.raw`\b(?:the\s+)?other\s+way\s+(?:up|round|around)\b`,
    // "I had the masses upside down".
    String.raw`\bupside[\s-]+down\b`,
    // "I flipped the fraction the first time, the second line is my answer": one attempt chosen
    // over another, by what was done wrong or by its place.
    String.raw`\bi\s+(?:flipped|swapped|inverted|reversed|mixed\s+up)\b`,
    String.raw`\b(?:the\s+)?(?:second|last|final|other|bottom|latter)\s+(?:line|one|equation|version|attempt)\s+is\s+(?:my|the)\s+(?:final\s+|real\s+|actual\s+)?(?:answer|correct\s+one|right\s+one)\b`,
    String.raw`\b(?:that|this|it|which)\s+should\s+(?:be|have\s+been|read)\b`,
    // (At a sentence's start too: "… a sign wrong somewhere. Should be v = √(…) I think.")
    String.raw`(?:^|\n|(?<=[.!?])\s)\s*(?:sorry,?\s+)?should\s+(?:be|have\s+been)\b`,
    // "I must have a sign wrong somewhere", "I must have got the angle wrong", "must have a sign wrong".
    String.raw`\b(?:i\s+)?must\s+have\s+(?:[\w']+\s+){0,4}wrong\b`,
    // "…, should be mg = mv²/R" after a comma; "that's missing a square" says what was typed is wrong.
    String.raw`,\s*(?:sorry,?\s+)?should\s+(?:be|have\s+been|read)\b`,
    String.raw`\b(?:that|this|it)(?:'s|\s+is|\s+was)\s+missing\b`,
    String.raw`\bsorry\b`,
    // Pausing to revise ("hang on, that's for sliding ...", "on second thought").
    String.raw`\bhang\s+on\b|\bon\s+second\s+thoughts?\b`,
    // Taking back an earlier attempt by its place ("ignore my first line", "forget the first attempt").
    String.raw`\b(?:ignore|disregard|scratch|forget|cross\s+out)\s+(?:the|my|that|this)\s+(?:first|second|third|earlier|original|old|other)\s+(?:line|step|equation|attempt|answer|go|try|version|one)\b`,
    // …or by its number or letter ("ignore line 2", "scratch attempt A").
    String.raw`\b(?:ignore|disregard|scratch|forget|cross\s+out)\s+(?:the\s+|my\s+)?(?:line|step|equation|attempt|version)\s+(?:\d{1,2}|[A-Z]|one|two|three|four)\b`,
  ].join('|'),
  'i',
);
/**
 * "forgot the half", "I forgot friction": a piece left out of what came before. It revises only
 * where a later statement restates a left side from before it (applyCorrections), so "forgot to
 * say, g = 9.8" stays prose.
 */
export const FORGOT_CORRECTION = /\b(?:i\s+)?forgot\b/i;
export const WEAK_CORRECTION = /(?:^\s*|\n\s*|[.!?,;:]\s*|\b(?:hmm+|no|oh|so|wait),?\s+)actually\b/i;

/**
 * Any sign that the response takes something back (broader than the phrases the extractor acts
 * on): the per-line model reader then reads the response whole, since a retraction depends on the
 * other lines.
 */
export const ANY_RETRACTION =
  /scratch that|ignore (?:the|that|this|everything|all)(?: (?:above|before|previous))?|disregard|cross(?:ed)? (?:that )?out|never ?mind|that'?s wrong|delete (?:that|this)/i;
