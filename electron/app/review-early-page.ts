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
import { sortByNames } from '../../shared/review-filter.ts';
import type { Workspace } from '../engine/store/workspace.ts';
import { entryOf, type ReviewQuery } from './review-index.ts';

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
  const keys = ws.responseKeys(exam.id);
  const question = q.question !== undefined && q.question !== 'all' ? q.question : null;
  const passing = question === null ? keys : keys.filter((k) => k.questionId === question);
  const order = q.sort === 'student' || q.sort === 'question' ? sortByNames(passing, q.sort, q.dir ?? 1) : passing;
  const offset = q.offset ?? 0;
  const page = order.slice(offset, offset + (q.limit ?? 0));
  const ids = page.map((k) => k.id);
  const read = new Map(ws.listResponses(exam.id, { ids }).map((r) => [r.id, r]));
  const texts = ws.textsOf(ids);
  const rows: ReviewRow[] = [];
  for (const id of ids) {
    const r = read.get(id);
    if (!r) return null; // gone since (another process wrote the workspace): the index answers instead
    rows.push(entryOf(r, exam, texts.get(id) ?? null).row);
  }
  const located = q.locate === undefined ? -1 : order.findIndex((k) => String(k.id) === q.locate);
  return { rows, total: order.length, located: located < 0 ? null : located, all: keys.length };
}
