// Changes the instructor made on a response's earlier text (a corrected equation list, an
// override) that a re-import with new text set aside: they are never applied to the new text.
// Each waits, visible, until the instructor confirms it (it is made again, on the new text) or
// drops it; both are audited.
import type { EarlierChange } from './workspace.ts';
import { audit, responseKey } from './audit.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';

/**
 * Set aside the corrections and overrides of a response whose text is being replaced: the
 * manual extraction (if the reading was corrected) and every override move to earlier_changes.
 * Runs inside the caller's transaction (before the text is replaced).
 */
export function setAsideChanges(st: Statements, responseId: number, earlierText: string | null): number {
  let n = 0;
  const ins = st.sql('INSERT INTO earlier_changes (response_id, kind, item_id, value, made_at, earlier_text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const x = st.sql("SELECT equations, created_at FROM extractions WHERE response_id = ? AND source = 'manual'").get(responseId) as Row | undefined;
  const key = responseKey(st, responseId);
  if (x) {
    const equations = parse<{ source: string }[]>(x.equations).map((e) => e.source);
    ins.run(responseId, 'correction', null, json({ equations }), String(x.created_at), earlierText, now());
    audit(st, 'earlier.set-aside', 'earlier', key, { equations }, { reason: 'the text was replaced by a new import' });
    n++;
  }
  const ovs = st.sql('SELECT item_id, awarded, comment, created_at FROM overrides WHERE response_id = ?').all(responseId) as Row[];
  for (const o of ovs) {
    ins.run(
      responseId,
      'override',
      String(o.item_id),
      json({ awarded: Number(o.awarded), comment: String(o.comment) }),
      String(o.created_at),
      earlierText,
      now(),
    );
    audit(
      st,
      'earlier.set-aside',
      'earlier',
      `${key}/${String(o.item_id)}`,
      { awarded: o.awarded, comment: o.comment },
      { reason: 'the text was replaced by a new import' },
    );
    n++;
  }
  st.sql('DELETE FROM overrides WHERE response_id = ?').run(responseId);
  return n;
}

function toChange(r: Row): EarlierChange {
  const v = parse<{ equations?: string[]; awarded?: number; comment?: string }>(r.value);
  return {
    id: Number(r.id),
    responseId: Number(r.response_id),
    kind: r.kind as EarlierChange['kind'],
    itemId: r.item_id === null ? null : String(r.item_id),
    equations: v.equations ?? null,
    awarded: v.awarded ?? null,
    comment: v.comment ?? null,
    madeAt: String(r.made_at),
    earlierText: r.earlier_text === null ? null : String(r.earlier_text),
  };
}

export function earlierChangesOf(st: Statements, responseId: number): EarlierChange[] {
  return (st.sql('SELECT * FROM earlier_changes WHERE response_id = ? ORDER BY id').all(responseId) as Row[]).map(toChange);
}

export function earlierChange(st: Statements, id: number): EarlierChange | null {
  const r = st.sql('SELECT * FROM earlier_changes WHERE id = ?').get(id) as Row | undefined;
  return r ? toChange(r) : null;
}

/** How many changes made on earlier text wait on each response of the exam. */
export function earlierCounts(st: Statements, examId: string): Map<number, number> {
  const rows = st
    .sql('SELECT c.response_id, count(*) AS n FROM earlier_changes c JOIN responses r ON r.id = c.response_id WHERE r.exam_id = ? GROUP BY c.response_id')
    .all(examId) as Row[];
  return new Map(rows.map((r) => [Number(r.response_id), Number(r.n)]));
}

/** Remove a change set aside (the instructor confirmed it, made again on the new text, or dropped it); audited with why. */
export function closeEarlierChange(st: Statements, id: number, outcome: 'confirmed' | 'dropped', comment: string): void {
  st.transaction(() => {
    const c = earlierChange(st, id);
    if (!c) throw new Error(`no change made on earlier text with id ${id}`);
    st.sql('DELETE FROM earlier_changes WHERE id = ?').run(id);
    const key = `${responseKey(st, c.responseId)}${c.itemId ? `/${c.itemId}` : ''}`;
    audit(
      st,
      `earlier.${outcome === 'confirmed' ? 'confirm' : 'drop'}`,
      'earlier',
      key,
      { kind: c.kind, equations: c.equations, awarded: c.awarded },
      { comment },
    );
  });
}
