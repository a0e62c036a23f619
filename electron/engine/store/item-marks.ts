// Item-level marks and overrides over a whole exam, in one query each: what a scheme-change
// preview compares with, and what lists the overrides the automatic marks disagree with.
import type { ItemOutcome } from '../../../shared/marks.ts';
import type { Row, Statements } from './statements.ts';

/** A stored automatic item mark (current for its response's reading). */
export type StoredItemMark = { itemId: string; awarded: number | null; outcome: ItemOutcome };

/** The automatic item marks of every marked response of the exam, by response id, in scheme order. */
export function itemMarksOfExam(st: Statements, examId: string): Map<number, StoredItemMark[]> {
  const out = new Map<number, StoredItemMark[]>();
  const rows = st
    .sql(
      'SELECT mk.response_id, mk.item_id, mk.awarded, mk.outcome FROM marks mk JOIN responses r ON r.id = mk.response_id WHERE r.exam_id = ? ORDER BY mk.response_id, mk.position',
    )
    .all(examId) as Row[];
  for (const r of rows) {
    const id = Number(r.response_id);
    let list = out.get(id);
    if (!list) out.set(id, (list = []));
    list.push({ itemId: String(r.item_id), awarded: r.awarded === null ? null : Number(r.awarded), outcome: r.outcome as ItemOutcome });
  }
  return out;
}

/** An instructor's mark on one item, with the response it is on. */
export type ExamOverride = {
  responseId: number;
  studentId: string;
  questionId: string;
  itemId: string;
  awarded: number;
  comment: string;
  createdAt: string;
};

/** Every override of the exam (manual items marked by hand included), in response order. */
export function overridesOfExam(st: Statements, examId: string): ExamOverride[] {
  return (
    st
      .sql(
        'SELECT o.response_id, r.student_id, r.question_id, o.item_id, o.awarded, o.comment, o.created_at FROM overrides o JOIN responses r ON r.id = o.response_id WHERE r.exam_id = ? ORDER BY o.response_id, o.item_id',
      )
      .all(examId) as Row[]
  ).map((r) => ({
    responseId: Number(r.response_id),
    studentId: String(r.student_id),
    questionId: String(r.question_id),
    itemId: String(r.item_id),
    awarded: Number(r.awarded),
    comment: String(r.comment),
    createdAt: String(r.created_at),
  }));
}
