// The verdict cache: symbolic-engine verdicts by key, kept across runs.
import { json, parse, type Row, type Statements } from './statements.ts';

export function getCachedVerdict<T>(st: Statements, key: string): T | undefined {
  const r = st.sql('SELECT json FROM verdicts WHERE key = ?').get(key) as Row | undefined;
  return r ? parse<T>(r.json) : undefined;
}

export function putCachedVerdict(st: Statements, key: string, value: unknown): void {
  st.sql('INSERT OR REPLACE INTO verdicts (key, json) VALUES (?, ?)').run(key, json(value));
}
