// A link of the reading with numbers only on both sides whose two sides differ by more than a
// student's rounding ("ΔT = 78+273 - 18+273 = 60" read as written: 606 = 60; "… /0.4 = 6.3 mT"
// with the unit's prefix dropped: 0.0063 = 6.3) is a reading to doubt (issue 11): a grouping the
// student left out, a unit's prefix that carries the value, or an arithmetic slip. Markers read
// such a row differently (the blind rounds' writers mark it ambiguous, or bracket it as meant),
// so a confident reading of it is not earned.
//
// So the reading loses its confidence (a `read` becomes `needs-review`, flag 'numbers-disagree', a
// note naming the link and both values); it is never changed: a slip stays as written.
//
// Only links without symbols: their truth needs no assumption. Rounding allowed for: sides within
// 10% of each other pass ("2π√(0.5/9.8) = 1.4" is 1.419; "g = 10" in a sum). Of the fixtures'
// gold lists (read as readings), 7 unambiguous rows of about 3,300 have such a link (a slip in the
// student's arithmetic, or an angle from atan written in degrees); 7 rows marked ambiguous do.
import { exprToSympy, symbolsOf, type Equation } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { evaluate, fmt } from './numeric.ts';
import { asWritten, checkable, lowered, parsedEquations } from './reading-doubt.ts';

export const NUMBERS_DISAGREE_FLAG = 'numbers-disagree';

/** How far apart (relative to the larger side) a link's numbers may be and still be the student's rounding. */
export const ROUNDING_ALLOWED = 0.1;

/**
 * A link with numbers only: its two sides' values and how far apart they are, relative to the
 * larger (0 when equal); null where it has a symbol or a side has no finite value.
 */
export function numericSides(eq: Equation): { left: number; right: number; apart: number } | null {
  if (symbolsOf(eq).length > 0) return null;
  const left = evaluate(eq.lhs, new Map());
  const right = evaluate(eq.rhs, new Map());
  if (!Number.isFinite(left) || !Number.isFinite(right)) return null;
  const scale = Math.max(Math.abs(left), Math.abs(right));
  return { left, right, apart: scale > 0 ? Math.abs(left - right) / scale : 0 };
}

/** The two values of a numbers-only link whose sides differ beyond rounding, or null. */
export function disagreeingNumbers(eq: Equation): { left: number; right: number } | null {
  const sides = numericSides(eq);
  return sides && sides.apart > ROUNDING_ALLOWED ? { left: sides.left, right: sides.right } : null;
}

/**
 * The reading with its confidence lowered when a numbers-only link of it is false beyond rounding:
 * a `read` becomes `needs-review`; any other status keeps its own, with the flag and note added.
 * Returns the reading itself when there is nothing to say.
 */
export function withNumbersDisagreeCheck(question: Question, x: Extraction, response?: string): Extraction {
  if (!checkable(x, NUMBERS_DISAGREE_FLAG)) return x;
  const { equations, from } = parsedEquations(question, x);
  for (let k = 0; k < equations.length; k++) {
    const found = disagreeingNumbers(equations[k]);
    if (!found) continue;
    const typed = asWritten(x.equations[from[k]], response);
    return lowered(
      x,
      NUMBERS_DISAGREE_FLAG,
      'ambiguous',
      `${JSON.stringify(typed)}: read as ${exprToSympy(equations[k].lhs)} = ${exprToSympy(equations[k].rhs)}, its numbers differ (${fmt(found.left)} and ${fmt(found.right)}): a grouping left out, a unit's prefix that carries the value, or a slip in the arithmetic`,
    );
  }
  return x;
}
