// "The four agree": marks.csv's status column, the per-student export's status, the app's review
// list (needsReview and chips) and the counts (summary.get, grade.status) all say what
// reviewState() says, for every extraction status x every review flag (and none) x a reading by
// the instructor or not, plus undecided items, open manual items, overrides and unread responses.
// (Before the one rule, marks.csv said `complete` for a row flagged waiting-for-model.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { AppService } from '../../electron/app/service.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { marksCsv, studentMarksCsv } from '../../electron/engine/io/csv/write.ts';
import { REVIEW_FLAGS, combinedState, reviewCounts, reviewOfResponse, type ReviewState } from '../../electron/engine/review/state.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Extraction, ExtractionStatus } from '../../shared/extraction.ts';
import { openService, serviceApi } from '../support/app-service.ts';
import { FakeEngine } from './fake-engine.ts';

const examData = {
  format: 'exam.v1',
  id: 'agree',
  title: 'Agreement',
  questions: [
    // Automatic items only: a fully marked response is `complete`.
    { id: 'qa', variables: [{ name: 'x' }], scheme: [{ id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] },
    // A manual item: open until the instructor marks it.
    {
      id: 'qm',
      variables: [{ name: 'x' }],
      scheme: [
        { id: 'c', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] },
        { id: 'm', marks: 2, manual: true },
      ],
    },
  ],
};
const lx = validateExam(examData);
// Eq(x, 2) => Eq(x, 1) is undecided: item b/c stays open (state `undecided`).
const engine = new FakeEngine([], [], [['Eq(x, 2)', 'Eq(x, 1)']]);

const STATUSES: ExtractionStatus[] = ['read', 'partial', 'abstained', 'blank', 'needs-review'];
const FLAGS: (string | null)[] = [null, ...REVIEW_FLAGS];
const SOURCES: Extraction['source'][] = ['embedded', 'manual'];

describe('review state: marks.csv, the per-student export, the review list and the counts agree with reviewState()', () => {
  let dir: string;
  let service: AppService;
  const { call, settle } = serviceApi(() => service);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-agree-'));
    service = openService(join(dir, 'w.sqlite'));
    const ex = await call('exam.import', { json: JSON.stringify(examData) });
    assert.ok(ex.ok);
    // A grading job on this exam, so grade.status reports its counts (computed live).
    await call('responses.import', { examId: 'agree', csv: 'student_id,question_id,response\nz-first,qa,x = 1\n', fileName: 'r.csv' });
    await call('grade.start', { examId: 'agree', technique: 'embedded', models: [] });
    assert.equal((await settle()).state, 'done');

    const ws = service.ws;
    let n = 0;
    const add = async (questionId: string, x: Extraction | null, opts: { override?: [string, number] } = {}) => {
      const sid = `s${String(++n).padStart(3, '0')}`;
      ws.importResponses('agree', [{ studentId: sid, questionId, text: `response ${sid}` }]);
      const id = ws.findResponse('agree', sid, questionId)!;
      if (!x) return;
      const xid = ws.saveExtraction(id, x, x.source);
      const cq = lx.questions.get(questionId)!;
      ws.saveMarks(
        id,
        xid,
        await markEquations(
          engine,
          cq,
          x.equations.map((e) => parseEquationOrThrow(e.source, { variables: cq.variables })),
        ),
      );
      if (opts.override) ws.setOverride(id, opts.override[0], opts.override[1], 'marked by hand');
    };
    const reading = (status: ExtractionStatus, flag: string | null, source: Extraction['source'], eq = 'Eq(x, 1)'): Extraction => ({
      equations: status === 'blank' ? [] : [{ source: eq }],
      status,
      source,
      flags: flag ? [flag] : [],
      unread: [],
      notes: [],
    });
    for (const q of ['qa', 'qm'])
      for (const status of STATUSES) for (const flag of FLAGS) for (const source of SOURCES) await add(q, reading(status, flag, source));
    // Undecided automatic items, with and without a flag; one settled by an override.
    await add('qa', reading('read', null, 'embedded', 'Eq(x, 2)'));
    await add('qa', reading('read', 'waiting-for-model', 'embedded', 'Eq(x, 2)'));
    await add('qa', reading('read', null, 'embedded', 'Eq(x, 2)'), { override: ['b', 1] });
    // Manual items: open, and marked by the instructor.
    await add('qm', reading('read', null, 'manual'), { override: ['m', 2] });
    await add('qm', reading('read', null, 'embedded'), { override: ['m', 1] });
    // Not read yet.
    await add('qa', null);
    await add('qm', null);
    // A flag that raises no doubt.
    await add('qa', reading('read', 'words-only', 'embedded'));
  });
  after(async () => {
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('covers every state', () => {
    const states = new Set(service.ws.listResponses('agree').map((r) => reviewOfResponse(r, lx.exam).state));
    assert.deepEqual([...states].sort(), (['blank', 'complete', 'manual-open', 'needs-review', 'pending', 'undecided'] satisfies ReviewState[]).sort());
  });

  it('marks.csv says what reviewState() says, row by row', () => {
    const rows = service.ws.listResponses('agree');
    const csv = parse(marksCsv(service.ws, lx.exam), { columns: true }) as Record<string, string>[];
    assert.equal(csv.length, rows.length);
    const byKey = new Map(csv.map((c) => [`${c.student_id}/${c.question_id}`, c.status]));
    for (const r of rows) {
      const want = reviewOfResponse(r, lx.exam).state;
      assert.equal(
        byKey.get(`${r.studentId}/${r.questionId}`),
        want,
        `${r.studentId}/${r.questionId} ${JSON.stringify(r.extraction?.flags)} ${r.extraction?.status} ${r.extraction?.source}`,
      );
    }
    // The bug this rule fixed: a marked row waiting for the model (or flagged needs-review) is not complete.
    for (const r of rows) {
      const x = r.extraction;
      if (x && x.source !== 'manual' && (x.flags.includes('waiting-for-model') || x.status === 'needs-review'))
        assert.equal(byKey.get(`${r.studentId}/${r.questionId}`), 'needs-review');
    }
  });

  it("the per-student export says the combined state of the student's responses", () => {
    const rows = service.ws.listResponses('agree');
    const csv = parse(studentMarksCsv(service.ws, lx.exam), { columns: true }) as Record<string, string>[];
    const students = [...new Set(rows.map((r) => r.studentId))];
    assert.equal(csv.length, students.length);
    for (const c of csv) {
      const mine = rows.filter((r) => r.studentId === c.student_id);
      const want = combinedState(
        lx.exam.questions.map((q) => {
          const r = mine.find((x) => x.questionId === q.id);
          return r ? reviewOfResponse(r, lx.exam).state : 'missing';
        }),
      );
      assert.equal(c.status, want, c.student_id);
      // A student whose only response needs review is never reported finished.
      if (mine.some((r) => reviewOfResponse(r, lx.exam).needsReview))
        assert.ok(c.status === 'needs-review' || c.status === 'pending' || c.status === 'undecided', `${c.student_id}: ${c.status}`);
    }
  });

  it("the review list's needsReview and chips say what reviewState() says", async () => {
    const rows = service.ws.listResponses('agree');
    const list = await call('review.list', { examId: 'agree' });
    assert.equal(list.rows.length, rows.length);
    const byId = new Map(list.rows.map((r) => [r.responseId, r]));
    for (const r of rows) {
      const v = reviewOfResponse(r, lx.exam);
      const row = byId.get(String(r.id))!;
      const what = `${r.studentId}/${r.questionId} ${v.state}`;
      assert.equal(row.needsReview, v.needsReview, what);
      assert.equal(row.chips.includes('needs-review'), v.needsReview, what);
      assert.equal(row.chips.includes('not-graded'), v.state === 'pending', what);
      if (v.state === 'blank') assert.ok(row.chips.includes('blank'), what);
    }
  });

  it('summary.get and grade.status count what reviewCounts() counts', async () => {
    const rows = service.ws.listResponses('agree');
    const want = reviewCounts(rows, lx.exam);
    assert.equal(want.needsReview, rows.filter((r) => reviewOfResponse(r, lx.exam).needsReview).length);
    assert.ok(want.needsReview > 0 && want.needsReview < rows.length);
    const summary = await call('summary.get', { examId: 'agree' });
    assert.equal(summary.needsReview, want.needsReview);
    assert.equal(summary.chips['needs-review'] ?? 0, want.needsReview);
    assert.equal(summary.graded, rows.length - want.pending);
    const p = await call('grade.status', {});
    assert.equal(p.examId, 'agree');
    assert.equal(p.needsReview, want.needsReview);
  });
});
