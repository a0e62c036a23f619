// Regrade requests: a student's request on one response (their words, the date they asked), open
// until the instructor resolves it with a reply; the marks a resolution changed are kept with it
// (the overrides themselves are audited in overrides/audit).
import type { RegradeRequest } from './workspace.ts';
import { audit, responseKey } from './audit.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';

function toRequest(r: Row): RegradeRequest {
  return {
    id: Number(r.id),
    responseId: Number(r.response_id),
    examId: String(r.exam_id),
    studentId: String(r.student_id),
    questionId: String(r.question_id),
    body: String(r.body),
    requestedOn: String(r.requested_on),
    createdAt: String(r.created_at),
    reply: r.reply === null ? null : String(r.reply),
    resolvedAt: r.resolved_at === null ? null : String(r.resolved_at),
    changes: r.changes === null ? [] : parse(r.changes),
  };
}

const SELECT = 'SELECT q.*, r.exam_id, r.student_id, r.question_id FROM regrade_requests q JOIN responses r ON r.id = q.response_id';

export function addRegradeRequest(st: Statements, responseId: number, body: string, requestedOn: string): number {
  if (!body.trim()) throw new Error("a regrade request needs the student's words");
  return st.transaction(() => {
    const id = Number(
      st.sql('INSERT INTO regrade_requests (response_id, body, requested_on, created_at) VALUES (?, ?, ?, ?)').run(responseId, body.trim(), requestedOn, now())
        .lastInsertRowid,
    );
    audit(st, 'regrade.request', 'regrade', responseKey(st, responseId), undefined, { id, body: body.trim(), requestedOn });
    return id;
  });
}

export function regradeRequest(st: Statements, id: number): RegradeRequest | null {
  const r = st.sql(`${SELECT} WHERE q.id = ?`).get(id) as Row | undefined;
  return r ? toRequest(r) : null;
}

/** The exam's requests (open first, then oldest first), or one response's. */
export function regradeRequests(st: Statements, filter: { examId?: string; responseId?: number }): RegradeRequest[] {
  const rows = st
    .sql(`${SELECT} WHERE (? IS NULL OR r.exam_id = ?) AND (? IS NULL OR q.response_id = ?) ORDER BY q.reply IS NOT NULL, q.requested_on, q.id`)
    .all(filter.examId ?? null, filter.examId ?? null, filter.responseId ?? null, filter.responseId ?? null) as Row[];
  return rows.map(toRequest);
}

/** Close a request with the instructor's reply and the marks changed (already set as overrides by the caller, in the same transaction). */
export function resolveRegradeRequest(st: Statements, id: number, reply: string, changes: RegradeRequest['changes']): void {
  if (!reply.trim()) throw new Error('resolving a regrade request needs a reply to the student');
  const q = regradeRequest(st, id);
  if (!q) throw new Error(`no regrade request with id ${id}`);
  if (q.reply !== null) throw new Error(`regrade request ${id} is already resolved`);
  st.sql('UPDATE regrade_requests SET reply = ?, resolved_at = ?, changes = ? WHERE id = ?').run(reply.trim(), now(), json(changes), id);
  audit(st, 'regrade.resolve', 'regrade', responseKey(st, q.responseId), { id, body: q.body }, { reply: reply.trim(), changes });
}
