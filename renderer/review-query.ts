// The review list's filters as a review.list request: the main process filters, searches, sorts
// and pages (electron/app/review-index.ts), so a list of any size sends only the rows asked for.
import { api } from './api.ts';
import { CHIPS, type ApiRequest, type Chip, type ReviewRow } from '../shared/api.ts';
import type { ReviewFilters } from '../shared/review-filter.ts';

/** A list this long or shorter is held whole in the renderer and filtered at once as the instructor types. */
export const WHOLE_LIST = 2000;
/** Rows per page of a longer list, fetched as they come into view. */
export const PAGE = 200;

/** The request's filter part for the list's filters (a chip the API doesn't know is no filter). */
export function filtersRequest(f: ReviewFilters): Omit<ApiRequest<'review.list'>, 'examId'> {
  return {
    ...(f.question !== 'all' ? { questionId: f.question } : {}),
    ...((CHIPS as readonly string[]).includes(f.chip) ? { chip: f.chip as Chip } : {}),
    ...(f.onlyReview ? { onlyReview: true } : {}),
    ...(f.onlyManual ? { onlyManual: true } : {}),
    ...(f.search ? { search: f.search } : {}),
    sort: f.sort,
    dir: f.dir,
  };
}

/**
 * The rows around one response of the filtered list (for the detail view's queue when it is
 * opened from the address): where the response is, then up to `size` rows around it.
 */
export async function rowsAround(examId: string, f: ReviewFilters, responseId: string, size = 500): Promise<ReviewRow[]> {
  const at = await api['review.list']({ examId, ...filtersRequest(f), locate: responseId, limit: 1 });
  const offset = Math.max(0, (at.located ?? 0) - Math.floor(size / 2));
  return (await api['review.list']({ examId, ...filtersRequest(f), offset, limit: size })).rows;
}
