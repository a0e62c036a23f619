// The review list's filters and sort orders: one definition, used by the app service's review
// index (electron/app/review-index.ts), which filters, searches, sorts and pages the list on the
// main-process side, and by the renderer where it still holds rows of its own (the detail view's
// queue). Pure code (no Node, no DOM).
import type { ReviewRow } from './api.ts';

export type SortKey = 'student' | 'question' | 'total' | 'status';
export const SORTS: readonly SortKey[] = ['student', 'question', 'total', 'status'];

/** The review list as the instructor left it. */
export type ReviewFilters = {
  /** A question id, or 'all'. */
  question: string;
  /** A chip, or 'all'. */
  chip: string;
  /** Only responses needing review. */
  onlyReview: boolean;
  /** Only responses with a manual item still open (the keyboard grading filter). */
  onlyManual: boolean;
  search: string;
  sort: SortKey;
  dir: 1 | -1;
};

export const NO_FILTERS: ReviewFilters = { question: 'all', chip: 'all', onlyReview: false, onlyManual: false, search: '', sort: 'student', dir: 1 };

/** The text a search looks in: the student's id and the start of the answer, lower-cased. */
export const searchText = (r: Pick<ReviewRow, 'studentId' | 'excerpt'>): string => `${r.studentId.toLowerCase()}\n${r.excerpt.toLowerCase()}`;

/**
 * Whether a row passes the filters. `text` is searchText(r) when the caller keeps it (the index
 * computes it once per row). The search is a substring of the student id or of the excerpt.
 */
export function passes(r: ReviewRow, f: Omit<ReviewFilters, 'sort' | 'dir'>, text?: string): boolean {
  if (f.question !== 'all' && r.questionId !== f.question) return false;
  if (f.chip !== 'all' && !(r.chips as string[]).includes(f.chip)) return false;
  if (f.onlyReview && !r.needsReview) return false;
  if (f.onlyManual && !((r.openManual?.length ?? 0) > 0)) return false;
  const needle = f.search.toLowerCase();
  if (!needle) return true;
  // A search box gives one line: a needle without a line break can't match across the two parts.
  if (text !== undefined && !needle.includes('\n')) return text.includes(needle);
  return r.studentId.toLowerCase().includes(needle) || r.excerpt.toLowerCase().includes(needle);
}

/** Text compared the way the user's language sorts it (one collator: much cheaper than localeCompare per pair). */
const collator = new Intl.Collator();

/** The comparison of each sort order (ascending); `dir` -1 reverses it, ties keep the list's order. */
export const COMPARE: Record<SortKey, (a: ReviewRow, b: ReviewRow) => number> = {
  student: (a, b) => collator.compare(a.studentId, b.studentId) || collator.compare(a.questionId, b.questionId),
  question: (a, b) => collator.compare(a.questionId, b.questionId) || collator.compare(a.studentId, b.studentId),
  total: (a, b) => (a.total ?? -1) - (b.total ?? -1),
  status: (a, b) => Number(b.needsReview) - Number(a.needsReview) || collator.compare(a.chips.join(), b.chips.join()),
};

/** Rows sorted by `sort` in direction `dir` (a new array; a stable sort, so ties keep their order). */
export function sortRows(rows: readonly ReviewRow[], sort: SortKey, dir: 1 | -1): ReviewRow[] {
  const cmp = COMPARE[sort];
  return [...rows].sort((a, b) => dir * cmp(a, b));
}

/** The review list's rows under the filters, sorted. */
export function filterRows(all: readonly ReviewRow[], f: ReviewFilters): ReviewRow[] {
  return sortRows(
    all.filter((r) => passes(r, f)),
    f.sort,
    f.dir,
  );
}
