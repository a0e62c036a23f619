// The prepared-statement cache over the workspace's database handle. The per-area modules of
// the store (exams.ts, responses.ts, ...) run their SQL through it and never see the handle:
// each statement is prepared once per open workspace, and a step's writes are one transaction.
import type Database from 'better-sqlite3';

/** A row as better-sqlite3 returns it. */
export type Row = Record<string, unknown>;

export const json = (v: unknown): string => JSON.stringify(v);
export const parse = <T>(s: unknown): T => JSON.parse(String(s)) as T;
export const now = (): string => new Date().toISOString();

export class Statements {
  /** The database handle: private, so SQL runs only through `sql` and `transaction`. */
  readonly #db: Database.Database;
  /** Prepared statements, by SQL text. */
  readonly #statements = new Map<string, Database.Statement>();
  /** Prepared statements that give rows as arrays (rawSql), by SQL text. */
  readonly #raw = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** The statement for `sql`, prepared on first use and kept for the life of the workspace. */
  sql(sql: string): Database.Statement {
    let st = this.#statements.get(sql);
    if (!st) {
      st = this.#db.prepare(sql);
      this.#statements.set(sql, st);
    }
    return st;
  }

  /**
   * As `sql`, its rows given as arrays of the columns in order (no object per row: reading a
   * class's item rows, most of the time went to making them). Kept apart from `sql`'s statements.
   */
  rawSql(sql: string): Database.Statement {
    let st = this.#raw.get(sql);
    if (!st) {
      st = this.#db.prepare(sql).raw(true);
      this.#raw.set(sql, st);
    }
    return st;
  }

  /**
   * Run `fn` as one transaction (a savepoint when already inside one); its result is returned.
   * BEGIN IMMEDIATE: the write lock is taken as it begins, waiting (busy_timeout) while another
   * connection writes (the answer groups' worker keeps verdicts through its own). Deferred, a
   * transaction that read first failed at once with 'database is locked' when the other
   * connection had written since its read (SQLite does not wait then: its snapshot is stale).
   */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn).immediate();
  }

  /** Forget every prepared statement (the workspace is closing). */
  clear(): void {
    this.#statements.clear();
    this.#raw.clear();
  }
}
