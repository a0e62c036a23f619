// The workspace's `meta` table: a value by key, for what the store keeps beside the responses
// (the stamps of imports and prepared answer groups, the groups a grade formed). One place writes it.
import type { Row, Statements } from './statements.ts';

/** The value kept under `key`, if any. */
export function metaValue(st: Statements, key: string): string | undefined {
  const r = st.sql('SELECT value FROM meta WHERE key = ?').get(key) as Row | undefined;
  return r ? String(r.value) : undefined;
}

/** Keep `value` under `key` (replacing any), or drop the key (undefined). */
export function putMetaValue(st: Statements, key: string, value: string | undefined): void {
  if (value === undefined) st.sql('DELETE FROM meta WHERE key = ?').run(key);
  else st.sql('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
