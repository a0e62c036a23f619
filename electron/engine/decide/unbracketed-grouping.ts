// A '/' beside a '+'/'−' with a fraction on the other side too ("ρ_a T_a/ρ_a − M/V") is read as
// written by the extractor: a sum of fractions shows the student's grouping (scope-choices.ts), and
// 1/u + 1/v is never 1/(u + 1/v). But where the equation so read doesn't balance and the '/'
// reaching over the sum makes it balance (ρ_a T_a/(ρ_a − M/V) is a temperature, T_a − M/V is not),
// the student may have left the brackets out, and two markers may read it differently: the reading
// goes to review (flag 'unbracketed-grouping', a note with the equation as typed and the grouping
// that balances). The reading is never changed; a wrong equation that no regrouping balances is
// the student's, kept as written.
//
// Only equations with a span (the extractor's), whose numbers are plain coefficients, and whose
// dimensions are checked (every symbol has a unit from the exam or its description).
import { variableUnits } from '../../../shared/units/infer-unit.ts';
import { equationToSympy, type Equation, type Expr } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { checkDimensions } from './dimensions.ts';
import { asWritten, checkable, lowered, parsedEquations } from './reading-doubt.ts';
import { onlyCoefficients } from './symbol-reuse.ts';

export const UNBRACKETED_GROUPING_FLAG = 'unbracketed-grouping';

const isSum = (e: Expr): e is Expr & { kind: 'bin'; op: '+' | '-' } => e.kind === 'bin' && (e.op === '+' || e.op === '-');

/**
 * Each expression made from `e` by one '/' beside a '+'/'−' reaching over it: a/b ± c as
 * a/(b ± c), and c ± a/b as (c ± a)/b, wherever they sit in the tree.
 */
export function regroupings(e: Expr): Expr[] {
  const out: Expr[] = [];
  if (isSum(e)) {
    const { op, left, right } = e;
    if (left.kind === 'bin' && left.op === '/') out.push({ kind: 'bin', op: '/', left: left.left, right: { kind: 'bin', op, left: left.right, right } });
    if (right.kind === 'bin' && right.op === '/') out.push({ kind: 'bin', op: '/', left: { kind: 'bin', op, left, right: right.left }, right: right.right });
  }
  if (e.kind === 'bin') {
    for (const l of regroupings(e.left)) out.push({ ...e, left: l });
    for (const r of regroupings(e.right)) out.push({ ...e, right: r });
  } else if (e.kind === 'neg') {
    for (const a of regroupings(e.arg)) out.push({ kind: 'neg', arg: a });
  } else if (e.kind === 'call') {
    e.args.forEach((arg, i) => {
      for (const a of regroupings(arg)) out.push({ ...e, args: e.args.map((x, j) => (j === i ? a : x)) });
    });
  }
  return out;
}

/**
 * The reading with its confidence lowered when an equation that doesn't balance balances once one
 * '/' reaches over the sum beside it: a `read` becomes `needs-review`. Returns the reading itself
 * when there is nothing to say.
 */
export function withUnbracketedGroupingCheck(question: Question, x: Extraction, response?: string): Extraction {
  if (response === undefined || !checkable(x, UNBRACKETED_GROUPING_FLAG)) return x;
  const units = variableUnits(question);
  if (units.size === 0) return x;
  const { equations, from } = parsedEquations(question, x);
  for (let k = 0; k < equations.length; k++) {
    const eq = equations[k];
    if (!x.equations[from[k]].span || !onlyCoefficients(eq.lhs) || !onlyCoefficients(eq.rhs)) continue;
    if (checkDimensions(eq, units).status !== 'inconsistent') continue;
    const others: Equation[] = [...regroupings(eq.lhs).map((lhs) => ({ lhs, rhs: eq.rhs })), ...regroupings(eq.rhs).map((rhs) => ({ lhs: eq.lhs, rhs }))];
    const balanced = others.find((o) => checkDimensions(o, units).status === 'consistent');
    if (!balanced) continue;
    return lowered(
      x,
      UNBRACKETED_GROUPING_FLAG,
      'ambiguous',
      `${JSON.stringify(asWritten(x.equations[from[k]], response))} read as written doesn't balance; with the '/' reaching over the sum beside it, ${equationToSympy(balanced)}, it does: the student may have left brackets out`,
    );
  }
  return x;
}
