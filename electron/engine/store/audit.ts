// The audit log: every change a public method of the workspace makes writes its rows here,
// inside the same transaction (old and new value as JSON).
import type { AuditEntry } from './workspace.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';

export function audit(st: Statements, action: string, entity: string, entityKey: string, oldValue: unknown, newValue: unknown): void {
  st.sql('INSERT INTO audit (at, action, entity, entity_key, old, new) VALUES (?, ?, ?, ?, ?, ?)').run(
    now(),
    action,
    entity,
    entityKey,
    oldValue === undefined ? null : json(oldValue),
    newValue === undefined ? null : json(newValue),
  );
}

/** The audit key of a response: exam/student/question. Throws if there is no such response. */
export function responseKey(st: Statements, responseId: number): string {
  const r = st.sql('SELECT exam_id, student_id, question_id FROM responses WHERE id = ?').get(responseId) as Row | undefined;
  if (!r) throw new Error(`no response with id ${responseId}`);
  return `${r.exam_id}/${r.student_id}/${r.question_id}`;
}

/**
 * The least string greater than every string that starts with `prefix` (its last code point
 * raised by one, dropped when it can't be): keys starting with `prefix` are exactly those in
 * [prefix, after), an index range.
 */
function afterPrefix(prefix: string): string | null {
  const cps = [...prefix];
  while (cps.length) {
    const cp = cps.pop()!.codePointAt(0)! + 1;
    if (cp <= 0x10ffff) return cps.join('') + String.fromCodePoint(cp >= 0xd800 && cp <= 0xdfff ? 0xe000 : cp);
  }
  return null;
}

/** Audit log entries, oldest first; optionally of one entity kind or key prefix. */
export function auditLog(st: Statements, filter: { entity?: string; keyPrefix?: string; action?: string }): AuditEntry[] {
  const args = [filter.entity ?? null, filter.entity ?? null, filter.action ?? null, filter.action ?? null];
  const prefix = filter.keyPrefix;
  const after = prefix ? afterPrefix(prefix) : null;
  // A key prefix is also asked as a range, so the log of one response is found through its index
  // (audit_key, migration 7) instead of by reading the whole log.
  const rows = (
    prefix && after !== null
      ? st
          .sql(
            'SELECT * FROM audit WHERE (? IS NULL OR entity = ?) AND (? IS NULL OR action = ?) AND entity_key >= ? AND entity_key < ? AND substr(entity_key, 1, length(?)) = ? ORDER BY id',
          )
          .all(...args, prefix, after, prefix, prefix)
      : st
          .sql(
            'SELECT * FROM audit WHERE (? IS NULL OR entity = ?) AND (? IS NULL OR action = ?) AND (? IS NULL OR substr(entity_key, 1, length(?)) = ?) ORDER BY id',
          )
          .all(...args, prefix ?? null, prefix ?? null, prefix ?? null)
  ) as Row[];
  return rows.map((r) => ({
    id: Number(r.id),
    at: String(r.at),
    action: String(r.action),
    entity: String(r.entity),
    entityKey: String(r.entity_key),
    old: r.old === null ? null : parse(r.old),
    new: r.new === null ? null : parse(r.new),
  }));
}
