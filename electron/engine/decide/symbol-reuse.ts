// One symbol used for two quantities is a reading to doubt (issue 11, "a reused symbol"): T for
// the tension in "T cos θ = mg" and for the period in "T = 2π/ω" are both read as the question's T,
// and the marks are computed from a reading that mixes them. Dimensions show it: the equation
// that uses T for a force doesn't balance with T a time, and balances with T a tension (a kind of
// quantity physicists write T for), while another equation of the reading uses T in its own role
// and balances only that way. Then the reading loses its confidence: a
// `read` becomes `needs-review`, flag 'symbol-reused', a note naming both equations. The reading
// is never changed.
//
// Narrow on purpose: an equation that merely doesn't balance is far more often a student's error
// in physics ("v = 2gh"), which is read right as written; on the development set and the blind
// rounds such equations are 2 to 5 correct readings a set, and a doubt on each would cost that
// coverage for about one misreading a set. The pattern of two roles is what a misreading leaves,
// and only roles a physicist writes that letter for count: with any other variable's unit allowed,
// "mv = kx" (an error) balances with v an acceleration, and "I = εr/(R + r)" with I a voltage.
//
// Units: the exam's own (`unit`), else the unit each variable's description implies
// (shared/units/infer-unit.ts: "speed of the block" is m/s); a variable with neither is never
// the reused symbol and leaves the equations it is in unchecked. Only equations whose numbers are
// plain coefficients (1 to 4, ½, ¼ and exponents) are checked: a number like 9.8 or 20 may stand
// for a quantity whose unit the student didn't write ("v = √(2·9.8·h)").
import { variableUnits } from '../../../shared/units/infer-unit.ts';
import { symbolsOf, type Equation, type Expr } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { unitOfKind } from '../../../shared/units/infer-unit.ts';
import type { Unit } from '../../../shared/units/parse-unit.ts';
import { sameDimension } from '../../../shared/units/dimension.ts';
import { checkDimensions } from './dimensions.ts';
import { asWritten, checkable, lowered, numbersOnlyFrom, parsedEquations } from './reading-doubt.ts';

export const SYMBOL_REUSED_FLAG = 'symbol-reused';

/** Numbers a formula is written with, not values put in for quantities. */
const COEFFICIENTS = new Set(['1', '2', '3', '4', '0.5', '0.25']);

/** Every number of e outside an exponent is a plain coefficient. */
export const onlyCoefficients = (e: Expr): boolean => numbersOnlyFrom(e, COEFFICIENTS);

const balances = (eq: Equation, units: ReadonlyMap<string, Unit>): boolean | null => {
  const c = checkDimensions(eq, units);
  return c.status === 'unchecked' ? null : c.status === 'consistent';
};

/** The kinds of quantity physicists write each letter for (names of shared/units/infer-unit.ts's table). */
const CONVENTIONAL_KINDS: Record<string, string[]> = {
  T: ['period', 'temperature', 'tension', 'torque'],
  t: ['time'],
  V: ['voltage', 'volume', 'speed'],
  v: ['speed'],
  u: ['speed'],
  E: ['energy', 'electric field', 'emf'],
  I: ['current', 'moment of inertia'],
  P: ['power', 'pressure', 'momentum'],
  p: ['momentum', 'pressure'],
  Q: ['heat', 'charge'],
  q: ['charge'],
  C: ['capacitance', 'heat capacity'],
  L: ['length', 'inductance', 'angular momentum'],
  R: ['resistance', 'radius', 'gas constant'],
  r: ['radius', 'resistance'],
  h: ['height', "planck's constant"],
  H: ['height'],
  k: ['spring constant', "boltzmann's constant"],
  f: ['frequency', 'focal length', 'force'],
  F: ['force'],
  m: ['mass'],
  M: ['mass'],
  B: ['magnetic field'],
  N: ['force'],
  W: ['work', 'weight'],
  K: ['kinetic energy'],
  U: ['potential energy'],
  a: ['acceleration'],
  g: ['acceleration'],
  G: ['gravitational constant'],
  c: ['speed', 'specific heat capacity'],
  x: ['distance'],
  y: ['distance'],
  d: ['distance'],
  s: ['distance'],
};

/** Other units a symbol may stand for, by its letter (the part before any subscript): kind -> unit. */
function otherRoles(symbol: string): [string, Unit][] {
  const kinds = CONVENTIONAL_KINDS[symbol.split('_')[0]] ?? [];
  return kinds.flatMap((k) => {
    const u = unitOfKind(k);
    return u ? [[k, u] as [string, Unit]] : [];
  });
}

/** A symbol the reading uses in two roles: its own in equation `own`, a `kind` of quantity in equation `other`. */
export type SymbolTwoRoles = { symbol: string; kind: string; own: number; other: number };

/** The first symbol of the list used in two roles, or null. */
export function symbolInTwoRoles(equations: readonly Equation[], units: ReadonlyMap<string, Unit>): SymbolTwoRoles | null {
  const checkable = equations.map((eq) => onlyCoefficients(eq.lhs) && onlyCoefficients(eq.rhs));
  for (let i = 0; i < equations.length; i++) {
    if (!checkable[i] || balances(equations[i], units) !== false) continue;
    for (const s of symbolsOf(equations[i])) {
      const own = units.get(s);
      if (!own) continue;
      for (const [kind, other] of otherRoles(s)) {
        if (sameDimension(other.dimension, own.dimension)) continue;
        const swapped = new Map(units).set(s, other);
        if (balances(equations[i], swapped) !== true) continue;
        const j = equations.findIndex(
          (eq, k) => k !== i && checkable[k] && symbolsOf(eq).includes(s) && balances(eq, units) === true && balances(eq, swapped) === false,
        );
        if (j >= 0) return { symbol: s, kind, own: j, other: i };
      }
    }
  }
  return null;
}

/**
 * The reading with its confidence lowered when it uses a symbol in two roles: a `read` becomes
 * `needs-review`; any other status keeps its own, with the flag and note added. Returns the
 * reading itself when there is nothing to say.
 */
export function withSymbolReuseCheck(question: Question, x: Extraction, response?: string): Extraction {
  if (!checkable(x, SYMBOL_REUSED_FLAG)) return x;
  const { equations, from } = parsedEquations(question, x);
  const found = symbolInTwoRoles(equations, variableUnits(question));
  if (!found) return x;
  const { symbol, kind, own, other } = found;
  // As the student typed it where the reading knows where (its span), else as read.
  const shown = (k: number): string => JSON.stringify(asWritten(x.equations[from[k]], response));
  const text =
    `${symbol} seems to stand for two quantities: ${shown(other)} balances only with ${symbol} a ${kind}, ` +
    `${shown(own)} only with ${symbol} as the question's ${symbol}`;
  return lowered(x, SYMBOL_REUSED_FLAG, 'symbol-reused', text);
}
