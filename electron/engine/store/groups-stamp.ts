// What the answer groups of a question were last prepared from (review/prepare-groups.ts, run at
// the end of a grade): kept in the workspace's `meta` table, so a grade whose lists are the ones
// prepared (a re-run with nothing to do, a re-grade after a scheme change) compares nothing again.
//
// A question's groups are formed from its read and marked responses' lists (group-lists.ts
// `markedLists`). Which lists those are is fixed by the pairs (response id, reading id) of its
// marked responses: a reading is never changed in place (extractions.ts deletes and inserts, and
// extraction ids are AUTOINCREMENT, never reused), and a response's mark_results row names the
// reading it was made on (it goes with that reading: ON DELETE CASCADE). The fingerprint sums the
// pairs in SQL (30 ms for 67,500 responses; reading the pairs out and hashing them took 100-180 ms
// of a 0.3 s re-run): their count, the sums of both ids, and the sum of a square of a mix of the
// two, which no change of the set leaves whole but by a coincidence. The stamp only spares work:
// were it to match lists that changed, the app would compare them when it forms the groups (it
// always forms them from its own rows), so no group can be wrong for it.
import { metaValue, putMetaValue } from './meta.ts';
import type { Row, Statements } from './statements.ts';

const keyOf = (examId: string, questionId: string): string => `answer-groups:${examId}\u0000${questionId}`;

/** Per question of the exam with a read and marked response, a fingerprint of which readings they are (see the header). */
export function markedListsFingerprints(st: Statements, examId: string): Map<string, string> {
  // The mix stays below 2^31 and its square below 2^62: SQLite's integers never overflow into reals.
  const rows = st
    .sql(
      `SELECT r.question_id AS q, count(*) AS n, sum(r.id) AS rs, sum(m.extraction_id) AS xs,
         sum(((r.id * 1000003 + m.extraction_id) % 2147483647) * ((r.id * 1000003 + m.extraction_id) % 2147483647) % 2147483629) AS mix
       FROM responses r JOIN mark_results m ON m.response_id = r.id WHERE r.exam_id = ? GROUP BY r.question_id`,
    )
    .all(examId) as Row[];
  return new Map(rows.map((r) => [String(r.q), `${String(r.n)}:${String(r.rs)}:${String(r.xs)}:${String(r.mix)}`]));
}

/** The stamp kept for a question's prepared groups, if any. */
export function preparedGroupsStamp(st: Statements, examId: string, questionId: string): string | undefined {
  return metaValue(st, keyOf(examId, questionId));
}

/** Keep the stamp of a question's groups just prepared (replacing any). */
export function putPreparedGroupsStamp(st: Statements, examId: string, questionId: string, stamp: string): void {
  putMetaValue(st, keyOf(examId, questionId), stamp);
}
