// The answer groups' worker prepares an exam's groups before the app has read its review list
// (engine/review/groups-worker.ts `prepare`): it reads each question's lists itself, through its
// own connection, and compares them; the rows the app posts afterwards (its review index's) are
// still what the groups are formed from. Here: the worker's engine has decided the pairs before
// any rows were posted, and rows posted afterwards ask it nothing more; a reading corrected after
// the prepare gives the groups of the corrected lists; the app posts the prepare before it reads
// the list; a grade stops it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../../electron/engine/decide/engine-factory.ts';
import { grade, markResponse } from '../../electron/engine/grade.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { GroupsThread, type ThreadGroup } from '../../electron/engine/review/groups-thread.ts';
import { answerGroups, groupList } from '../../electron/engine/review/groups.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const exam: LoadedExam = validateExam({
  format: 'exam.v1',
  id: 'prep',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
        { name: 'w', assumptions: ['positive'] },
        { name: 't', assumptions: ['positive'] },
        { name: 'S', assumptions: ['positive'] },
      ],
      target: 'v',
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(t, 2*S/u)'] },
        { id: 'c', marks: 2, match: 'answer', accept: ['Eq(v, u + w)'] },
      ],
    },
  ],
});
const q = exam.exam.questions[0];

/** Lists equivalent only by proof beside lists that are not (S00 to S07). */
const LISTS: string[][] = [
  ['Eq(v, u + w)', 'Eq(t, 2*S/u)'],
  ['Eq(u + w, v)', 'Eq(2*(t), 2*(2*S/u))'],
  ['Eq(v - u - w, 0)', 'Eq(t*u, 2*S)'],
  ['Eq(u, v - w)', 'Eq(t, 2*S/u)'],
  ['Eq(v, u - w)', 'Eq(t, 2*S/u)'],
  ['Eq(v, 2*u)', 'Eq(t, 2*S/v)'],
  ['Eq(v, u + w)'],
  ['Eq(w, v - u)'],
];
const csv = (lists: string[][]): string =>
  `student_id,question_id,equations\n${lists.map((l, i) => `S${String(i).padStart(2, '0')},q1,"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;

/** A workspace file with the lists graded (the marking's verdicts kept), and no list compared with another yet. */
async function gradedWorkspace(path: string): Promise<void> {
  const ws = Workspace.open(path);
  const engine = await createEngine({ sympy: false });
  try {
    // Without the grade's own comparisons of the lists (engine/review/prepare-groups.ts): the worker's prepare is what is tested here.
    await grade({
      workspace: ws,
      exam,
      engine,
      input: { kind: 'given', rows: parseEquationsCsv(csv(LISTS), (x) => exam.questions.get(x)?.variables).rows },
      answerGroups: false,
    });
  } finally {
    await engine.close();
    ws.close();
  }
}

/** The rows as the app posts them: each read and marked response's id and list (app/views.ts's row `group`). */
function postedRows(ws: Workspace): { ids: string[]; lists: string[] } {
  const rows = ws.listResponses(exam.exam.id, { questionId: 'q1' }).filter((r) => r.extraction && r.marks);
  return { ids: rows.map((r) => String(r.id)), lists: rows.map((r) => groupList(r.extraction!.equations)) };
}

/** The groups formed on this thread by a reference engine, as the worker gives them. */
async function reference(engine: Engine, ws: Workspace): Promise<ThreadGroup[]> {
  const groups = await answerGroups({ compareLists: engine.compareLists.bind(engine) }, q, ws.listResponses(exam.exam.id, { questionId: 'q1' }));
  return groups.map((g) => ({ key: g.key, responseIds: g.members.map((m) => String(m.id)) }));
}

describe("the answer groups' worker prepares before the rows are posted", () => {
  let dir: string;
  let ref: Engine;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-groups-prepare-'));
    ref = await createEngine({ sympy: false });
  });
  after(async () => {
    await ref?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('decides the pairs from its own reading of the lists, so the rows posted afterwards ask its engine nothing', async () => {
    const path = join(dir, 'decided.sqlite');
    await gradedWorkspace(path);
    const thread = new GroupsThread({ workspacePath: path, engine: { sympy: false } });
    const ws = Workspace.open(path);
    try {
      assert.equal(await thread.prepare(exam.exam.id, [q]), 1);
      assert.equal(thread.answered, 0, 'no rows were posted');
      const prepared = thread.stats!;
      assert.ok(prepared.pairs + (prepared.storeHits ?? 0) > 0, 'the prepare asked its engine for pairs');
      const { ids, lists } = postedRows(ws);
      const expected = await reference(ref, ws);
      assert.ok(
        expected.some((g) => g.responseIds.length > 2),
        'lists equivalent only by proof are one group',
      );
      assert.deepEqual(await thread.group(q, ids, lists, { background: false }), expected);
      assert.deepEqual(thread.stats, prepared, 'the rows posted were answered from what the prepare decided');
    } finally {
      ws.close();
      await thread.close();
    }
  });

  it('gives the groups of the corrected lists for a reading corrected after the prepare', async () => {
    const path = join(dir, 'corrected.sqlite');
    await gradedWorkspace(path);
    const thread = new GroupsThread({ workspacePath: path, engine: { sympy: false } });
    const ws = Workspace.open(path);
    const engine = await createEngine({ sympy: false });
    try {
      await thread.prepare(exam.exam.id, [q]);
      const before = await reference(ref, ws);
      // S03's list (equivalent to S00's by proof) corrected to S05's, which is in another group.
      const id = ws.findResponse(exam.exam.id, 'S03', 'q1')!;
      ws.saveExtraction(
        id,
        { equations: [{ source: 'Eq(v, 2*u)' }, { source: 'Eq(t, 2*S/v)' }], status: 'read', source: 'manual', flags: [], unread: [], notes: [] },
        'instructor',
      );
      await markResponse(ws, engine, exam.questions.get('q1'), { id, studentId: 'S03', questionId: 'q1' });
      const expected = await reference(ref, ws);
      assert.notDeepEqual(expected, before);
      const { ids, lists } = postedRows(ws);
      const got = await thread.group(q, ids, lists, { background: true });
      assert.deepEqual(got, expected);
      const s05 = String(ws.findResponse(exam.exam.id, 'S05', 'q1'));
      assert.ok(got.find((g) => g.responseIds.includes(String(id)))!.responseIds.includes(s05), 'the corrected response is grouped by its new list');
    } finally {
      await engine.close();
      ws.close();
      await thread.close();
    }
  });

  it('is posted by the app as the exam\u2019s list is first asked for, before the list is read, and its groups are those the app gives', async () => {
    const path = join(dir, 'app.sqlite');
    await gradedWorkspace(path);
    const service = openService(path, { engineOptions: { sympy: false } });
    const order: string[] = [];
    const prepare = GroupsThread.prototype.prepare;
    const listResponses = service.ws.listResponses.bind(service.ws);
    GroupsThread.prototype.prepare = function (...a: Parameters<typeof prepare>) {
      order.push('prepare posted');
      return prepare.apply(this, a);
    };
    service.ws.listResponses = (...a: Parameters<typeof listResponses>) => {
      order.push('list read');
      return listResponses(...a);
    };
    try {
      const { call } = serviceApi(() => service);
      await call('review.list', { examId: exam.exam.id, limit: 50 });
      assert.deepEqual(order.slice(0, 2), ['prepare posted', 'list read']);
      await service.groupsPrepared();
      const w = service.groupsWorker()!;
      assert.equal(w.failure, null);
      assert.equal(w.prepared, 1, 'the question prepared');
      const groups = await call('groups.list', { examId: exam.exam.id, questionId: 'q1' });
      assert.deepEqual(
        groups.map((g) => ({ key: g.key, responseIds: g.responseIds })),
        await reference(ref, service.ws),
      );
    } finally {
      GroupsThread.prototype.prepare = prepare;
      await service.close();
    }
  });

  // A prepare not stopped would hold the grade back for good: the time-out makes that a failure, not a hang.
  it('is stopped by a grade, which waits for it to stop', { timeout: 120_000 }, async () => {
    const path = join(dir, 'stopped.sqlite');
    await gradedWorkspace(path);
    // A stand-in worker that holds every request until it is stopped, and logs what it is told.
    const log = `${path}.worker-log`;
    const service = openService(path, {
      engineOptions: { sympy: false },
      groupsWorker: { entry: pathToFileURL(resolve(REPO, 'test/support/groups-worker-holds.mjs')) },
    });
    try {
      const { call, settle } = serviceApi(() => service);
      await call('review.list', { examId: exam.exam.id, limit: 50 });
      await call('grade.start', { examId: exam.exam.id, technique: 'embedded', models: [] });
      assert.equal((await settle()).state, 'done');
      const told = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; id?: number; examId?: string });
      const prep = told.find((m) => m.type === 'prepare');
      assert.equal(prep?.examId, exam.exam.id);
      assert.ok(
        told.some((m) => m.type === 'stop' && m.id === prep.id),
        `the prepare was stopped before the grade ran (the worker was told: ${told.map((m) => m.type).join(', ')})`,
      );
    } finally {
      await service.close();
    }
  });
});
