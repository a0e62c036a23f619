// What the dimension checks of a reading share (symbol-reuse.ts, dimensioned-argument.ts): which
// readings they look at, the reading's equations parsed with where each came from, and the
// reading with its confidence lowered. Neither changes what was read.
import { parseEquation, type Equation } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import { note, type Extraction, type NoteKind } from '../../../shared/extraction.ts';
import { checksReader } from './contradictions.ts';

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
