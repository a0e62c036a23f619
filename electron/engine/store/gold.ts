// Gold lists: reference equation lists per (student, question) for the accuracy figure.
import { audit } from './audit.ts';
import { parse, type Row, type Statements } from './statements.ts';

/** Key of a gold list in `getGold`'s map. */
export const goldKey = (studentId: string, questionId: string): string => `${studentId}\u0000${questionId}`;

/**
 * Replace the exam's gold lists in one transaction, audited as one change; returns how many
 * lists are stored.
 */
export function setGold(st: Statements, examId: string, lists: readonly { studentId: string; questionId: string; equations: string[] }[]): number {
  st.transaction(() => {
    const before = (st.sql('SELECT count(*) AS n FROM gold_lists WHERE exam_id = ?').get(examId) as { n: number }).n;
    st.sql('DELETE FROM gold_lists WHERE exam_id = ?').run(examId);
    const ins = st.sql('INSERT OR REPLACE INTO gold_lists (exam_id, student_id, question_id, equations) VALUES (?, ?, ?, ?)');
    for (const l of lists) ins.run(examId, l.studentId, l.questionId, JSON.stringify(l.equations));
    audit(st, 'gold.import', 'gold', examId, before ? { lists: before } : undefined, { lists: lists.length });
  });
  return (st.sql('SELECT count(*) AS n FROM gold_lists WHERE exam_id = ?').get(examId) as { n: number }).n;
}

/** The exam's gold lists, keyed by student and question (`goldKey`). */
export function getGold(st: Statements, examId: string): Map<string, string[]> {
  const rows = st.sql('SELECT student_id, question_id, equations FROM gold_lists WHERE exam_id = ?').all(examId) as Row[];
  return new Map(rows.map((r) => [goldKey(String(r.student_id), String(r.question_id)), parse(r.equations) as string[]]));
}
