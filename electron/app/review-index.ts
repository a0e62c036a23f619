// The review list of one exam, kept in the main process so that a list of 67,500 responses is
// filtered, searched, sorted and paged here and only the page crosses to the renderer.
//
// Each row is the review list's row (views.ts `row`: the review state and chips are the engine's,
// review/state.ts). The whole list is read once, a slice of responses at a time; after that it reads
// again only the responses the workspace says changed (`reviewChangesSince`: a change log kept by
// triggers, so no write path can leave a row stale), or everything when the exam itself changed or
// most rows did. Sort orders are kept per order once computed, and dropped when a change can move a row.
//
// Reading the whole list takes seconds at 67,500 responses (SQL and building each row): `complete()`
// reads it in slices with a turn of the event loop between them, so other requests are answered
// meanwhile (the review handler answers the list's first page from the store until then:
// review-early-page.ts); `refresh()` reads what is left at once, for callers that need every row now.
// Rows read in a later slice may be newer than the change number the read started at: the changes
// since it are read again once it is done, which changes nothing for a row already current.
import type { ReviewRow } from '../../shared/api.ts';
import type { Exam } from '../../shared/exam.ts';
import { passes, searchText, sortRows, type ReviewFilters, type SortKey } from '../../shared/review-filter.ts';
import type { ResponseSummary, Workspace } from '../engine/store/workspace.ts';
import { performance } from 'node:perf_hooks';
import { row } from './views.ts';

/** What a query asks for: the list's filters (absent: none), an order (absent: import order), one page. */
export type ReviewQuery = Partial<Omit<ReviewFilters, 'sort' | 'dir'>> & {
  sort?: SortKey;
  dir?: 1 | -1;
  /** Only these responses (ids as the API gives them) / only this student's. */
  responseIds?: readonly string[];
  studentId?: string;
  offset?: number;
  limit?: number;
  /** A response whose place in the filtered, sorted list is wanted (the focused row). */
  locate?: string;
};

/** Counts over the exam's whole list (whatever the filters), for the review view's lead line. */
export type ReviewCounts = { all: number; needing: number; openManual: number; notGraded: number };

export type ReviewPage = { rows: ReviewRow[]; total: number; counts: ReviewCounts; located: number | null };

type Entry = { row: ReviewRow; text: string };

/** A read of the whole list under way: the exam it reads under, the change number it started at, the rows read so far. */
type Read = { exam: Exam; key: string; seen: number; afterId: number; entries: Map<number, Entry>; order: number[] };

/**
 * How a whole read is sliced: the first slice's size; each next one sized from the last one's
 * time to take about `ms` (between a quarter and sixteen times the first's), so a request waits
 * for at most about one slice whatever the machine's load; lists of up to `atOnceUpTo` responses
 * are read at once by the review handler (a fraction of a second).
 */
export type Slicing = { first: number; ms: number; atOnceUpTo: number };
export const SLICING: Slicing = { first: 250, ms: 30, atOnceUpTo: 5000 };

/** The review list's row of a response and the text a search looks in. */
export function entryOf(r: ResponseSummary, exam: Exam, text: string | null): Entry {
  const available = exam.questions.find((q) => q.id === r.questionId)?.scheme.reduce((s, i) => s + i.marks, 0) ?? 0;
  const x = row(r, exam, text, available);
  return { row: x, text: searchText(x) };
}

/** One turn of the event loop: requests waiting go first. */
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** When more responses than this share of the list changed, reading the whole list again is cheaper than one by one. */
const REBUILD_SHARE = 0.25;

/** Whether two rows of a response give answer groups the same input: the same list, both marked or both not. */
const sameList = (a: ReviewRow, b: ReviewRow): boolean => a.group === b.group && (a.total === null) === (b.total === null);

export class ReviewIndex {
  /** The exam the rows were computed under (its scheme decides states, chips and what is available). */
  #examKey = '';
  /** The workspace's change number the rows are current with. */
  #seen = 0;
  #entries = new Map<number, Entry>();
  /** Ids in import order, and per sort order (`student:1`); dropped when a change can move rows. */
  #importOrder: number[] | null = null;
  #sorted = new Map<string, number[]>();
  #counts: ReviewCounts | null = null;
  /** Bumped at each full read; a question's version bumped whenever one of its rows changes (answer groups are kept per version). */
  #generation = 0;
  #questionVersions = new Map<string, number>();
  /** Per question, bumped when a row's list or whether it is marked may have changed (listsVersion). */
  #listVersions = new Map<string, number>();

  /** The whole read under way (null: none; the rows are those of the last one, kept current). */
  #read: Read | null = null;
  /** The read in slices under way (complete()). */
  #completing: Promise<void> | null = null;

  constructor(
    readonly ws: Workspace,
    readonly examId: string,
    readonly slicing: Slicing = SLICING,
  ) {}

  /** Whether the rows can be brought up to date without reading the whole list (then refresh() is quick). */
  current(exam: Exam): boolean {
    return !this.#wholeReadDue(JSON.stringify(exam));
  }

  #wholeReadDue(key: string): boolean {
    return this.#changesUnlessWholeRead(key) === null;
  }

  /** The responses changed since the rows were read, or null when the whole list is to be read (again). */
  #changesUnlessWholeRead(key: string): ReturnType<Workspace['reviewChangesSince']> | null {
    if (this.#read || key !== this.#examKey) return null;
    const changes = this.ws.reviewChangesSince(this.#seen);
    return changes.responseIds.length > Math.max(1000, this.#entries.size * REBUILD_SHARE) ? null : changes;
  }

  /** Bring the rows up to date with the workspace: nothing to do, the changed rows, or all of them (what a read under way has left, at once). */
  refresh(exam: Exam): this {
    const key = JSON.stringify(exam);
    // The change log read once per refresh (every list request, every keystroke asks for one).
    let changes = this.#changesUnlessWholeRead(key);
    if (!changes) {
      const r = this.#readFor(exam, key);
      while (this.#read === r) this.#step(r, Infinity);
      changes = this.ws.reviewChangesSince(this.#seen);
    }
    if (changes.responseIds.length === 0) return this;
    const list = this.ws.listResponses(this.examId, { ids: changes.responseIds });
    const texts = this.ws.textsOf(list.map((r) => r.id));
    const found = new Set<number>();
    let moved = false;
    for (const r of list) {
      found.add(r.id);
      const was = this.#entries.get(r.id);
      if (!was) moved = true;
      const now = entryOf(r, exam, texts.get(r.id) ?? null);
      this.#entries.set(r.id, now);
      this.#bump(r.questionId, !was || !sameList(was.row, now.row));
    }
    // A changed id of this exam that the workspace no longer lists was deleted.
    for (const id of changes.responseIds) {
      const gone = !found.has(id) && this.#entries.get(id);
      if (!gone) continue;
      this.#entries.delete(id);
      this.#bump(gone.row.questionId, true);
      moved = true;
    }
    this.#seen = changes.last;
    if (list.length === 0 && !moved) return this; // only other exams' responses changed
    this.#counts = null;
    // Student and question never change for a response: those orders hold unless rows came or went.
    if (moved) {
      this.#importOrder = null;
      this.#sorted.clear();
    } else for (const k of [...this.#sorted.keys()]) if (!k.startsWith('student:') && !k.startsWith('question:')) this.#sorted.delete(k);
    return this;
  }

  /**
   * Brings the rows up to date, reading the whole list (if need be) a slice at a time with a turn
   * of the event loop between slices; one read at a time, whoever asks. A scheme change meanwhile
   * starts the read again under the new exam.
   */
  complete(): Promise<void> {
    this.#completing ??= (async () => {
      const { first, ms } = this.slicing;
      let size = first;
      try {
        for (;;) {
          // A turn first: the request that asked is answered before the first slice is read.
          await turn();
          const exam = this.ws.getExam(this.examId);
          if (!exam) return;
          const key = JSON.stringify(exam);
          if (!this.#wholeReadDue(key)) {
            this.refresh(exam);
            return;
          }
          const t = performance.now();
          this.#step(this.#readFor(exam, key), size);
          const took = Math.max(1, performance.now() - t);
          size = Math.max(1, Math.round(Math.min(first * 16, Math.max(first / 4, (size * ms) / took))));
        }
      } finally {
        this.#completing = null;
      }
    })();
    return this.#completing;
  }

  /** The read in slices under way, if any. */
  reading(): Promise<void> | null {
    return this.#completing;
  }

  /** The whole read under this exam: the one under way, or a new one. */
  #readFor(exam: Exam, key: string): Read {
    if (this.#read?.key !== key) this.#read = { exam, key, seen: this.ws.lastReviewChange(), afterId: 0, entries: new Map(), order: [] };
    return this.#read;
  }

  /** Reads up to `size` more responses of the whole read; once none is left, its rows become the index's. */
  #step(r: Read, size: number): void {
    // All at once from the start: the exam's list and texts in bulk; else the next slice (by id, after the last read).
    const bulk = r.afterId === 0 && !Number.isFinite(size);
    const list = bulk
      ? this.ws.listResponses(this.examId)
      : this.ws.listResponses(this.examId, { afterId: r.afterId, limit: Number.isFinite(size) ? size : 2 ** 31 });
    if (list.length > 0) {
      const texts = bulk ? this.ws.responseTexts(this.examId) : this.ws.textsOf(list.map((x) => x.id));
      for (const x of list) {
        r.entries.set(x.id, entryOf(x, r.exam, texts.get(x.id) ?? null));
        r.order.push(x.id);
      }
      r.afterId = list[list.length - 1].id;
      if (list.length >= size) return;
    }
    this.#entries = r.entries;
    this.#examKey = r.key;
    this.#seen = r.seen;
    this.#importOrder = r.order;
    this.#sorted.clear();
    this.#counts = null;
    this.#generation++;
    this.#questionVersions.clear();
    this.#listVersions.clear();
    this.#read = null;
  }

  /** A row of the question changed; `lists`: its list, or whether it is marked, may have (see listsVersion). */
  #bump(questionId: string, lists: boolean): void {
    this.#questionVersions.set(questionId, (this.#questionVersions.get(questionId) ?? 0) + 1);
    if (lists) this.#listVersions.set(questionId, (this.#listVersions.get(questionId) ?? 0) + 1);
  }

  /** Changes whenever a row of the question changes (for results computed from the question's rows). */
  questionVersion(questionId: string): string {
    return `${this.#generation}:${this.#questionVersions.get(questionId) ?? 0}`;
  }

  /**
   * Changes whenever the question's rows come or go, or one's equation list or whether it is
   * marked changes: what answer groups are formed from (a mark typed changes the question's
   * version, not this, so the groups' members stand and only their totals are read again).
   */
  listsVersion(questionId: string): string {
    return `${this.#generation}:${this.#listVersions.get(questionId) ?? 0}`;
  }

  /** One response's row (its id as the API gives it), or undefined when the exam has no such response. */
  row(responseId: string): ReviewRow | undefined {
    return this.#entries.get(Number(responseId))?.row;
  }

  /** Every row, in import order. */
  rows(): ReviewRow[] {
    return this.#order().map((id) => this.#entries.get(id)!.row);
  }

  #order(): number[] {
    this.#importOrder ??= [...this.#entries.keys()].sort((a, b) => a - b);
    return this.#importOrder;
  }

  #sortedIds(sort: SortKey, dir: 1 | -1): number[] {
    const k = `${sort}:${dir}`;
    let ids = this.#sorted.get(k);
    if (!ids) {
      ids = sortRows(this.rows(), sort, dir).map((r) => Number(r.responseId));
      this.#sorted.set(k, ids);
    }
    return ids;
  }

  counts(): ReviewCounts {
    if (!this.#counts) {
      const c = { all: 0, needing: 0, openManual: 0, notGraded: 0 };
      for (const { row: r } of this.#entries.values()) {
        c.all++;
        if (r.needsReview) c.needing++;
        if ((r.openManual?.length ?? 0) > 0) c.openManual++;
        if (r.chips.includes('not-graded')) c.notGraded++;
      }
      this.#counts = c;
    }
    return this.#counts;
  }

  /** One page of the list under the filters, how many rows pass them, and where `locate` is among those. */
  query(q: ReviewQuery): ReviewPage {
    const f = { question: q.question ?? 'all', chip: q.chip ?? 'all', onlyReview: !!q.onlyReview, onlyManual: !!q.onlyManual, search: q.search ?? '' };
    const only = q.responseIds ? new Set(q.responseIds.map(Number)) : null;
    const ids = only && only.size < 5000 ? [...only].sort((a, b) => a - b) : this.#order();
    const order = q.sort ? this.#sortedIds(q.sort, q.dir ?? 1) : ids;
    const matched: ReviewRow[] = [];
    for (const id of order) {
      if (only && !only.has(id)) continue;
      const e = this.#entries.get(id);
      if (!e || (q.studentId !== undefined && e.row.studentId !== q.studentId) || !passes(e.row, f, e.text)) continue;
      matched.push(e.row);
    }
    const offset = q.offset ?? 0;
    const located = q.locate === undefined ? -1 : matched.findIndex((r) => r.responseId === q.locate);
    return {
      rows: offset === 0 && q.limit === undefined ? matched : matched.slice(offset, q.limit === undefined ? undefined : offset + q.limit),
      total: matched.length,
      counts: this.counts(),
      located: located < 0 ? null : located,
    };
  }
}

/** The review index of each exam of one workspace, refreshed when asked for. */
export class ReviewIndexes {
  readonly #byExam = new Map<string, ReviewIndex>();

  constructor(
    readonly ws: Workspace,
    /** How a whole read is sliced (ReviewIndex.complete). */
    readonly slicing: Slicing = SLICING,
  ) {}

  /** The exam's index, brought up to date with the workspace (reading the whole list at once if need be). */
  of(exam: Exam): ReviewIndex {
    return this.held(exam.id).refresh(exam);
  }

  /** Once the reads in slices under way are done (tests, the bench). */
  async reading(): Promise<void> {
    await Promise.all([...this.#byExam.values()].map((i) => i.reading()?.catch(() => undefined)));
  }

  /** The exam's index as it stands, not brought up to date: whether it is current, its read in slices. */
  held(examId: string): ReviewIndex {
    let index = this.#byExam.get(examId);
    if (!index) this.#byExam.set(examId, (index = new ReviewIndex(this.ws, examId, this.slicing)));
    return index;
  }
}
