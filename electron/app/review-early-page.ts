// A page of the review list answered from the workspace while the review index still reads the
// whole list (review-index.ts `complete`: seconds at 67,500 responses), so the list opens at once.
// Only where the answer is exact without every row: the list in import order, by student or by
// question, whole or one question's, with no other filter and no search. Those orders and that
// filter rest on what never changes for a response (its id, student and question: one light
// query, `responseKeys`), sorted by the very function the index sorts by (shared/review-filter.ts
// `sortByNames`); only the page's responses are read, and their rows built by the index's own
// code (`entryOf`: views.ts `row`, the engine's review state). What needs every row (how many need
// review, have a manual item open, are not graded) is not given: the caller says it is still
// being counted.
import type { Exam } from '../../shared/exam.ts';
import type { ReviewRow } from '../../shared/api.ts';
import { inNameOrder, sortByNames } from '../../shared/review-filter.ts';
import type { Workspace } from '../engine/store/workspace.ts';
import { entryOf, type ReviewQuery } from './review-index.ts';

type Key = { id: number; studentId: string; questionId: string };

/**
 * The exam's responses as id, student and question (what never changes for a response), and the
 * orders sorted from them, kept while no response of the exam comes or goes (checked against the
 * workspace's change log at each use), so that each page asked while the list is read does not
 * read and sort them again.
 */
class ResponseKeys {
  #keys: Key[] = [];
  #members = new Set<number>();
  #seen = -1;
  #orders = new Map<string, Key[]>();

  constructor(
    readonly ws: Workspace,
    readonly examId: string,
  ) {}

  #current(): Key[] {
    if (this.#seen >= 0) {
      const changed = this.ws.reviewChangesSince(this.#seen);
      if (changed.responseIds.length > 0) {
        const present = new Set(this.ws.examResponsesAmong(this.examId, changed.responseIds));
        if (changed.responseIds.some((id) => present.has(id) !== this.#members.has(id))) this.#seen = -1;
        else this.#seen = changed.last;
      }
    }
    if (this.#seen < 0) {
      this.#seen = this.ws.lastReviewChange();
      this.#keys = this.ws.responseKeys(this.examId);
      this.#members = new Set(this.#keys.map((k) => k.id));
      this.#orders.clear();
    }
    return this.#keys;
  }

  size(): number {
    return this.#current().length;
  }

  /** The responses (of one question, or all), in import order or sorted by name. */
  order(question: string | undefined, sort: 'student' | 'question' | undefined, dir: 1 | -1): Key[] {
    const keys = this.#current();
    const k = `${question ?? ''}\u0000${sort ?? ''}\u0000${dir}`;
    let order = this.#orders.get(k);
    if (!order) {
      const passing = question === undefined ? keys : keys.filter((x) => x.questionId === question);
      this.#orders.set(k, (order = sort ? sortByNames(passing, sort, dir) : passing));
    }
    return order;
  }
}

const held = new WeakMap<Workspace, Map<string, ResponseKeys>>();

function keysOf(ws: Workspace, examId: string): ResponseKeys {
  let byExam = held.get(ws);
  if (!byExam) held.set(ws, (byExam = new Map()));
  let keys = byExam.get(examId);
  if (!keys) byExam.set(examId, (keys = new ResponseKeys(ws, examId)));
  return keys;
}

/** Drops what earlyPage keeps for the exam (its list is read: the index answers now). */
export function forgetEarly(ws: Workspace, examId: string): void {
  held.get(ws)?.delete(examId);
}

export type EarlyPage = { rows: ReviewRow[]; total: number; located: number | null; all: number };

/** Whether earlyPage can answer the query exactly (no filter but a question, no search, no sort but by name). */
export function answersEarly(q: ReviewQuery): boolean {
  if ((q.chip && q.chip !== 'all') || q.onlyReview || q.onlyManual || q.search) return false;
  if (q.responseIds !== undefined || q.studentId !== undefined || q.limit === undefined) return false;
  return q.sort === undefined || q.sort === 'student' || q.sort === 'question';
}

/** The page the review index would give for the query, read from the workspace; null where that can't be exact. */
export function earlyPage(ws: Workspace, exam: Exam, q: ReviewQuery): EarlyPage | null {
  if (!answersEarly(q)) return null;
  const question = q.question !== undefined && q.question !== 'all' ? q.question : undefined;
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 0;
  // In import order, nothing to locate: the page itself, and two counts.
  if (q.sort === undefined && q.locate === undefined) {
    const list = ws.listResponses(exam.id, { ...(question !== undefined ? { questionId: question } : {}), offset, limit });
    const texts = ws.textsOf(list.map((r) => r.id));
    const all = ws.countResponses(exam.id);
    return {
      rows: list.map((r) => entryOf(r, exam, texts.get(r.id) ?? null).row),
      total: question === undefined ? all : ws.countResponses(exam.id, question),
      located: null,
      all,
    };
  }
  const sort = q.sort === 'student' || q.sort === 'question' ? q.sort : undefined;
  // By name, nothing to locate, where the store's order of the names is the list's (ids such as
  // S000123: almost always): the page's ids from the store's index, not every response's.
  if (sort && q.locate === undefined) {
    const names = ws.responseNames(exam.id);
    if (inNameOrder(names.students) && inNameOrder(names.questions)) {
      const ids = ws.responsesByName(exam.id, { ...(question !== undefined ? { questionId: question } : {}), by: sort, desc: q.dir === -1, offset, limit });
      const rows = rowsOf(ws, exam, ids);
      const all = ws.countResponses(exam.id);
      return rows && { rows, total: question === undefined ? all : ws.countResponses(exam.id, question), located: null, all };
    }
  }
  const keys = keysOf(ws, exam.id);
  const order = keys.order(question, sort, q.dir ?? 1);
  const ids = order.slice(offset, offset + limit).map((k) => k.id);
  const rows = rowsOf(ws, exam, ids);
  if (!rows) return null;
  const located = q.locate === undefined ? -1 : order.findIndex((k) => String(k.id) === q.locate);
  return { rows, total: order.length, located: located < 0 ? null : located, all: keys.size() };
}

/** The rows of these responses, in this order (null where one is gone since: another process wrote the workspace). */
function rowsOf(ws: Workspace, exam: Exam, ids: readonly number[]): ReviewRow[] | null {
  const read = new Map(ws.listResponses(exam.id, { ids }).map((r) => [r.id, r]));
  const texts = ws.textsOf(ids);
  const rows: ReviewRow[] = [];
  for (const id of ids) {
    const r = read.get(id);
    if (!r) return null;
    rows.push(entryOf(r, exam, texts.get(id) ?? null).row);
  }
  return rows;
}
