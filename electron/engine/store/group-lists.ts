// The equation lists answer groups are formed from, read on their own (the answer groups' worker
// thread, review/groups-worker.ts, reads them through its own connection to prepare a question's
// groups before the app has read its review list): the responses of one question that are read
// and marked (the review list's rows with a list and a total: app/views.ts `row`), in import order,
// each with its equation sources. Nothing else of the row is read.
import type { Row, Statements } from './statements.ts';

export type MarkedList = { id: number; equations: string[] };

/** The read and marked responses of one question of an exam, in import order (by id), with their equation sources. */
export function markedLists(st: Statements, examId: string, questionId: string): MarkedList[] {
  const rows = st
    .sql(
      // Joined, not left joined: a response without a reading or without marks is in no group.
      `SELECT r.id, x.equations FROM responses r JOIN extractions x ON x.response_id = r.id JOIN mark_results m ON m.response_id = r.id
       WHERE r.exam_id = ? AND r.question_id = ? ORDER BY r.id`,
    )
    .all(examId, questionId) as Row[];
  return rows.map((r) => ({ id: Number(r.id), equations: (JSON.parse(String(r.equations)) as { source: string }[]).map((e) => e.source) }));
}
