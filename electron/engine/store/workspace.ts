// The workspace: one SQLite file (better-sqlite3, WAL, foreign keys, versioned migrations) that
// holds exams, responses, extractions, marks with evidence, overrides, comments, a verdict cache
// and an audit log of every change. Every public method that changes anything is one transaction
// and writes its audit rows inside it: after a crash the file holds whole steps only.
import Database from 'better-sqlite3';
import { ExamSchema, type Exam, type Question } from '../../../shared/exam.ts';
import { toNote, type Extraction, type ExtractionSource, type ExtractionStatus } from '../../../shared/extraction.ts';
import type { ItemMark, ResponseMarks, InconsistentEquation } from '../../../shared/marks.ts';
import type { ModelRef, ResponseRecord } from '../read/model/types.ts';
import { migrate, SCHEMA_VERSION } from './migrations.ts';

export { SCHEMA_VERSION };

/** A response as listed (one row of the class list). */
export type ResponseSummary = {
  id: number;
  examId: string;
  studentId: string;
  questionId: string;
  /** Extraction status, or null when not yet extracted. */
  extraction: { id: number; status: ExtractionStatus; source: ExtractionSource; flags: string[]; equations: string[] } | null;
  /** Marks, or null when not yet marked (or invalidated by a new extraction). */
  marks: { total: number; available: number; status: ResponseMarks['status']; inconsistent: InconsistentEquation[] } | null;
  /** Item id -> effective mark (override if any, else automatic; null = open). */
  effective: Record<string, number | null>;
  /** Number of overrides on this response. */
  overrides: number;
};

export type Override = { itemId: string; awarded: number; comment: string; createdAt: string };
export type Comment = { id: number; body: string; createdAt: string };

/** Everything about one response, for the detail view. */
export type ResponseDetail = ResponseSummary & {
  text: string | null;
  extractionDetail: (Extraction & { id: number; reader: string; createdAt: string }) | null;
  items: (ItemMark & { override?: Override })[];
  overridesList: Override[];
  comments: Comment[];
};

/** What a model read for a response (see ResponseRecord), as stored beside its extraction. */
export type StoredModelRecord = {
  responseId: number;
  /** The extraction this reading produced, or null once that extraction was replaced. */
  extractionId: number | null;
  /** Whether the stored extraction is still the one this reading produced. */
  current: boolean;
  technique: string;
  models: ModelRef[];
  /** Ollama was unreachable: the response waits for the model. */
  waiting: boolean;
  record: ResponseRecord;
  createdAt: string;
};

/** Flag of an extraction kept while the response waits for the model (Ollama unreachable). */
export const WAITING_FLAG = 'waiting-for-model';

/** Flag of a response a step failed on (an exception while reading or marking it; the reason is in its notes). */
export const ENGINE_ERROR_FLAG = 'engine-error';

export type AuditEntry = { id: number; at: string; action: string; entity: string; entityKey: string; old: unknown; new: unknown };

export type ImportResponsesResult = { inserted: number; updated: number; unchanged: number };

/** A (student, question) to store with a given equation list (source 'given'). */
export type GivenRow = { studentId: string; questionId: string; extraction: Extraction };

export class StaleError extends Error {
  override name = 'StaleError';
}

type Row = Record<string, unknown>;
const json = (v: unknown): string => JSON.stringify(v);
const parse = <T>(s: unknown): T => JSON.parse(String(s)) as T;
const now = (): string => new Date().toISOString();

/** Key of a gold list in `getGold`'s map. */
export const goldKey = (studentId: string, questionId: string): string => `${studentId}\u0000${questionId}`;

/** The workspace's tables, for diagnostics (`tableRows`, `tableColumns`). */
export const TABLES = ['exams', 'questions', 'responses', 'extractions', 'mark_results', 'marks', 'overrides', 'comments', 'audit', 'verdicts', 'model_records', 'gold_lists'] as const;
export type Table = (typeof TABLES)[number];

export class Workspace {
  /** The database handle: private, so every SQL statement lives in this module. */
  readonly #db: Database.Database;
  /** Prepared statements, by SQL text: each statement is prepared once per open workspace. */
  readonly #statements = new Map<string, Database.Statement>();

  /** Open (creating if needed) a workspace file; ':memory:' for a throwaway one. */
  constructor(readonly path: string) {
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    migrate(this.#db);
  }

  static open(path: string): Workspace {
    return new Workspace(path);
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }

  /** The statement for `sql`, prepared on first use and kept for the life of the workspace. */
  private sql(sql: string): Database.Statement {
    let st = this.#statements.get(sql);
    if (!st) {
      st = this.#db.prepare(sql);
      this.#statements.set(sql, st);
    }
    return st;
  }

  /** The connection's settings that matter for durability (journal mode, foreign keys). */
  storageSettings(): { journalMode: string; foreignKeys: boolean } {
    return { journalMode: String(this.#db.pragma('journal_mode', { simple: true })), foreignKeys: Number(this.#db.pragma('foreign_keys', { simple: true })) === 1 };
  }

  /** Every row of one table, in insertion order (diagnostics and tests). */
  tableRows(table: Table): Row[] {
    if (!TABLES.includes(table)) throw new Error(`no table '${table}' in a workspace`);
    return this.sql(`SELECT * FROM ${table} ORDER BY rowid`).all() as Row[];
  }

  /** The column names of one table, in order (diagnostics and tests). */
  tableColumns(table: Table): string[] {
    if (!TABLES.includes(table)) throw new Error(`no table '${table}' in a workspace`);
    return (this.sql(`PRAGMA table_info(${table})`).all() as Row[]).map((c) => String(c.name));
  }

  /** Schema version of the open file. */
  schemaVersion(): number {
    return this.#db.pragma('user_version', { simple: true }) as number;
  }

  private audit(action: string, entity: string, entityKey: string, oldValue: unknown, newValue: unknown): void {
    this.sql('INSERT INTO audit (at, action, entity, entity_key, old, new) VALUES (?, ?, ?, ?, ?, ?)')
      .run(now(), action, entity, entityKey, oldValue === undefined ? null : json(oldValue), newValue === undefined ? null : json(newValue));
  }

  private responseKey(responseId: number): string {
    const r = this.sql('SELECT exam_id, student_id, question_id FROM responses WHERE id = ?').get(responseId) as Row | undefined;
    if (!r) throw new Error(`no response with id ${responseId}`);
    return `${r.exam_id}/${r.student_id}/${r.question_id}`;
  }

  // ---- exams ---------------------------------------------------------------------------------

  /**
   * Store an exam (already validated, see exam-io.ts). Re-importing the same exam changes
   * nothing; a changed exam replaces the stored one and drops its marks (they must be redone),
   * and extractions too when a question's variables changed. Refuses to drop a question that
   * has responses.
   */
  importExam(exam: Exam): { examId: string; created: boolean; changed: boolean } {
    const parsed = ExamSchema.parse(exam);
    const text = json(parsed);
    return this.#db.transaction(() => {
      const old = this.sql('SELECT json FROM exams WHERE id = ?').get(parsed.id) as Row | undefined;
      if (old && old.json === text) return { examId: parsed.id, created: false, changed: false };
      if (old) {
        const oldExam = parse<Exam>(old.json);
        const keep = new Set(parsed.questions.map((q) => q.id));
        for (const q of oldExam.questions) {
          if (keep.has(q.id)) continue;
          const n = (this.sql('SELECT count(*) AS n FROM responses WHERE exam_id = ? AND question_id = ?').get(parsed.id, q.id) as Row).n as number;
          if (n > 0) throw new Error(`exam '${parsed.id}': question '${q.id}' has ${n} responses in this workspace and can't be removed`);
          this.sql('DELETE FROM questions WHERE exam_id = ? AND id = ?').run(parsed.id, q.id);
        }
        for (const q of oldExam.questions) {
          const nq = parsed.questions.find((x) => x.id === q.id);
          if (nq && json(nq.variables) !== json(q.variables)) {
            this.sql("DELETE FROM extractions WHERE response_id IN (SELECT id FROM responses WHERE exam_id = ? AND question_id = ?) AND source != 'given'").run(parsed.id, q.id);
          }
        }
        this.sql('DELETE FROM mark_results WHERE response_id IN (SELECT id FROM responses WHERE exam_id = ?)').run(parsed.id);
        this.sql('UPDATE exams SET title = ?, json = ?, imported_at = ? WHERE id = ?').run(parsed.title, text, now(), parsed.id);
      } else {
        this.sql('INSERT INTO exams (id, title, json, imported_at) VALUES (?, ?, ?, ?)').run(parsed.id, parsed.title, text, now());
      }
      const up = this.sql('INSERT INTO questions (exam_id, id, position, json) VALUES (?, ?, ?, ?) ON CONFLICT (exam_id, id) DO UPDATE SET position = excluded.position, json = excluded.json');
      parsed.questions.forEach((q, i) => up.run(parsed.id, q.id, i, json(q)));
      this.audit('exam.import', 'exam', parsed.id, old ? parse(old.json) : undefined, parsed);
      return { examId: parsed.id, created: !old, changed: !!old };
    })();
  }

  getExam(examId: string): Exam | undefined {
    const r = this.sql('SELECT json FROM exams WHERE id = ?').get(examId) as Row | undefined;
    return r ? parse<Exam>(r.json) : undefined;
  }

  listExams(): { id: string; title: string; importedAt: string; responses: number }[] {
    return (this.sql('SELECT e.id, e.title, e.imported_at, (SELECT count(*) FROM responses r WHERE r.exam_id = e.id) AS n FROM exams e ORDER BY e.imported_at').all() as Row[]).map((r) => ({
      id: String(r.id),
      title: String(r.title),
      importedAt: String(r.imported_at),
      responses: Number(r.n),
    }));
  }

  // ---- responses -----------------------------------------------------------------------------

  /**
   * Store responses (already checked, see csv/responses.ts) in one transaction: new ones are
   * inserted; a changed text replaces the old one and drops its extraction and marks; identical
   * ones are left alone. Throws (and stores nothing) if the exam or a question is unknown.
   */
  importResponses(examId: string, rows: readonly { studentId: string; questionId: string; text: string }[]): ImportResponsesResult {
    return this.#db.transaction(() => {
      if (!this.getExam(examId)) throw new Error(`no exam '${examId}' in this workspace`);
      const get = this.sql('SELECT id, text FROM responses WHERE exam_id = ? AND student_id = ? AND question_id = ?');
      const ins = this.sql('INSERT INTO responses (exam_id, student_id, question_id, text, imported_at) VALUES (?, ?, ?, ?, ?)');
      const upd = this.sql('UPDATE responses SET text = ?, imported_at = ? WHERE id = ?');
      const dropX = this.sql('DELETE FROM extractions WHERE response_id = ?');
      const res: ImportResponsesResult = { inserted: 0, updated: 0, unchanged: 0 };
      for (const r of rows) {
        const key = `${examId}/${r.studentId}/${r.questionId}`;
        const old = get.get(examId, r.studentId, r.questionId) as Row | undefined;
        if (!old) {
          ins.run(examId, r.studentId, r.questionId, r.text, now());
          this.audit('response.import', 'response', key, undefined, { text: r.text });
          res.inserted++;
        } else if (old.text !== r.text) {
          upd.run(r.text, now(), old.id);
          dropX.run(old.id);
          this.audit('response.update', 'response', key, { text: old.text }, { text: r.text });
          res.updated++;
        } else res.unchanged++;
      }
      return res;
    })();
  }

  /**
   * Store given equation lists (an equations CSV: gold or a corrected extraction) as responses
   * without text and their extractions (source 'given'), in one transaction. A list identical
   * to the stored extraction is left alone (its marks stay).
   */
  importGiven(examId: string, rows: readonly GivenRow[]): ImportResponsesResult {
    return this.#db.transaction(() => {
      if (!this.getExam(examId)) throw new Error(`no exam '${examId}' in this workspace`);
      const get = this.sql('SELECT id FROM responses WHERE exam_id = ? AND student_id = ? AND question_id = ?');
      const ins = this.sql('INSERT INTO responses (exam_id, student_id, question_id, text, imported_at) VALUES (?, ?, ?, NULL, ?)');
      const res: ImportResponsesResult = { inserted: 0, updated: 0, unchanged: 0 };
      for (const r of rows) {
        let row = get.get(examId, r.studentId, r.questionId) as Row | undefined;
        if (!row) {
          const id = ins.run(examId, r.studentId, r.questionId, now()).lastInsertRowid;
          this.audit('response.import', 'response', `${examId}/${r.studentId}/${r.questionId}`, undefined, { text: null });
          row = { id: Number(id) };
          res.inserted++;
        }
        const cur = this.getExtraction(Number(row.id));
        if (cur && sameExtraction(cur, r.extraction)) {
          res.unchanged++;
          continue;
        }
        if (cur) res.updated++;
        this.writeExtraction(Number(row.id), r.extraction, 'given');
      }
      return res;
    })();
  }

  /** The text of each response of the exam (null for a given list), by response id. */
  responseTexts(examId: string): Map<number, string | null> {
    const rows = this.sql('SELECT id, text FROM responses WHERE exam_id = ?').all(examId) as Row[];
    return new Map(rows.map((r) => [Number(r.id), r.text === null ? null : String(r.text)]));
  }

  /** How many responses of the exam are marked (marks current for their extraction). */
  markedCount(examId: string): number {
    return Number((this.sql('SELECT count(*) AS n FROM mark_results m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ?').get(examId) as Row).n);
  }

  /** How many scheme items over the exam's responses the engine could not decide. */
  undecidedItemCount(examId: string): number {
    return Number((this.sql("SELECT count(*) AS n FROM marks m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ? AND m.outcome = 'undecided'").get(examId) as Row).n);
  }

  /** Ids of responses of the exam, in import order. */
  responseIds(examId: string): number[] {
    return (this.sql('SELECT id FROM responses WHERE exam_id = ? ORDER BY id').all(examId) as Row[]).map((r) => Number(r.id));
  }

  /**
   * Responses that still need a step: 'extract' (no extraction, or one kept while the response
   * waits for the model: flag 'waiting-for-model'; `waiting: false` leaves those out; or a reading
   * of the text that a step failed on: flag 'engine-error', read again) or 'mark' (extracted, not
   * marked).
   */
  pending(examId: string, step: 'extract' | 'mark', opts: { waiting?: boolean } = {}): { id: number; studentId: string; questionId: string; text: string | null }[] {
    const waiting = opts.waiting ?? true;
    const sql =
      step === 'extract'
        ? `SELECT r.id, r.student_id, r.question_id, r.text FROM responses r LEFT JOIN extractions x ON x.response_id = r.id WHERE r.exam_id = ? AND (x.id IS NULL${
            waiting ? ` OR EXISTS (SELECT 1 FROM json_each(x.flags) f WHERE f.value = '${WAITING_FLAG}')` : ''
          } OR (r.text IS NOT NULL AND x.source NOT IN ('manual', 'given') AND EXISTS (SELECT 1 FROM json_each(x.flags) f WHERE f.value = '${ENGINE_ERROR_FLAG}'))) ORDER BY r.id`
        : 'SELECT r.id, r.student_id, r.question_id, r.text FROM responses r JOIN extractions x ON x.response_id = r.id LEFT JOIN mark_results m ON m.response_id = r.id WHERE r.exam_id = ? AND m.response_id IS NULL ORDER BY r.id';
    return (this.sql(sql).all(examId) as Row[]).map((r) => ({ id: Number(r.id), studentId: String(r.student_id), questionId: String(r.question_id), text: r.text === null ? null : String(r.text) }));
  }

  // ---- extractions ---------------------------------------------------------------------------

  private writeExtraction(responseId: number, x: Extraction, reader: string, record?: ResponseRecord): number {
    const old = this.getExtraction(responseId);
    this.sql('DELETE FROM extractions WHERE response_id = ?').run(responseId); // cascades to marks
    const id = this.sql('INSERT INTO extractions (response_id, reader, source, status, flags, equations, unread, notes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(responseId, reader, x.source, x.status, json(x.flags), json(x.equations), json(x.unread), json(x.notes), now()).lastInsertRowid;
    if (record) {
      this.sql(
          'INSERT INTO model_records (response_id, extraction_id, technique, models, waiting, record, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ' +
            'ON CONFLICT (response_id) DO UPDATE SET extraction_id = excluded.extraction_id, technique = excluded.technique, models = excluded.models, waiting = excluded.waiting, record = excluded.record, created_at = excluded.created_at',
        )
        .run(responseId, Number(id), record.technique, json(record.models), record.waiting ? 1 : 0, json(record), now());
    }
    const audited = record ? { ...(stripExtraction(x) as object), reader, models: record.models.map((m) => `${m.name}@${m.digest}`) } : stripExtraction(x);
    this.audit('extraction.save', 'extraction', this.responseKey(responseId), old ? stripExtraction(old) : undefined, audited);
    return Number(id);
  }

  /**
   * Save a response's extraction (replacing any, which drops its marks). Returns the extraction
   * id. A model's record of the reading (`record`) is stored in the same transaction.
   */
  saveExtraction(responseId: number, extraction: Extraction, reader: string, record?: ResponseRecord): number {
    return this.#db.transaction(() => this.writeExtraction(responseId, extraction, reader, record))();
  }

  /** What a model read for this response (models, prompts, replies, tokens, time), or null. */
  getModelRecord(responseId: number): StoredModelRecord | null {
    const r = this.sql('SELECT m.*, x.id AS current_x FROM model_records m LEFT JOIN extractions x ON x.response_id = m.response_id WHERE m.response_id = ?')
      .get(responseId) as Row | undefined;
    if (!r) return null;
    const extractionId = r.extraction_id === null ? null : Number(r.extraction_id);
    return {
      responseId,
      extractionId,
      current: extractionId !== null && extractionId === Number(r.current_x),
      technique: String(r.technique),
      models: parse(r.models),
      waiting: Number(r.waiting) === 1,
      record: parse(r.record),
      createdAt: String(r.created_at),
    };
  }

  /**
   * Replace the exam's gold lists (reference equation lists for the accuracy figure) in one
   * transaction, audited as one change; returns how many lists are stored.
   */
  setGold(examId: string, lists: readonly { studentId: string; questionId: string; equations: string[] }[]): number {
    this.#db.transaction(() => {
      const before = (this.sql('SELECT count(*) AS n FROM gold_lists WHERE exam_id = ?').get(examId) as { n: number }).n;
      this.sql('DELETE FROM gold_lists WHERE exam_id = ?').run(examId);
      const ins = this.sql('INSERT OR REPLACE INTO gold_lists (exam_id, student_id, question_id, equations) VALUES (?, ?, ?, ?)');
      for (const l of lists) ins.run(examId, l.studentId, l.questionId, JSON.stringify(l.equations));
      this.audit('gold.import', 'gold', examId, before ? { lists: before } : undefined, { lists: lists.length });
    })();
    return (this.sql('SELECT count(*) AS n FROM gold_lists WHERE exam_id = ?').get(examId) as { n: number }).n;
  }

  /** The exam's gold lists, keyed by student and question. */
  getGold(examId: string): Map<string, string[]> {
    const rows = this.sql('SELECT student_id, question_id, equations FROM gold_lists WHERE exam_id = ?').all(examId) as Row[];
    return new Map(rows.map((r) => [goldKey(String(r.student_id), String(r.question_id)), parse(r.equations) as string[]]));
  }

  /** Responses of the exam whose extraction waits for the model (flag 'waiting-for-model'), in import order. */
  waiting(examId: string): { id: number; studentId: string; questionId: string }[] {
    return (
      this.sql(`SELECT r.id, r.student_id, r.question_id FROM responses r JOIN extractions x ON x.response_id = r.id WHERE r.exam_id = ? AND EXISTS (SELECT 1 FROM json_each(x.flags) f WHERE f.value = '${WAITING_FLAG}') ORDER BY r.id`)
        .all(examId) as Row[]
    ).map((r) => ({ id: Number(r.id), studentId: String(r.student_id), questionId: String(r.question_id) }));
  }

  getExtraction(responseId: number): (Extraction & { id: number; reader: string; createdAt: string }) | null {
    const r = this.sql('SELECT * FROM extractions WHERE response_id = ?').get(responseId) as Row | undefined;
    if (!r) return null;
    return {
      id: Number(r.id),
      reader: String(r.reader),
      createdAt: String(r.created_at),
      source: r.source as ExtractionSource,
      status: r.status as ExtractionStatus,
      flags: parse(r.flags),
      equations: parse(r.equations),
      unread: parse(r.unread),
      // Notes are stored as JSON: strings (every row so far) or {kind, text}; both load.
      notes: parse<unknown[]>(r.notes).map(toNote),
    };
  }

  // ---- marks ---------------------------------------------------------------------------------

  /**
   * Save the automatic marks of a response, computed from extraction `extractionId`. Throws
   * StaleError if the response's extraction has changed since (the marks would be of old data).
   */
  saveMarks(responseId: number, extractionId: number, marks: ResponseMarks): void {
    this.#db.transaction(() => {
      const cur = this.sql('SELECT id FROM extractions WHERE response_id = ?').get(responseId) as Row | undefined;
      if (!cur || Number(cur.id) !== extractionId) throw new StaleError(`response ${responseId}: extraction changed while marking; mark again`);
      const old = this.getMarks(responseId);
      this.sql('DELETE FROM mark_results WHERE response_id = ?').run(responseId);
      this.sql('INSERT INTO mark_results (response_id, extraction_id, total, available, status, inconsistent, marked_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(responseId, extractionId, marks.total, marks.available, marks.status, json(marks.inconsistent), now());
      const ins = this.sql('INSERT INTO marks (response_id, item_id, position, available, awarded, outcome, match, evidence, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      marks.items.forEach((it, i) => ins.run(responseId, it.itemId, i, it.available, it.awarded, it.outcome, it.match, json(it.evidence), it.note ?? null));
      this.audit('marks.save', 'marks', this.responseKey(responseId), old ? markSummary(old) : undefined, markSummary(marks));
    })();
  }

  getMarks(responseId: number): (ResponseMarks & { extractionId: number; markedAt: string }) | null {
    const m = this.sql('SELECT * FROM mark_results WHERE response_id = ?').get(responseId) as Row | undefined;
    if (!m) return null;
    const items = (this.sql('SELECT * FROM marks WHERE response_id = ? ORDER BY position').all(responseId) as Row[]).map(
      (r): ItemMark => ({
        itemId: String(r.item_id),
        available: Number(r.available),
        awarded: r.awarded === null ? null : Number(r.awarded),
        outcome: r.outcome as ItemMark['outcome'],
        match: r.match as ItemMark['match'],
        evidence: parse(r.evidence),
        ...(r.note === null ? {} : { note: String(r.note) }),
      }),
    );
    return {
      items,
      total: Number(m.total),
      available: Number(m.available),
      status: m.status as ResponseMarks['status'],
      inconsistent: parse(m.inconsistent),
      extractionId: Number(m.extraction_id),
      markedAt: String(m.marked_at),
    };
  }

  // ---- overrides and comments ----------------------------------------------------------------

  /** The instructor's mark for one item (manual items included), with a required comment. */
  setOverride(responseId: number, itemId: string, awarded: number, comment: string): void {
    if (!comment || comment.trim() === '') throw new Error('an override needs a comment saying why');
    if (!Number.isFinite(awarded) || awarded < 0) throw new Error(`override mark must be a number >= 0, got ${awarded}`);
    this.#db.transaction(() => {
      const item = this.schemeItem(responseId, itemId);
      if (awarded > item.marks) throw new Error(`item '${itemId}' is worth ${item.marks}; can't award ${awarded}`);
      const old = this.sql('SELECT awarded, comment FROM overrides WHERE response_id = ? AND item_id = ?').get(responseId, itemId) as Row | undefined;
      this.sql('INSERT INTO overrides (response_id, item_id, awarded, comment, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (response_id, item_id) DO UPDATE SET awarded = excluded.awarded, comment = excluded.comment, created_at = excluded.created_at')
        .run(responseId, itemId, awarded, comment.trim(), now());
      this.audit('override.set', 'override', `${this.responseKey(responseId)}/${itemId}`, old ? { awarded: old.awarded, comment: old.comment } : undefined, { awarded, comment: comment.trim() });
    })();
  }

  /** Remove an override (back to the automatic mark); the reason is recorded in the audit log. */
  clearOverride(responseId: number, itemId: string, comment: string): void {
    if (!comment || comment.trim() === '') throw new Error('removing an override needs a comment saying why');
    this.#db.transaction(() => {
      const old = this.sql('SELECT awarded, comment FROM overrides WHERE response_id = ? AND item_id = ?').get(responseId, itemId) as Row | undefined;
      if (!old) return;
      this.sql('DELETE FROM overrides WHERE response_id = ? AND item_id = ?').run(responseId, itemId);
      this.audit('override.clear', 'override', `${this.responseKey(responseId)}/${itemId}`, { awarded: old.awarded, comment: old.comment }, { comment: comment.trim() });
    })();
  }

  addComment(responseId: number, body: string): number {
    if (!body || body.trim() === '') throw new Error('a comment needs text');
    return this.#db.transaction(() => {
      const id = Number(this.sql('INSERT INTO comments (response_id, body, created_at) VALUES (?, ?, ?)').run(responseId, body.trim(), now()).lastInsertRowid);
      this.audit('comment.add', 'comment', this.responseKey(responseId), undefined, { id, body: body.trim() });
      return id;
    })();
  }

  private schemeItem(responseId: number, itemId: string): Question['scheme'][number] {
    const r = this.sql('SELECT q.json FROM responses r JOIN questions q ON q.exam_id = r.exam_id AND q.id = r.question_id WHERE r.id = ?').get(responseId) as Row | undefined;
    if (!r) throw new Error(`no response with id ${responseId}`);
    const q = parse<Question>(r.json);
    const item = q.scheme.find((s) => s.id === itemId);
    if (!item) throw new Error(`question '${q.id}' has no scheme item '${itemId}' (items: ${q.scheme.map((s) => s.id).join(', ')})`);
    return item;
  }

  // ---- reading -------------------------------------------------------------------------------

  private overridesOf(responseId: number): Override[] {
    return (this.sql('SELECT item_id, awarded, comment, created_at FROM overrides WHERE response_id = ? ORDER BY item_id').all(responseId) as Row[]).map((r) => ({
      itemId: String(r.item_id),
      awarded: Number(r.awarded),
      comment: String(r.comment),
      createdAt: String(r.created_at),
    }));
  }

  private summary(r: Row): ResponseSummary {
    const id = Number(r.id);
    const x = this.getExtraction(id);
    const m = this.getMarks(id);
    const ov = this.overridesOf(id);
    const effective: Record<string, number | null> = {};
    for (const it of m?.items ?? []) effective[it.itemId] = it.awarded;
    for (const o of ov) effective[o.itemId] = o.awarded;
    return {
      id,
      examId: String(r.exam_id),
      studentId: String(r.student_id),
      questionId: String(r.question_id),
      extraction: x ? { id: x.id, status: x.status, source: x.source, flags: x.flags, equations: x.equations.map((e) => e.source) } : null,
      marks: m ? { total: m.total, available: m.available, status: m.status, inconsistent: m.inconsistent } : null,
      effective,
      overrides: ov.length,
    };
  }

  /** The class list of an exam, in import order; optionally one question or one student. */
  listResponses(examId: string, filter: { questionId?: string; studentId?: string } = {}): ResponseSummary[] {
    const rows = this.sql('SELECT * FROM responses WHERE exam_id = ? AND (? IS NULL OR question_id = ?) AND (? IS NULL OR student_id = ?) ORDER BY id')
      .all(examId, filter.questionId ?? null, filter.questionId ?? null, filter.studentId ?? null, filter.studentId ?? null) as Row[];
    return rows.map((r) => this.summary(r));
  }

  findResponse(examId: string, studentId: string, questionId: string): number | undefined {
    const r = this.sql('SELECT id FROM responses WHERE exam_id = ? AND student_id = ? AND question_id = ?').get(examId, studentId, questionId) as Row | undefined;
    return r ? Number(r.id) : undefined;
  }

  getResponseDetail(responseId: number): ResponseDetail | null {
    const r = this.sql('SELECT * FROM responses WHERE id = ?').get(responseId) as Row | undefined;
    if (!r) return null;
    const s = this.summary(r);
    const overridesList = this.overridesOf(responseId);
    const items = (this.getMarks(responseId)?.items ?? []).map((it) => {
      const o = overridesList.find((x) => x.itemId === it.itemId);
      return o ? { ...it, override: o } : it;
    });
    const comments = (this.sql('SELECT id, body, created_at FROM comments WHERE response_id = ? ORDER BY id').all(responseId) as Row[]).map((c) => ({
      id: Number(c.id),
      body: String(c.body),
      createdAt: String(c.created_at),
    }));
    return { ...s, text: r.text === null ? null : String(r.text), extractionDetail: this.getExtraction(responseId), items, overridesList, comments };
  }

  /** Audit log entries, oldest first; optionally of one entity kind or key prefix. */
  auditLog(filter: { entity?: string; keyPrefix?: string; action?: string } = {}): AuditEntry[] {
    const rows = this.sql('SELECT * FROM audit WHERE (? IS NULL OR entity = ?) AND (? IS NULL OR action = ?) AND (? IS NULL OR substr(entity_key, 1, length(?)) = ?) ORDER BY id')
      .all(filter.entity ?? null, filter.entity ?? null, filter.action ?? null, filter.action ?? null, filter.keyPrefix ?? null, filter.keyPrefix ?? null, filter.keyPrefix ?? null) as Row[];
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

  // ---- verdict cache -------------------------------------------------------------------------

  getCachedVerdict<T>(key: string): T | undefined {
    const r = this.sql('SELECT json FROM verdicts WHERE key = ?').get(key) as Row | undefined;
    return r ? parse<T>(r.json) : undefined;
  }

  putCachedVerdict(key: string, value: unknown): void {
    this.sql('INSERT OR REPLACE INTO verdicts (key, json) VALUES (?, ?)').run(key, json(value));
  }
}

function stripExtraction(x: Extraction): unknown {
  return { source: x.source, status: x.status, flags: x.flags, equations: x.equations.map((e) => e.source) };
}

function sameExtraction(a: Extraction, b: Extraction): boolean {
  return json(stripExtraction(a)) === json(stripExtraction(b)) && json(a.notes) === json(b.notes);
}

function markSummary(m: ResponseMarks): unknown {
  return { total: m.total, status: m.status, items: Object.fromEntries(m.items.map((i) => [i.itemId, i.awarded])), inconsistent: m.inconsistent.map((i) => i.student) };
}
