// The verdict cache: symbolic-engine verdicts by key, kept across runs.
import { json, parse, type Row, type Statements } from './statements.ts';

export function getCachedVerdict<T>(st: Statements, key: string): T | undefined {
  const r = st.sql('SELECT json FROM verdicts WHERE key = ?').get(key) as Row | undefined;
  return r ? parse<T>(r.json) : undefined;
}

export function putCachedVerdict(st: Statements, key: string, value: unknown): void {
  st.sql('INSERT OR REPLACE INTO verdicts (key, json) VALUES (?, ?)').run(key, json(value));
}

/**
 * The engine's verdict store over the `decided` table (see VerdictStore in decide/entail/types.ts):
 * reads go to the table (and this run's buffer); writes are buffered and written in one
 * transaction by flush(), so deciding many pairs costs one commit, not one per pair.
 */
export class DecidedStore {
  readonly #buffer = new Map<string, string>();
  #closed = false;

  constructor(private readonly st: Statements) {}

  get(key: string): unknown {
    if (this.#closed) return undefined;
    const b = this.#buffer.get(key);
    if (b !== undefined) return parse(b);
    const r = this.st.sql('SELECT verdict FROM decided WHERE key = ?').get(key) as Row | undefined;
    return r ? parse(r.verdict) : undefined;
  }

  put(key: string, value: unknown): void {
    if (!this.#closed) this.#buffer.set(key, json(value));
  }

  /** Write the buffered verdicts (one transaction). */
  flush(): void {
    if (this.#closed || this.#buffer.size === 0) return;
    const ins = this.st.sql('INSERT OR REPLACE INTO decided (key, verdict) VALUES (?, ?)');
    this.st.transaction(() => {
      for (const [k, v] of this.#buffer) ins.run(k, v);
    });
    this.#buffer.clear();
  }

  /** The workspace is closing: write what is buffered, then answer nothing. */
  close(): void {
    this.flush();
    this.#closed = true;
  }

  /** How many verdicts are kept (tests, diagnostics). */
  size(): number {
    return Number((this.st.sql('SELECT count(*) AS n FROM decided').get() as Row).n) + this.#buffer.size;
  }
}
