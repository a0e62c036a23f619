// Dimensional consistency of a student's equation, from the units the exam declares (each
// variable's `unit`, else the exam constant of the same name). Evidence beside the marks: an
// inconsistent equation is reported (ResponseMarks.dimensions, flag `dimensions`) and changes a
// mark only for an item that says `require_dimensions`.
//
// The rules, honestly:
//   - a symbol without a unit makes the equation unchecked (never flagged);
//   - a number (any expression without symbols: 2, 1/2, pi) is a factor without dimension in a
//     product, but where it stands alone as a side or a term of a sum (`v = 12`, `x = x_0 + 5`)
//     it is taken as a value whose unit was not written (the extractor drops units after
//     values), so it agrees with any dimension there;
//   - the terms of a sum, and the two sides, must have one dimension;
//   - sin, cos, tan, their inverses, exp and log need a dimensionless argument; sqrt halves
//     exponents exactly; Abs keeps them;
//   - `x**k` needs a dimensionless exponent; with a dimensioned base the exponent must be an
//     exact number (`x**(1/2)`, `x**-2`), else the equation is unchecked (`x**n`: which power?);
//   - a number added to a quantity (`v**2 - 1`) means values were put in for quantities: the
//     equation's other numbers may stand for quantities too (`2*v = v**2 - 1` after w = 1 m/s),
//     so a mismatch in such an equation leaves it unchecked rather than flagged.
import { exprToSympy, numberToRational, symbolsOf, type Equation, type Expr } from '../../../shared/equation/index.ts';
import { rat, ratAdd, ratDiv, ratMul, ratSub, type Rat } from '../../../shared/equation/rational.ts';
import { DIMENSIONLESS, divide, formatDimension, isDimensionless, multiply, power, sameDimension, type Dimension } from '../../../shared/units/dimension.ts';
import type { Unit } from '../../../shared/units/parse-unit.ts';
import { describeDimension } from '../../../shared/units/describe.ts';
import type { DimensionIssue } from '../../../shared/marks.ts';

/** The outcome for one equation; `left`/`right` as SI units (`m/s`, `kg m^2/s^2`). */
export type DimensionCheck =
  | { status: 'unchecked'; reason: string }
  | { status: 'consistent'; left: string; right: string; note: string }
  | { status: 'inconsistent'; left: string; right: string; note: string };

/** A sub-expression's dimension; `free`: a number whose unit isn't written; `value`: exact value of a constant. */
type Dim = { dim: Dimension; free: boolean; value: Rat | null };

class Unchecked extends Error {}
class Mismatch extends Error {
  constructor(
    readonly left: string,
    readonly right: string,
    readonly note: string,
  ) {
    super(note);
  }
}

const MAX_EXPONENT_PART = 64;

const plain = (d: Dimension): string => formatDimension(d);
const pretty = (d: Dimension): string => describeDimension(d);
const shown = (x: Dim): string => (x.free ? 'a number' : pretty(x.dim));

function walk(e: Expr, units: ReadonlyMap<string, Unit>): Dim {
  switch (e.kind) {
    case 'num': {
      const r = numberToRational(e.text);
      return { dim: DIMENSIONLESS, free: true, value: rat(r.n, r.d) };
    }
    case 'const':
      return { dim: DIMENSIONLESS, free: true, value: null };
    case 'sym': {
      const u = units.get(e.name);
      if (!u) throw new Unchecked(`${e.name} has no unit`);
      return { dim: u.dimension, free: false, value: null };
    }
    case 'neg': {
      const a = walk(e.arg, units);
      return { ...a, value: a.value ? rat(-a.value.n, a.value.d) : null };
    }
    case 'bin':
      return binary(e, units);
    case 'call': {
      const a = walk(e.args[0], units);
      if (e.fn === 'sqrt') return { dim: power(a.dim, 1, 2), free: a.free, value: null };
      if (e.fn === 'Abs') return { dim: a.dim, free: a.free, value: a.value && rat(a.value.n < 0n ? -a.value.n : a.value.n, a.value.d) };
      if (!a.free && !isDimensionless(a.dim))
        throw new Mismatch(plain(a.dim), '1', `the argument of ${e.fn} must be dimensionless; ${exprToSympy(e.args[0])} is ${pretty(a.dim)}`);
      return { dim: DIMENSIONLESS, free: a.free, value: null };
    }
  }
}

function binary(e: Extract<Expr, { kind: 'bin' }>, units: ReadonlyMap<string, Unit>): Dim {
  const a = walk(e.left, units);
  const b = walk(e.right, units);
  const both = a.value && b.value;
  switch (e.op) {
    case '+':
    case '-': {
      const value = both ? (e.op === '+' ? ratAdd(a.value!, b.value!) : ratSub(a.value!, b.value!)) : null;
      if (a.free && b.free) return { dim: DIMENSIONLESS, free: true, value };
      if (a.free) return { ...b, value: null };
      if (b.free) return { ...a, value: null };
      if (!sameDimension(a.dim, b.dim))
        throw new Mismatch(plain(a.dim), plain(b.dim), `the terms of ${exprToSympy(e)} have different dimensions: ${pretty(a.dim)} and ${pretty(b.dim)}`);
      return { dim: a.dim, free: false, value: null };
    }
    case '*':
      return { dim: multiply(a.dim, b.dim), free: a.free && b.free, value: both ? ratMul(a.value!, b.value!) : null };
    case '/':
      return {
        dim: divide(a.dim, b.dim),
        free: a.free && b.free,
        value: both && b.value!.n !== 0n ? ratDiv(a.value!, b.value!) : null,
      };
    case '**': {
      if (!b.free && !isDimensionless(b.dim))
        throw new Mismatch(plain(b.dim), '1', `the exponent of ${exprToSympy(e)} must be dimensionless; it is ${pretty(b.dim)}`);
      if (a.free) return { dim: DIMENSIONLESS, free: b.free, value: null };
      if (isDimensionless(a.dim)) return { dim: DIMENSIONLESS, free: false, value: null };
      const k = b.value;
      if (!k) throw new Unchecked(`the power ${exprToSympy(e)} has an exponent that is not a number`);
      const p = Number(k.n);
      const q = Number(k.d);
      if (Math.abs(p) > MAX_EXPONENT_PART || q > MAX_EXPONENT_PART) throw new Unchecked(`the exponent of ${exprToSympy(e)} is too large to follow`);
      return { dim: power(a.dim, p, q), free: false, value: null };
    }
  }
}

/** A sum with a term that has no symbols beside one that has (`v**2 - 1`): a number put in for a quantity. */
function hasSubstitutedNumber(e: Expr): boolean {
  switch (e.kind) {
    case 'neg':
      return hasSubstitutedNumber(e.arg);
    case 'call':
      return e.args.some(hasSubstitutedNumber);
    case 'bin': {
      if ((e.op === '+' || e.op === '-') && (symbolsOf(e.left).length === 0) !== (symbolsOf(e.right).length === 0)) return true;
      return hasSubstitutedNumber(e.left) || hasSubstitutedNumber(e.right);
    }
    default:
      return false;
  }
}

const SUBSTITUTED = 'a number is added to a quantity (values put in for quantities): the units of its numbers are not written';

/** Check one equation against the units by symbol (variables' units, then the exam's constants). */
export function checkDimensions(eq: Equation, units: ReadonlyMap<string, Unit>): DimensionCheck {
  const substituted = hasSubstitutedNumber(eq.lhs) || hasSubstitutedNumber(eq.rhs);
  try {
    const l = walk(eq.lhs, units);
    const r = walk(eq.rhs, units);
    if (l.free || r.free || sameDimension(l.dim, r.dim)) {
      const both = l.free ? r : l;
      return { status: 'consistent', left: plain(both.dim), right: plain(both.dim), note: `both sides ${shown(both)}` };
    }
    if (substituted) return { status: 'unchecked', reason: SUBSTITUTED };
    return { status: 'inconsistent', left: plain(l.dim), right: plain(r.dim), note: `left: ${shown(l)}, right: ${shown(r)}` };
  } catch (e) {
    if (e instanceof Unchecked) return { status: 'unchecked', reason: e.message };
    if (e instanceof Mismatch)
      return substituted ? { status: 'unchecked', reason: SUBSTITUTED } : { status: 'inconsistent', left: e.left, right: e.right, note: e.note };
    throw e;
  }
}

/** An expression's dimension (`free`: a number whose unit isn't written), or null when a symbol in it has no unit or it doesn't balance inside. */
export function dimensionOfExpr(e: Expr, units: ReadonlyMap<string, Unit>): { dim: Dimension; free: boolean } | null {
  try {
    const d = walk(e, units);
    return { dim: d.dim, free: d.free };
  } catch (err) {
    if (err instanceof Unchecked || err instanceof Mismatch) return null;
    throw err;
  }
}

/** The dimensions of one side, or null when a symbol in it has no unit (for `equimark check`). */
export function dimensionOfSide(e: Expr, units: ReadonlyMap<string, Unit>): { text: string; free: boolean } | null {
  try {
    const d = walk(e, units);
    return { text: plain(d.dim), free: d.free };
  } catch (err) {
    if (err instanceof Unchecked || err instanceof Mismatch) return null;
    throw err;
  }
}

/**
 * Every equation of a reading checked; the inconsistent ones as DimensionIssues (empty when the
 * exam declares no units). `checks[i]` is equation i's outcome.
 */
export function dimensionIssues(
  equations: readonly Equation[],
  sources: readonly string[],
  units: ReadonlyMap<string, Unit> | undefined,
): { checks: DimensionCheck[]; issues: DimensionIssue[] } {
  if (!units || units.size === 0) return { checks: equations.map(() => ({ status: 'unchecked', reason: 'the exam declares no units' })), issues: [] };
  const checks = equations.map((eq) => checkDimensions(eq, units));
  const issues: DimensionIssue[] = [];
  checks.forEach((c, i) => {
    if (c.status === 'inconsistent') issues.push({ studentIndex: i, student: sources[i], left: c.left, right: c.right, note: c.note });
  });
  return { checks, issues };
}
