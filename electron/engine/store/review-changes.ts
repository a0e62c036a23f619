// Which responses changed, and in what order: the `review_changes` table (migration 7), kept by
// triggers on every table a response's line in the review list rests on. The app's review index
// keeps the last sequence number it read and asks only for what came after it.
import type { Row, Statements } from './statements.ts';

/** The sequence number of the last change (0 before any). */
export function lastChange(st: Statements): number {
  return Number((st.sql('SELECT coalesce(max(seq), 0) AS n FROM review_changes').get() as Row).n);
}

/** The responses (of any exam) changed after sequence number `since`, and the last number now. */
export function changesSince(st: Statements, since: number): { last: number; responseIds: number[] } {
  const rows = st.sql('SELECT response_id, seq FROM review_changes WHERE seq > ? ORDER BY seq').all(since) as Row[];
  return { last: rows.length ? Number(rows[rows.length - 1].seq) : Math.max(since, lastChange(st)), responseIds: rows.map((r) => Number(r.response_id)) };
}

/** The workspace's random id (migration 9): tells this workspace from another made at the same path. */
export function workspaceId(st: Statements): string {
  return String((st.sql("SELECT value FROM meta WHERE key = 'workspace_id'").get() as Row).value);
}
