// The workspace: one SQLite file (better-sqlite3, WAL, foreign keys, versioned migrations) that
// holds exams, responses, extractions, marks with evidence, overrides, comments, a verdict cache
// and an audit log of every change. Every public method that changes anything is one transaction
// and writes its audit rows inside it: after a crash the file holds whole steps only.
//
// This class is the store's one interface; the SQL lives in per-area modules beside it (exams.ts,
// responses.ts, extractions.ts, marks.ts, model-records.ts, gold.ts, verdicts.ts, audit.ts), which
// run it through the prepared-statement cache (statements.ts) and never see the handle.
import Database from 'better-sqlite3';
import type { Exam } from '../../../shared/exam.ts';
import type { Extraction, ExtractionSource, ExtractionStatus } from '../../../shared/extraction.ts';
import type { DimensionIssue, ItemMark, ResponseMarks, InconsistentEquation } from '../../../shared/marks.ts';
import type { ModelRef, ResponseRecord } from '../read/model/types.ts';
import { auditLog } from './audit.ts';
import * as exams from './exams.ts';
import * as extractions from './extractions.ts';
import * as gold from './gold.ts';
import * as marking from './marks.ts';
import { migrate, SCHEMA_VERSION } from './migrations.ts';
import { getModelRecord } from './model-records.ts';
import * as responses from './responses.ts';
import { Statements, type Row } from './statements.ts';
import * as verdicts from './verdicts.ts';
import * as canonical from './canonical-keys.ts';
import * as groupLists from './group-lists.ts';
import * as earlier from './earlier.ts';
import * as regrades from './regrades.ts';
import * as itemMarks from './item-marks.ts';
import * as reviewChanges from './review-changes.ts';
import * as givenStamps from './given-stamp.ts';
import * as groupsStamps from './groups-stamp.ts';
import * as formed from './formed-groups.ts';

export { SCHEMA_VERSION };
export { ENGINE_ERROR_FLAG, WAITING_FLAG } from './extractions.ts';
export { goldKey } from './gold.ts';
export { StaleError } from './marks.ts';

/** A response as listed (one row of the class list). */
export type ResponseSummary = {
  id: number;
  examId: string;
  studentId: string;
  questionId: string;
  /** Extraction status, or null when not yet extracted. */
  extraction: { id: number; status: ExtractionStatus; source: ExtractionSource; flags: string[]; equations: string[] } | null;
  /** Marks, or null when not yet marked (or invalidated by a new extraction). */
  marks: {
    total: number;
    available: number;
    status: ResponseMarks['status'];
    inconsistent: InconsistentEquation[];
    /** Equations found dimensionally inconsistent (absent: none, or no units declared). */
    dimensions?: DimensionIssue[];
  } | null;
  /** Item id -> effective mark (override if any, else automatic; null = open). */
  effective: Record<string, number | null>;
  /** Number of overrides on this response. */
  overrides: number;
  /** The items the instructor marked (manual items marked by hand included). */
  overriddenItems?: string[];
  /** The items whose automatic mark was earned by follow-through (error carried forward; absent: none). */
  followThrough?: string[];
  /** Changes the instructor made on an earlier text of this response (set aside by a re-import), waiting to be confirmed or dropped (absent: none). */
  earlier?: number;
  /** Regrade requests on this response still open. */
  openRegrades?: number;
};

/** A correction or override made on a text a re-import replaced: never applied to the new text until confirmed. */
export type EarlierChange = {
  id: number;
  responseId: number;
  kind: 'correction' | 'override';
  itemId: string | null;
  equations: string[] | null;
  awarded: number | null;
  comment: string | null;
  madeAt: string;
  earlierText: string | null;
};

/** A student's regrade request on one response, and the instructor's reply once resolved. */
export type RegradeRequest = {
  id: number;
  responseId: number;
  examId: string;
  studentId: string;
  questionId: string;
  body: string;
  /** The date the student asked (YYYY-MM-DD). */
  requestedOn: string;
  createdAt: string;
  reply: string | null;
  resolvedAt: string | null;
  /** Marks the resolution changed (each also an audited override). */
  changes: { itemId: string; from: number | null; to: number }[];
};

/** What importing responses would do (nothing stored): counts, and each row that would replace a stored text. */
export type ImportPlan = {
  inserted: number;
  unchanged: number;
  changed: { studentId: string; questionId: string; oldText: string | null; newText: string; corrected: boolean; overrides: number }[];
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

export type AuditEntry = { id: number; at: string; action: string; entity: string; entityKey: string; old: unknown; new: unknown };

/** updated: texts replaced; kept: changed texts left as they were (`changed: 'keep'`); setAside: corrections and overrides set aside as made on earlier text. */
export type ImportResponsesResult = { inserted: number; updated: number; unchanged: number; kept: number; setAside: number };

/** A (student, question) to store with a given equation list (source 'given'). */
export type GivenRow = { studentId: string; questionId: string; extraction: Extraction };

/** The workspace's tables, for diagnostics (`tableRows`, `tableColumns`). */
export const TABLES = [
  'exams',
  'questions',
  'responses',
  'extractions',
  'mark_results',
  'marks',
  'overrides',
  'comments',
  'audit',
  'verdicts',
  'model_records',
  'gold_lists',
  'earlier_changes',
  'regrade_requests',
  'decided',
  'review_changes',
  'canonical_keys',
] as const;
export type Table = (typeof TABLES)[number];

export class Workspace {
  /** The database handle: private, so every SQL statement lives in the store's modules. */
  readonly #db: Database.Database;
  /** Prepared statements over the handle: each statement is prepared once per open workspace. */
  readonly #st: Statements;
  /** The engine's verdicts kept across runs (the `decided` table), buffered writes. */
  readonly #decided: verdicts.DecidedStore;

  /** Open (creating if needed) a workspace file; ':memory:' for a throwaway one. */
  constructor(readonly path: string) {
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    migrate(this.#db);
    this.#st = new Statements(this.#db);
    this.#decided = new verdicts.DecidedStore(this.#st);
  }

  static open(path: string): Workspace {
    return new Workspace(path);
  }

  close(): void {
    this.#decided.close();
    this.#st.clear();
    this.#db.close();
  }

  /** The connection's settings that matter for durability (journal mode, foreign keys). */
  storageSettings(): { journalMode: string; foreignKeys: boolean } {
    return {
      journalMode: String(this.#db.pragma('journal_mode', { simple: true })),
      foreignKeys: Number(this.#db.pragma('foreign_keys', { simple: true })) === 1,
    };
  }

  /** Every row of one table, in insertion order (diagnostics and tests). */
  tableRows(table: Table): Row[] {
    if (!TABLES.includes(table)) throw new Error(`no table '${table}' in a workspace`);
    return this.#st.sql(`SELECT * FROM ${table} ORDER BY rowid`).all() as Row[];
  }

  /** The column names of one table, in order (diagnostics and tests). */
  tableColumns(table: Table): string[] {
    if (!TABLES.includes(table)) throw new Error(`no table '${table}' in a workspace`);
    return (this.#st.sql(`PRAGMA table_info(${table})`).all() as Row[]).map((c) => String(c.name));
  }

  /** Schema version of the open file. */
  schemaVersion(): number {
    return this.#db.pragma('user_version', { simple: true }) as number;
  }

  // ---- exams (exams.ts) ------------------------------------------------------------------------

  /**
   * Store an exam (already validated, see exam-io.ts). Re-importing the same exam changes
   * nothing; a changed exam replaces the stored one and drops its marks (they must be redone),
   * and extractions too when a question's variables changed. Refuses to drop a question that
   * has responses. For a scheme change whose new marks the caller computed beforehand
   * (grade.ts's marksByChange): `keep` names responses of re-marked questions whose stored marks
   * are unchanged under this exam (each with the reading it marked): they stay as they are;
   * `replace` holds new marks that differ, written in the same transaction (as saveMarksBatch).
   * `replaceItems` holds new marks for the changed items only of responses whose other items
   * stand (a change that edited those items only), written in place (as saveItemMarks).
   * Each is honoured only while the response's reading is the one named; the rest of a
   * re-marked question's marks are dropped. With `replace` or `replaceItems`, returns also how many it marked.
   */
  importExam(
    exam: Exam,
    change: {
      keep?: readonly { responseId: number; extractionId: number }[];
      replace?: readonly { responseId: number; extractionId: number; marks: ResponseMarks; key?: string }[];
      replaceItems?: readonly marking.ItemMarksWrite[];
    } = {},
  ): { examId: string; created: boolean; changed: boolean; replaced?: number } {
    const replace = change.replace ?? [];
    const replaceItems = change.replaceItems ?? [];
    if (!replace.length && !replaceItems.length) return exams.importExam(this.#st, exam, change.keep);
    return this.#st.transaction(() => {
      const r = exams.importExam(this.#st, exam, [...(change.keep ?? []), ...replace, ...replaceItems]);
      const stale = marking.saveMarksBatch(this.#st, replace).length + marking.saveItemMarks(this.#st, replaceItems).length;
      return { ...r, replaced: replace.length + replaceItems.length - stale };
    });
  }

  /** Whether importing this version of a stored exam would drop marks (see exams.importDropsMarks). */
  importDropsMarks(exam: Exam): boolean {
    return exams.importDropsMarks(this.#st, exam);
  }

  getExam(examId: string): Exam | undefined {
    return exams.getExam(this.#st, examId);
  }

  listExams(): { id: string; title: string; importedAt: string; responses: number }[] {
    return exams.listExams(this.#st);
  }

  // ---- responses (responses.ts) ----------------------------------------------------------------

  /**
   * Store responses (already checked, see csv/responses.ts) in one transaction: new ones are
   * inserted; a changed text replaces the old one and drops its extraction and marks; identical
   * ones are left alone. Throws (and stores nothing) if the exam or a question is unknown.
   */
  importResponses(
    examId: string,
    rows: readonly { studentId: string; questionId: string; text: string }[],
    opts: { changed?: 'replace' | 'keep' } = {},
  ): ImportResponsesResult {
    return responses.importResponses(this.#st, examId, rows, opts.changed ?? 'replace');
  }

  /** What importing these rows would do (nothing is stored): new, unchanged, and changed rows with what was done on the old text. */
  planImport(examId: string, rows: readonly { studentId: string; questionId: string; text: string }[]): ImportPlan {
    return responses.classifyResponses(this.#st, examId, rows);
  }

  // ---- changes made on earlier text (earlier.ts) -----------------------------------------------

  earlierChanges(responseId: number): EarlierChange[] {
    return earlier.earlierChangesOf(this.#st, responseId);
  }

  earlierChange(id: number): EarlierChange | null {
    return earlier.earlierChange(this.#st, id);
  }

  /** Remove a change set aside once the instructor confirmed (and made it again) or dropped it; audited. */
  closeEarlierChange(id: number, outcome: 'confirmed' | 'dropped', comment: string): void {
    earlier.closeEarlierChange(this.#st, id, outcome, comment);
  }

  // ---- regrade requests (regrades.ts) ----------------------------------------------------------

  addRegradeRequest(responseId: number, body: string, requestedOn: string): number {
    return regrades.addRegradeRequest(this.#st, responseId, body, requestedOn);
  }

  regradeRequest(id: number): RegradeRequest | null {
    return regrades.regradeRequest(this.#st, id);
  }

  regradeRequests(filter: { examId?: string; responseId?: number }): RegradeRequest[] {
    return regrades.regradeRequests(this.#st, filter);
  }

  /**
   * Resolve a request with a reply; each changed mark becomes an override (comment: the reply),
   * all in one transaction.
   */
  resolveRegradeRequest(id: number, reply: string, marks: { itemId: string; marks: number }[]): void {
    this.#st.transaction(() => {
      const q = regrades.regradeRequest(this.#st, id);
      if (!q) throw new Error(`no regrade request with id ${id}`);
      const changes: RegradeRequest['changes'] = [];
      const detail = responses.getResponseDetail(this.#st, q.responseId)!;
      for (const m of marks) {
        const from = detail.effective[m.itemId] ?? null;
        if (from === m.marks) continue;
        marking.setOverride(this.#st, q.responseId, m.itemId, m.marks, `regrade request: ${reply.trim()}`);
        changes.push({ itemId: m.itemId, from, to: m.marks });
      }
      regrades.resolveRegradeRequest(this.#st, id, reply, changes);
    });
  }

  /**
   * Store given equation lists (an equations CSV: gold or a corrected extraction) as responses
   * without text and their extractions (source 'given'), in one transaction. A list identical
   * to the stored extraction is left alone (its marks stay).
   */
  importGiven(examId: string, rows: readonly GivenRow[]): ImportResponsesResult {
    return responses.importGiven(this.#st, examId, rows);
  }

  /** The text of each response of the exam (null for a given list), by response id. */
  responseTexts(examId: string): Map<number, string | null> {
    return responses.responseTexts(this.#st, examId);
  }

  /** How many responses of the exam are marked (marks current for their extraction). */
  markedCount(examId: string): number {
    return marking.markedCount(this.#st, examId);
  }

  /** How many scheme items over the exam's responses the engine could not decide. */
  undecidedItemCount(examId: string): number {
    return marking.undecidedItemCount(this.#st, examId);
  }

  /** The responses of these questions whose marks are stored, in id order (what a scheme change re-marks). */
  markedOf(examId: string, questionIds: readonly string[]): { id: number; studentId: string; questionId: string; text: string | null }[] {
    return responses.markedOf(this.#st, examId, questionIds);
  }

  /** Of these marks, the responses whose stored marks are exactly them, for that reading (nothing is written). */
  sameMarks(batch: readonly { responseId: number; extractionId: number; marks: ResponseMarks }[]): number[] {
    return marking.sameMarks(this.#st, batch);
  }

  /** These responses' stored marks, with the evidence of items `itemIds` only (see marks.storedItemMarks). */
  storedItemMarks(responseIds: readonly number[], itemIds: readonly string[]): Map<number, marking.StoredItemMarks> {
    return marking.storedItemMarks(this.#st, responseIds, itemIds);
  }

  /** Each response of the exam as its id, student and question, in import order. */
  responseKeys(examId: string): { id: number; studentId: string; questionId: string }[] {
    return responses.responseKeys(this.#st, examId);
  }

  /** The exam's distinct student ids and question ids, each in the store's own (binary) order. */
  responseNames(examId: string): { students: string[]; questions: string[] } {
    return responses.responseNames(this.#st, examId);
  }

  /** Ids of a page of the exam's responses ordered by student then question (or the reverse), in the store's binary order. */
  responsesByName(examId: string, q: { questionId?: string; by: 'student' | 'question'; desc: boolean; offset: number; limit: number }): number[] {
    return responses.responsesByName(this.#st, examId, q);
  }

  /** Which of these ids are responses of the exam. */
  examResponsesAmong(examId: string, ids: readonly number[]): number[] {
    return responses.examResponsesAmong(this.#st, examId, ids);
  }

  /** Ids of responses of the exam, in import order. */
  responseIds(examId: string): number[] {
    return responses.responseIds(this.#st, examId);
  }

  /**
   * Responses that still need a step: 'extract' (no extraction, or one kept while the response
   * waits for the model: flag 'waiting-for-model'; `waiting: false` leaves those out; or a reading
   * of the text that a step failed on: flag 'engine-error', read again) or 'mark' (extracted, not
   * marked).
   */
  pending(
    examId: string,
    step: 'extract' | 'mark',
    opts: { waiting?: boolean } = {},
  ): { id: number; studentId: string; questionId: string; text: string | null }[] {
    return responses.pending(this.#st, examId, step, opts.waiting ?? true);
  }

  /**
   * The class list of an exam, in import order; optionally one question or one student, one page
   * (`offset`, `limit`; or `limit` rows after the id `afterId`), or only the responses with these
   * ids (those of this exam).
   */
  listResponses(
    examId: string,
    filter: { questionId?: string; studentId?: string; offset?: number; limit?: number; ids?: readonly number[]; afterId?: number } = {},
  ): ResponseSummary[] {
    return responses.listResponses(this.#st, examId, filter);
  }

  /**
   * The responses (of any exam) whose line in the review list may have changed after change
   * number `since` (0: every response ever changed), and the last change number now: the app's
   * review index reads again only those (kept by triggers, migration 7).
   */
  reviewChangesSince(since: number): { last: number; responseIds: number[] } {
    return reviewChanges.changesSince(this.#st, since);
  }

  /** The exam's responses and readings as a string that changes whenever any is added, replaced or removed (given-stamp.ts). */
  readingsFingerprint(examId: string): string {
    return givenStamps.readingsFingerprint(this.#st, examId);
  }

  /** The stamp of the last equations file imported whole into the exam, if any (given-stamp.ts). */
  givenStamp(examId: string): givenStamps.GivenStamp | undefined {
    return givenStamps.givenStamp(this.#st, examId);
  }

  /** Keep (or, with undefined, drop) the stamp of the last equations file imported whole into the exam. */
  putGivenStamp(examId: string, stamp: givenStamps.GivenStamp | undefined): void {
    givenStamps.putGivenStamp(this.#st, examId, stamp);
  }

  /** Per question of the exam, a hash of which lists its answer groups are formed from (groups-stamp.ts). */
  markedListsFingerprints(examId: string): Map<string, string> {
    return groupsStamps.markedListsFingerprints(this.#st, examId);
  }

  /** The stamp of what a question's answer groups were last prepared from, if any (review/prepare-groups.ts). */
  preparedGroupsStamp(examId: string, questionId: string): string | undefined {
    return groupsStamps.preparedGroupsStamp(this.#st, examId, questionId);
  }

  /** Keep the stamp of a question's answer groups just prepared. */
  putPreparedGroupsStamp(examId: string, questionId: string, stamp: string): void {
    groupsStamps.putPreparedGroupsStamp(this.#st, examId, questionId, stamp);
  }

  /** A question's answer groups as a grade's end formed them, if kept (formed-groups.ts). */
  formedGroups(examId: string, questionId: string): formed.FormedGroups | undefined {
    return formed.formedGroups(this.#st, examId, questionId);
  }

  /** Keep a question's answer groups just formed. */
  putFormedGroups(examId: string, questionId: string, groups: formed.FormedGroups): void {
    formed.putFormedGroups(this.#st, examId, questionId, groups);
  }

  /** The number of the last change a review line rests on (see reviewChangesSince). */
  lastReviewChange(): number {
    return reviewChanges.lastChange(this.#st);
  }

  /** This workspace's random id, made when it was created. */
  workspaceId(): string {
    return reviewChanges.workspaceId(this.#st);
  }

  /** How many responses the exam has (optionally of one question). */
  countResponses(examId: string, questionId?: string): number {
    return responses.countResponses(this.#st, examId, questionId);
  }

  /** The text of each of these responses (null for a given list), by id. */
  textsOf(ids: readonly number[]): Map<number, string | null> {
    return responses.textsOf(this.#st, ids);
  }

  /** Counts over the exam (responses by extraction status, inconsistent, marks awarded and available), without reading each response. */
  examCounts(examId: string): ReturnType<typeof responses.examCounts> {
    return responses.examCounts(this.#st, examId);
  }

  findResponse(examId: string, studentId: string, questionId: string): number | undefined {
    return responses.findResponse(this.#st, examId, studentId, questionId);
  }

  getResponseDetail(responseId: number): ResponseDetail | null {
    return responses.getResponseDetail(this.#st, responseId);
  }

  // ---- extractions (extractions.ts, model-records.ts, gold.ts) ---------------------------------

  /**
   * Save a response's extraction (replacing any, which drops its marks). Returns the extraction
   * id. A model's record of the reading (`record`) is stored in the same transaction.
   */
  saveExtraction(responseId: number, extraction: Extraction, reader: string, record?: ResponseRecord): number {
    return this.#st.transaction(() => extractions.writeExtraction(this.#st, responseId, extraction, reader, record));
  }

  /**
   * Save the extractions of many responses in one transaction (each as saveExtraction): for
   * bulk loads such as the app-scale bench's workspace. Returns the extraction ids, in order.
   */
  saveExtractions(batch: readonly { responseId: number; extraction: Extraction; reader: string }[]): number[] {
    return this.#st.transaction(() => batch.map((b) => extractions.writeExtraction(this.#st, b.responseId, b.extraction, b.reader)));
  }

  /** Save the reading after the instructor picked one reading of a choice; the pick audited beside the save, in one transaction. */
  saveReadingPick(responseId: number, extraction: Extraction, reader: string, pick: extractions.ReadingPick): number {
    return this.#st.transaction(() => extractions.writeReadingPick(this.#st, responseId, extraction, reader, pick));
  }

  /**
   * Drop the readings made by another reader than `reader` (the next grading reads them again
   * with it); corrected readings and imported lists are kept, and counted.
   */
  dropReadingsNotBy(examId: string, reader: string): { dropped: number; corrected: number; given: number } {
    return extractions.dropReadingsNotBy(this.#st, examId, reader);
  }

  /** How many responses of the exam there are, how many are read, and how many marked (cheap: for progress polls). */
  progressCounts(examId: string): { total: number; read: number; marked: number } {
    return responses.progressCounts(this.#st, examId);
  }

  /** What a model read for this response (models, prompts, replies, tokens, time), or null. */
  getModelRecord(responseId: number): StoredModelRecord | null {
    return getModelRecord(this.#st, responseId);
  }

  /**
   * Replace the exam's gold lists (reference equation lists for the accuracy figure) in one
   * transaction, audited as one change; returns how many lists are stored.
   */
  setGold(examId: string, lists: readonly { studentId: string; questionId: string; equations: string[] }[]): number {
    return gold.setGold(this.#st, examId, lists);
  }

  /** The exam's gold lists, keyed by student and question. */
  getGold(examId: string): Map<string, string[]> {
    return gold.getGold(this.#st, examId);
  }

  /** Responses of the exam whose extraction waits for the model (flag 'waiting-for-model'), in import order. */
  waiting(examId: string): { id: number; studentId: string; questionId: string }[] {
    return extractions.waiting(this.#st, examId);
  }

  getExtraction(responseId: number): (Extraction & { id: number; reader: string; createdAt: string }) | null {
    return extractions.getExtraction(this.#st, responseId);
  }

  /** The extractions of many responses in one query, by response id (absent: not extracted). */
  getExtractions(responseIds: readonly number[]): Map<number, Extraction & { id: number; reader: string; createdAt: string }> {
    return extractions.getExtractions(this.#st, responseIds);
  }

  // ---- marks, overrides and comments (marks.ts) ------------------------------------------------

  /**
   * Save the automatic marks of a response, computed from extraction `extractionId`. Throws
   * StaleError if the response's extraction has changed since (the marks would be of old data).
   */
  saveMarks(responseId: number, extractionId: number, marks: ResponseMarks): void {
    marking.saveMarks(this.#st, responseId, extractionId, marks);
  }

  /**
   * Save the marks of many responses in one transaction (each as saveMarks, audited); a response
   * whose extraction changed meanwhile is skipped and its id returned (mark it again).
   */
  saveMarksBatch(batch: readonly { responseId: number; extractionId: number; marks: ResponseMarks; key?: string }[]): number[] {
    return marking.saveMarksBatch(this.#st, batch);
  }

  getMarks(responseId: number): (ResponseMarks & { extractionId: number; markedAt: string }) | null {
    return marking.getMarks(this.#st, responseId);
  }

  /** The instructor's mark for one item (manual items included); a comment is required only to override an automatic item. */
  setOverride(responseId: number, itemId: string, awarded: number, comment?: string): void {
    marking.setOverride(this.#st, responseId, itemId, awarded, comment);
  }

  /** Remove an override (back to the automatic mark); the reason is recorded in the audit log. */
  clearOverride(responseId: number, itemId: string, comment?: string): void {
    marking.clearOverride(this.#st, responseId, itemId, comment);
  }

  addComment(responseId: number, body: string): number {
    return marking.addComment(this.#st, responseId, body);
  }

  /** The automatic item marks of every marked response of the exam, by response id (one query). */
  itemMarksOfExam(examId: string): Map<number, itemMarks.StoredItemMark[]> {
    return itemMarks.itemMarksOfExam(this.#st, examId);
  }

  /** Every override of the exam (manual items marked by hand included), with its student and question (one query). */
  overridesOfExam(examId: string): itemMarks.ExamOverride[] {
    return itemMarks.overridesOfExam(this.#st, examId);
  }

  // ---- audit log (audit.ts) and verdict cache (verdicts.ts) ------------------------------------

  /** Audit log entries, oldest first; optionally of one entity kind or key prefix. */
  auditLog(filter: { entity?: string; keyPrefix?: string; action?: string } = {}): AuditEntry[] {
    return auditLog(this.#st, filter);
  }

  /**
   * The engine's verdict store in this workspace (decide/entail's VerdictStore): proved and
   * refuted pairs kept across runs, so a re-grade after a restart decides nothing twice. Writes
   * are buffered until flushDecided() (or close).
   */
  decidedStore(): { get(key: string): unknown; put(key: string, value: unknown): void } {
    return this.#decided;
  }

  /** The canonical keys of equation sources kept in `space` (answer groups: review/groups.ts), by source. */
  canonicalKeys(space: string): Map<string, string | null> {
    return canonical.canonicalKeys(this.#st, space);
  }

  /** Keep canonical keys of equation sources in `space` (one transaction). */
  putCanonicalKeys(space: string, keys: Iterable<readonly [string, string | null]>): void {
    canonical.putCanonicalKeys(this.#st, space, keys);
  }

  /** The read and marked responses of a question with their equation sources, in import order (answer groups' worker). */
  markedLists(examId: string, questionId: string): groupLists.MarkedList[] {
    return groupLists.markedLists(this.#st, examId, questionId);
  }

  /**
   * The effective marks (item -> override, else automatic) of each marked response of a question,
   * by id: the answer groups' totals read for one question's members, not the whole class list.
   */
  questionEffectiveMarks(examId: string, questionId: string): Map<number, Record<string, number | null>> {
    return responses.questionEffectiveMarks(this.#st, examId, questionId);
  }

  /** Write the engine's buffered verdicts (one transaction). */
  flushDecided(): void {
    this.#decided.flush();
  }

  /** How many verdicts the workspace keeps (tests, diagnostics). */
  decidedCount(): number {
    return this.#decided.size();
  }

  getCachedVerdict<T>(key: string): T | undefined {
    return verdicts.getCachedVerdict<T>(this.#st, key);
  }

  putCachedVerdict(key: string, value: unknown): void {
    verdicts.putCachedVerdict(this.#st, key, value);
  }
}
