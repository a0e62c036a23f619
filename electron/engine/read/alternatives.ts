// Settling a reading's choices (Extraction.alternatives): the readings of a choice are ambiguous
// unless every one is list-equivalent to reading 0 under the question's domain (its variables'
// assumptions: √(x²) and (√x)² are one reading when x is positive), with our own comparer, and
// every entailment that equivalence rests on is exact (identical, proved by Z3 or by SymPy).
// Sampling agreement, an unknown verdict or an equation outside the grammar count as ambiguous:
// when in doubt, the instructor picks. A '/' beside a '+'/'-' whose other groupings add quantities
// of different kinds is settled by dimensions (settledByDimensions). The extractor is pure and
// can't compare, so it marks every choice ambiguous; the engine settles them here where the
// reading is produced (grade, eval). Any choice is also settled where the student's next step in
// the chain holds only as written (settledByChain).
import { variableUnits } from '../../../shared/units/infer-unit.ts';
import { parseEquation, symbolsOf, type Equation } from '../../../shared/equation/index.ts';
import { numericSides } from '../decide/numbers-disagree.ts';
import { questionDomain, type Domain, type Question } from '../../../shared/exam.ts';
import type { Alternative, Extraction } from '../../../shared/extraction.ts';
import { withAmbiguity } from '../../../shared/alternatives.ts';
import type { EntailmentEngine } from '../decide/entail/types.ts';
import { PROOF_METHODS } from '../../../shared/verdict.ts';
import type { Unit } from '../../../shared/units/parse-unit.ts';
import { FRACTION_BESIDE_SUM } from '../../../shared/extract/scope-choices.ts';
import { checkDimensions } from '../decide/dimensions.ts';

/** What settling needs of the engine. */
export type ChoiceEngine = Pick<EntailmentEngine, 'entails' | 'compareLists'>;

function parseAll(sources: readonly string[], q: Question): Equation[] | null {
  const out: Equation[] = [];
  for (const s of sources) {
    const p = parseEquation(s, { variables: q.variables.map((v) => v.name) });
    if (!p.ok) return null;
    out.push(p.value);
  }
  return out;
}

/** Whether two lists are list-equivalent under the domain with every covering entailment exact. */
export async function exactlyEquivalent(engine: ChoiceEngine, a: Equation[], b: Equation[], domain: Domain): Promise<boolean> {
  const cmp = await engine.compareLists(a, b, domain);
  if (!cmp.equivalent) return false;
  const exact = async (xs: Equation[], ys: Equation[], coveredBy: number[]): Promise<boolean> => {
    for (let i = 0; i < xs.length; i++) {
      const v = await engine.entails(ys[coveredBy[i]], xs[i], domain); // decided already by compareLists: from the cache
      if (v.holds !== true || !PROOF_METHODS.has(v.method)) return false;
    }
    return true;
  };
  return (await exact(a, b, cmp.aCoveredBy)) && (await exact(b, a, cmp.bCoveredBy));
}

/**
 * Dimensions settle a '/' beside a '+'/'-' for the reading as written when it balances and every
 * other grouping adds quantities of different kinds: "½mv² − GMm/R = 0" is never
 * (½mv² − GMm)/R = 0 (an energy minus an energy times a length), and markers read it as written
 * (the gold conventions' "brackets whose placement is clear"). Every equation of reading 0 must be
 * checked and consistent, and each other reading must have one checked and inconsistent; a symbol
 * without a unit, or numbers that may stand for quantities, leave the choice to the comparer.
 * Only this kind of choice: how far a '√' or a '/' before a spaced product reaches is a choice
 * markers call ambiguous even where dimensions would settle it. Units the exam declares, else
 * inferred from the descriptions (shared/units/infer-unit.ts; no exam of ours declares any, so
 * with declared units only this never settled a choice). An inferred unit can be wrong, and here
 * it raises a reading to `read`: but a wrong unit has to make reading 0 balance and every other
 * reading not, where it mostly leaves reading 0 unbalanced and settles nothing; and the inference
 * names no unit where the description is unsure ("Wien's displacement constant" is no length).
 */
export function settledByDimensions(readings: readonly Equation[][], units: ReadonlyMap<string, Unit>): boolean {
  if (units.size === 0 || readings.length < 2) return false;
  const balanced = (eqs: readonly Equation[]): boolean => eqs.every((e) => checkDimensions(e, units).status === 'consistent');
  const unbalanced = (eqs: readonly Equation[]): boolean => eqs.some((e) => checkDimensions(e, units).status === 'inconsistent');
  return balanced(readings[0]) && readings.slice(1).every(unbalanced);
}

/** An equation that always holds: the premise against which a link is an identity or not. */
const ALWAYS = parseEquation('Eq(1, 1)', { variables: [] });

/** Relative difference within which numbers written in a chain agree (the student's rounding), and beyond which they clearly don't. */
const ROUNDING = 0.01;
const CLEARLY_OFF = 0.05;

/**
 * Whether one link of a chain holds on its own: true where it is an identity (proved exactly) or
 * its two sides are numbers that agree within rounding; false where it is refuted exactly (for
 * numbers, beyond what rounding explains); null where that can't be told or the link defines a
 * symbol.
 */
async function linkHolds(engine: ChoiceEngine, eq: Equation, domain: Domain): Promise<boolean | null> {
  // "a = g − g/4" gives a its value: a definition says nothing of the grouping.
  const defines = (side: Equation['lhs'], other: Equation['rhs']): boolean => side.kind === 'sym' && !symbolsOf(other).includes(side.name);
  if (defines(eq.lhs, eq.rhs) || defines(eq.rhs, eq.lhs)) return null;
  if (symbolsOf(eq).length === 0) {
    const sides = numericSides(eq);
    if (!sides) return null;
    return sides.apart <= ROUNDING ? true : sides.apart > CLEARLY_OFF ? false : null;
  }
  if (!ALWAYS.ok) return null;
  const v = await engine.entails(ALWAYS.value, eq, domain);
  if (v.holds === true && PROOF_METHODS.has(v.method)) return true;
  if (v.holds === false && (v.method === 'z3-refuted' || v.method === 'numeric-counterexample')) return false;
  return null;
}

/**
 * The chain settles a choice for the reading as written when the student's next step shows their
 * grouping: "a = g − g/4 = 3g/4" (the link g − g/4 = 3g/4 holds, (g − g)/4 = 3g/4 does not),
 * "T = 5 × 0.2 × 9.8 + 0.2 × 16 / 0.8 = 9.8 + 4" (the numbers agree only as written). Every other
 * reading must have a link that fails where reading 0's holds, and no link of reading 0 may fail
 * or hold less surely than the other's ("h = 2R + R/2 = 3R/2", a slip that only the other
 * grouping makes right, stays the instructor's call; so does "v = fu/u − f = …", where the step
 * after it holds only as written but the step into it only as fu/(u − f)). Only reading 0 is ever settled on: the chain never picks another.
 */
export async function settledByChain(engine: ChoiceEngine, readings: readonly Equation[][], domain: Domain): Promise<boolean> {
  if (readings.length < 2) return false;
  const [first, ...others] = readings;
  const key = (e: Equation): string => JSON.stringify(e);
  for (const other of others) {
    if (other.length !== first.length) return false;
    let shown = false;
    for (let i = 0; i < first.length; i++) {
      if (key(first[i]) === key(other[i])) continue;
      const mine = await linkHolds(engine, first[i], domain);
      const theirs = await linkHolds(engine, other[i], domain);
      if (mine === false || (theirs === true && mine !== true)) return false;
      if (mine === true && theirs === false) shown = true;
    }
    if (!shown) return false;
  }
  return true;
}

/** Whether a choice's readings differ (see the top of this file). */
export async function choiceIsAmbiguous(engine: ChoiceEngine, alt: Alternative, q: Question): Promise<boolean> {
  const domain = questionDomain(q);
  const first = parseAll(alt.readings[0], q);
  if (!first) return true;
  if (alt.reason === FRACTION_BESIDE_SUM) {
    const all = alt.readings.map((r) => parseAll(r, q));
    if (all.every((r) => r !== null) && settledByDimensions(all as Equation[][], variableUnits(q))) return false;
  }
  const all = alt.readings.map((r) => parseAll(r, q));
  if (all.every((r) => r !== null) && (await settledByChain(engine, all as Equation[][], domain))) return false;
  for (const r of alt.readings.slice(1)) {
    const other = parseAll(r, q);
    if (!other || !(await exactlyEquivalent(engine, first, other, domain))) return true;
  }
  return false;
}

/**
 * The reading with each unsettled choice compared: `ambiguous` set from the comparison, then the
 * flag, notes and status made to agree (a response held back only by choices that turn out
 * equivalent is 'read'). A failure of the engine leaves the choice ambiguous. Choices the
 * instructor already picked are left as they are.
 */
export async function settleAlternatives(x: Extraction, q: Question, engine: ChoiceEngine): Promise<Extraction> {
  if (!x.alternatives?.length) return x;
  const alternatives: Alternative[] = [];
  for (const alt of x.alternatives) {
    if (alt.chosen !== undefined) {
      alternatives.push(alt);
      continue;
    }
    const ambiguous = await choiceIsAmbiguous(engine, alt, q).catch(() => true);
    alternatives.push({ ...alt, ambiguous });
  }
  return withAmbiguity({ ...x, alternatives });
}
