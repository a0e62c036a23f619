// Reading one maths run (tokens [i0, i1) between prose): split off parentheticals, trim it, screen
// out what can't be read (a word glued in, unreadable maths cutting it up, a lost Greek '?',
// function notation, inequalities and limits), then read it as a labelled or bare expression or as
// an equation or chain, or leave it unread with the reason. Pure.

import { UNIT_WORDS } from './lexicon.ts';
import { parseUnit, readUnitAt } from '../units/parse-unit.ts';
import { inferredUnit } from '../units/infer-unit.ts';
import { sameDimension } from '../units/dimension.ts';
import { STOPWORDS } from '../text/stopwords.ts';
import { symTok, unread, spanOf, type Ctx } from './context.ts';
import { emitChain } from './emit.ts';
import { isUnitOf, isUnitWord, ofTheQuantity, trim } from './runs.ts';
import {
  cutByUnreadable,
  unreadableRun,
  functionNotation,
  labelOf,
  limitingCondition,
  limitingConditionBefore,
  finalState,
  factorOfAnother,
  modifiedAfter,
  OPERATION_WORDS,
  REFERRING_WORDS,
  REFERENT_NOUNS,
  proportionalityBefore,
  degreesDoubt,
  namedByNounAfter,
} from './surroundings.ts';
import { numberedClash, positiveSetToZero } from './symbol-checks.ts';
import { APPROXIMATE, readStatedResult } from './result-words.ts';
import { readRevisedSide } from './revised-side.ts';
import { unitsTalk } from './units-talk.ts';
import { numbersOnly, type Tok } from './tokens.ts';
import { note } from '../extraction.ts';

/**
 * Brackets nested deeper than this are not read (the grammar has a bound of its own; this one keeps
 * the extractor's own bracket matching linear and says why).
 */
export const MAX_NESTING = 64;

/** The deepest bracket nesting in a run. */
function nesting(t: Tok[]): number {
  let depth = 0;
  let deepest = 0;
  for (const x of t) {
    if (x.kind === 'lp') deepest = Math.max(deepest, ++depth);
    else if (x.kind === 'rp') depth--;
  }
  return deepest;
}

/** Whether token `at` lies inside brackets opened earlier on its line ("t = 100 s (200 m at 2 m/s)"). */
function insideBrackets(toks: Tok[], at: number): boolean {
  let depth = 0;
  let equation = false;
  for (let k = at - 1; k >= 0 && toks[k].kind !== 'nl'; k--) {
    if (toks[k].kind === 'rp') depth++;
    else if (toks[k].kind === 'lp' && depth-- === 0) return !equation;
    // "(E = 5.0 MeV is 8.0 × 10⁻¹³ J)": the brackets hold an equation and this value goes on from
    // it, so they are no aside on the working.
    else if (toks[k].kind === 'eq' && depth === 0) equation = true;
  }
  return false;
}

/** A short letter run that reads as a symbol rather than a word ("pV", "Vs", "pw"; not "is", "so"). */
const symbolLike = (x: Tok | undefined): boolean =>
  !!x && x.kind === 'word' && /^[A-Za-z][A-Za-z0-9_]{0,2}$/.test(x.text) && (!STOPWORDS.has(x.text.toLowerCase()) || /[A-Z]/.test(x.text));

/**
 * An '=' between letter runs that read as symbols ("Vs = pV/pw"): the stretch from the run before
 * it to the end of the glued maths after it, or null when either side is a word.
 */
function symbolLikeAround(toks: Tok[], i0: number, i1: number): [number, number] | null {
  if (!symbolLike(toks[i0 - 1]) || !symbolLike(toks[i1])) return null;
  let end = i1 + 1;
  while (end < toks.length && !toks[end].sp && (toks[end].kind === 'op' || symbolLike(toks[end]))) end++;
  return [i0 - 1, end];
}

/**
 * "accelerated through 100 V in a 2 mT field": a number with its unit in prose, stated as no
 * quantity's value, may still be a value of the question's (gold convention 1 records a quantity
 * stated in words): which one can't be told, so it is left unread. A bare number ("2 times", "part
 * 3") says nothing of a quantity.
 */
function valueInWords(ctx: Ctx, toks: Tok[], at: number, raw: Tok[], t: Tok[], next: Tok | undefined): void {
  // The unit is in the run ("2 m/s") or is the word that ends it ("13.6 eV"); an angle in words
  // ("at 20 or 30 degrees", "as θ → 90°") describes, it states no quantity's value.
  const ending = raw.at(-1) === t.at(-1) && isUnitWord(next) && !/^deg/.test(next.text) ? next : undefined;
  const unit = raw.slice(raw.indexOf(t[t.length - 1]) + 1).find(isUnitWord) ?? ending;
  const numeric = numbersOnly(t);
  // "… = 1.43, which comes to an angle of 55°": an angle stated as a result in words is a value
  // a marker may record (θ = 55), not a description ("at 20 or 30 degrees"): a doubt.
  const clause: string[] = [];
  for (let j = at - 1; j >= 0 && toks[j].kind === 'word' && clause.length < 8; j--) clause.unshift(toks[j].text.toLowerCase());
  // ("is at 45 degrees", "turned through 30 degrees", "when β is near 90°": a condition, not a result.)
  const condition =
    /^(?:at|to|from|by|through|between|under|over|within|near)$/.test(clause.at(-1) ?? '') || clause.some((w) => /^(?:when|if|once|until|unless)$/.test(w));
  if (numeric && next && /^deg/.test(next.text) && !condition && RESULT_IN_CLAUSE.test(clause.join(' ')) && !insideBrackets(toks, at)) {
    ctx.mathSeen = true;
    unread(ctx, [...t, next], "an angle stated as a result in words: whether it is recorded, and in degrees or radians, is the marker's call");
    return;
  }
  if (!unit || !numeric || (t.length > 2 && !powerOfTen(t))) return;
  // "v = 1 + √2, about 2.41 m/s": an approximation, not recorded; "t = 100 s (200 m at 2 m/s)": an aside on the working.
  const before = toks[at - 1];
  if (before?.kind === 'word' && APPROXIMATE.test(before.text)) return;
  if (insideBrackets(toks, at)) return;
  ctx.mathSeen = true;
  unread(ctx, [...t, unit], "a value with a unit in words: which quantity of the question it gives, if any, can't be told");
}

/**
 * "57.5 Ω" as the whole response: a value given as the answer (convention 4, as a bare expression
 * is), read as the target's where its unit is the target's or it has none; with another quantity's
 * unit it is left unread (which part it answers can't be told). Whether it applied.
 */
function wholeResponseValue(ctx: Ctx, toks: Tok[], at: number, end: number, t: Tok[]): boolean {
  const target = ctx.lex.target;
  if (!target || !numbersOnly(t) || !(t.length === 1 || powerOfTen(t)) || !onlyBreaks(toks, 0, at)) return false;
  // (Ω, as normalize.ts spells it, "57.5 Omega", is the ohm where the question has no Omega.)
  const ohm = (x: Tok): boolean => x.text === 'Omega' && !ctx.lex.variables.includes('Omega');
  // The unit: what follows the value's last token (the run's own trimmed unit, "m/s", then unit words after it).
  const valueEnd = toks.indexOf(t[t.length - 1]) + 1;
  let after = end;
  while (after < toks.length && (isUnitWord(toks[after]) || ohm(toks[after]))) after++;
  if (valueEnd < 1 || !onlyBreaks(toks, after, toks.length)) return false;
  ctx.mathSeen = true;
  const written = toks
    .slice(valueEnd, after)
    .map((x, j) => (j > 0 && x.sp ? ' ' : '') + (x.text === 'Omega' ? 'Ω' : x.text))
    .join('')
    .trim();
  const unit = written ? parseUnit(written) : null;
  if (unit && (!unit.ok || !isUnitOf(ctx.lex, target, unit.unit))) {
    unread(
      ctx,
      toks.slice(at, after),
      `a value in ${written}, the whole response: not the unit of the answer (${target}), so which quantity it gives can't be told`,
    );
    return true;
  }
  const n = ctx.equations.length;
  emitChain(ctx, [[symTok(target, t[0])], t], t);
  if (ctx.equations.length > n)
    ctx.notes.push(
      note(
        'other',
        `read ${JSON.stringify(ctx.original.slice(spanOf(ctx, t).start, spanOf(ctx, toks.slice(at, after)).end))}, the whole response, as the answer (${target})`,
      ),
    );
  return true;
}

/** Words in the clause before a value that state it as a result ("which comes to", "the angle is"). */
const RESULT_IN_CLAUSE = /\b(?:comes? to|came to|gives?|gave|is|are|was|equals|works? out|get|got)\b/;

/** "2.4 × 10⁻¹⁷", "-3 * 10^5": a number times a power of ten. */
const powerOfTen = (t: Tok[]): boolean => {
  const s = t.map((x) => x.text).join('');
  // In brackets when typed with a times sign or in e-notation (normalize.ts: one number).
  return /^-?\(*-?\d+(?:\.\d+)?\*10\^\(?-?\d+\)?\)*$/.test(s);
};

/** A run being read: the response's tokens, the run's range, its raw and trimmed tokens. */
type Run = {
  toks: Tok[];
  i0: number;
  i1: number;
  raw: Tok[];
  t: Tok[];
  prev: Tok | undefined;
  next: Tok | undefined;
  /** Index in toks of the trimmed run's first token. */
  realStart: number;
  /**
   * Where the words before the run end: realStart, or the '$' that opens the maths there ("so the
   * speed is $\sqrt{2gL}$" says what it is as "so the speed is √(2gL)" does).
   */
  wordsEnd: number;
};

const isSymbol = (x: Tok): boolean => x.kind === 'usym' || (x.kind === 'id' && x.pieces!.some((p) => p.kind === 'sym'));

/**
 * An unmatched '(' after a space opens a parenthetical: "t = 100 s (200 m at 2 m/s)". The run is
 * cut before every such bracket (the brackets still open at its end, found in one pass: a bracket
 * left open in the whole run is left open in every piece after it, and no piece before it has one).
 */
export function parentheticalPieces(toks: Tok[], i0: number, i1: number): [number, number][] {
  const open: number[] = [];
  for (let k = i0; k < i1; k++) {
    if (toks[k].kind === 'lp') open.push(k);
    else if (toks[k].kind === 'rp') open.pop();
  }
  const out: [number, number][] = [];
  let a = i0;
  for (const k of open) {
    if (k > a && toks[k].sp) {
      out.push([a, k]);
      a = k;
    }
  }
  out.push([a, i1]);
  return out;
}

export function readSegment(ctx: Ctx, toks: Tok[], i0: number, i1: number): void {
  for (const [a, b] of parentheticalPieces(toks, i0, i1)) readPiece(ctx, toks, a, b);
}

/**
 * "T = 2π√(1.0/9.8) ≈ 2.0 s": a numerical approximation at the end of an equation is left unread
 * (a doubt: whether it is recorded is the marker's call); the equation before it is read.
 */
function dropApproximation(ctx: Ctx, t: Tok[]): Tok[] {
  const rels = t.filter((x) => x.kind === 'rel');
  if (rels.length !== 1 || rels[0].text !== '~') return t;
  const r = t.indexOf(rels[0]);
  const tail = t.slice(r + 1);
  const eqBefore = t.slice(0, r).some((x) => x.kind === 'eq');
  if (
    eqBefore &&
    tail.length > 0 &&
    tail.every((x) => x.kind === 'num' || x.kind === 'op' || x.kind === 'lp' || x.kind === 'rp') &&
    tail.some((x) => x.kind === 'num')
  ) {
    // Markers differ on it (gold of rounds 1, 4 and the held-out set leaves such a value out, of
    // rounds 15 and 16 records it), so it is a doubt, as "T_f ≈ 10" is: the equation before is read.
    unread(ctx, t.slice(r), `an approximate value after '≈': whether it is recorded as the student's result is the marker's call`);
    return t.slice(0, r);
  }
  return t;
}

function readPiece(ctx: Ctx, toks: Tok[], i0: number, i1: number): void {
  const raw = toks.slice(i0, i1);
  const ambiguous: { unit?: string; unitOrProduct?: string; cut?: string } = {};
  let t = trim(raw, ctx.lex, ambiguous);
  if (t.length === 0) return;
  t = dropApproximation(ctx, t);
  const hasSym = t.some(isSymbol);
  const hasEq = t.some((x) => x.kind === 'eq');
  const hasNum = t.some((x) => x.kind === 'num');
  if (!hasSym && hasEq && !hasNum && symbolLikeAround(toks, i0, i1)) {
    // "Vs = pV/pw": letters the question doesn't know, written as maths, not words = words.
    ctx.mathSeen = true;
    const a = symbolLikeAround(toks, i0, i1)!;
    unread(ctx, toks.slice(a[0], a[1]), 'written as maths, but its letters are not symbols of the question');
    return;
  }
  // "heading: sin⁻¹(60/240)", "so the flight time is 360/232.4 h": arithmetic on numbers (an
  // operation or a function, not one number) stated after a colon or "is" gives a value: read as
  // an expression is, the value of the variable the words name, else left unread; dropped, a
  // value the student stated would pass unseen. (Elsewhere, "a factor of √2", "400-700 nm", it
  // describes and stays words.)
  const stated = toks[i0 + raw.indexOf(t[0]) - 1];
  const arithmetic =
    !hasSym &&
    !hasEq &&
    hasNum &&
    isArithmetic(t) &&
    ((stated?.kind === 'punct' && stated.text === ':') || (stated?.kind === 'word' && /^(is|equals)$/i.test(stated.text)));
  if (!hasSym && (!hasEq || !hasNum) && !arithmetic) {
    if (hasNum && !hasEq && wholeResponseValue(ctx, toks, i0 + raw.indexOf(t[0]), i1, t)) return;
    // numbers, "take the + sign", "the square root", words = words; a number stated as a result ("which comes to 0.45 J")
    if (hasNum && !hasEq && !readStatedResult(ctx, toks, i0 + raw.indexOf(t[0]), i1, t)) valueInWords(ctx, toks, i0 + raw.indexOf(t[0]), raw, t, toks[i1]);
    return;
  }
  const deepest = nesting(t);
  if (deepest > MAX_NESTING) {
    ctx.mathSeen = true;
    unread(ctx, t, `brackets nested more than ${MAX_NESTING} levels deep: not read`);
    return;
  }
  const realStart = i0 + raw.indexOf(t[0]);
  const opensMaths = toks[realStart - 1]?.kind === 'punct' && toks[realStart - 1].text === '$';
  const run: Run = { toks, i0, i1, raw, t, prev: toks[i0 - 1], next: toks[i1], realStart, wordsEnd: opensMaths ? realStart - 1 : realStart };
  // (One symbol alone in prose is not read anyway: only maths is said to be left out.)
  const units = t.length > 1 || (t[0].pieces?.length ?? 1) > 1 ? unitsTalk(ctx, toks, run.realStart, i1, t) : null;
  if (units) {
    ctx.mathSeen = true;
    const where = spanOf(ctx, t);
    ctx.notes.push(note('unread', `left out ${JSON.stringify(ctx.original.slice(where.start, where.end))}: talk about units, not an equation (${units})`));
    return;
  }
  if (screenedOut(ctx, run, hasEq, hasSym)) return;
  if (!hasEq) {
    readExpression(ctx, run);
    return;
  }
  ctx.mathSeen = true;
  const doubt = equationDoubt(ctx, run, ambiguous);
  if (doubt) {
    unread(ctx, t, doubt);
    return;
  }
  readEquation(ctx, run);
}

/**
 * Numbers combined ("360/232.4", "2 × 9.8", "sin⁻¹(60/240)", "√54000"): an operator between two
 * operands or a function; not one number, signed or in powers of ten ("−3", "2.4 × 10⁻¹⁷").
 */
function isArithmetic(t: Tok[]): boolean {
  if (t.some((x) => x.pieces?.some((p) => p.kind === 'fn'))) return true;
  if (powerOfTen(t)) return false;
  const ends = (x: Tok | undefined): boolean => !!x && (x.kind === 'num' || x.kind === 'rp');
  const starts = (x: Tok | undefined): boolean => !!x && (x.kind === 'num' || x.kind === 'lp');
  return t.some((x, j) => (x.kind === 'op' || x.kind === 'pm') && ends(t[j - 1]) && starts(t[j + 1]));
}

/** Sentence punctuation may touch maths ("v = 2.", "(so t = 3)"); any other mark glued to it is maths we can't read. */
const SENTENCE_MARK = /^(?:[.,;:!?"'…]|\.\.\.)$/;
const gluedMark = (tk: Tok | undefined, glued: boolean): string | null => (tk?.kind === 'punct' && glued && !SENTENCE_MARK.test(tk.text) ? tk.text : null);

/**
 * Runs that are maths but can't be read as they stand: left unread (or, for inequalities and
 * limits, not recorded). Returns whether the run was dealt with.
 */
function screenedOut(ctx: Ctx, run: Run, hasEq: boolean, hasSym: boolean): boolean {
  const { toks, i0, i1, raw, t, prev, next } = run;
  // "v = 2gh" with h no variable, "mgL(1 − cos θ) = ½mv²" with m none: a letter run glued to the maths
  // (no space) that isn't the question's is part of the expression, so the run is only a fragment.
  const gluedWord =
    prev?.kind === 'word' && !raw[0].sp && !UNIT_WORDS.has(prev.text) ? prev : next?.kind === 'word' && !next.sp && !UNIT_WORDS.has(next.text) ? next : null;
  if (gluedWord && (hasEq || hasSym)) {
    ctx.mathSeen = true;
    unread(ctx, t, `'${gluedWord.text}' is written into it and is not a variable of the question (${ctx.lex.variables.join(', ')})`);
    return true;
  }
  // "nRT|ln V|", "[ln V]_{V1}^{V2}", "∫ p dV": a mark glued to the maths that the grammar has no
  // reading for (not sentence punctuation) is part of the expression, so the run is only a fragment.
  const mark = gluedMark(prev, !raw[0].sp) ?? gluedMark(next, next ? !next.sp : false);
  if (mark && (hasEq || hasSym)) {
    ctx.mathSeen = true;
    unread(ctx, t, `'${mark}' is written into it and can't be read: the equation would be recorded with a part missing`);
    return true;
  }
  const cutUp = cutByUnreadable(toks, i0, i1);
  if (cutUp && (hasEq || hasSym)) {
    ctx.mathSeen = true;
    const key = `${cutUp[1]}:${cutUp[2]}`;
    if (ctx.cutUp.has(key)) return true; // another piece of the same expression, already reported
    ctx.cutUp.add(key);
    const whole = trim(toks.slice(cutUp[1], cutUp[2]), ctx.lex);
    unread(ctx, whole.length ? whole : t, cutUp[0]);
    return true;
  }
  // "N = 2 mg" with g no variable: short letters after the value, spaced, that are neither English
  // nor a unit word and hold one of the question's letters are maths the reader can't read (m·g),
  // not a word after it; read alone the equation would be "N = 2". They are a unit only where
  // they spell one of the quantity's own ("Q = 40 μC" with Q a charge; "N = 2 mg" is a mass).
  const lastTok = toks[i1 - 1];
  const spacedMath =
    hasEq &&
    next?.kind === 'word' &&
    next.sp &&
    unreadableRun(next) &&
    next.text.length <= 4 &&
    lastTok !== undefined &&
    ['num', 'usym', 'id', 'rp'].includes(lastTok.kind) &&
    [...next.text].some((ch) => ctx.lex.variables.includes(ch)) &&
    !unitOfTheQuantity(ctx, t, next.text);
  if (spacedMath) {
    ctx.mathSeen = true;
    unread(ctx, t, `'${next.text}' follows it and is not a variable of the question (${ctx.lex.variables.join(', ')}): maths that can't be read, or a word?`);
    return true;
  }
  // "T = 2?√(L/g)", "cos?": a '?' glued to a number, '(' or a function is a Greek letter lost in
  // typing that could not be restored (see normalize): the maths around it is not what was meant.
  const last = t[t.length - 1];
  if (
    next?.kind === 'punct' &&
    next.text === '?' &&
    !next.sp &&
    last === toks[i1 - 1] &&
    (last.kind === 'num' || last.kind === 'lp' || (last.kind === 'id' && last.pieces!.at(-1)!.kind === 'fn'))
  ) {
    ctx.mathSeen = true;
    unread(ctx, t, "a '?' where a symbol was lost in typing");
    return true;
  }
  const fnNotation = functionNotation(t);
  if (fnNotation) {
    ctx.mathSeen = true;
    unread(ctx, t, fnNotation);
    return true;
  }
  if (t.some((x) => x.kind === 'rel')) {
    ctx.mathSeen = true;
    // "T_f ≈ 10 °C": a quantity's value stated approximately, no limit: markers differ on
    // recording it (a value found, or an estimate), so it is a doubt, never dropped unseen.
    // "X ≈ …": a symbol, then an approximation sign.
    const symbolApprox = t.length >= 3 && t[1].kind === 'rel' && t[1].text === '~' && isSymbol(t[0]);
    const approxValue = symbolApprox && t.slice(2).every((x) => x.kind === 'num' || x.kind === 'op' || x.kind === 'lp' || x.kind === 'rp');
    // (Not a limit: "t ≈ 0", or under a condition, "when F >> Ma, t ≈ 0".)
    const limit = t.slice(2).every((x) => x.kind !== 'num' || Number(x.text) === 0) || limitingConditionBefore(toks, i0) !== null;
    if (approxValue && !hasEq && !limit) unread(ctx, t, `an approximate value of ${t[0].text}: whether it stands as the student's result is the marker's call`);
    // "V_rms ≈ 0.707V_0": a relation with a rounded coefficient (1/√2), not a limit between
    // quantities ("v ≈ u"): markers differ on recording it, so it is a doubt too.
    const roundedRelation =
      symbolApprox && !approxValue && t.slice(2).every((x) => x.kind !== 'rel') && t.slice(2).some((x) => x.kind === 'num' && x.text.includes('.'));
    if (roundedRelation && !hasEq && limitingConditionBefore(toks, i0) === null)
      unread(ctx, t, `an approximate relation with a rounded number: whether it stands as the student's statement is the marker's call`);
    if (hasEq) unread(ctx, t, 'an equation mixed with an inequality or approximation');
    return true; // inequalities, limits, approximations are not recorded
  }
  return false;
}

/** A unit as the normaliser left its letters: μ is spelled 'mu' ("40 μC" reaches here as 'muC'). */
const parseWrittenUnit = (letters: string): ReturnType<typeof parseUnit> => parseUnit(letters.replace(/^mu(?=[A-Za-z])/, 'μ'));

/** Whether `letters` spell a unit of the quantity the equation `t` gives a value ("Q = 40 μC", Q a charge). */
function unitOfTheQuantity(ctx: Ctx, t: Tok[], letters: string): boolean {
  const unit = parseWrittenUnit(letters);
  if (!unit.ok || t.length < 3 || t[1].kind !== 'eq' || !isSymbol(t[0])) return false;
  return isUnitOf(ctx.lex, ctx.lex.resolve(t[0].text, ctx.aliases), unit.unit);
}

/** Whether every token in [a, b) is a line break or a full stop (or there are none). */
function onlyBreaks(toks: Tok[], a: number, b: number): boolean {
  for (let k = a; k < b; k++) {
    const x = toks[k];
    if (!(x.kind === 'nl' || (x.kind === 'punct' && x.text === '.'))) return false;
  }
  return true;
}

/** Words right before "by" that make what follows a change's size ("goes up by", "rises by"). */
const CHANGE_VERB =
  /^(?:up|down|rises|rose|risen|increases|increased|changes|changed|falls|fell|drops|dropped|decreases|decreased|grows|grew|gains|gained|loses|lost)$/i;

/**
 * "The height it falls is r, so mgr = ½mv²": one variable alone, after "is" and words naming
 * another variable of the question, and ending its clause, is that quantity's value (gold
 * convention 1: a quantity stated with a symbolic value in words), as "the height is 2r" is.
 * Not the same variable ("the speed is v"), nor where words go on after it ("is r from the centre")
 * other than a conjunction opening the next clause.
 */
function statedAsAnother(ctx: Ctx, run: Run): void {
  const { toks, i1, t, wordsEnd } = run;
  const x = t[0];
  const sym = t.length === 1 && x.kind === 'id' && x.pieces?.length === 1 && x.pieces[0].kind === 'sym' ? x.pieces[0].name : null;
  const before = toks[wordsEnd - 1];
  const after = toks[i1];
  // Its clause ends at a break, a stop, a conjunction that opens the next clause ("Object distance
  // is L and image distance is N") or an aside in brackets set apart by a space.
  const ends =
    !after ||
    after.kind === 'nl' ||
    (after.kind === 'punct' && /^[,.;!]$/.test(after.text)) ||
    (after.kind === 'word' && /^(?:and|so|but|while|whereas)$/i.test(after.text) && toks[i1 + 1]?.kind === 'word') ||
    (after.kind === 'lp' && after.sp);
  if (!sym || before?.kind !== 'word' || !/^(is|equals)$/i.test(before.text) || !ends) return;
  const lab = labelOf(ctx, toks, wordsEnd, false);
  if (!lab?.v || lab.v === sym) return;
  ctx.mathSeen = true;
  const n = ctx.equations.length;
  emitChain(ctx, [[symTok(lab.v, x)], t], t);
  const where = spanOf(ctx, t);
  if (ctx.equations.length > n)
    ctx.notes.push(note('unmapped-symbol', `read ${JSON.stringify(ctx.original.slice(where.start, where.end))} as the value of ${lab.v} ("${lab.label}")`));
}

/** A run with no '=': a labelled value ("Group time: 2S/u"), the whole answer, or prose maths. */
function readExpression(ctx: Ctx, run: Run): void {
  const { toks, i0, i1, raw, t, prev, next, wordsEnd } = run;
  const operands = t.filter((x) => x.kind === 'id' || x.kind === 'usym' || x.kind === 'num').length;
  const pieces = t.reduce((n, x) => n + (x.pieces?.length ?? 1), 0);
  const mathy = t.some((x) => x.kind === 'op' || x.kind === 'pm' || x.pieces?.some((p) => p.kind === 'fn')) || operands >= 2 || pieces >= 2;
  if (!mathy) {
    statedAsAnother(ctx, run); // "The height it falls is r, so …"
    return; // else a variable named in prose
  }
  // "so each bulb is 10x brighter": a number glued to an x the question doesn't have is "times", words.
  if (t.length === 2 && t[0].kind === 'num' && !t[1].sp && /^[xX]$/.test(t[1].text) && !ctx.lex.variables.some((v) => v.toLowerCase() === 'x')) return;
  // "$d = 113$ nm": the unit of the number the maths ended with, typed after the closing '$'.
  if (t.length === 1 && wordsEnd < run.realStart && ['num', 'rp'].includes(toks[wordsEnd - 1]?.kind ?? '') && UNIT_WORDS.has(t[0].text)) return;
  ctx.mathSeen = true;
  if (prev?.kind === 'arrow' || next?.kind === 'arrow') return; // a limit: "u/w -> infinity"
  const before = toks[wordsEnd - 1];
  // ("is given by u²/2g" states a value: "by" there is no operation.)
  const givenBy = /^by$/i.test(before?.text ?? '') && /^given$/i.test(toks[wordsEnd - 2]?.text ?? '');
  // ("goes up by 3/2 nRΔT", "rises by 2mgh" says how much a quantity changes: a value, not an operation.)
  const changesBy = /^by$/i.test(before?.text ?? '') && CHANGE_VERB.test(toks[wordsEnd - 2]?.text ?? '');
  if (before?.kind === 'word' && !givenBy && !changesBy && (OPERATION_WORDS.test(before.text) || REFERRING_WORDS.test(before.text))) return;
  const beforeThat = toks[wordsEnd - 2];
  if (before?.kind === 'word' && REFERENT_NOUNS.test(before.text) && beforeThat?.kind === 'word' && REFERRING_WORDS.test(beforeThat.text)) return;
  // "600 kg/m³", "9.84 kg·m/s": the rest of a unit glued to the unit word before it.
  const restOfUnit = t[0].text === '/' || (t[0].text === '*' && parseWrittenUnit(before?.text + t.map((x) => x.text).join('')).ok);
  if (before?.kind === 'word' && UNIT_WORDS.has(before.text) && t[0].kind === 'op' && restOfUnit && !t[0].sp) return;
  // "360 kg m²": more of a unit after a unit word that follows a value.
  if (
    before?.kind === 'word' &&
    UNIT_WORDS.has(before.text) &&
    ['num', 'rp'].includes(toks[wordsEnd - 2]?.kind ?? '') &&
    parseUnit(t.map((x) => x.text).join('')).ok
  )
    return;
  if (proportionalityBefore(toks, wordsEnd) || namedByNounAfter(toks, i1)) {
    const where = spanOf(ctx, t);
    ctx.notes.push(
      note('unread', `left out ${JSON.stringify(ctx.original.slice(where.start, where.end))}: a proportionality or a term named in words, not a value`),
    );
    return;
  }
  if (readRevisedSide(ctx, t)) return; // "I = ε/(R − r), I mean ε/(R + r)"
  const factor = factorOfAnother(toks, i1);
  if (factor) {
    unread(ctx, t, `the words after it ("${factor}") make it a factor of another quantity, not a value`);
    return;
  }
  // "its weight mg", "carries energy hf": maths right after a noun naming a quantity the question
  // has no variable for is that quantity's value, left out (gold convention 3).
  if (before?.kind === 'word' && ctx.lex.labelKind(before.text) === 'other') {
    const where = spanOf(ctx, t);
    ctx.notes.push(
      note('unread', `left out ${JSON.stringify(ctx.original.slice(where.start, where.end))}: "${before.text}" is not a variable of the question`),
    );
    return;
  }
  const changedBy = modifiedAfter(toks, i1);
  if (!changedBy && readStatedResult(ctx, toks, wordsEnd, i1, t)) return; // "the time comes out as 2v_0 sinθ/g"
  const lab = labelOf(ctx, toks, wordsEnd, false);
  const where = spanOf(ctx, t);
  if (lab?.v && changedBy) {
    unread(ctx, t, `the words after it ("${changedBy}") change the expression`);
    return;
  }
  const shown = JSON.stringify(ctx.original.slice(where.start, where.end));
  if (lab?.v) {
    const n = ctx.equations.length;
    emitChain(ctx, [[symTok(lab.v, t[0])], t], t);
    if (ctx.equations.length > n) ctx.notes.push(note('unmapped-symbol', `read ${shown} as the value of ${lab.v} ("${lab.label}")`));
    return;
  }
  if (lab?.kind === 'other') {
    ctx.notes.push(note('unread', `left out ${shown}: "${lab.label}" is not a variable of the question`));
    return;
  }
  // The whole response is one expression: the answer (convention 4, "a bare expression given as
  // the answer is target = expression").
  if (ctx.lex.target && onlyBreaks(toks, 0, i0) && onlyBreaks(toks, i1, toks.length) && t[0] === raw[0]) {
    const n = ctx.equations.length;
    emitChain(ctx, [[symTok(ctx.lex.target, t[0])], t], t);
    if (ctx.equations.length > n) ctx.notes.push(note('other', `read ${shown}, the whole response, as the answer (${ctx.lex.target})`));
    return;
  }
  // "v is less than √(2gh) because …": a comparison in words, or an expression the question itself
  // writes, mentioned: neither states a value (gold convention 1), so it is left out.
  const quoted = ctx.norm.text.slice(t[0].start, t[t.length - 1].end).replace(/\s+/g, '');
  const compared = /^than$/i.test(before?.text ?? '') && COMPARATIVE.test(toks[wordsEnd - 2]?.text ?? '');
  if (compared || (quoted.length >= 3 && ctx.lex.promptMaths.includes(quoted))) {
    ctx.notes.push(note('unread', `left out ${shown}: ${compared ? 'a comparison in words' : "the question's own expression, mentioned"}, not a value`));
    return;
  }
  unread(ctx, t, 'an expression in prose, not written as an equation');
}

/** Words before "than" that make the expression after it one side of a comparison in words. */
const COMPARATIVE = /^(?:less|greater|more|smaller|bigger|larger|lower|higher|faster|slower)$/i;

const isColon = (x: Tok | undefined): boolean => x?.kind === 'punct' && x.text === ':';

/** Why an equation can't be read as written (before its sides are looked at), or null. */
function equationDoubt(ctx: Ctx, run: Run, ambiguous: { unit?: string; unitOrProduct?: string; cut?: string }): string | null {
  const { toks, i0, i1, t } = run;
  const clash = numberedClash(t);
  if (clash) return clash;
  const other = unitSaysAnother(ctx, t, ambiguous.cut ?? unitAfter(ctx, t));
  if (other) return other;
  // "W = p2 − p1 × V2 − V1 = 600": a times sign set apart by spaces between two differences may
  // group them as the student's spacing does ((p2 − p1)(V2 − V1)) as much as it binds its neighbours.
  const pm = (x: Tok | undefined): boolean => x?.kind === 'op' && (x.text === '+' || x.text === '-');
  const spacedTimes = t.findIndex((x, k) => x.kind === 'op' && x.text === '*' && x.sp && t[k + 1]?.sp && pm(t[k - 2]) && pm(t[k + 2]));
  if (spacedTimes >= 0)
    return `a times sign between two sums or differences ('… ${t[spacedTimes - 1].text} × ${t[spacedTimes + 1].text} …') without brackets: which terms it multiplies is not clear`;
  // "m=0 d = λ/4n": a value typed tight to its '=', then a symbol set apart by a space that the
  // next '=' gives a value: two equations on one line ("m = 0", "d = λ/4n") as much as the chain
  // m = 0·d = λ/4n. (Spaced alike, "F_r = 2 F_a = 5.4" is a product.)
  const eqAt = t.flatMap((x, k) => (x.kind === 'eq' ? [k] : []));
  for (let j = 0; j + 1 < eqAt.length; j++) {
    const [a, b] = [t[eqAt[j] + 1], t[eqAt[j] + 2]];
    const tight = !t[eqAt[j]].sp && !a?.sp;
    if (tight && eqAt[j] + 3 === eqAt[j + 1] && a?.kind === 'num' && b?.sp && isSymbol(b) && (b.pieces?.length ?? 1) === 1)
      return `'${a.text} ${b.text}' could end one equation and start the next, or be ${a.text} times ${b.text}`;
    // "u=L-d v=N-d": the same with an expression typed tight before the symbol ("u = L − d",
    // "v = N − d" as much as u = L − d·v = N − d).
    const last = t[eqAt[j + 1] - 1];
    const before = t[eqAt[j + 1] - 2];
    const typedTight = t.slice(eqAt[j] + 1, eqAt[j + 1] - 1).every((x, k) => k === 0 || !x.sp);
    if (tight && eqAt[j] + 3 < eqAt[j + 1] && typedTight && last?.sp && isSymbol(last) && (last.pieces?.length ?? 1) === 1 && before && before.kind !== 'op')
      return `'${before.text} ${last.text}' could end one equation and start the next, or be ${before.text} times ${last.text}`;
  }
  // "T = 2.0-2.1 s": two numbers joined by a '-' with no space, alone on a side, are likely a range.
  const range = t.findIndex(
    (x, k) =>
      x.kind === 'op' &&
      x.text === '-' &&
      !x.sp &&
      t[k - 1]?.kind === 'num' &&
      t[k + 1]?.kind === 'num' &&
      !t[k + 1].sp &&
      (k < 2 || t[k - 2].kind === 'eq') &&
      (k + 2 >= t.length || t[k + 2].kind === 'eq'),
  );
  if (range >= 0) return `'${t[range - 1].text}-${t[range + 1].text}' could be a range of values or a difference`;
  // "v_0 : v = 2 : 1": a ratio, of which one side read alone ("v = 2") is not what was written.
  // Only a number, a colon and a number that ends the maths: a colon after an equation often opens
  // the next ("e = 1: v_2 = …"), and one before it ends a label ("Step 2: T = …").
  const after = toks[i1 + 2];
  const endsThere = !after || !['eq', 'op', 'id', 'usym', 'num', 'lp'].includes(after.kind);
  if (isColon(toks[i1]) && toks[i1 + 1]?.kind === 'num' && endsThere && t.at(-1)?.kind === 'num' && t.at(-2)?.kind === 'eq')
    return "a ratio written with ':': read alone, one side of it is not what was written";
  // "3 x 10", "5 x u": an x set apart by spaces after a number may be a times sign.
  const timesX = t.findIndex(
    (x, k) =>
      k > 0 &&
      x.kind === 'id' &&
      /^[xX]$/.test(x.text) &&
      x.sp &&
      t[k - 1].kind === 'num' &&
      (t[k + 1]?.kind === 'num' || t[k + 1]?.kind === 'id') &&
      t[k + 1].sp,
  );
  if (timesX >= 0) return `'${t[timesX].text}' after a number could be a times sign or the variable ${t[timesX].text}`;
  // "E_k = 150 eV = 2.4 × 10⁻¹⁷ J" where e and V are the question's: electronvolts, or 150·e·V?
  // (At a run's end a unit after a value is a unit; before an '=' it can be either.)
  const unitOrProduct = t.findIndex(
    (x, k) =>
      k > 0 && t[k - 1].kind === 'num' && x.sp && x.kind === 'id' && x.text.length > 1 && x.pieces!.length > 1 && isUnitWord(x) && t[k + 1]?.kind === 'eq',
  );
  if (unitOrProduct >= 0) return `'${t[unitOrProduct].text}' after a number could be a unit or a product of the question's variables`;
  // "π(0.5 m)²" with m the question's mass: a value in metres in brackets, or 0.5 times m?
  const bracketed = t.findIndex((x, k) => x.kind === 'lp' && t[k + 1]?.kind === 'num' && isUnitWord(t[k + 2]) && t[k + 2].sp && t[k + 3]?.kind === 'rp');
  if (bracketed >= 0) {
    const [n, u] = [t[bracketed + 1].text, t[bracketed + 2].text];
    return `'(${n} ${u})' could be a value in ${u} or ${n} times the variable ${u}`;
  }
  const modifier = modifiedAfter(toks, i1);
  if (modifier) return `the words after it ("${modifier}") change the expression`;
  if (ambiguous.unit) return `'${ambiguous.unit}' after the bracket could be a unit or the variable ${ambiguous.unit}`;
  if (ambiguous.unitOrProduct) return `'${ambiguous.unitOrProduct}' after a number could be its unit or a product of the question's variables`;
  const condition = limitingCondition(toks, i1) ?? limitingConditionBefore(toks, i0);
  if (condition) return `holds only in a limiting case ("${condition}"): limits are not recorded`;
  const final = finalState(toks, i0);
  if (final) return `may be the value it tends to ("${final}"), a limit that is not recorded, or the last step of the working`;
  const degrees = inDegrees(toks, i0, i1);
  if (degrees) return degreesDoubt(degrees);
  return null;
}

/**
 * "θ = 30°", "1.5 sin 30° = …": a value in degrees. Recorded as written (30) it disagrees with
 * every radian formula of the question; converted, it is no longer what the student wrote. Either
 * can be meant, so the equation is left unread (the three blind sets with degrees all mark such
 * rows ambiguous).
 */
function inDegrees(toks: Tok[], i0: number, i1: number): string | null {
  for (let k = Math.max(i0, 1); k <= Math.min(i1, toks.length - 1); k++) {
    const x = toks[k];
    // "80°C" is a temperature, not an angle.
    const celsius = /^[CF]$/.test(toks[k + 1]?.text ?? '');
    if ((x.kind === 'word' || x.kind === 'id') && /^(degrees|deg)$/.test(x.text) && toks[k - 1].kind === 'num' && !celsius) return `${toks[k - 1].text}°`;
  }
  return null;
}

/**
 * "max speed: v = Aω" where the question has v_max: the words before the equation name one
 * variable and its left side, a lone symbol, is another. Which one the student means can't be
 * told (the words, or the symbol as written), so it is left unread with both named. A label that
 * names the answer ("final answer: x = …") claims nothing about which quantity it is.
 */
function labelClash(ctx: Ctx, run: Run, lhs: Tok[]): string | null {
  if (lhs.length !== 1 || !isSymbol(lhs[0]) || lhs[0].kind !== 'id' || lhs[0].pieces!.length !== 1) return null;
  // A label set off by a colon ("max speed: v = …"), or a name right before the symbol ("energy
  // stored E = ½Fx" with E Young's modulus and U the energy); words ending in a word of grammar
  // ("fall time from h = …", "so v = …") name no side.
  const before = run.toks[run.wordsEnd - 1];
  const colon = before?.kind === 'punct' && before.text === ':';
  if (!colon && !(before?.kind === 'word' && !STOPWORDS.has(before.text.toLowerCase()))) return null;
  const lab = labelOf(ctx, run.toks, run.wordsEnd, false);
  if (!lab || /\b(answer|result|solution)s?\b/i.test(lab.label)) return null;
  const piece = lhs[0].pieces![0];
  const written = piece.kind === 'sym' ? piece.name : null;
  // Only a short label is a name ("max speed", "speed at x"); a longer one says what was done
  // ("Bernoulli between the surface and the hole"), unless it names the variable whose subscript
  // the symbol lacks ("the line's own voltage drop V = IR" with V_d the drop, V the line voltage).
  const subscriptDropped = !!lab.v && !!written && lab.v !== written && lab.v.replace(/_.*$/, '') === written;
  if (lab.label.split(/\s+/).length > 3 && !subscriptDropped) return null;
  // "energy density u = ½ε₀E²" with U the energy stored: the words name a quantity the question
  // has no variable for, so the symbol is that quantity's, not the variable it resembles.
  if (lab.kind === 'other' && written)
    return `the words before it ("${lab.label}") name a quantity that is not the question's, but its left side is ${written}`;
  if (!lab.v) return null;
  if (!written || written === lab.v) return null;
  return `the words before it ("${lab.label}") name ${lab.v}, but its left side is ${written}`;
}

/**
 * "K_α : K_D = M : m", "v:V = M:m": a ratio written with colons. The colons are no label's (the
 * run between them, "K_D = M", is not what was written), so it is left unread with the reason.
 */
function ratioWithColons(ctx: Ctx, t: Tok[]): boolean {
  const span = spanOf(ctx, t);
  const before = ctx.original.slice(Math.max(0, span.start - 40), span.start);
  const after = ctx.original.slice(span.end, span.end + 40);
  return /[\p{L}\p{N}_)\]}]\s*:\s*$/u.test(before) && !/\p{L}{3,}\s*:\s*$/u.test(before) && /^\s*:\s*[\p{L}\p{N}(]/u.test(after);
}

/** Prepositions after which a symbol is what a quantity is of or in ("across R_1"), not the quantity. */
const OBJECT_PREPOSITIONS = new Set(['across', 'through', 'in', 'on', 'between', 'into', 'inside', 'onto']);

/** Verbs of putting a value in ("sub in", "plug in", "putting in"): the equation after them is theirs. */
const PUTTING_IN = /^(?:sub|subs|subbing|substitute|substituting|put|putting|plug|plugging|then|so|and|now)$/i;

/** Why a lone-symbol left side right after such a preposition is the object of words, not the equation's quantity; or null. */
function objectOfWords(run: Run, lhs: Tok[]): string | null {
  if (lhs.length !== 1 || !isSymbol(lhs[0])) return null;
  const before = run.toks[run.wordsEnd - 1];
  if (before?.kind !== 'word' || !OBJECT_PREPOSITIONS.has(before.text.toLowerCase())) return null;
  const named = run.toks[run.wordsEnd - 2];
  if (!named || (named.kind !== 'word' && named.kind !== 'punct')) return null;
  // "sub in N = mg", "putting in v = 3": the words put a value in, they name no quantity.
  if (named.kind === 'word' && PUTTING_IN.test(named.text)) return null;
  return `the words before it ("… ${before.text} ${lhs[0].text}") name a quantity ${before.text.toLowerCase()} ${lhs[0].text}: the left side may be that quantity, not ${lhs[0].text}`;
}

/** An equation or chain: its sides, a left side named in words, then emitted (or why not). */
function readEquation(ctx: Ctx, run: Run): void {
  const { toks, t, prev, next } = run;
  if (ratioWithColons(ctx, t)) {
    unread(ctx, t, `a ratio written with ':' on both sides ("a : b = c : d"): read as written it would be another equation`);
    return;
  }
  const parts: Tok[][] = [[]];
  for (const x of t) {
    if (x.kind === 'eq') parts.push([]);
    else parts[parts.length - 1].push(x);
  }
  if (parts[0].length === 0) {
    const lab = parts.length > 1 ? labelOf(ctx, toks, run.wordsEnd, true) : null;
    if (lab?.kind === 'other') {
      ctx.notes.push(note('unread', `left out an equation about "${lab.label}", not a variable of the question`));
      // "weight = ρ_s V g = 3.2 × 10⁻⁴ N": only the link about the weight is left out; the links
      // after it are between the question's quantities (convention 5: a chain is its pairs).
      if (parts.length < 3) return;
      parts.shift();
    } else if (!lab?.v) {
      unread(ctx, t, 'the left side is in words');
      return;
    } else parts[0] = [symTok(lab.v, t[0])];
  } else {
    // "p.d. across R_1 = 0.03 × 200 = 6 V", "power dissipated in R = I²R": the symbol is the object
    // of what the words name (a voltage, a power), not the quantity the equation gives.
    const object = objectOfWords(run, parts[0]);
    if (object) {
      unread(ctx, t, object);
      return;
    }
    const clash = labelClash(ctx, run, parts[0]);
    if (clash) {
      unread(ctx, t, clash);
      return;
    }
    // "The first overtone is 3 × 135.0 = 405 Hz": numbers stated as a named quantity's value, then
    // worked out. The name is the chain's first side (Eq(f_3, 3*135.0), then the arithmetic).
    // So is an expression: "The rms value is E_0/√2 = 80 V" gives E_rms (not a lone symbol, which
    // the words name itself: "the speed is v = …").
    const at = run.wordsEnd;
    // ("Answer: nmgh/60 = 3430 W" states the target's value as "the answer is nmgh/60" does.)
    const answerColon = isColon(toks[at - 1]) && /^(?:answer|result|solution)s?$/i.test(toks[at - 2]?.text ?? '');
    const stated = /^(is|equals)$/i.test(toks[at - 1]?.text ?? '') || answerColon;
    const lone = parts[0].length === 1 && isSymbol(parts[0][0]);
    // "flight time: 360/232.4 = 1.55 h": a label naming a variable, then numbers worked out, is
    // that variable's value (a label before maths with symbols, "Energy: mgh = ½mv²", says what
    // the equation is about, not that it is one side).
    const labelled = !(stated && !lone) && isColon(toks[at - 1]) && !parts[0].some(isSymbol) ? labelOf(ctx, toks, at, false) : null;
    const named = stated && !lone ? labelOf(ctx, toks, at, false) : labelled?.v ? labelled : null;
    if (named?.v) parts.unshift([symTok(named.v, t[0])]);
    // Words that may name a variable of the question the student paraphrased ("the first
    // overtone" for the frequency of the first overtone): the arithmetic is read, and the link to
    // the quantity is a doubt, not dropped unseen.
    else if (named?.kind === 'unknown') unread(ctx, parts[0], `the words before it ("${named.label}") may name the quantity this is the value of`);
    // "With the numbers this is 2π × 50 × … = 113 V": the value of what came before, which a
    // marker records (E_0 = 2π × 50 × …): which quantity that is, the reader can't be sure.
    else if (stated && !lone && !named && /^(this|that|it|which)$/i.test(toks[at - 2]?.text ?? ''))
      unread(ctx, parts[0], `the words before it ("${toks[at - 2].text} ${toks[at - 1].text}") make it the value of what came before`);
  }
  // "E = 60 × 3.6 J = 216 J": a unit after a value in the middle of a chain ends its side, as one
  // at the chain's end does (the same rules, runs.ts trim, given the chain up to that side, so that
  // "a = 3/4 g = 7.35" keeps the question's g: grams are no acceleration's unit); only after a side
  // of numbers alone.
  for (let k = 1, at = 0; k < parts.length - 1; k++) {
    at += parts[k - 1].length + 1;
    const side = parts[k];
    const letter = side.findIndex((x) => isSymbol(x) && x.text !== 'pi' && x.text !== 'π');
    if (letter < 1 || !['num', 'rp'].includes(side[letter - 1].kind)) continue;
    const upTo = t.slice(0, at + side.length);
    const cut = trim(upTo, ctx.lex);
    if (cut.length === at + letter && cut.every((x, j) => x === upTo[j])) parts[k] = side.slice(0, letter);
  }
  if (parts[parts.length - 1].length === 0) {
    const lhs = parts[0];
    const eqTok = t.find((x) => x.kind === 'eq')!;
    const isDefinition = ctx.definitions.some(([a, b]) => a <= eqTok.start && eqTok.end <= b);
    if (parts.length === 2 && lhs.length === 1 && (lhs[0].kind === 'id' || lhs[0].kind === 'usym') && next?.kind === 'word' && isDefinition) return; // a definition in words
    unread(ctx, t, 'the right side is missing or in words');
    return;
  }
  if (parts.some((p) => p.length === 0)) {
    unread(ctx, t, "an empty side between '=' signs");
    return;
  }
  // "t = 50s", "x = 0.63m": a value with a unit glued on, or a number times the variable S or m?
  // (So is "Q = CV = 0.06C" with C the question's capacitance: a letter that is a variable, glued to
  // a number, and spells the unit of the quantity the chain gives: coulombs, or 0.06 times C?)
  const unitOfQuantity = (letters: string): boolean => {
    const u = ctx.lex.variables.includes(letters) ? parseUnit(letters) : null;
    return !!u?.ok && ofTheQuantity(t, ctx.lex, u.unit);
  };
  // ("A = LB = 32m^2" with m the question's mass: square metres, or 32 times m²? The same doubt,
  // where the letter with its power spells the unit of the quantity.)
  const poweredUnitOfQuantity = (p: Tok[]): boolean => {
    if (p.length !== 4 || p[2].text !== '^' || p[3].kind !== 'num' || p[2].sp || p[3].sp || !ctx.lex.variables.includes(p[1].text)) return false;
    const u = parseUnit(`${p[1].text}^${p[3].text}`);
    return u.ok && ofTheQuantity(t, ctx.lex, u.unit);
  };
  const glued = parts.find(
    (p) =>
      p[0]?.kind === 'num' &&
      p[1]?.kind === 'id' &&
      !p[1].sp &&
      ((p.length === 2 && (UNIT_WORDS.has(p[1].text) || unitOfQuantity(p[1].text))) || poweredUnitOfQuantity(p)),
  );
  if (glued) {
    const unit = glued
      .slice(1)
      .map((x) => x.text)
      .join('');
    unread(ctx, t, `'${glued[0].text}${unit}' could be a value in ${unit} or ${glued[0].text} times a variable`);
    return;
  }
  const limitContext =
    (prev?.kind === 'word' && /^(if|when|at|for|as|with|setting|putting|put)$/i.test(prev.text)) ||
    (next?.kind === 'word' && /^(gives|then|yields)$/i.test(next.text));
  const zeroed = parts.length === 2 && limitContext ? positiveSetToZero(ctx, parts) : null;
  if (zeroed) {
    unread(ctx, t, `${zeroed} is positive in this question: setting it to 0 is a limiting case, not recorded`);
    return;
  }
  emitChain(ctx, parts, t);
}

/** The unit written right after the run's last token, in words the run stopped at ("= 7 rad/s"), or null. */
function unitAfter(ctx: Ctx, t: Tok[]): string | null {
  if (t[t.length - 1]?.kind !== 'num') return null;
  const end = spanOf(ctx, t).end;
  const gap = /^ ?/.exec(ctx.original.slice(end))![0].length;
  return readUnitAt(ctx.original, end + gap)?.written ?? null;
}

/**
 * "W = 7 rad/s" where the question has ω and no work: the letter alone would leave the equation
 * out (a quantity the question has none of), but its unit is not that quantity's and is one of the
 * question's: the letter may be that variable mistyped ("W" for w, ω). Why, or null.
 */
function unitSaysAnother(ctx: Ctx, t: Tok[], written: string | null): string | null {
  if (!written) return null;
  const lone = t.length >= 3 && isSymbol(t[0]) && t[1].kind === 'eq' ? t[0].text : null;
  if (!lone || ctx.lex.resolve(lone, ctx.aliases)) return null;
  const foreign = ctx.lex.foreignQuantity(lone);
  const unit = parseWrittenUnit(written);
  if (!foreign || !unit.ok) return null;
  const own = inferredUnit(foreign);
  if (own && sameDimension(own.dimension, unit.unit.dimension)) return null;
  const measured = ctx.lex.variables.filter((v) => isUnitOf(ctx.lex, v, unit.unit));
  if (measured.length === 0) return null;
  return `'${lone}' would be ${/^[aeiou]/.test(foreign) ? 'an' : 'a'} ${foreign}, which the question has none of, but its value is in ${written}, the unit of ${measured.join(' or ')}: whether it stands for ${measured.length === 1 ? 'that variable' : 'one of them'} is the marker's call`;
}
