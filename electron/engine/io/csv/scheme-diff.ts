// The diff CSV of a scheme change's dry run (`equimark grade --dry-run --diff FILE.csv`): one row
// per (student, question, item) whose automatic mark or outcome the change moves. Cells are
// neutralised against formula injection like every CSV Equimark writes.
import type { SchemePreview } from '../../../../shared/scheme-preview.ts';
import { safeCsv } from './write.ts';

export const SCHEME_DIFF_COLUMNS = ['student_id', 'question_id', 'item_id', 'before', 'after', 'outcome_before', 'outcome_after', 'override'] as const;

const cell = (n: number | null): string => (n === null ? '' : Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000));

/**
 * before/after: the automatic marks awarded (empty when open, undecided or absent); outcome_*:
 * awarded, withheld, undecided, manual, or absent (the item is not in that version of the
 * scheme); override: the instructor's mark for the item, which stays in force (empty: none).
 */
export function schemeDiffCsv(p: Pick<SchemePreview, 'changes'>): string {
  return safeCsv([
    [...SCHEME_DIFF_COLUMNS],
    ...p.changes.map((c) => [c.studentId, c.questionId, c.itemId, cell(c.before), cell(c.after), c.outcomeBefore, c.outcomeAfter, cell(c.override)]),
  ]);
}
