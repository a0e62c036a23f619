// The review list filtered, searched, sorted and paged in the main process (electron/app/
// review-index.ts): every page under every filter is the slice of the whole list the renderer's
// own filter gives; a change made through any path shows at once (the workspace's change log);
// the summary's figures are the list's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AppService } from '../../electron/app/service.ts';
import { ReviewIndex } from '../../electron/app/review-index.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Extraction } from '../../shared/extraction.ts';
import type { ReviewRow } from '../../shared/api.ts';
import { filterRows, NO_FILTERS, type ReviewFilters } from '../../shared/review-filter.ts';
import { FakeEngine } from '../engine/fake-engine.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const examJson = {
  format: 'exam.v1',
  id: 'big',
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
        { id: 'm', marks: 1, manual: true },
      ],
    },
    { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] },
  ],
};
const exam = validateExam(examJson);
const STUDENTS = 40;
const answers: Record<string, string[]> = { q1: ['Eq(v, 2*u)', 'Eq(v, u)', 'Eq(2*v, 4*u)'], q2: ['Eq(x, 1)', 'Eq(x, 2)'] };

describe('review index', () => {
  let service: AppService;
  const { call } = serviceApi(() => service);
  const whole = async (): Promise<ReviewRow[]> => (await call('review.list', { examId: 'big' })).rows;

  before(async () => {
    service = openService(':memory:');
    const ws = service.ws;
    ws.importExam(exam.exam);
    const rows = [];
    for (let i = 1; i <= STUDENTS; i++)
      for (const q of ['q1', 'q2'])
        rows.push({ studentId: `S${String(i).padStart(3, '0')}`, questionId: q, text: i % 9 === 0 ? '' : `Student ${i} on ${q}: see working` });
    ws.importResponses('big', rows);
    // Most read and marked; some partial (need review), some blank, a few not read at all.
    const engine = new FakeEngine();
    const list = ws.listResponses('big');
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
          flags: [],
          unread: [],
          notes: [],
        },
      });
    });
    const xids = ws.saveExtractions(batch);
    const marked = [];
    for (let j = 0; j < batch.length; j++) {
      const b = batch[j];
      const q = list.find((r) => r.id === b.responseId)!.questionId;
      const eqs = b.extraction.equations.map((e) => parseEquationOrThrow(e.source));
      marked.push({ responseId: b.responseId, extractionId: xids[j], marks: await markEquations(engine, exam.questions.get(q)!, eqs) });
    }
    assert.deepEqual(ws.saveMarksBatch(marked), []);
    // Manual marks on some, an override of an automatic mark on one.
    for (const r of ws.listResponses('big', { questionId: 'q1' }).filter((_, k) => k % 4 === 0)) if (r.marks) ws.setOverride(r.id, 'm', 1);
    const one = ws.listResponses('big', { questionId: 'q2' })[2];
    ws.setOverride(one.id, 'b', 0, 'the working does not support it');
  });
  after(async () => {
    await service?.close();
  });

  it('pages under every filter and sort are slices of the whole list filtered as the renderer filters it', async () => {
    const all = await whole();
    assert.equal(all.length, STUDENTS * 2);
    const cases: Partial<ReviewFilters>[] = [
      {},
      { question: 'q1' },
      { question: 'q1', onlyManual: true },
      { onlyReview: true },
      { chip: 'not-graded' },
      { chip: 'overridden' },
      { search: 's01' },
      { search: 'STUDENT 3 ON Q2' },
      { sort: 'total', dir: -1 },
      { sort: 'status', dir: 1, question: 'q2' },
      { sort: 'question', dir: -1, search: '2' },
    ];
    for (const c of cases) {
      const f: ReviewFilters = { ...NO_FILTERS, ...c };
      const want = filterRows(all, f).map((r) => r.responseId);
      assert.ok(c.search || c.chip || want.length > 0, `case ${JSON.stringify(c)} has rows`);
      const got: string[] = [];
      for (let offset = 0; offset < want.length + 7; offset += 7) {
        const page = await call('review.list', {
          examId: 'big',
          ...(f.question !== 'all' ? { questionId: f.question } : {}),
          ...(f.chip !== 'all' ? { chip: f.chip } : {}),
          ...(f.onlyReview ? { onlyReview: true } : {}),
          ...(f.onlyManual ? { onlyManual: true } : {}),
          ...(f.search ? { search: f.search } : {}),
          sort: f.sort,
          dir: f.dir,
          offset,
          limit: 7,
          ...(want.length ? { locate: want[want.length - 1] } : {}),
        });
        assert.equal(page.total, want.length, `case ${JSON.stringify(c)}: total`);
        if (want.length) assert.equal(page.located, want.length - 1, `case ${JSON.stringify(c)}: where the last row is`);
        got.push(...page.rows.map((r) => r.responseId));
      }
      assert.deepEqual(got, want, `case ${JSON.stringify(c)}`);
    }
    // Counts are over the whole list, whatever the filter.
    const counted = await call('review.list', { examId: 'big', questionId: 'q2', limit: 1 });
    assert.deepEqual(counted.counts, {
      all: all.length,
      needing: all.filter((r) => r.needsReview).length,
      openManual: all.filter((r) => (r.openManual?.length ?? 0) > 0).length,
      notGraded: all.filter((r) => r.chips.includes('not-graded')).length,
    });
    assert.ok(counted.counts!.needing > 0 && counted.counts!.openManual > 0 && counted.counts!.notGraded > 0, 'the data has each kind');
    // A response that isn't in the filtered list is not located.
    const q1 = all.find((r) => r.questionId === 'q1')!;
    assert.equal((await call('review.list', { examId: 'big', questionId: 'q2', locate: q1.responseId, limit: 5 })).located, null);
  });

  it('only the responses asked for, or one student’s', async () => {
    const all = await whole();
    const ids = [all[3].responseId, all[17].responseId, all[40].responseId];
    assert.deepEqual(
      (await call('review.list', { examId: 'big', responseIds: ids })).rows.map((r) => r.responseId),
      [...ids].sort((a, b) => Number(a) - Number(b)),
    );
    const s = await call('review.list', { examId: 'big', studentId: 'S007', questionId: 'q2' });
    assert.deepEqual(
      s.rows.map((r) => [r.studentId, r.questionId]),
      [['S007', 'q2']],
    );
  });

  it('a change made through the workspace shows at once, and only that row is read again', async () => {
    const ws = service.ws;
    const before = await whole();
    const target = before.find((r) => r.questionId === 'q1' && r.openManual?.includes('m'))!;
    assert.ok(target, 'a response with its manual item open');
    ws.setOverride(Number(target.responseId), 'm', 1);
    const after = await whole();
    const row = after.find((r) => r.responseId === target.responseId)!;
    assert.equal(row.marks.m, 1);
    assert.deepEqual(row.openManual, []);
    assert.deepEqual(
      after.filter((r) => r.responseId !== target.responseId),
      before.filter((r) => r.responseId !== target.responseId),
      'the other rows are as they were',
    );
    // A new text: not graded any more, its excerpt the new one; found by the search at once.
    ws.importResponses('big', [{ studentId: target.studentId, questionId: 'q1', text: 'an entirely new answer, zebra' }]);
    const found = await call('review.list', { examId: 'big', search: 'ZEBRA' });
    assert.deepEqual(
      found.rows.map((r) => [r.responseId, r.chips.includes('not-graded')]),
      [[target.responseId, true]],
    );
    // A scheme change (item a worth 3): every row's availability follows.
    const changed = structuredClone(examJson);
    changed.questions[0].scheme[0].marks = 3;
    ws.importExam(validateExam(changed).exam);
    const q1 = (await call('review.list', { examId: 'big', questionId: 'q1' })).rows;
    assert.ok(q1.every((r) => r.available === 4));
  });

  it("the summary's figures are the list's", async () => {
    const all = await whole();
    const s = await call('summary.get', { examId: 'big' });
    assert.equal(s.responses, all.length);
    assert.equal(s.graded, all.filter((r) => r.total !== null).length);
    assert.equal(s.needsReview, all.filter((r) => r.needsReview).length);
    assert.equal(s.overridden, all.filter((r) => r.chips.includes('overridden')).length);
    const chips: Record<string, number> = {};
    for (const r of all) for (const c of r.chips) chips[c] = (chips[c] ?? 0) + 1;
    assert.deepEqual(s.chips, chips);
    for (const d of s.distribution) {
      const totals = all.filter((r) => r.questionId === d.questionId && r.total !== null).map((r) => Math.floor(r.total!));
      assert.equal(
        d.counts.reduce((a, b) => a + b, 0),
        totals.length,
      );
      for (const t of totals) assert.ok(d.counts[Math.min(d.counts.length - 1, t)] > 0);
    }
  });

  it('a mark typed changes its question’s version but not its lists version; a list read again, or a response marked, changes both', () => {
    const ws = service.ws;
    const current = () => validateExam(ws.getExam('big')!).exam;
    const marks = { items: [], total: 0, available: 4, inconsistent: [], status: 'complete' as const };
    // (The scheme change above dropped the marks: this one is marked again.)
    const r = ws.listResponses('big', { questionId: 'q1' }).find((x) => x.extraction?.equations.length)!;
    ws.saveMarks(r.id, ws.getExtraction(r.id)!.id, marks);
    const index = new ReviewIndex(ws, 'big').refresh(current());
    const versions = () => ({ q1: [index.questionVersion('q1'), index.listsVersion('q1')], q2: [index.questionVersion('q2'), index.listsVersion('q2')] });
    const start = versions();
    ws.setOverride(r.id, 'm', 0);
    index.refresh(current());
    const typed = versions();
    assert.notEqual(typed.q1[0], start.q1[0], 'the question’s rows changed');
    assert.equal(typed.q1[1], start.q1[1], 'its lists did not');
    assert.deepEqual(typed.q2, start.q2, 'another question is untouched');
    // Read again with another list: the lists changed (and the response is not marked for it yet).
    ws.saveExtraction(r.id, { equations: [{ source: 'Eq(v, 3*u)' }], status: 'read', source: 'embedded', flags: [], unread: [], notes: [] }, 'plain');
    index.refresh(current());
    const read = versions();
    assert.notEqual(read.q1[1], typed.q1[1]);
    assert.deepEqual(read.q2, start.q2);
    // Marked for that reading: its list is the same, but it now counts in the groups.
    ws.saveMarks(r.id, ws.getExtraction(r.id)!.id, marks);
    index.refresh(current());
    assert.notEqual(versions().q1[1], read.q1[1]);
  });
});
