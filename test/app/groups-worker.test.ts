// The answer groups compared in a worker thread (engine/review/groups-worker.ts, started by the app
// service for a workspace file and the default engine): its groups are those compared on the
// main thread; a mark typed while it compares shows in the groups' totals; after a restart its
// engine finds the pairs decided before in the workspace and decides none again; a worker that
// can't start, or dies, is answered by comparing on the main thread, and app.info says so.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AppService, ServiceOptions } from '../../electron/app/service.ts';
import { createEngine, type Engine } from '../../electron/engine/decide/engine-factory.ts';
import { answerGroups } from '../../electron/engine/review/groups.ts';
import { effectiveTotal } from '../../electron/engine/review/state.ts';
import type { Exam } from '../../shared/exam.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAM = readFileSync(resolve(REPO, 'resources/demo/exam.json'), 'utf8');
const RESPONSES = readFileSync(resolve(REPO, 'resources/demo/responses.csv'), 'utf8');
const csv = (rows: [string, string, string][]) => `student_id,question_id,response\n${rows.map((r) => r.map((c) => JSON.stringify(c)).join(',')).join('\n')}\n`;
/** q1 lists that are equivalent only by proof, beside the demo's. */
const MORE: [string, string, string][] = [
  ['W1', 'q1', 'u^2 = 2 g H'],
  ['W2', 'q1', '2 g H = u^2'],
  ['W3', 'q1', 'H = u^2/g'],
  ['W4', 'q1', 'H = u^2/(2g), so t = u/g'],
];

type Listed = { key: string; responseIds: string[]; total: number | null }[];

describe('answer groups in a worker thread', () => {
  let dir: string;
  let reference: Engine;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-groups-worker-'));
    reference = await createEngine({ sympy: false });
  });
  after(async () => {
    await reference?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A service on workspace `name` with the demo exam and responses (and MORE) imported and graded. */
  const graded = async (name: string, options: Partial<ServiceOptions> = {}) => {
    const service = openService(join(dir, `${name}.sqlite`), { engineOptions: { sympy: false }, ...options });
    const { call, settle } = serviceApi(() => service);
    const ex = await call('exam.import', { json: EXAM });
    assert.ok(ex.ok);
    await call('responses.import', { examId: ex.examId, fileName: 'r.csv', csv: RESPONSES });
    await call('responses.import', { examId: ex.examId, fileName: 'more.csv', csv: csv(MORE) });
    await call('grade.start', { examId: ex.examId, technique: 'embedded', models: [] });
    assert.equal((await settle()).state, 'done');
    return { service, examId: ex.examId, call };
  };

  /** The groups the engine forms on this thread (answerGroups with a reference engine), with each group's total now. */
  const onMainThread = async (service: AppService, call: ReturnType<typeof serviceApi>['call'], examId: string, questionId: string): Promise<Listed> => {
    const q = ((await call('exam.get', { examId })) as Exam).questions.find((x) => x.id === questionId)!;
    const rows = service.ws.listResponses(examId, { questionId });
    const groups = await answerGroups({ compareLists: reference.compareLists.bind(reference) }, q, rows);
    return groups.map((g) => {
      const totals = new Set(g.members.map((m) => effectiveTotal(m)));
      return { key: g.key, responseIds: g.members.map((m) => String(m.id)), total: totals.size === 1 ? [...totals][0] : null };
    });
  };
  const listed = (groups: Listed): Listed => groups.map((g) => ({ key: g.key, responseIds: g.responseIds, total: g.total }));

  it('gives the groups the main thread gives, each question, and is said to in app.info', async () => {
    const { service, examId, call } = await graded('same');
    try {
      await service.groupsPrepared();
      const exam = (await call('exam.get', { examId })) as Exam;
      for (const q of exam.questions)
        assert.deepEqual(listed(await call('groups.list', { examId, questionId: q.id })), await onMainThread(service, call, examId, q.id), q.id);
      const w = service.groupsWorker();
      assert.equal(w?.failure, null);
      assert.equal(w?.answered, exam.questions.length, 'the worker compared each question once, in the background');
      assert.ok((w?.stats?.z3Calls ?? 0) > 0, "Z3 ran in the worker's engine (its own workers, found from the worker's bundle)");
      const merged = (await call('groups.list', { examId, questionId: 'q1' })).find((g) => g.responseIds.length > 2);
      assert.ok(merged, 'lists equivalent only by proof are one group');
      assert.equal((await call('app.info', {})).features['answer groups worker'].available, true);
    } finally {
      await service.close();
    }
  });

  it('shows a mark typed while it compares in the groups opened then, and changes no mark', async () => {
    const { service, examId, call } = await graded('typed');
    try {
      // The background preparation began with the grade's end; the mark is typed now, before its groups come.
      const before = service.ws.listResponses(examId);
      const w1 = before.find((r) => r.studentId === 'W1' && r.questionId === 'q1')!;
      const item = Object.keys(w1.effective)[0];
      await call('response.override', { responseId: String(w1.id), itemId: item, marks: 0, comment: 'typed meanwhile' });
      const groups = listed(await call('groups.list', { examId, questionId: 'q1' }));
      const mine = groups.find((g) => g.responseIds.includes(String(w1.id)))!;
      assert.ok(mine.responseIds.length > 1);
      assert.deepEqual(groups, await onMainThread(service, call, examId, 'q1'));
      await service.groupsPrepared();
      // The mark changed no list: the groups asked for were the background's (waited for, or
      // kept), not compared again: one request to the worker per question.
      assert.equal(service.groupsWorker()?.answered, 3);
      // Nothing but the mark typed changed a mark.
      const now = new Map(service.ws.listResponses(examId).map((r) => [r.id, r.effective]));
      for (const r of before) if (r.id !== w1.id) assert.deepEqual(now.get(r.id), r.effective, `${r.studentId}/${r.questionId}`);
      assert.equal(now.get(w1.id)![item], 0);
    } finally {
      await service.close();
    }
  });

  it('after a restart, gives the same groups and decides no pair again (the verdicts kept through its own connection)', async () => {
    const first = await graded('restart');
    const path = join(dir, 'restart.sqlite');
    let groups: Listed;
    try {
      await first.service.groupsPrepared();
      groups = listed(await first.call('groups.list', { examId: first.examId, questionId: 'q1' }));
      assert.ok(first.service.groupsWorker()!.answered > 0);
    } finally {
      await first.service.close();
    }
    const again = openService(path, { engineOptions: { sympy: false } });
    try {
      assert.ok(again.ws.decidedCount() > 0, 'the worker kept its verdicts in the workspace');
      const { call } = serviceApi(() => again);
      assert.deepEqual(listed(await call('groups.list', { examId: first.examId, questionId: 'q1' })), groups);
      assert.equal(again.groupsWorker()?.answered, 1, 'compared in the worker');
      const stats = again.groupsWorker()!.stats!;
      assert.equal(stats.pairs, 0, 'no pair of equations decided again');
      assert.equal(stats.z3Calls, 0);
      assert.ok((stats.storeHits ?? 0) > 0, 'the answers read from the workspace');
    } finally {
      await again.close();
    }
  });

  for (const [what, entry] of [
    ['dies on its first request', pathToFileURL(resolve(REPO, 'test/support/groups-worker-crash.mjs'))],
    ['can not start', pathToFileURL(resolve(REPO, 'test/support/no-such-worker.mjs'))],
  ] as const)
    it(`that ${what} is answered by comparing on the main thread, and said`, async () => {
      const warned: string[] = [];
      const warn = console.warn;
      console.warn = (...a: unknown[]) => void warned.push(a.join(' '));
      const { service, examId, call } = await graded(what.replace(/ /g, '-'), { groupsWorker: { entry } });
      try {
        await service.groupsPrepared();
        assert.deepEqual(listed(await call('groups.list', { examId, questionId: 'q1' })), await onMainThread(service, call, examId, 'q1'));
        const w = service.groupsWorker();
        assert.ok(w?.failure, 'the worker is known to have failed');
        assert.equal(w.answered, 0);
        const feature = (await call('app.info', {})).features['answer groups worker'];
        assert.equal(feature.available, false);
        assert.match(feature.note, /compared on the main thread/);
        assert.equal(warned.filter((m) => /answer groups: .*compared on the main thread/.test(m)).length, 1, 'logged once');
      } finally {
        console.warn = warn;
        await service.close();
      }
    });
});
