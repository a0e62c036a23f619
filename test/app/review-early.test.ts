// A long review list read in slices (electron/app/review-index.ts `complete`) and its first page
// answered before it is read (review-early-page.ts): the rows read in slices are the rows read at
// once and the rows the views build from the store, for a varied workspace; every early page is
// the page the complete index gives (import order, by student, by question, one question,
// located), including for student ids the collator orders otherwise than the store; the API says
// the counts are still being counted and never gives one until the list is read; a filter asked
// meanwhile waits for the read; a change made during the read shows once it is done.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AppService } from '../../electron/app/service.ts';
import { ReviewIndex } from '../../electron/app/review-index.ts';
import { earlyPage } from '../../electron/app/review-early-page.ts';
import { row } from '../../electron/app/views.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import type { Workspace } from '../../electron/engine/store/workspace.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Exam } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { FakeEngine } from '../engine/fake-engine.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const examJson = (id: string, manualMarks = 1) => ({
  format: 'exam.v1',
  id,
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
      ],
      target: 'v',
      scheme: [
        { id: 'a', marks: 2, match: 'answer', accept: ['Eq(v, 2*u)'] },
        { id: 'm', marks: manualMarks, manual: true },
      ],
    },
    { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] },
  ],
});
const answers: Record<string, string[]> = { q1: ['Eq(v, 2*u)', 'Eq(v, u)', 'Eq(2*v, 4*u)'], q2: ['Eq(x, 1)', 'Eq(x, 2)'] };

/** An exam's class, varied: read and marked, partial, flagged, blank, not read, manual marks, overrides, regrade requests. */
async function fill(ws: Workspace, examId: string, students: string[]): Promise<void> {
  const exam = validateExam(examJson(examId));
  ws.importExam(exam.exam);
  // Imported question-major and students shuffled, so import order is neither order by name.
  const rows = ['q2', 'q1'].flatMap((q) =>
    students.map((s, i) => ({ studentId: s, questionId: q, text: i % 9 === 0 ? '' : `${s} on ${q}: see working ${i}` })),
  );
  ws.importResponses(examId, rows);
  const engine = new FakeEngine();
  const list = ws.listResponses(examId);
  const batch: { responseId: number; extraction: Extraction; reader: string }[] = [];
  list.forEach((r, k) => {
    if (k % 13 === 5) return;
    const source = answers[r.questionId][k % answers[r.questionId].length];
    const blank = k % 9 === 0;
    batch.push({
      responseId: r.id,
      reader: 'plain',
      extraction: {
        equations: blank ? [] : [{ source }],
        status: blank ? 'blank' : k % 7 === 3 ? 'partial' : 'read',
        source: 'embedded',
        flags: k % 11 === 4 ? ['addresses-marker'] : [],
        unread: [],
        notes: [],
      },
    });
  });
  const xids = ws.saveExtractions(batch);
  const marked = [];
  for (let j = 0; j < batch.length; j++) {
    if (j % 17 === 8) continue; // read, not marked
    const b = batch[j];
    const q = list.find((r) => r.id === b.responseId)!.questionId;
    const eqs = b.extraction.equations.map((e) => parseEquationOrThrow(e.source));
    marked.push({ responseId: b.responseId, extractionId: xids[j], marks: await markEquations(engine, exam.questions.get(q)!, eqs) });
  }
  assert.deepEqual(ws.saveMarksBatch(marked), []);
  const q1 = ws.listResponses(examId, { questionId: 'q1' }).filter((r) => r.marks);
  q1.filter((_, k) => k % 4 === 0).forEach((r) => ws.setOverride(r.id, 'm', 1));
  ws.setOverride(q1[3].id, 'a', 0, 'the working does not support it');
  ws.addRegradeRequest(q1[5].id, 'please look again', '2026-11-20');
}

const current = (ws: Workspace, examId: string): Exam => validateExam(ws.getExam(examId)!).exam;

/** The rows as the views build them straight from the store (the list as it was built before the index). */
function viewRows(ws: Workspace, exam: Exam) {
  const texts = ws.responseTexts(exam.id);
  return ws.listResponses(exam.id).map((r) =>
    row(
      r,
      exam,
      texts.get(r.id) ?? null,
      exam.questions.find((q) => q.id === r.questionId)!.scheme.reduce((s, i) => s + i.marks, 0),
    ),
  );
}

// Students the collator orders as the store does (S001…), and ones it orders otherwise (case, accents, numbers).
const PLAIN = Array.from({ length: 30 }, (_, i) => `S${String((i * 7) % 30).padStart(3, '0')}`);
const MIXED = ['b07', 'B07x', 'a10', 'a9', 'Ärnö', 'arno', 'Zoë', 'zed', 'S1', 's1x', 'élan', 'eve', 'Émile', 'ω1', '10', '9'];

describe('a long review list read in slices, its first page before', () => {
  let service: AppService;
  const { call } = serviceApi(() => service);
  // Read 7 responses at a time (then up to 16 times that), at once only up to 10: these lists are read in slices.
  const slicing = { first: 7, ms: 1000, atOnceUpTo: 10 };

  before(async () => {
    service = openService(':memory:', { reviewSlicing: slicing });
    await fill(service.ws, 'plain', PLAIN);
    await fill(service.ws, 'mixed', MIXED);
  });
  after(async () => {
    await service?.close();
  });

  it('the rows read in slices are the rows read at once and the rows the views build, in the same order', async () => {
    const ws = service.ws;
    for (const examId of ['plain', 'mixed']) {
      const exam = current(ws, examId);
      const sliced = new ReviewIndex(ws, examId, slicing);
      await sliced.complete();
      const once = new ReviewIndex(ws, examId).refresh(exam);
      const views = viewRows(ws, exam);
      assert.ok(views.length > 30);
      assert.equal(JSON.stringify(sliced.rows()), JSON.stringify(views), `${examId}: sliced`);
      assert.equal(JSON.stringify(once.rows()), JSON.stringify(views), `${examId}: at once`);
      assert.deepEqual(sliced.counts(), once.counts());
      // The workspace has each kind of row.
      for (const chip of ['not-graded', 'blank', 'overridden', 'regrade', 'needs-review'] as const)
        assert.ok(
          views.some((r) => r.chips.includes(chip)),
          `${examId} has ${chip}`,
        );
      assert.ok(views.some((r) => (r.openManual?.length ?? 0) > 0));
    }
  });

  it('every early page is the complete index’s page: import order, by student or question either way, one question, located', async () => {
    const ws = service.ws;
    for (const examId of ['plain', 'mixed']) {
      const exam = current(ws, examId);
      const index = new ReviewIndex(ws, examId).refresh(exam);
      const all = index.rows();
      for (const sort of [undefined, 'student', 'question'] as const)
        for (const dir of [1, -1] as const)
          for (const question of [undefined, 'q1'])
            for (const offset of [0, 5, all.length - 3]) {
              const q = { ...(sort ? { sort, dir } : {}), ...(question ? { question } : {}), offset, limit: 6 };
              const want = index.query(q);
              const got = earlyPage(ws, exam, q)!;
              const what = `${examId} ${JSON.stringify(q)}`;
              assert.ok(got, what);
              assert.equal(JSON.stringify(got.rows), JSON.stringify(want.rows), what);
              assert.equal(got.total, want.total, what);
              assert.equal(got.all, all.length, what);
              // Where a row is (the focused row), from anywhere in the list.
              const target = index.query({ ...q, offset: 0, limit: undefined }).rows.at(-2)!;
              const located = earlyPage(ws, exam, { ...q, locate: target.responseId })!;
              assert.equal(located.located, want.total - 2, what);
              assert.equal(JSON.stringify(located.rows), JSON.stringify(want.rows), what);
            }
      // What needs every row is not answered early.
      for (const q of [{ onlyReview: true }, { search: 's0' }, { chip: 'blank' as const }, { sort: 'total' as const }, { responseIds: ['1'] }])
        assert.equal(earlyPage(ws, exam, { ...q, limit: 5 } as never), null, JSON.stringify(q));
    }
  });

  it('the API gives the first page at once with its counts still counting, and every count once the list is read', async () => {
    // A service of its own: its index has not read the list.
    const other = openService(':memory:', { reviewSlicing: slicing });
    try {
      await fill(other.ws, 'plain', PLAIN);
      const { call: callOther } = serviceApi(() => other);
      const first = await callOther('review.list', { examId: 'plain', limit: 5, sort: 'student', dir: 1 });
      assert.deepEqual(first.counting, { all: PLAIN.length * 2 });
      assert.equal(first.counts, undefined, 'no count before the list is read');
      assert.equal(first.total, PLAIN.length * 2);
      assert.deepEqual(
        first.rows.map((r) => [r.studentId, r.questionId]),
        [
          ['S000', 'q1'],
          ['S000', 'q2'],
          ['S001', 'q1'],
          ['S001', 'q2'],
          ['S002', 'q1'],
        ],
      );
      // A filter asked meanwhile waits for the read: exact, with its counts.
      const review = await callOther('review.list', { examId: 'plain', onlyReview: true, limit: 5 });
      assert.equal(review.counting, undefined);
      assert.ok(review.counts && review.counts.needing > 0);
      await callOther('review.ready', { examId: 'plain' });
      const again = await callOther('review.list', { examId: 'plain', limit: 5, sort: 'student', dir: 1 });
      assert.equal(again.counting, undefined);
      assert.equal(JSON.stringify(again.rows), JSON.stringify(first.rows));
      const rows = viewRows(other.ws, current(other.ws, 'plain'));
      assert.deepEqual(again.counts, {
        all: rows.length,
        needing: rows.filter((r) => r.needsReview).length,
        openManual: rows.filter((r) => (r.openManual?.length ?? 0) > 0).length,
        notGraded: rows.filter((r) => r.chips.includes('not-graded')).length,
      });
    } finally {
      await other.close();
    }
  });

  it('a mark typed, a response imported and a scheme changed while the list is read show once it is read', async () => {
    const ws = service.ws;
    // One response per slice (however long a slice takes).
    const index = new ReviewIndex(ws, 'plain', { first: 1, ms: 0.001, atOnceUpTo: 0 });
    const reading = index.complete();
    // After the first slices: a mark typed in a row already read, and in one not read yet.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    const q1 = ws.listResponses('plain', { questionId: 'q1' }).filter((r) => r.marks && r.effective.m === null);
    ws.setOverride(q1[0].id, 'm', 1);
    ws.setOverride(q1.at(-1)!.id, 'm', 1);
    ws.importResponses('plain', [{ studentId: 'S999', questionId: 'q1', text: 'a late answer' }]);
    await reading;
    assert.equal(JSON.stringify(index.rows()), JSON.stringify(viewRows(ws, current(ws, 'plain'))));
    // A scheme change during the read: read again under the new scheme.
    const again = index.complete();
    await new Promise((r) => setImmediate(r));
    ws.importExam(validateExam(examJson('plain', 3)).exam);
    index.refresh(current(ws, 'plain')); // (no-op until the read is due; then the read's rest at once)
    await again;
    assert.equal(JSON.stringify(index.rows()), JSON.stringify(viewRows(ws, current(ws, 'plain'))));
    assert.ok(
      index.rows().some((r) => r.questionId === 'q1' && r.available === 5),
      'the new scheme',
    );
    // The service's own list agrees.
    await call('review.ready', { examId: 'plain' });
    const listed = await call('review.list', { examId: 'plain' });
    assert.equal(JSON.stringify(listed.rows), JSON.stringify(index.rows()));
  });
});
