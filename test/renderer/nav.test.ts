// The renderer's route in the address (renderer/nav.ts) and the LaTeX detection of student text
// (renderer/student-latex.tsx): pure functions, tested without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_FILTERS, filterRows, needsInstructor, routeFromHash, routeToHash, type Route } from '../../renderer/nav.ts';
import { latexParts, looksLikeLatex } from '../../renderer/student-latex.tsx';
import type { ReviewRow } from '../../shared/api.ts';

test('a route survives the address: view, exam, filters, search, sort and focus', () => {
  const r: Route = {
    view: 'review',
    examId: 'mechanics 2026',
    responseId: null,
    review: { question: 'q1', chip: 'needs-review', onlyReview: true, onlyManual: true, search: 'S0 & co', sort: 'total', dir: -1 },
    focus: '12',
  };
  assert.deepEqual(routeFromHash(routeToHash(r)), r);
  const detail: Route = { ...r, view: 'response', responseId: '12', focus: '12' };
  assert.match(routeToHash(detail), /^#\/response\/12\?/);
  assert.deepEqual(routeFromHash(routeToHash(detail)), detail);
  // Defaults are not written; nonsense falls back to them.
  assert.equal(routeToHash({ view: 'summary', examId: null, responseId: null, review: NO_FILTERS, focus: null }), '#/summary');
  assert.deepEqual(routeFromHash('#/nowhere?sort=evil&dir=9'), { view: 'exams', examId: null, responseId: null, review: NO_FILTERS, focus: null });
  assert.equal(routeFromHash('').view, 'exams');
  assert.equal(routeFromHash('#/response').view, 'review', 'a response route without an id is the list');
});

const row = (id: string, studentId: string, extra: Partial<ReviewRow> = {}): ReviewRow => ({
  responseId: id,
  studentId,
  questionId: 'q1',
  excerpt: '',
  chips: [],
  needsReview: false,
  marks: {},
  total: 0,
  available: 1,
  group: null,
  equationCount: 0,
  ...extra,
});

test('the open-manual filter keeps the responses with a manual item still open; "needing you" includes them', () => {
  const rows = [row('1', 'S2', { openManual: ['f'] }), row('2', 'S1'), row('3', 'S3', { needsReview: true }), row('4', 'S0', { openManual: ['f'] })];
  assert.deepEqual(
    filterRows(rows, { ...NO_FILTERS, onlyManual: true }).map((r) => r.responseId),
    ['4', '1'],
  );
  assert.deepEqual(
    rows.filter(needsInstructor).map((r) => r.responseId),
    ['1', '3', '4'],
  );
});

test('LaTeX typed by a student is found and split into maths and prose', () => {
  assert.equal(looksLikeLatex('t = 2S/u so v = u'), false);
  assert.equal(looksLikeLatex('we get $t = \\frac{2S}{u}$ here'), true);
  assert.equal(looksLikeLatex('v = \\sqrt{u^2 + w^2}'), true);
  assert.deepEqual(latexParts('so $t = \\frac{2S}{u}$ and'), [
    { kind: 'text', text: 'so ' },
    { kind: 'math', text: 't = \\frac{2S}{u}' },
    { kind: 'text', text: ' and' },
  ]);
  // An undelimited line of maths is maths; a line of prose that names a command stays prose.
  assert.deepEqual(latexParts('v = \\sqrt{u^2 + w^2}\nbecause the speeds add')[0], { kind: 'display', text: 'v = \\sqrt{u^2 + w^2}' });
  assert.equal(latexParts('I would write \\frac here but cannot remember it')[0].kind, 'text');
});
