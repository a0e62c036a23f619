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

/** Each value's rank among the distinct values in the collator's order (values it calls equal share one). */
function ranks(values: readonly string[]): number[] {
  const distinct = [...new Set(values)].sort(collator.compare);
  const at = new Map<string, number>();
  let r = -1;
  distinct.forEach((v, i) => {
    if (i === 0 || collator.compare(distinct[i - 1], v) !== 0) r++;
    at.set(v, r);
  });
  return values.map((v) => at.get(v)!);
}

/**
 * Rows sorted by `sort` in direction `dir` (a new array; stable, so ties keep their order):
 * student then question, question then student, total (not marked first), status (needing
 * review first, then by chips). Texts are ranked once each, then rows compared by number: a list
 * of 67,500 sorts in tens of milliseconds.
 */
export function sortRows(rows: readonly ReviewRow[], sort: SortKey, dir: 1 | -1): ReviewRow[] {
  if (sort === 'student' || sort === 'question') return sortByNames(rows, sort, dir);
  if (sort === 'total')
    return ordered(
      rows,
      rows.map((r) => r.total ?? -1),
      null,
      dir,
    );
  return ordered(
    rows,
    rows.map((r) => (r.needsReview ? 0 : 1)),
    ranks(rows.map((r) => r.chips.join())),
    dir,
  );
}

/**
 * The student and question orders of sortRows, which need nothing but a row's student and
 * question: the review index answers a first page in them from those alone, before it has
 * built every row (review-early-page.ts), in the very order sortRows gives the whole rows.
 */
export function sortByNames<R extends Pick<ReviewRow, 'studentId' | 'questionId'>>(rows: readonly R[], sort: 'student' | 'question', dir: 1 | -1): R[] {
  const student = ranks(rows.map((r) => r.studentId));
  const question = ranks(rows.map((r) => r.questionId));
  return sort === 'student' ? ordered(rows, student, question, dir) : ordered(rows, question, student, dir);
}

/**
 * Whether these distinct values, in another order (a database's binary order), are in the order
 * sortByNames ranks them in, with no two ranked equal: then a database sorting by them gives
 * sortByNames' order itself.
 */
export function inNameOrder(values: readonly string[]): boolean {
  for (let i = 1; i < values.length; i++) if (collator.compare(values[i - 1], values[i]) >= 0) return false;
  return true;
}

/** Rows by `first`, then `then`, in direction `dir`; ties keep their order. */
function ordered<R>(rows: readonly R[], first: number[], then: number[] | null, dir: 1 | -1): R[] {
  const order = rows.map((_, i) => i);
  order.sort((i, j) => dir * (first[i] - first[j] || (then ? then[i] - then[j] : 0)));
  return order.map((i) => rows[i]);
}

/** The review list's rows under the filters, sorted. */
export function filterRows(all: readonly ReviewRow[], f: ReviewFilters): ReviewRow[] {
  return sortRows(
    all.filter((r) => passes(r, f)),
    f.sort,
    f.dir,
  );
}
