// Canonical keys of equation sources (decide/entail/canonical.ts), kept so that answer groups
// after a restart read them instead of parsing every list again. A key depends only on the
// source and on `space` (the key's version and the question's variables); a source is never
// re-keyed in a space, so rows are only added.
import type { Row, Statements } from './statements.ts';

/** Every key kept in `space`, by source (null: the grammar rejects the source). */
export function canonicalKeys(st: Statements, space: string): Map<string, string | null> {
  const rows = st.sql('SELECT source, key FROM canonical_keys WHERE space = ?').all(space) as Row[];
  return new Map(rows.map((r) => [String(r.source), r.key === null ? null : String(r.key)]));
}

/** Keep keys in `space` (one transaction). */
export function putCanonicalKeys(st: Statements, space: string, keys: Iterable<readonly [string, string | null]>): void {
  const ins = st.sql('INSERT OR IGNORE INTO canonical_keys (space, source, key) VALUES (?, ?, ?)');
  st.transaction(() => {
    for (const [source, key] of keys) ins.run(space, source, key);
  });
}
