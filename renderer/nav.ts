// Navigation between the workflow's views: the types App.tsx provides and every view takes, and
// the route kept in the address (`#/review?exam=…&q=q1&manual=1&f=12`), so that Back/Forward and
// reload work in the browser mode and going back from a response finds the list as it was left
// (filters, search, sort, the focused row; the scroll is kept beside, per list).
// Kept apart from App.tsx so that views never import the component that imports them.
import type { ReviewRow } from '../shared/api.ts';
import { NO_FILTERS, SORTS, type ReviewFilters, type SortKey } from '../shared/review-filter.ts';

export type View = 'exams' | 'responses' | 'grade' | 'review' | 'response' | 'groups' | 'summary' | 'regrades' | 'export' | 'settings';
const VIEWS: readonly View[] = ['exams', 'responses', 'grade', 'review', 'response', 'groups', 'summary', 'regrades', 'export', 'settings'];

export { NO_FILTERS, filterRows, type ReviewFilters, type SortKey } from '../shared/review-filter.ts';

export type Route = {
  view: View;
  examId: string | null;
  /** The response open in the detail view. */
  responseId: string | null;
  review: ReviewFilters;
  /** The row focused in the list (the response last opened or moved to). */
  focus: string | null;
};

/** The route as the address's fragment. Only what differs from the defaults is written. */
export function routeToHash(r: Route): string {
  const p = new URLSearchParams();
  if (r.examId) p.set('exam', r.examId);
  const f = r.review;
  if (f.question !== 'all') p.set('q', f.question);
  if (f.chip !== 'all') p.set('chip', f.chip);
  if (f.onlyReview) p.set('review', '1');
  if (f.onlyManual) p.set('manual', '1');
  if (f.search) p.set('s', f.search);
  if (f.sort !== 'student') p.set('sort', f.sort);
  if (f.dir !== 1) p.set('dir', '-1');
  if (r.focus && r.view === 'review') p.set('f', r.focus);
  const path = r.view === 'response' && r.responseId ? `response/${encodeURIComponent(r.responseId)}` : r.view;
  const qs = p.toString();
  return `#/${path}${qs ? `?${qs}` : ''}`;
}

/** The route a fragment names; anything unknown falls back to the defaults (the exams view). */
export function routeFromHash(hash: string): Route {
  const m = /^#\/([^?]*)(?:\?(.*))?$/.exec(hash);
  const empty: Route = { view: 'exams', examId: null, responseId: null, review: NO_FILTERS, focus: null };
  if (!m) return empty;
  const [head, id] = m[1].split('/');
  const p = new URLSearchParams(m[2] ?? '');
  const view = (VIEWS as readonly string[]).includes(head) ? (head as View) : 'exams';
  const responseId = view === 'response' && id ? decodeURIComponent(id) : null;
  const sort = p.get('sort');
  return {
    view: view === 'response' && !responseId ? 'review' : view,
    examId: p.get('exam'),
    responseId,
    review: {
      question: p.get('q') ?? 'all',
      chip: p.get('chip') ?? 'all',
      onlyReview: p.get('review') === '1',
      onlyManual: p.get('manual') === '1',
      search: p.get('s') ?? '',
      sort: sort && (SORTS as readonly string[]).includes(sort) ? (sort as SortKey) : 'student',
      dir: p.get('dir') === '-1' ? -1 : 1,
    },
    focus: view === 'response' ? responseId : p.get('f'),
  };
}

/** Whether a response waits for the instructor: a doubtful reading, an undecided item, or a manual item still open. */
export const needsInstructor = (r: ReviewRow): boolean => r.needsReview || (r.openManual?.length ?? 0) > 0;

export type Nav = {
  examId: string | null;
  setExam(id: string | null): void;
  go(view: View): void;
  openResponse(id: string, list?: ReviewRow[]): void;
  /** The review list the detail view walks through with the keyboard. */
  queue: ReviewRow[];
  responseId: string | null;
  refreshExams(): void;
  /** The review list's filters (kept in the address). */
  review: ReviewFilters;
  setReview(f: Partial<ReviewFilters>): void;
  /** The row to focus in the review list. */
  focus: string | null;
  setFocus(id: string | null): void;
  /** Update one row of the queue after a change in the detail view (a mark typed there). */
  updateQueued(row: Pick<ReviewRow, 'responseId'> & Partial<ReviewRow>): void;
};
