// The app's answer groups (issue 14): groups.list, which reads the question's rows from the review
// index and keeps list answers and canonical keys in the workspace, gives the groups the engine
// forms from the workspace's rows with the full list comparison (compareLists) — the same
// members in the same order, the same totals — on the demo exam with identical answers, answers
// written differently, answers equivalent only by proof and wrong ones; also after a mark
// changes, after a correction, and after a restart (a new service on the same workspace).
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

describe('answer groups in the app', () => {
  let dir: string;
  let service: AppService;
  let examId: string;
  let reference: Engine;
  const { call, settle } = serviceApi(() => service);
  const open = () => openService(join(dir, 'w.sqlite'), { createEngine: ({ onNotice }) => createEngine({ sympy: false, onNotice }) });
  const idOf = async (studentId: string) =>
    (await call('review.list', { examId })).rows.find((r) => r.studentId === studentId && r.questionId === 'q1')!.responseId;

  /** What groups.list must give: the engine's groups over the workspace's rows, with the full comparison only. */
  const expected = async () => {
    const q = ((await call('exam.get', { examId })) as Exam).questions.find((x) => x.id === 'q1')!;
    const groups = await answerGroups({ compareLists: reference.compareLists.bind(reference) }, q, service.ws.listResponses(examId, { questionId: 'q1' }));
    return groups.map((g) => {
      const totals = new Set(g.members.map((m) => effectiveTotal(m)));
      return { key: g.key, responseIds: g.members.map((m) => String(m.id)), total: totals.size === 1 ? [...totals][0] : null };
    });
  };
  const listed = async () => (await call('groups.list', { examId, questionId: 'q1' })).map((g) => ({ key: g.key, responseIds: g.responseIds, total: g.total }));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-groups-'));
    service = open();
    reference = await createEngine({ sympy: false });
    const ex = await call('exam.import', { json: EXAM });
    assert.ok(ex.ok);
    examId = ex.examId;
    await call('responses.import', {
      examId,
      fileName: 'r.csv',
      csv: csv([
        ['S1', 'q1', 'H = u^2/(2g)'],
        ['S2', 'q1', 'H = u^2/(2g)'], // identical
        ['S3', 'q1', 'u^2 = 2 g H'], // equivalent by proof
        ['S4', 'q1', '2 g H = u^2'], // the same written otherwise
        ['S5', 'q1', 'H = u^2/g'], // wrong
        ['S6', 'q1', 'H = u^2/g'],
        ['S7', 'q1', 't = u/g'],
        ['S8', 'q1', 'u/g = t'],
        ['S9', 'q1', 'H = u^2/(2g), so t = u/g'],
        ['S10', 'q1', 'I am not sure'],
      ]),
    });
    await call('grade.start', { examId, technique: 'embedded', models: [] });
    assert.equal((await settle()).state, 'done');
  });
  after(async () => {
    await service?.close();
    await reference?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives the groups of the full comparison; merged lists stay merged, wrong ones apart', async () => {
    const want = await expected();
    assert.deepEqual(await listed(), want);
    const s1 = await idOf('S1');
    const s3 = await idOf('S3');
    const s5 = await idOf('S5');
    const home = (id: string) => want.findIndex((g) => g.responseIds.includes(id));
    assert.equal(home(s1), home(s3), 'an answer equivalent by proof joins its group');
    assert.notEqual(home(s1), home(s5), 'a wrong answer stays apart');
  });

  it('after a mark changes and after a correction, the groups are again those of the full comparison', async () => {
    const s1 = await idOf('S1');
    await call('response.override', { responseId: s1, itemId: 'c', marks: 0, comment: 'not simplified' });
    const afterMark = await expected();
    assert.deepEqual(await listed(), afterMark);
    assert.ok(
      afterMark.some((g) => g.responseIds.includes(s1) && g.total === null),
      'the overridden member splits its group’s total',
    );
    const s5 = await idOf('S5');
    await call('response.setEquations', { responseId: s5, equations: ['Eq(u**2, 2*g*H)'], comment: 'read again' });
    const afterCorrection = await expected();
    assert.notDeepEqual(afterCorrection, afterMark);
    assert.deepEqual(await listed(), afterCorrection);
  });

  it('after a restart, the same groups from the workspace', async () => {
    const before = await expected();
    await service.close();
    service = open();
    assert.deepEqual(await listed(), before);
  });
});
