// The totals of one question's marked responses, summed in SQL: what the answer groups' totals are
// read from when they are given before the review list is read whole (app/early-groups.ts). A
// response's total is its effective marks summed (review/state.ts `effectiveTotal`: each item's
// override if any, else its automatic mark, an open item 0); reading each item's mark to sum it
// here costs about 0.5 s for 22,000 responses (130,000 item marks), summing in SQL about 0.15 s.
// A sum in SQL is the app's sum only where the order of the additions can't matter: every mark a
// multiple of 1/1024 below 2^20 (halves, quarters, whole marks), so that every partial sum is exact.
// Where one is not, null: the caller sums the effective marks read item by item.
import type { Row, Statements } from './statements.ts';

/** A mark that makes a sum depend on the order of its additions (not a multiple of 1/1024 below 2^20). */
const inexact = (v: string): string => `(${v} * 1024 <> round(${v} * 1024) OR abs(${v}) >= 1048576)`;

/** Each marked response of the question (its marks stored) and its total, by id; null where a sum in SQL might not be the app's. */
export function questionTotals(st: Statements, examId: string, questionId: string): Map<number, number> | null {
  const odd = st
    .sql(
      `SELECT EXISTS (SELECT 1 FROM responses r JOIN marks mk ON mk.response_id = r.id
                      WHERE r.exam_id = ? AND r.question_id = ? AND mk.awarded IS NOT NULL AND ${inexact('mk.awarded')})
           OR EXISTS (SELECT 1 FROM responses r JOIN overrides o ON o.response_id = r.id
                      WHERE r.exam_id = ? AND r.question_id = ? AND ${inexact('o.awarded')}) AS odd`,
    )
    .get(examId, questionId, examId, questionId) as Row;
  if (Number(odd.odd) === 1) return null;
  const rows = st
    .sql(
      // Each item once: its override, else its mark; then overrides of items with no mark row.
      `SELECT r.id,
         (SELECT total(coalesce(o.awarded, mk.awarded)) FROM marks mk LEFT JOIN overrides o ON o.response_id = mk.response_id AND o.item_id = mk.item_id
          WHERE mk.response_id = r.id)
       + (SELECT total(o.awarded) FROM overrides o WHERE o.response_id = r.id
          AND NOT EXISTS (SELECT 1 FROM marks mk WHERE mk.response_id = r.id AND mk.item_id = o.item_id)) AS total
       FROM responses r JOIN mark_results m ON m.response_id = r.id WHERE r.exam_id = ? AND r.question_id = ?`,
    )
    .raw()
    .all(examId, questionId) as [number, number][];
  return new Map(rows.map(([id, total]) => [Number(id), Number(total)]));
}
