// The review list's filters and sort orders (shared/review-filter.ts), used by the app's review
// index and the renderer alike: the sort by ranks gives exactly the order of the comparison the
// list has always been sorted by, ties kept in list order, both directions; the search looks in
// the student id and the excerpt, case-insensitively.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReviewRow } from '../../shared/api.ts';
import { NO_FILTERS, filterRows, inNameOrder, passes, searchText, sortByNames, sortRows, type SortKey } from '../../shared/review-filter.ts';
import { mulberry32 } from '../../electron/engine/decide/entail/rng.ts';

function rows(n: number): ReviewRow[] {
  const rnd = mulberry32(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  return Array.from({ length: n }, (_, i) => ({
    responseId: String(i + 1),
    studentId: pick(['S001', 's001', 'S010', 'S002', 'Ärnö', 'arno', 'Zoë', 'S1']),
    questionId: pick(['q1', 'q2', 'Q1', 'q10']),
    excerpt: pick(['v = 2u', 'Energy: mgh = mv^2/2', '', 'the TIME is t = 2S/u']),
    chips: pick([[], ['extractor'], ['extractor', 'needs-review'], ['blank'], ['model', 'overridden']]) as ReviewRow['chips'],
    needsReview: rnd() < 0.3,
    marks: {},
    total: rnd() < 0.2 ? null : Math.floor(rnd() * 4),
    available: 4,
    group: null,
    equationCount: 1,
  }));
}

/** The comparison the list was sorted by before (per pair, localeCompare). */
const PLAIN: Record<SortKey, (a: ReviewRow, b: ReviewRow) => number> = {
  student: (a, b) => a.studentId.localeCompare(b.studentId) || a.questionId.localeCompare(b.questionId),
  question: (a, b) => a.questionId.localeCompare(b.questionId) || a.studentId.localeCompare(b.studentId),
  total: (a, b) => (a.total ?? -1) - (b.total ?? -1),
  status: (a, b) => Number(b.needsReview) - Number(a.needsReview) || a.chips.join().localeCompare(b.chips.join()),
};

test('each sort order, both directions, is the plain comparison’s, ties in list order', () => {
  const all = rows(400);
  for (const sort of ['student', 'question', 'total', 'status'] as const)
    for (const dir of [1, -1] as const)
      assert.deepEqual(
        sortRows(all, sort, dir).map((r) => r.responseId),
        [...all].sort((a, b) => dir * PLAIN[sort](a, b)).map((r) => r.responseId),
        `${sort} ${dir}`,
      );
});

test('the search finds the student id or the excerpt, in any case; the other filters combine with it', () => {
  const all = rows(200);
  const f = { ...NO_FILTERS, search: 'time' };
  const found = all.filter((r) => passes(r, f, searchText(r)));
  assert.ok(found.length > 0);
  assert.ok(found.every((r) => r.excerpt.includes('TIME')));
  assert.deepEqual(
    all.filter((r) => passes(r, { ...f, search: 's00' }, searchText(r))).map((r) => r.responseId),
    all.filter((r) => r.studentId.toLowerCase().includes('s00')).map((r) => r.responseId),
  );
  const combined = filterRows(all, { ...NO_FILTERS, question: 'q1', chip: 'needs-review', onlyReview: true, search: 'energy', sort: 'total', dir: -1 });
  assert.ok(combined.every((r) => r.questionId === 'q1' && r.chips.includes('needs-review') && r.needsReview && r.excerpt.startsWith('Energy')));
  assert.equal(
    combined.length,
    all.filter((r) => r.questionId === 'q1' && r.chips.includes('needs-review') && r.needsReview && r.excerpt.startsWith('Energy')).length,
  );
});

test('the orders by name need only the student and the question: the same order as the whole rows', () => {
  const all = rows(400);
  for (const sort of ['student', 'question'] as const)
    for (const dir of [1, -1] as const)
      assert.deepEqual(
        sortByNames(
          all.map((r) => ({ id: r.responseId, studentId: r.studentId, questionId: r.questionId })),
          sort,
          dir,
        ).map((r) => r.id),
        sortRows(all, sort, dir).map((r) => r.responseId),
      );
});

test('names in the order the list sorts them, none ranked equal: only then may a store’s order stand for it', () => {
  assert.ok(inNameOrder(['S000001', 'S000002', 'S000010']));
  assert.ok(inNameOrder(['q1', 'q2', 'q3']));
  assert.ok(inNameOrder([]));
  // A binary order (capitals first, accents last) is not the collator's.
  assert.ok(!inNameOrder(['B', 'a']));
  assert.ok(!inNameOrder(['arno', 'zed', 'Ärnö']));
  assert.ok(!inNameOrder(['S1', 'S1']));
});
