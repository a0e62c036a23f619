// Numeric scheme items (`match: "numeric"`): a value with a unit, a tolerance and optional
// significant figures. Decided without the entailment engine:
//   1. stated: the value the text gives for the item's quantity, with its unit
//      (shared/units/quantities-in-text.ts): the last number written for its symbol (`v = 12 m/s`,
//      `v = √(2gh) = 9.9 m/s`), else the last number of the right dimension in a sentence about
//      it (its symbol, a word of its description, "answer" for the target), else the only number
//      such a sentence states after "is", "=", "comes to" (whatever its unit: a wrong unit then
//      says so). Converted to the expected unit and compared within the tolerance; significant
//      figures counted as written when the item asks for them;
//   2. substituted: otherwise, the student's last equation solved for the quantity whose other
//      side holds only symbols with values (the question's `given`, the exam's constants) is
//      evaluated with them, in SI units, and compared (significant figures don't apply);
//   3. otherwise: a number of the right dimension stated somewhere, but not clearly for the
//      quantity, leaves the item undecided with a note; no value at all withholds it.
// A number without a unit (where one is expected) or with a unit of another dimension is not
// earned, and the evidence says so; where it can't be told (a unit letter that is also a variable
// of the question, an integer whose trailing zeros may or may not be significant) the item is
// undecided for the instructor. The default tolerance is 1% relative.
import { exprToSympy, symbolsOf, type Equation, type Expr } from '../../../shared/equation/index.ts';
import type { Question, SchemeItem } from '../../../shared/exam.ts';
import type { ItemMark, MarkEvidence, NumericEvidence } from '../../../shared/marks.ts';
import { DESCRIPTION_STOPWORDS } from '../../../shared/text/stopwords.ts';
import { isDimensionless, sameDimension } from '../../../shared/units/dimension.ts';
import { describeDimension } from '../../../shared/units/describe.ts';
import { unitOrThrow, type Unit } from '../../../shared/units/parse-unit.ts';
import { numbersInText, sentenceMentions, statedByRelation, type StatedNumber } from '../../../shared/units/quantities-in-text.ts';
import type { DimensionCheck } from './dimensions.ts';

/** Relative tolerance when an item gives neither `relative` nor `absolute`. */
export const DEFAULT_RELATIVE_TOLERANCE = 0.01;

/** A value known for a symbol: given by the question or an exam constant, in SI base units. */
export type KnownValue = { si: number; written: string; unitKnown: boolean };

export type NumericInput = {
  question: Question;
  /** The question's symbols' units (variables', else the exam constants'). */
  units: ReadonlyMap<string, Unit>;
  /** Values for symbols (the question's given values, the exam's constants), in SI. */
  values: ReadonlyMap<string, KnownValue>;
  text: string | null | undefined;
  equations: readonly Equation[];
  sources: readonly string[];
  /** Equations that can earn (not inconsistent). */
  usable: readonly number[];
  /** Each equation's dimension check. */
  checks: readonly DimensionCheck[];
};

/** A number for the evidence: six significant figures at most, no exponent for everyday sizes. */
export function fmt(x: number): string {
  return String(Number(x.toPrecision(6)));
}

const pct = (r: number): string => `${Number((r * 100).toPrecision(3))}%`;

/** The tolerance of an item: whether a value (in the item's unit) passes, and the words for it. */
export function tolerance(spec: NonNullable<SchemeItem['numeric']>): { passes(v: number): boolean; words: string } {
  const rel = spec.relative ?? (spec.absolute === undefined ? DEFAULT_RELATIVE_TOLERANCE : 0);
  const abs = spec.absolute ?? 0;
  const band = Math.max(abs, rel * Math.abs(spec.value));
  const words =
    spec.absolute !== undefined && spec.relative !== undefined
      ? `±${fmt(abs)} ${spec.unit} or ±${pct(rel)}, whichever is larger`
      : spec.absolute !== undefined
        ? `±${fmt(abs)} ${spec.unit}`
        : `±${pct(rel)}${spec.relative === undefined ? ' (default)' : ''}`;
  // A hair of slack for binary rounding (40.8 * 0.01 is not exactly 0.408).
  return { passes: (v) => Math.abs(v - spec.value) <= band * (1 + 1e-9) + Number.EPSILON * Math.abs(spec.value), words };
}

/** The float value of an expression with the symbols' values; NaN where undefined. */
export function evaluate(e: Expr, env: ReadonlyMap<string, number>): number {
  switch (e.kind) {
    case 'num':
      return Number(e.text);
    case 'const':
      return e.name === 'pi' ? Math.PI : Math.E;
    case 'sym':
      return env.get(e.name) ?? NaN;
    case 'neg':
      return -evaluate(e.arg, env);
    case 'bin': {
      const a = evaluate(e.left, env);
      const b = evaluate(e.right, env);
      return e.op === '+' ? a + b : e.op === '-' ? a - b : e.op === '*' ? a * b : e.op === '/' ? (b === 0 ? NaN : a / b) : a ** b;
    }
    case 'call': {
      const a = evaluate(e.args[0], env);
      const f = {
        sqrt: Math.sqrt,
        sin: Math.sin,
        cos: Math.cos,
        tan: Math.tan,
        asin: Math.asin,
        acos: Math.acos,
        atan: Math.atan,
        exp: Math.exp,
        log: Math.log,
        Abs: Math.abs,
      }[e.fn];
      return f(a);
    }
  }
}

/** Words of a variable's description that name it in a sentence ("horizontal range": horizontal, range). */
function describingWords(q: Question, quantity: string): string[] {
  const v = q.variables.find((x) => x.name === quantity);
  const words = (v?.description ?? '')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3 && !DESCRIPTION_STOPWORDS.has(w));
  return quantity === q.target ? [...words, 'answer', 'result'] : words;
}

type Judged = { outcome: ItemMark['outcome']; evidence: MarkEvidence; note?: string };

function evidenceOf(
  spec: NonNullable<SchemeItem['numeric']>,
  studentIndex: number,
  numeric: NumericEvidence,
  holds: boolean | null,
  student: string,
): MarkEvidence {
  return {
    studentIndex,
    student,
    acceptIndex: 0,
    accepted: `${fmt(spec.value)} ${spec.unit}`,
    forward: { holds, method: 'numeric-value', note: numeric.note },
    numeric,
  };
}

/** Judge a number stated in the text. */
function judgeStated(spec: NonNullable<SchemeItem['numeric']>, expected: Unit, n: StatedNumber, quantity: string, equationIndex: number): Judged {
  const tol = tolerance(spec);
  const base = { written: n.written.trim(), source: 'stated' as const, expected: spec.value, unit: spec.unit, tolerance: tol.words };
  const approx = n.approximate ? ' (stated as approximate)' : '';
  const ev = (value: number | null, holds: boolean | null, note: string): MarkEvidence =>
    evidenceOf(spec, equationIndex, { ...base, value, note: note + approx }, holds, `${quantity} = ${n.written.trim()}`);
  let unit = n.unit;
  if (!unit) {
    if (!isDimensionless(expected.dimension)) {
      const note = `no unit given: ${n.numberText} (a value in ${spec.unit} expected)`;
      return { outcome: 'withheld', evidence: ev(null, false, note), note };
    }
    unit = { factor: 1, dimension: expected.dimension };
  }
  if (!sameDimension(unit.dimension, expected.dimension)) {
    const is = describeDimension(unit.dimension);
    const want = describeDimension(expected.dimension);
    if (n.unitAmbiguous) {
      const note = `'${n.unitText}' after ${n.numberText} may be the question's variable rather than a unit (as a unit it is ${is}, not ${want}): the instructor decides`;
      return { outcome: 'undecided', evidence: ev(null, null, note), note };
    }
    const note = `wrong unit: ${n.written.trim()} is in ${is === n.unitText ? is : `${n.unitText} (${is})`}, a value in ${spec.unit}${want === spec.unit ? '' : ` (${want})`} was expected`;
    return { outcome: 'withheld', evidence: ev(null, false, note), note };
  }
  const value = (n.value * unit.factor) / expected.factor;
  const notes: string[] = [];
  if (n.unitText && n.unitText.replace(/\s+/g, '') !== spec.unit.replace(/\s+/g, '')) notes.push(`${n.numberText} ${n.unitText} = ${fmt(value)} ${spec.unit}`);
  const within = tol.passes(value);
  notes.push(within ? `within ${tol.words} of ${fmt(spec.value)} ${spec.unit}` : `not within ${tol.words} of ${fmt(spec.value)} ${spec.unit}`);
  let figures: 'ok' | 'wrong' | 'unclear' = 'ok';
  if (spec.sig_figs !== undefined) {
    const { min, max } = n.sigFigs;
    const req = spec.sig_figs;
    if (min === max) {
      figures = min === req ? 'ok' : 'wrong';
      notes.push(`given to ${min} significant figure${min === 1 ? '' : 's'}, ${req} required`);
    } else {
      figures = req >= min && req <= max ? 'unclear' : 'wrong';
      notes.push(`${n.numberText} may be given to ${min} to ${max} significant figures, ${req} required`);
    }
  }
  const note = notes.join('; ');
  if (!within) return { outcome: 'withheld', evidence: ev(value, false, note), note };
  if (figures === 'wrong') return { outcome: 'withheld', evidence: ev(value, false, note), note };
  if (figures === 'unclear') return { outcome: 'undecided', evidence: ev(value, null, note), note: `${note}: the instructor decides` };
  return { outcome: 'awarded', evidence: ev(value, true, note) };
}

/** The student's equation a stated number also appears in (`Eq(v, 12)`), for the evidence's index; else 0. */
function equationStating(input: NumericInput, quantity: string, value: number): number {
  for (let i = input.equations.length - 1; i >= 0; i--) {
    const eq = input.equations[i];
    const other = eq.lhs.kind === 'sym' && eq.lhs.name === quantity ? eq.rhs : eq.rhs.kind === 'sym' && eq.rhs.name === quantity ? eq.lhs : null;
    if (other && symbolsOf(other).length === 0 && Math.abs(evaluate(other, new Map()) - value) <= 1e-9 * Math.max(1, Math.abs(value))) return i;
  }
  return 0;
}

/** Judge the student's symbolic answer with the known values put in. */
function judgeSubstituted(
  input: NumericInput,
  spec: NonNullable<SchemeItem['numeric']>,
  expected: Unit,
  quantity: string,
): Judged | { missing: string[] } | null {
  const tol = tolerance(spec);
  let lacking: string[] = [];
  let inconsistentNote: Judged | null = null;
  for (let k = input.usable.length - 1; k >= 0; k--) {
    const i = input.usable[k];
    const eq = input.equations[i];
    const side = eq.lhs.kind === 'sym' && eq.lhs.name === quantity ? eq.rhs : eq.rhs.kind === 'sym' && eq.rhs.name === quantity ? eq.lhs : null;
    if (!side) continue;
    const symbols = symbolsOf(side);
    if (symbols.length === 0 || symbols.includes(quantity)) continue; // a bare number (its unit unknown here), or not solved
    const missing = symbols.filter((s) => !input.values.has(s));
    if (missing.length) {
      if (lacking.length === 0) lacking = missing;
      continue;
    }
    const env = new Map([...input.values].map(([s, v]): [string, number] => [s, v.si]));
    const si = evaluate(side, env);
    if (!Number.isFinite(si)) continue;
    const value = si / expected.factor;
    const put = symbols.map((s) => `${s} = ${input.values.get(s)!.written}`).join(', ');
    const check = input.checks[i];
    const base = { written: `${quantity} = ${exprToSympy(side)}`, source: 'substituted' as const, expected: spec.value, unit: spec.unit, tolerance: tol.words };
    if (check?.status === 'inconsistent') {
      const note = `with ${put}: not a value in ${spec.unit}, the equation is dimensionally inconsistent (${check.note})`;
      inconsistentNote ??= { outcome: 'withheld', evidence: evidenceOf(spec, i, { ...base, value: null, note }, false, input.sources[i]), note };
      continue;
    }
    const unknownUnits = symbols.filter((s) => !input.values.get(s)!.unitKnown);
    const within = tol.passes(value);
    const notes = [`with ${put}: ${fmt(value)} ${spec.unit}`, `${within ? 'within' : 'not within'} ${tol.words} of ${fmt(spec.value)} ${spec.unit}`];
    if (unknownUnits.length) notes.push(`no unit declared for ${unknownUnits.join(', ')}: taken as given`);
    if (spec.sig_figs !== undefined) notes.push('significant figures not checked (a symbolic answer)');
    const note = notes.join('; ');
    return {
      outcome: within ? 'awarded' : 'withheld',
      evidence: evidenceOf(spec, i, { ...base, value, note }, within, input.sources[i]),
      note: within ? undefined : note,
    };
  }
  if (inconsistentNote) return inconsistentNote;
  return lacking.length ? { missing: lacking } : null;
}

/** Mark a `numeric` item. Never throws for a student's input. */
export function markNumeric(item: SchemeItem, input: NumericInput): ItemMark {
  const spec = item.numeric!; // validated: a numeric item has `numeric`
  const q = input.question;
  const quantity = spec.quantity ?? q.target ?? '';
  const expected = unitOrThrow(spec.unit); // validated
  const mark = (j: Judged | { outcome: ItemMark['outcome']; note: string; evidence?: MarkEvidence }): ItemMark => ({
    itemId: item.id,
    available: item.marks,
    awarded: j.outcome === 'awarded' ? item.marks : j.outcome === 'withheld' ? 0 : null,
    outcome: j.outcome,
    match: 'numeric',
    evidence: j.evidence ? [j.evidence] : [],
    // The evidence carries the conversion and checks; the item's note is for what the instructor must decide.
    ...(j.note && (!j.evidence || j.outcome === 'undecided') ? { note: j.note } : {}),
  });

  // 1. A value stated in the text.
  let unclear: string | undefined;
  let statedElsewhere: StatedNumber[] = [];
  if (input.text) {
    const { text, numbers, prose } = numbersInText(
      input.text,
      q.variables.map((v) => v.name),
    );
    const words = describingWords(q, quantity);
    const about = (n: StatedNumber): boolean => sentenceMentions(prose[n.sentence], quantity, words);
    let pick = numbers.filter((n) => n.assignedTo === quantity).at(-1);
    if (!pick) {
      const inSentences = numbers.filter((n) => n.assignedTo === null && about(n));
      const right = inSentences.filter((n) => n.unit && sameDimension(n.unit.dimension, expected.dimension));
      if (right.length) pick = right.at(-1);
      else if (inSentences.length === 1 && statedByRelation(text, inSentences[0])) pick = inSentences[0];
      else if (inSentences.length)
        unclear = `the text about ${quantity} states ${inSentences.map((n) => n.written.trim()).join(', ')}, none of them clearly its value in ${spec.unit}`;
    }
    if (pick) return mark(judgeStated(spec, expected, pick, quantity, equationStating(input, quantity, pick.value)));
    statedElsewhere = numbers.filter((n) => n.assignedTo === null && n.unit && sameDimension(n.unit.dimension, expected.dimension));
  }

  // 2. The student's symbolic answer, with the known values put in.
  const sub = judgeSubstituted(input, spec, expected, quantity);
  if (sub && 'outcome' in sub) return mark(sub);

  // 3. Nothing clear.
  if (unclear) return mark({ outcome: 'undecided', note: `${unclear}: the instructor decides` });
  if (statedElsewhere.length)
    return mark({
      outcome: 'undecided',
      note: `${statedElsewhere.map((n) => n.written.trim()).join(', ')} is stated, but not clearly as ${quantity}: the instructor decides`,
    });
  const bare = input.equations.findIndex((eq) => (eq.lhs.kind === 'sym' && eq.lhs.name === quantity ? symbolsOf(eq.rhs).length === 0 : false));
  if (bare >= 0 && !input.text)
    return mark({ outcome: 'undecided', note: `the reading gives ${input.sources[bare]} but not its unit (no text to read it from): the instructor decides` });
  if (sub && 'missing' in sub)
    return mark({
      outcome: 'undecided',
      note: `no value for ${quantity} is stated; the answer for ${quantity} needs ${sub.missing.join(', ')}, which the question gives no value for: the instructor decides`,
    });
  return mark({ outcome: 'withheld', note: `no value for ${quantity} with a unit is stated` });
}
