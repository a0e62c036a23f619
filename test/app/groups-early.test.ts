// A question's answer groups given before a long review list is read whole (electron/app/
// early-groups.ts): from the groups' worker's own reading of the question's lists, with the
// members' totals read from the store. They are the groups the app gives once the list is read,
// and those formed on this thread from the store's rows, totals included; a mark typed after the
// worker read the lists shows in the totals; a reading corrected after it is not given early (the
// groups are formed from the rows as before, the corrected list in its new group); a worker that
// dies on the request is answered by comparing on the main thread. No mark is changed.
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AppService, ServiceOptions } from '../../electron/app/service.ts';
import { createEngine, type Engine } from '../../electron/engine/decide/engine-factory.ts';
import { grade, markResponse } from '../../electron/engine/grade.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { GroupsThread } from '../../electron/engine/review/groups-thread.ts';
import { answerGroups } from '../../electron/engine/review/groups.ts';
import { effectiveSum, effectiveTotal } from '../../electron/engine/review/state.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const exam: LoadedExam = validateExam({
  format: 'exam.v1',
  id: 'early',
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
    { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] },
  ],
});
const q1 = exam.exam.questions[0];

/** Lists equivalent only by proof beside lists that are not; each answered by three students. */
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
const ROWS: [string, string, string[]][] = [
  ...LISTS.flatMap((l, i) => [0, 1, 2].map((k): [string, string, string[]] => [`S${i}${k}`, 'q1', l])),
  ...['Eq(x, 1)', 'Eq(x, 2)'].flatMap((e, i) => [0, 1, 2].map((k): [string, string, string[]] => [`S${i}${k}`, 'q2', [e]])),
];
const csv = `student_id,question_id,equations\n${ROWS.map(([s, q, l]) => `${s},${q},"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;

/** A long list for these tests: read in slices of one response (the review handler reads up to 5 at once). */
const slicing = { first: 1, ms: 0.001, atOnceUpTo: 5 };

type Listed = { key: string; responseIds: string[]; total: number | null }[];
const listed = (groups: Listed): Listed => groups.map((g) => ({ key: g.key, responseIds: g.responseIds, total: g.total }));

describe('answer groups given before the review list is read whole', () => {
  let dir: string;
  let ref: Engine;
  let n = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-groups-early-'));
    ref = await createEngine({ sympy: false });
    // Graded as the command line grades (its comparisons for the groups kept), some marks overridden:
    // groups whose members' totals differ, and ones whose members share one.
    const ws = Workspace.open(join(dir, 'graded.sqlite'));
    try {
      await grade({
        workspace: ws,
        exam,
        engine: ref,
        input: { kind: 'given', rows: parseEquationsCsv(csv, (x) => exam.questions.get(x)?.variables).rows },
      });
    } finally {
      ws.close();
    }
    // A copy as the grade left it (its groups kept as its end formed them, nothing changed since).
    copyFileSync(join(dir, 'graded.sqlite'), join(dir, 'graded-clean.sqlite'));
    const marked = Workspace.open(join(dir, 'graded.sqlite'));
    try {
      for (const s of ['S00', 'S31', 'S70']) marked.setOverride(marked.findResponse(exam.exam.id, s, 'q1')!, 'a', 0, 'not shown in the working');
    } finally {
      marked.close();
    }
  });
  after(async () => {
    await ref?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh app on a copy of the graded workspace, its list's first page asked for (the list then read in slices). */
  const opened = async (options: Partial<ServiceOptions> = {}, from = 'graded.sqlite') => {
    const path = join(dir, `copy-${++n}.sqlite`);
    copyFileSync(join(dir, from), path);
    const service = openService(path, { engineOptions: { sympy: false }, reviewSlicing: slicing, ...options });
    const { call } = serviceApi(() => service);
    const page = await call('review.list', { examId: exam.exam.id, limit: 5 });
    assert.ok(page.counting, 'the first page came before the list was read');
    return { service, call, path };
  };

  /** The groups formed on this thread from the store's rows (a reference engine), each with its members' shared total. */
  const onMainThread = async (service: AppService): Promise<Listed> => {
    const groups = await answerGroups({ compareLists: ref.compareLists.bind(ref) }, q1, service.ws.listResponses(exam.exam.id, { questionId: 'q1' }));
    return groups.map((g) => {
      const totals = new Set(g.members.map((m) => effectiveTotal(m)));
      return { key: g.key, responseIds: g.members.map((m) => String(m.id)), total: totals.size === 1 ? [...totals][0] : null };
    });
  };

  /** Every response's effective marks, by id: compared before and after, so that nothing here changed a mark. */
  const marks = (service: AppService) => new Map(service.ws.listResponses(exam.exam.id).map((r) => [r.id, JSON.stringify(r.effective)]));

  /** Runs `meanwhile` once the worker has read the lists and answered, before the app checks its answer. */
  const afterTheWorkersRead = async <T>(meanwhile: () => Promise<void> | void, body: () => Promise<T>): Promise<T> => {
    const original = GroupsThread.prototype.groupsAsRead;
    GroupsThread.prototype.groupsAsRead = async function (...a: Parameters<typeof original>) {
      const read = await original.apply(this, a);
      await meanwhile();
      return read;
    };
    try {
      return await body();
    } finally {
      GroupsThread.prototype.groupsAsRead = original;
    }
  };

  it('are the groups given once the list is read, and those formed on the main thread, totals included', async () => {
    const { service, call } = await opened();
    try {
      const before = marks(service);
      const early = listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' }));
      const w = service.groupsWorker()!;
      assert.equal(w.answeredAsRead, 1);
      assert.equal(w.answeredEarly, 1, 'given from the worker’s reading');
      assert.ok(
        early.some((g) => g.responseIds.length > 3),
        'lists equivalent only by proof are one group',
      );
      assert.ok(early.some((g) => g.total === null) && early.some((g) => g.total !== null), 'groups whose totals differ, and ones that share one');
      assert.deepEqual(early, await onMainThread(service));
      await call('review.ready', { examId: exam.exam.id });
      const read = listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' }));
      assert.equal(service.groupsWorker()!.answeredEarly, 1, 'once the list is read, the groups come from its rows');
      assert.deepEqual(early, read);
      assert.deepEqual(marks(service), before, 'no mark changed');
    } finally {
      await service.close();
    }
  });

  it('show marks typed before they are asked for, as the totals are read and after the worker read the lists', async () => {
    const { service, call } = await opened();
    try {
      const id = (s: string) => String(service.ws.findResponse(exam.exam.id, s, 'q1')!);
      // S4x share a total (1: the answer wrong), S5x another (0).
      // Through the store, as the override handler writes them (the handler's reply would give the
      // list's read in slices turns of the event loop to finish in).
      for (const s of ['S40', 'S41']) service.ws.setOverride(Number(id(s)), 'c', 2, 'typed before');
      // And one typed just after the totals were read (before the worker answers).
      const totals = service.ws.questionEffectiveMarks.bind(service.ws);
      service.ws.questionEffectiveMarks = (...a) => {
        const read = totals(...a);
        service.ws.setOverride(Number(id('S42')), 'c', 2, 'typed as the totals were read');
        return read;
      };
      const early = await afterTheWorkersRead(
        () => service.ws.setOverride(Number(id('S51')), 'a', 1, 'typed meanwhile'),
        async () => listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' })),
      );
      service.ws.questionEffectiveMarks = totals;
      assert.equal(service.groupsWorker()!.answeredEarly, 1, 'given early: a mark changes no group');
      assert.deepEqual(early, await onMainThread(service));
      const of = (s: string) => early.find((g) => g.responseIds.includes(id(s)))!;
      assert.equal(of('S40').total, 3, 'the marks typed before, and the one typed as the totals were read');
      assert.equal(of('S50').total, null, 'the mark typed meanwhile: its group’s members differ now');
    } finally {
      await service.close();
    }
  });

  it('are not given early when a reading was corrected after the worker read the lists: the corrected list is in its new group', async () => {
    const { service, call } = await opened();
    try {
      const id = service.ws.findResponse(exam.exam.id, 'S30', 'q1')!;
      const s50 = String(service.ws.findResponse(exam.exam.id, 'S50', 'q1')!);
      const groups = await afterTheWorkersRead(
        async () => {
          // S30's list (equivalent to S00's by proof) corrected to S50's, which is in another group.
          service.ws.saveExtraction(
            id,
            { equations: [{ source: 'Eq(v, 2*u)' }, { source: 'Eq(t, 2*S/v)' }], status: 'read', source: 'manual', flags: [], unread: [], notes: [] },
            'instructor',
          );
          await markResponse(service.ws, ref, exam.questions.get('q1'), { id, studentId: 'S30', questionId: 'q1' });
        },
        async () => listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' })),
      );
      const w = service.groupsWorker()!;
      assert.equal(w.answeredAsRead, 1);
      assert.equal(w.answeredEarly, 0, 'declined: the list the worker read is not the row’s now');
      const expected = await onMainThread(service);
      assert.deepEqual(groups, expected);
      assert.ok(groups.find((g) => g.responseIds.includes(String(id)))!.responseIds.includes(s50), 'grouped by its new list');
    } finally {
      await service.close();
    }
  });

  it("take totals summed from the effective marks as the list's rows are (review/state.ts)", async () => {
    const { service } = await opened();
    try {
      const ws = service.ws;
      const byItem = () => new Map([...ws.questionEffectiveMarks(exam.exam.id, 'q1')].map(([id, e]) => [id, effectiveSum(e)]));
      const want = new Map(ws.listResponses(exam.exam.id, { questionId: 'q1' }).flatMap((r) => (r.marks ? [[r.id, effectiveTotal(r)!] as const] : [])));
      assert.deepEqual(byItem(), want);
      // An override of a tenth: the same rule sums it.
      ws.setOverride(ws.findResponse(exam.exam.id, 'S41', 'q1')!, 'a', 0.1, 'a tenth');
      const after = new Map(ws.listResponses(exam.exam.id, { questionId: 'q1' }).flatMap((r) => (r.marks ? [[r.id, effectiveTotal(r)!] as const] : [])));
      assert.deepEqual(byItem(), after);
    } finally {
      await service.close();
    }
  });

  it("are a prepare's read of the lists while nothing changed since, and read again once something did", async () => {
    const path = join(dir, `copy-${++n}.sqlite`);
    copyFileSync(join(dir, 'graded.sqlite'), path);
    const thread = new GroupsThread({ workspacePath: path, engine: { sympy: false } });
    const ws = Workspace.open(path);
    try {
      assert.equal(await thread.prepare(exam.exam.id, exam.exam.questions), 2);
      const prepared = await thread.groupsAsRead(exam.exam.id, q1);
      assert.equal(thread.reread, 0, 'the lists as the prepare read them');
      assert.equal(prepared.seen, ws.lastReviewChange());
      // A mark typed: the change number moves on, so the lists are read again (the same groups).
      ws.setOverride(ws.findResponse(exam.exam.id, 'S60', 'q1')!, 'a', 1, 'typed after the prepare');
      const again = await thread.groupsAsRead(exam.exam.id, q1);
      assert.equal(thread.reread, 1);
      assert.equal(again.seen, ws.lastReviewChange());
      assert.ok(again.seen > prepared.seen);
      assert.deepEqual(again.groups, prepared.groups);
      assert.deepEqual(again.ids, prepared.ids);
    } finally {
      ws.close();
      await thread.close();
    }
  });

  it("are the groups a grade's end kept while no response of the question changed since; else the worker's, the same groups", async () => {
    const { service, call } = await opened({}, 'graded-clean.sqlite');
    try {
      const kept = listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' }));
      const w = service.groupsWorker()!;
      assert.equal(w.answeredKept, 1, 'the groups the grade kept');
      assert.equal(w.answeredAsRead, 0, 'the worker was not asked');
      assert.deepEqual(kept, await onMainThread(service));
    } finally {
      await service.close();
    }
    // A mark typed after the grade: its response changed, so the kept groups are not given (its total moved).
    const again = await opened({}, 'graded-clean.sqlite');
    try {
      const ws = again.service.ws;
      ws.setOverride(ws.findResponse(exam.exam.id, 'S11', 'q1')!, 'a', 0, 'typed after the grade');
      const groups = listed(await again.call('groups.list', { examId: exam.exam.id, questionId: 'q1' }));
      const w = again.service.groupsWorker()!;
      assert.equal(w.answeredKept, 0);
      assert.equal(w.answeredEarly, 1, "the worker's reading instead");
      assert.deepEqual(groups, await onMainThread(again.service));
      // A response of another question changed: q1's kept groups still stand.
      ws.setOverride(ws.findResponse(exam.exam.id, 'S10', 'q2')!, 'b', 0, 'typed on q2');
    } finally {
      await again.service.close();
    }
  });

  it('are formed as before when the kept groups are unreadable (a damaged value in the workspace)', async () => {
    const path = join(dir, `copy-${++n}.sqlite`);
    copyFileSync(join(dir, 'graded-clean.sqlite'), path);
    const db = new Database(path);
    const damaged = db.prepare('UPDATE meta SET value = \'{"seen": 1, "groups": [\' WHERE key LIKE \'answer-groups-formed:%\'').run().changes;
    db.close();
    assert.ok(damaged > 0);
    const service = openService(path, { engineOptions: { sympy: false }, reviewSlicing: slicing });
    const { call } = serviceApi(() => service);
    try {
      assert.ok((await call('review.list', { examId: exam.exam.id, limit: 5 })).counting);
      const groups = listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' }));
      assert.equal(service.groupsWorker()!.answeredKept, 0);
      assert.deepEqual(groups, await onMainThread(service));
    } finally {
      await service.close();
    }
  });

  it("are kept by the app's worker as it prepares them, for the next app to open the workspace", async () => {
    // Marks typed after the grade: the grade's kept groups are stale, so this app's worker prepares them.
    const first = await opened();
    await first.service.groupsPrepared();
    await first.service.close();
    const service = openService(first.path, { engineOptions: { sympy: false }, reviewSlicing: slicing });
    const { call } = serviceApi(() => service);
    try {
      assert.ok((await call('review.list', { examId: exam.exam.id, limit: 5 })).counting);
      const groups = listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' }));
      assert.equal(service.groupsWorker()!.answeredKept, 1, 'the groups the worker kept');
      assert.deepEqual(groups, await onMainThread(service));
    } finally {
      await service.close();
    }
  });

  it('are compared on the main thread when the worker dies on the request', async () => {
    const warn = console.warn;
    console.warn = () => undefined;
    const { service, call } = await opened({ groupsWorker: { entry: pathToFileURL(resolve(REPO, 'test/support/groups-worker-crash.mjs')) } });
    try {
      const groups = listed(await call('groups.list', { examId: exam.exam.id, questionId: 'q1' }));
      const w = service.groupsWorker()!;
      assert.ok(w.failure, 'the worker is known to have failed');
      assert.equal(w.answeredEarly, 0);
      assert.deepEqual(groups, await onMainThread(service));
    } finally {
      console.warn = warn;
      await service.close();
    }
  });
});
