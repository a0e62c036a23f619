// What the checks of a reading share (contradictions.ts, symbol-reuse.ts, dimensioned-argument.ts,
// case-mapped.ts): which readings they look at, the reading's equations parsed with where each came from, an equation as the student
// typed it, and the reading with its confidence lowered. None changes what was read.
import { parseEquation, type Equation, type Expr } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import { note, type ExtractedEquation, type Extraction, type NoteKind } from '../../../shared/extraction.ts';

/** Readers whose reading is checked: not the instructor's hand correction, not a given list. */
export const checksReader = (x: Pick<Extraction, 'source'>): boolean => x.source !== 'manual' && x.source !== 'given';

/** The text of an equation as written (its span), or its SymPy source. */
export const asWritten = (x: ExtractedEquation, text: string | undefined): string =>
  text !== undefined && x.span && x.span.end > x.span.start ? text.slice(x.span.start, x.span.end).trim() : x.source;

/** Every number of e, outside the exponents of its powers, is one of `allowed` (as written). */
export function numbersOnlyFrom(e: Expr, allowed: ReadonlySet<string>): boolean {
  switch (e.kind) {
    case 'num':
      return allowed.has(e.text);
    case 'sym':
    case 'const':
      return true;
    case 'neg':
      return numbersOnlyFrom(e.arg, allowed);
    case 'call':
      return e.args.every((a) => numbersOnlyFrom(a, allowed));
    case 'bin':
      return numbersOnlyFrom(e.left, allowed) && (e.op === '**' || numbersOnlyFrom(e.right, allowed));
  }
}

/** Whether a check of this flag looks at the reading: a reader's, with equations, not yet flagged, not blank or abstained. */
export const checkable = (x: Extraction, flag: string): boolean =>
  checksReader(x) && x.equations.length > 0 && !x.flags.includes(flag) && x.status !== 'blank' && x.status !== 'abstained';

/** The reading's equations that parse with the question's variables, and each one's index in `x.equations`. */
export function parsedEquations(question: Question, x: Extraction): { equations: Equation[]; from: number[] } {
  const variables = question.variables.map((v) => v.name);
  const equations: Equation[] = [];
  const from: number[] = [];
  x.equations.forEach((e, i) => {
    const p = parseEquation(e.source, { variables });
    if (p.ok) {
      equations.push(p.value);
      from.push(i);
    }
  });
  return { equations, from };
}

/** The reading with the flag and note added: a `read` becomes `needs-review`, any other status keeps its own. */
export const lowered = (x: Extraction, flag: string, kind: NoteKind, text: string): Extraction => ({
  ...x,
  status: x.status === 'read' ? 'needs-review' : x.status,
  flags: [...x.flags, flag],
  notes: [...x.notes, note(kind, text)],
});
