// A reading that raises a quantity with units to a power made of quantities, or takes the sine,
// exponential or log of a quantity with units, is a reading to doubt (issue 11): no physics is
// written that way, and a misreading leaves exactly that. The emf called E in "e^(−Rt/L)" read as
// the variable E raised to −Rt/L; a glued letter run split into a product inside sin( ); a name
// taken for another inside an exponent. A student's slip can write such a form too (a forgotten
// ω in "sin(t)"), and then a minute of the instructor's review is the right price.
//
// So the reading loses its confidence (a `read` becomes `needs-review`, flag
// 'dimensioned-argument', a note naming the equation and the quantity); it is never changed.
//
// What counts, with units from the exam or the variables' descriptions (symbol-reuse.ts's
// variableUnits), never a guess:
//   - the argument of sin, cos, tan, their inverses, exp or log has a dimension;
//   - an exponent has a dimension;
//   - a base with a dimension is raised to an exponent that is not a number but is made of
//     quantities with units ("E**(-R*t/L)"); a dimensionless variable as the exponent is physics
//     ("P*V**gamma").
// Only arguments and exponents with no number in them count (numbers inside their own powers
// aside): a number like 0.5 in "e^(−0.5t)" or 2 in "sin(2t)" may stand for a quantity whose unit
// the student didn't write.
import { variableUnits } from '../../../shared/units/infer-unit.ts';
import { exprToSympy, symbolsOf, type Equation, type Expr } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { describeDimension } from '../../../shared/units/describe.ts';
import { isDimensionless } from '../../../shared/units/dimension.ts';
import type { Unit } from '../../../shared/units/parse-unit.ts';
import { dimensionOfExpr } from './dimensions.ts';
import { asWritten, checkable, lowered, numbersOnlyFrom, parsedEquations } from './reading-doubt.ts';

export const DIMENSIONED_ARGUMENT_FLAG = 'dimensioned-argument';

const FUNCTIONS_OF_NUMBERS = new Set(['sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'exp', 'log', 'cot', 'sec', 'csc']);

/** No number in e outside the exponents of its own powers. */
const noNumbers = (e: Expr): boolean => numbersOnlyFrom(e, new Set());

/** A quantity with units (not a number whose unit isn't written, not dimensionless), with no number in it. */
function dimensioned(e: Expr, units: ReadonlyMap<string, Unit>): string | null {
  if (!noNumbers(e)) return null;
  const d = dimensionOfExpr(e, units);
  return d && !d.free && !isDimensionless(d.dim) ? describeDimension(d.dim) : null;
}

/** What is wrong with the first such sub-expression of e, or null. */
function firstDimensionedArgument(e: Expr, units: ReadonlyMap<string, Unit>): string | null {
  switch (e.kind) {
    case 'num':
    case 'const':
    case 'sym':
      return null;
    case 'neg':
      return firstDimensionedArgument(e.arg, units);
    case 'call': {
      const arg = e.args[0];
      if (FUNCTIONS_OF_NUMBERS.has(e.fn)) {
        const d = dimensioned(arg, units);
        if (d) return `the argument of ${e.fn}, ${exprToSympy(arg)}, has units (${d}); it must be a pure number`;
      }
      for (const a of e.args) {
        const inner = firstDimensionedArgument(a, units);
        if (inner) return inner;
      }
      return null;
    }
    case 'bin': {
      if (e.op === '**') {
        const d = dimensioned(e.right, units);
        if (d) return `the exponent of ${exprToSympy(e)} has units (${d}); it must be a pure number`;
        const base = dimensioned(e.left, units);
        const exponentOfQuantities = symbolsOf(e.right).some((s) => {
          const u = units.get(s);
          return u !== undefined && !isDimensionless(u.dimension);
        });
        if (base && exponentOfQuantities && noNumbers(e.right))
          return `${exprToSympy(e.left)}, a quantity in ${base}, is raised to a power made of quantities, ${exprToSympy(e.right)}: was the exponential meant?`;
      }
      return firstDimensionedArgument(e.left, units) ?? firstDimensionedArgument(e.right, units);
    }
  }
}

/** The first equation of the list with a dimensioned argument, and what is wrong with it. */
export function dimensionedArgument(equations: readonly Equation[], units: ReadonlyMap<string, Unit>): { index: number; why: string } | null {
  for (let i = 0; i < equations.length; i++) {
    const why = firstDimensionedArgument(equations[i].lhs, units) ?? firstDimensionedArgument(equations[i].rhs, units);
    if (why) return { index: i, why };
  }
  return null;
}

/**
 * The reading with its confidence lowered when an equation has a dimensioned argument: a `read`
 * becomes `needs-review`; any other status keeps its own, with the flag and note added. Returns
 * the reading itself when there is nothing to say.
 */
export function withDimensionedArgumentCheck(question: Question, x: Extraction, response?: string): Extraction {
  if (!checkable(x, DIMENSIONED_ARGUMENT_FLAG)) return x;
  const { equations, from } = parsedEquations(question, x);
  const found = dimensionedArgument(equations, variableUnits(question));
  if (!found) return x;
  // The equation as typed (where the reading knows its span), the reason in the reading's terms.
  const typed = asWritten(x.equations[from[found.index]], response);
  return lowered(x, DIMENSIONED_ARGUMENT_FLAG, 'dimensioned-argument', `${JSON.stringify(typed)}: ${found.why}`);
}
