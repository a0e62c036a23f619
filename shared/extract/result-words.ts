// Words that state a result (issue 11, item 5): "E = ½kx², which comes to 0.45 J", "the time comes
// out as 2.9 s", "the final temperature comes out as (m₁T₁ + m₂T₂)/(m₁ + m₂)". The maths after
// such words is read as an equation of the quantity they state it for (`Eq(E, 0.45)`: units
// dropped, numbers as written, convention 9) when that quantity is clear from the sentence:
//   - the equation just before it in the same sentence ("x = √(2mgh/k), which comes to 0.45 m"),
//     whose one side is a lone variable;
//   - or the words before the verb name a variable of the question unambiguously ("the time", "the
//     final temperature", "the answer"), by the question's own descriptions (lexicon.ts).
// Otherwise it is left unread, with the reason; never guessed. An approximate value of a quantity
// that is, or may be, the question's ("which is about 1.6 m/s" after v = …, "so the range is
// roughly 41 m") is a doubt: markers differ on recording it. One of no quantity the sentence
// names is left out, with a note. A value said in words of a symbol ("K_2 is 20") or of what came
// before across a sentence ("… this is 4.8 × 10⁻¹⁹ C") is a doubt too. Pure.

import { note } from '../extraction.ts';
import { lastEquationBefore, spanOf, symTok, unread, type Ctx } from './context.ts';
import { emitChain } from './emit.ts';
import { numbersOnly, type Tok } from './tokens.ts';
import { isUnitWord } from './runs.ts';
import { degreesDoubt } from './surroundings.ts';
import { UNIT_WORDS } from './lexicon.ts';
import { parseUnit } from '../units/parse-unit.ts';
import { sameDimension } from '../units/dimension.ts';

/** Verbs stating a result, as the last words before the maths (lower case). */
const RESULT_VERBS: string[][] = [
  ['comes', 'to'],
  ['come', 'to'],
  ['came', 'to'],
  ...['comes', 'come', 'came', 'works', 'work', 'worked', 'working'].flatMap((v) => ['as', 'at', 'to'].map((p) => [v, 'out', p])),
  // "the radius works out to be √(2mV/q)/B", "the period is given by 2π√(L/g)".
  ...['works', 'work', 'worked', 'comes', 'come', 'came', 'turns', 'turn', 'turned'].map((v) => [v, 'out', 'to', 'be']),
  ['is', 'given', 'by'],
  ['will', 'be'],
  ['gives'],
  ['giving'],
  ['equals'],
  ['is'],
  ['are'],
  ['becomes'],
  // A value the working arrives at ("so the speed should be √(rg tanθ)", "the current must be Q/√(LC)").
  ['should', 'be'],
  ['must', 'be'],
];

/** Words that make the value approximate (not recorded). */
export const APPROXIMATE = /^(about|roughly|approximately|approx|around|nearly|almost|circa|ca)$/i;

/** Words before the verb that point back at the equation just before ("…, which comes to"). */
const POINTING_BACK = /^(which|that|this|it|so|and|then|thus|hence|therefore|all|in|total|numerically|numbers|finally)$/i;

/** Words that join two clauses: a subject starts after the last of them. */
const CLAUSE_JOIN = /^(and|but|while|whereas|because|since|although|though)$/i;

/** Words that open a clause before a noun phrase ("so the range is"). */
const CLAUSE_OPENER = /^(so|and|then|thus|hence|therefore|finally|now|overall)$/i;

/** Verbs of a hedge before the subject ("I think the speed is …"). */
const HEDGE = /^(think|reckon|guess|believe|suppose|expect|figure)$/i;

const SENTENCE_END = /[;!?\n]|\.(?!\d)/;

/** Words after the maths that carry the value on ("2 times S/u", "3 over 4", "u squared"). */
const GOES_ON = /^(times|over|divided|multiplied|plus|minus|squared|cubed|rooted|halved|doubled|of|into)$/i;

/** Verbs that say "is" rather than "comes to": a result only when the quantity is named. */
const COPULA = /^(is|are|equals|should be|must be)$/;
/** "should be", "must be" after words pointing back ("…, which should be 2L/c") revise, not state: the correction stage's business. */
const REVISING = /^(should be|must be)$/;

type Statement = { phrase: string; verb: string[]; subject: string[]; approximate: boolean; firstWord: number };

/** The result words right before token index i0 (the maths), or null. */
function statementBefore(toks: Tok[], i0: number): Statement | null {
  const words: string[] = [];
  let j = i0 - 1;
  while (j >= 0 && toks[j].kind === 'word' && words.length < 12) words.unshift(toks[j--].text);
  if (words.length === 0) return null;
  const lower = words.map((w) => w.toLowerCase());
  let end = lower.length;
  let approximate = false;
  while (end > 0 && APPROXIMATE.test(lower[end - 1])) {
    approximate = true;
    end--;
  }
  const verb = RESULT_VERBS.find((v) => v.length <= end && v.every((w, k) => lower[end - v.length + k] === w));
  if (!verb) return null;
  // "the radius grows quickly and the energy is": the subject is the last clause's.
  let from = 0;
  for (let k = end - verb.length - 1; k >= 0; k--) {
    if (CLAUSE_JOIN.test(lower[k])) {
      from = k + 1;
      break;
    }
  }
  const subject = words.slice(from, end - verb.length);
  return { phrase: words.slice(from).join(' '), verb, subject, approximate, firstWord: i0 - words.length + from };
}

/** The variable alone on one side of the equation read just before `at` (original offset) in the same sentence, or null. */
function variableOfEquationBefore(ctx: Ctx, at: number): string | null {
  let k = lastEquationBefore(ctx, at);
  if (k < 0) return null;
  const span = ctx.equations[k].span!;
  if (at - span.end > 200 || SENTENCE_END.test(ctx.original.slice(span.end, at))) return null; // not 'just before'
  // Right after it: nothing but its unit between ("x = √(2mgh/k) m, which comes to"). Words of
  // their own ("…, and the force is B times that current times L, which comes to") say the
  // result is of something else.
  const gap = ctx.original
    .slice(span.end, at)
    .split(/[\s,;:]+/)
    .filter(Boolean);
  if (!gap.every((w) => UNIT_WORDS.has(w) || parseUnit(w).ok)) return null;
  // The first equation of that span (a chain "E = ½kx² = 0.45" starts with its quantity).
  while (k > 0 && ctx.equations[k - 1].span?.start === span.start && ctx.equations[k - 1].span?.end === span.end) k--;
  const source = ctx.equations[k].source;
  const m = /^Eq\(([A-Za-z][A-Za-z0-9_]*), /.exec(source) ?? /, ([A-Za-z][A-Za-z0-9_]*)\)$/.exec(source);
  return m && ctx.lex.variables.includes(m[1]) ? m[1] : null;
}

/**
 * "t = 1200 s, which is 20 minutes": the number before the clause, with its unit, and the value the
 * clause states, with another unit of the same kind, are the same quantity within rounding (2%):
 * a conversion, said why; null when they differ or either has no unit.
 */
function sameValueInAnotherUnit(toks: Tok[], firstWord: number, i1: number, t: Tok[]): string | null {
  let j = firstWord - 1;
  if (toks[j]?.kind === 'punct' && toks[j].text === ',') j--;
  const unitBefore = toks[j];
  const numBefore = toks[j - 1];
  const unitAfter = toks[i1];
  if (!unitBefore || numBefore?.kind !== 'num' || !unitAfter || t.length !== 1 || t[0].kind !== 'num') return null;
  const a = parseUnit(unitBefore.text);
  const b = parseUnit(unitAfter.text);
  if (!a.ok || !b.ok || a.unit.factor === b.unit.factor || !sameDimension(a.unit.dimension, b.unit.dimension)) return null;
  const x = Number(numBefore.text) * a.unit.factor;
  const y = Number(t[0].text) * b.unit.factor;
  if (!Number.isFinite(x) || !Number.isFinite(y) || x === 0 || Math.abs(x - y) > 0.02 * Math.abs(x)) return null;
  return `the same value in another unit (${numBefore.text} ${unitBefore.text} is ${t[0].text} ${unitAfter.text}), no result of its own`;
}

/**
 * The maths tokens `t` (starting at token index i0, with no '=') after words that state a result:
 * read as an equation of the quantity, left out (an approximation, or a quantity that is not the
 * question's), or left unread when the quantity can't be told. Returns whether it was such words
 * (false: the caller goes on as before).
 */
export function readStatedResult(ctx: Ctx, toks: Tok[], i0: number, i1: number, t: Tok[]): boolean {
  const s = statementBefore(toks, i0);
  if (!s) return false;
  // "h is 5": the words follow a symbol or a value of their own, so they are not about the
  // equation before them (reading 5 as that equation's quantity would invent an equation).
  const lead = toks[s.firstWord - 1];
  if (s.subject.length === 0 && lead && (lead.kind === 'id' || lead.kind === 'usym' || lead.kind === 'num' || lead.kind === 'rp')) {
    // "so K_2 is 2.5 times K_1", "K_2 is 20": a value said in words of a variable of the
    // question, typed as its symbol. Read as it stands it is no equation, and dropping it would
    // lose what the student stated: a doubt.
    const piece = lead.kind === 'id' && lead.pieces?.length === 1 ? lead.pieces[0] : null;
    const named = piece?.kind === 'sym' && ctx.lex.variables.includes(piece.name) ? piece.name : null;
    if (!named || !COPULA.test(s.verb.join(' ')) || s.approximate) return false;
    ctx.mathSeen = true;
    unread(ctx, t, `a value stated in words for ${named} ("${lead.text} ${s.phrase}"): read as it stands it is no equation`);
    return true;
  }
  // "which is 2 times S/u": the value goes on in words; what the maths alone says is not it. A
  // unit between them doesn't end it ("−13.6 eV divided by n squared").
  let k = i1;
  // ("65% of the kinetic energy": a percentage goes on as a unit does.)
  const percent = toks[i1]?.kind === 'punct' && toks[i1].text === '%';
  if (percent) k++;
  while (isUnitWord(toks[k])) k++;
  const after = toks[k];
  const goesOn = after?.kind === 'word' && GOES_ON.test(after.text);
  const where = spanOf(ctx, t);
  const shown = JSON.stringify(ctx.original.slice(where.start, where.end));
  const said = `"${s.phrase}"`;
  const pointsBack = s.subject.length > 0 && s.subject.every((w) => POINTING_BACK.test(w));
  if ((pointsBack || s.subject.length === 0) && REVISING.test(s.verb.join(' '))) return false;
  let v: string | null = null;
  let other = false;
  let maybeVariable = false;
  if (pointsBack) {
    const before = toks[s.firstWord - 1];
    // Right after the equation's maths or a comma ending it: "x = …, which comes to".
    if (before && before.kind !== 'nl' && !(before.kind === 'punct' && before.text !== ',')) {
      v = variableOfEquationBefore(ctx, spanOf(ctx, [toks[s.firstWord]]).start);
    }
    // "t = 1200 s, which is 20 minutes": the same value in another unit, no result of its own.
    const conversion = v ? sameValueInAnotherUnit(toks, s.firstWord, i1, t) : null;
    if (conversion) {
      ctx.mathSeen = true;
      ctx.notes.push(note('unread', `left out ${shown}: ${conversion}`));
      return true;
    }
  } else {
    let k = 0;
    while (k < s.subject.length && CLAUSE_OPENER.test(s.subject[k])) k++;
    // "so I think the final temperature is …": the hedge is the student's, the subject follows it.
    if (/^(i|we)$/i.test(s.subject[k] ?? '') && HEDGE.test(s.subject[k + 1] ?? '')) k += /^that$/i.test(s.subject[k + 2] ?? '') ? 3 : 2;
    const phrase = s.subject.slice(k).join(' ');
    v = ctx.lex.labelVariable(phrase);
    const kind = v ? 'variable' : ctx.lex.labelKind(phrase);
    other = kind === 'other';
    maybeVariable = !v && kind === 'unknown' && phrase !== '';
  }
  // "the speed works out at roughly 480 m/s": a quantity of the question (or one that may be,
  // in the student's words) given a value approximately, as "v ≈ 480" is (read-run.ts): markers
  // differ on recording it, so it is a doubt, never left out unseen.
  if (s.approximate && (v || maybeVariable)) {
    ctx.mathSeen = true;
    unread(ctx, t, `an approximate value ${v ? `of ${v} ` : ''}stated in words (${said}): whether it stands as the student's result is the marker's call`);
    return true;
  }
  if (s.approximate) {
    ctx.notes.push(note('unread', `left out an approximate value stated in words (${said} ${shown}): approximations are not recorded`));
    return true;
  }
  if (other) {
    ctx.notes.push(note('unread', `left out ${shown} after ${said}: not a quantity of the question`));
    return true;
  }
  // "is" states a result only of a quantity the sentence names ("the range is 41 m"); otherwise
  // ("it is 45 degrees") the words are the reader's usual business.
  // But "… . Using the numbers this is 4.8 × 10⁻¹⁹ C": a value said of what came before, across
  // a sentence's end (or after words of their own), is someone's result, and whose is not told:
  // a doubt, never dropped unseen.
  if (!v && COPULA.test(s.verb.join(' '))) {
    const saidOfBefore = pointsBack || /^(this|that|it)$/i.test(s.subject[s.subject.length - 1] ?? '');
    if (!saidOfBefore || ctx.equations.length === 0 || !t.every((x) => x.kind === 'num' || x.kind === 'op' || x.kind === 'lp' || x.kind === 'rp')) return false;
    ctx.mathSeen = true;
    unread(ctx, t, `a value stated in words (${said}), but which quantity it is can't be told from the sentence`);
    return true;
  }
  ctx.mathSeen = true;
  if (goesOn) {
    unread(ctx, t, `a result stated in words (${said}) that goes on in words ("${after.text}")`);
    return true;
  }
  if (!v) {
    unread(ctx, t, `a result stated in words (${said}), but which quantity it is can't be told from the sentence`);
    return true;
  }
  // "the energy recovered is 65%": a percentage of something, recorded as 65, as 0.65 or not at
  // all as markers differ; never a value of the quantity as it stands.
  if (percent) {
    unread(ctx, t, `a percentage stated in words for ${v} (${said}): whether and how it is recorded is the marker's call`);
    return true;
  }
  // "the angle is 55°": in degrees, as "θ = 55°" is (read-run.ts): whether it stands as written
  // or in radians is the marker's call, the same doubt whichever way the value is stated.
  if (/^deg/.test(toks[i1]?.text ?? '') && t.every((x) => x.kind === 'num')) {
    unread(ctx, t, degreesDoubt(`${t.map((x) => x.text).join('')}°`));
    return true;
  }
  const n = ctx.equations.length;
  const choices = ctx.alternatives.length;
  emitChain(ctx, [[symTok(v, t[0])], t], t);
  if (ctx.equations.length > n) {
    ctx.notes.push(note('unmapped-symbol', `read ${shown} as the value of ${v} (stated in words: ${said})`));
    // Careful markers differ on recording a number said in words as a result: the blind rounds'
    // writers recorded "…, which comes to 19.3 m/s" as the quantity's value, as the value of the
    // chain's last expression, or not at all, and marked such rows ambiguous. So that reading is a
    // choice (recorded, or not), shown to the instructor, never a confident read. A symbolic value
    // in words ("the normal force is mg cos θ") is recorded by convention 1: no choice. (Where the
    // maths itself was a choice, that choice already holds the response back.)
    if (ctx.alternatives.length === choices && numbersOnly(t)) {
      const added = ctx.equations.slice(n);
      const span = added[0].span!;
      ctx.alternatives.push({
        span,
        text: ctx.original.slice(spanOf(ctx, [toks[s.firstWord]]).start, span.end),
        reason: RESULT_IN_WORDS,
        readings: [added.map((e) => e.source), []],
        ambiguous: true,
      });
    }
  }
  return true;
}

/** The reason given for a result in words read as a choice (recorded, or not). */
export const RESULT_IN_WORDS = 'a result stated in words, which markers may or may not record';
