// The checks every reader's reading goes through before it is stored (grade.ts) or scored (eval's
// loop, so that its figures are those of grading): a contradiction between two of its equations
// (contradictions.ts), then one symbol used for two quantities, which dimensions show (symbol-reuse.ts),
// then a quantity with units as an exponent or a function's argument (dimensioned-argument.ts),
// then a letter read in the other case that leaves its equation unbalanced (case-mapped.ts), then
// a sum of fractions that balances only with a '/' reaching over it (unbracketed-grouping.ts), then
// a link of numbers only whose sides differ beyond rounding (numbers-disagree.ts).
// Each can only lower the reading's confidence; none changes what was read.
import type { Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { withContradictionCheck, type ContradictionEngine } from './contradictions.ts';
import { withSymbolReuseCheck } from './symbol-reuse.ts';
import { withDimensionedArgumentCheck } from './dimensioned-argument.ts';
import { withCaseMappedCheck } from './case-mapped.ts';
import { withUnbracketedGroupingCheck } from './unbracketed-grouping.ts';
import { withNumbersDisagreeCheck } from './numbers-disagree.ts';

/** The reading as it is stored. A check that fails costs nothing: the reading goes on as it came to that check. */
export async function checkedReading(engine: ContradictionEngine, question: Question, x: Extraction, text: string | null): Promise<Extraction> {
  let out = x;
  try {
    out = await withContradictionCheck(engine, question, out, text ?? undefined);
  } catch {
    /* kept as it came */
  }
  try {
    out = withSymbolReuseCheck(question, out, text ?? undefined);
  } catch {
    /* kept as it came */
  }
  try {
    out = withDimensionedArgumentCheck(question, out, text ?? undefined);
  } catch {
    /* kept as it came */
  }
  try {
    out = withCaseMappedCheck(question, out, text ?? undefined);
  } catch {
    /* kept as it came */
  }
  try {
    out = withUnbracketedGroupingCheck(question, out, text ?? undefined);
  } catch {
    /* kept as it came */
  }
  try {
    out = withNumbersDisagreeCheck(question, out, text ?? undefined);
  } catch {
    /* kept as it came */
  }
  return out;
}
