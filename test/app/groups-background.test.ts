// Answer groups prepared in the background (electron/app/answer-groups.ts; issue 14): once a
// grade is done (or an exam's list is loaded) the app compares each question's lists before
// anyone asks. The groups then opened are those compared on demand (the full comparison's, same
// members and order) and need no comparison; a grade started while the preparation runs stops it
// and marks exactly as a grade without it; closing the app stops it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppService } from '../../electron/app/service.ts';
import { createEngine, type Engine } from '../../electron/engine/decide/engine-factory.ts';
import { answerGroups } from '../../electron/engine/review/groups.ts';
import { effectiveTotal } from '../../electron/engine/review/state.ts';
import type { Exam } from '../../shared/exam.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAM = readFileSync(resolve(REPO, 'resources/demo/exam.json'), 'utf8');
const csv = (rows: [string, string, string][]) => `student_id,question_id,response\n${rows.map((r) => r.map((c) => JSON.stringify(c)).join(',')).join('\n')}\n`;

const FIRST: [string, string, string][] = [
  ['S1', 'q1', 'H = u^2/(2g)'],
  ['S2', 'q1', 'u^2 = 2 g H'], // equivalent by proof
  ['S3', 'q1', 'H = u^2/g'], // wrong
  ['S4', 'q1', 't = u/g'],
  ['S5', 'q1', 'H = u^2/(2g), so t = u/g'],
  ['S6', 'q1', 'H = u g'],
];
/** Imported later: enough responses that grading them takes a while. */
const LATER: [string, string, string][] = [
  ['S7', 'q1', '2 g H = u^2'],
  ['S8', 'q1', 'H = 2 u^2/g'],
  ['S9', 'q1', 'u = g t'],
  ...Array.from({ length: 40 }, (_, i): [string, string, string] => [`T${i}`, 'q1', `H = ${i + 3} u^2/g, so t = ${i + 2} u/g`]),
];

/**
 * The engine the service uses, with its list comparisons (groups only) counted and, while `gate`
 * is set, held until it is opened: the background work is then surely in the middle of a comparison.
 */
type Watched = {
  calls: number;
  gate: Promise<void> | null;
  entered: (() => void) | null;
  /** The pairs of lists compared; the questions' comparisons begun (each sets the verdict store once). */
  pairs?: string[];
  runs?: number;
  /** The comparisons given a pause (the background's turn of the event loop between pairs of equations). */
  paused?: number;
};
const watched =
  (w: Watched) =>
  async (o: { onNotice: (m: string) => void }): Promise<Engine> => {
    const e = await createEngine({ sympy: false, onNotice: o.onNotice });
    return {
      ...e,
      setVerdictStore: (store) => {
        w.runs = (w.runs ?? 0) + 1;
        e.setVerdictStore?.(store);
      },
      equivalentLists: async (a, b, d, pause) => {
        w.calls++;
        if (pause) w.paused = (w.paused ?? 0) + 1;
        (w.pairs ??= []).push(JSON.stringify([a, b]));
        w.entered?.();
        if (w.gate) await w.gate;
        return e.equivalentLists!(a, b, d, pause);
      },
    };
  };

/** Marks per student and question, as the workspace keeps them (each item's mark, the total, the status). */
const marksOf = (service: AppService, examId: string) =>
  Object.fromEntries(
    service.ws
      .listResponses(examId)
      .map((r) => [`${r.studentId}/${r.questionId}`, r.marks ? { total: r.marks.total, status: r.marks.status, items: r.effective } : null]),
  );

describe('answer groups prepared in the background', () => {
  let dir: string;
  let reference: Engine;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-groups-bg-'));
    reference = await createEngine({ sympy: false });
  });
  after(async () => {
    await reference?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A service on a new workspace with the demo exam and `rows` imported (not graded). */
  const setUp = async (name: string, w: Watched, rows: [string, string, string][]) => {
    let service = openService(join(dir, `${name}.sqlite`), { createEngine: watched(w) });
    const api = serviceApi(() => service);
    const ex = await api.call('exam.import', { json: EXAM });
    assert.ok(ex.ok);
    await api.call('responses.import', { examId: ex.examId, fileName: 'r.csv', csv: csv(rows) });
    return { service, examId: ex.examId, ...api, replace: (s: AppService) => (service = s) };
  };

  it('after a grade, the groups opened are those compared on demand, and opening them compares nothing', async () => {
    const w: Watched = { calls: 0, gate: null, entered: null };
    const { service, examId, call, settle } = await setUp('done', w, FIRST);
    try {
      await call('grade.start', { examId, technique: 'embedded', models: [] });
      assert.equal((await settle()).state, 'done');
      await service.groupsPrepared();
      assert.ok(w.calls > 0, 'the background work compared lists');
      assert.equal(w.paused, w.calls, 'each of its comparisons gives way between pairs of equations');
      const before = w.calls;
      const listed = (await call('groups.list', { examId, questionId: 'q1' })).map((g) => ({ key: g.key, responseIds: g.responseIds }));
      assert.equal(w.calls, before, 'opening the groups compared no list again');
      const q = ((await call('exam.get', { examId })) as Exam).questions.find((x) => x.id === 'q1')!;
      const want = await answerGroups({ compareLists: reference.compareLists.bind(reference) }, q, service.ws.listResponses(examId, { questionId: 'q1' }));
      assert.deepEqual(
        listed,
        want.map((g) => ({ key: g.key, responseIds: g.members.map((m) => String(m.id)) })),
      );
    } finally {
      await service.close();
    }
  });

  it('a grade started while the background work compares lists stops it and marks as a grade without it', async () => {
    // Without: all the responses graded at once, nothing in the background.
    const plain = await setUp('plain', { calls: 0, gate: null, entered: null }, [...FIRST, ...LATER]);
    let want: ReturnType<typeof marksOf>;
    try {
      await plain.call('grade.start', { examId: plain.examId, technique: 'embedded', models: [] });
      assert.equal((await plain.settle()).state, 'done');
      want = marksOf(plain.service, plain.examId);
    } finally {
      await plain.service.close();
    }
    // With: the first responses graded, the background work held inside a comparison, more
    // responses imported and graded meanwhile.
    let open!: () => void;
    const w: Watched = { calls: 0, gate: new Promise<void>((r) => (open = r)), entered: null };
    const inside = new Promise<void>((r) => (w.entered = r));
    const { service, examId, call, settle } = await setUp('busy', w, FIRST);
    try {
      await call('grade.start', { examId, technique: 'embedded', models: [] });
      assert.equal((await settle()).state, 'done');
      await inside;
      await call('responses.import', { examId, fileName: 'later.csv', csv: csv(LATER) });
      const atStart = w.calls;
      await call('grade.start', { examId, technique: 'embedded', models: [] });
      open();
      let during = 0;
      for (;;) {
        const p = await call('grade.status', {});
        if (p.state !== 'running' && p.state !== 'pausing') break;
        during = w.calls - atStart;
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(during, 0, 'no list was compared while the grade ran');
      assert.deepEqual(marksOf(service, examId), want);
      // The grade done, the groups are prepared again, and are those of the responses now marked.
      await service.groupsPrepared();
      const groups = await call('groups.list', { examId, questionId: 'q1' });
      assert.equal(
        groups.reduce((n, g) => n + g.responseIds.length, 0),
        FIRST.length + LATER.length,
      );
    } finally {
      await service.close();
    }
  });

  it('groups asked while the background compares, after a mark was typed in the question, are those the background gives when done, with the total typed', async () => {
    // Without: the groups prepared with nothing else going on, their comparisons counted.
    const w0: Watched = { calls: 0, gate: null, entered: null };
    const plain = await setUp('plain-typed', w0, FIRST);
    try {
      await plain.call('grade.start', { examId: plain.examId, technique: 'embedded', models: [] });
      assert.equal((await plain.settle()).state, 'done');
      await plain.service.groupsPrepared();
    } finally {
      await plain.service.close();
    }
    // With: the background held inside its first comparison, a mark typed in the question (its
    // lists stay as they are), then the groups asked.
    let open!: () => void;
    const w: Watched = { calls: 0, gate: new Promise<void>((r) => (open = r)), entered: null };
    const inside = new Promise<void>((r) => (w.entered = r));
    const { service, examId, call, settle } = await setUp('typed', w, FIRST);
    try {
      await call('grade.start', { examId, technique: 'embedded', models: [] });
      assert.equal((await settle()).state, 'done');
      await inside;
      const s1 = service.ws.findResponse(examId, 'S1', 'q1')!;
      service.ws.setOverride(s1, 'a', 0, 'a typed mark');
      const asked = call('groups.list', { examId, questionId: 'q1' });
      open();
      const listed = await asked;
      await service.groupsPrepared();
      assert.equal(w.runs, w0.runs, 'the request compared nothing of its own: it waited for the background’s comparison');
      assert.equal(w.calls, w0.calls);
      // What the background gives when done (kept, so asking again compares nothing) is what the request gave.
      assert.deepEqual(await call('groups.list', { examId, questionId: 'q1' }), listed);
      assert.equal(w.calls, w0.calls);
      const q = ((await call('exam.get', { examId })) as Exam).questions.find((x) => x.id === 'q1')!;
      const rows = service.ws.listResponses(examId, { questionId: 'q1' });
      const want = await answerGroups({ compareLists: reference.compareLists.bind(reference) }, q, rows);
      assert.deepEqual(
        listed.map((g) => ({ key: g.key, responseIds: g.responseIds })),
        want.map((g) => ({ key: g.key, responseIds: g.members.map((m) => String(m.id)) })),
      );
      // Each group's total as the rows are now: the typed mark counts.
      const total = new Map(rows.map((r) => [String(r.id), effectiveTotal(r)]));
      for (const g of listed) {
        const totals = new Set(g.responseIds.map((id) => total.get(id)));
        assert.equal(g.total, totals.size === 1 ? [...totals][0] : null);
      }
      const home = listed.find((g) => g.responseIds.includes(String(s1)))!;
      assert.ok(home.responseIds.length > 1 && home.total === null, 'the member with the typed mark no longer shares its group’s total');
    } finally {
      await service.close();
    }
  });

  it('groups asked while the background compares lists since changed start at once, and no pair of lists is compared twice', async () => {
    // Without: the groups prepared with nothing else going on, their comparisons counted.
    const w0: Watched = { calls: 0, gate: null, entered: null };
    const plain = await setUp('plain-groups', w0, FIRST);
    try {
      await plain.call('grade.start', { examId: plain.examId, technique: 'embedded', models: [] });
      assert.equal((await plain.settle()).state, 'done');
      await plain.service.groupsPrepared();
    } finally {
      await plain.service.close();
    }
    // With: the background held inside its first comparison, a response read again with another
    // list (the question's lists change, so the background's answer is not this request's), then the groups asked.
    let open!: () => void;
    const w: Watched = { calls: 0, gate: new Promise<void>((r) => (open = r)), entered: null };
    const inside = new Promise<void>((r) => (w.entered = r));
    const { service, examId, call, settle } = await setUp('changed', w, FIRST);
    try {
      await call('grade.start', { examId, technique: 'embedded', models: [] });
      assert.equal((await settle()).state, 'done');
      await inside;
      // Through the workspace (the app's correction would open the response's detail, which waits for the held comparison).
      const s6 = service.ws.findResponse(examId, 'S6', 'q1')!;
      const { id: _x, reader: _r, createdAt: _c, ...x } = service.ws.getExtraction(s6)!;
      const { extractionId: _e, markedAt: _m, ...marks } = service.ws.getMarks(s6)!;
      const xid = service.ws.saveExtraction(s6, { ...x, equations: [{ source: 'Eq(H, u**2/(3*g))' }] }, 'plain');
      service.ws.saveMarks(s6, xid, marks);
      const asked = call('groups.list', { examId, questionId: 'q1' });
      open();
      const listed = (await asked).map((g) => ({ key: g.key, responseIds: g.responseIds }));
      await service.groupsPrepared();
      const pairs = w.pairs ?? [];
      assert.equal(
        new Set(pairs).size,
        pairs.length,
        'each pair of lists compared once: the ones the background was comparing were waited for, not compared again',
      );
      assert.ok(w.calls > w0.calls, 'the new list was compared');
      assert.ok((w.paused ?? 0) < w.calls, 'the comparisons asked for give no turn between pairs: only the background does');
      const q = ((await call('exam.get', { examId })) as Exam).questions.find((x) => x.id === 'q1')!;
      const want = await answerGroups({ compareLists: reference.compareLists.bind(reference) }, q, service.ws.listResponses(examId, { questionId: 'q1' }));
      assert.deepEqual(
        listed,
        want.map((g) => ({ key: g.key, responseIds: g.members.map((m) => String(m.id)) })),
      );
    } finally {
      await service.close();
    }
  });

  it('closing the app stops the background work', async () => {
    let open!: () => void;
    const w: Watched = { calls: 0, gate: new Promise<void>((r) => (open = r)), entered: null };
    const inside = new Promise<void>((r) => (w.entered = r));
    const s = await setUp('close', w, FIRST);
    await s.call('grade.start', { examId: s.examId, technique: 'embedded', models: [] });
    assert.equal((await s.settle()).state, 'done');
    await inside;
    const atClose = w.calls;
    const closed = s.service.close();
    open();
    await closed;
    await s.service.groupsPrepared();
    assert.equal(w.calls, atClose, 'no list compared after the app began to close');
    // The comparison stopped was not kept as an answer: a new service gives the full groups.
    const w2: Watched = { calls: 0, gate: null, entered: null };
    const again = openService(join(dir, 'close.sqlite'), { createEngine: watched(w2) });
    try {
      const groups = await serviceApi(() => again).call('groups.list', { examId: s.examId, questionId: 'q1' });
      assert.equal(
        groups.reduce((n, g) => n + g.responseIds.length, 0),
        FIRST.length,
      );
    } finally {
      await again.close();
    }
  });
});
