// A scheme change previewed (engine/preview-scheme.ts): who gains or loses which mark, per-item
// counts, totals with overrides in force, overrides the change makes the automatic mark disagree
// or agree with; nothing is written to the workspace; applying the change gives the marks the
// preview showed; afterwards the overrides the automatic marks disagree with are listed
// (review/override-cases.ts). A table-driven engine (fake-engine.ts) decides: identical
// equations entail each other, nothing else does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { markPending } from '../../electron/engine/grade.ts';
import { previewScheme, PreviewStopped } from '../../electron/engine/preview-scheme.ts';
import { disagrees, overrideCases } from '../../electron/engine/review/override-cases.ts';
import type { Extraction } from '../../shared/extraction.ts';
import type { Exam } from '../../shared/exam.ts';
import { FakeEngine } from './fake-engine.ts';

const base = {
  format: 'exam.v1',
  id: 'e1',
  title: 'Preview',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
      ],
      target: 'v',
      scheme: [
        { id: 'a', description: 'speed', marks: 2, match: 'implied', accept: ['Eq(v, 2*u)'] },
        { id: 'm', marks: 1, manual: true },
      ],
    },
    { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] },
  ],
};
/** The base exam with q1's item a accepting `accept` (and any other change made by `more`). */
function edited(accept: string[], more: (e: Exam) => void = () => {}) {
  const e = structuredClone(validateExam(base).exam);
  e.questions[0].scheme[0].accept = accept;
  more(e);
  return validateExam(e);
}
const read = (source: Extraction['source'], ...s: string[]): Extraction => ({
  equations: s.map((x) => ({ source: x })),
  status: 'read',
  source,
  flags: [],
  unread: [],
  notes: [],
});
const TABLES = ['exams', 'questions', 'responses', 'extractions', 'mark_results', 'marks', 'overrides', 'comments', 'audit'] as const;
const dump = (ws: Workspace): string => JSON.stringify([...TABLES.map((t) => ws.tableRows(t)), ws.decidedCount()]);

/**
 * S1 wrote v = 2u (earns a), S2 and S3 wrote v = 3u (don't); the instructor gave S3 item a by hand
 * (an override the engine disagrees with) and confirmed S1's a (an override it agrees with). S1 and
 * S2 answered q2 (x = 1 earns b); S4's q1 is an imported list.
 */
async function graded(): Promise<Workspace> {
  const ws = new Workspace(':memory:');
  const exam = validateExam(base);
  ws.importExam(exam.exam);
  const rows = [
    ['S1', 'q1', 'v = 2u', 'Eq(v, 2*u)'],
    ['S2', 'q1', 'v = 3u', 'Eq(v, 3*u)'],
    ['S3', 'q1', 'v = 3 u', 'Eq(v, 3*u)'],
    ['S1', 'q2', 'x = 1', 'Eq(x, 1)'],
    ['S2', 'q2', 'x = 2', 'Eq(x, 2)'],
  ];
  ws.importResponses(
    'e1',
    rows.map(([studentId, questionId, text]) => ({ studentId, questionId, text })),
  );
  for (const [s, q, , eq] of rows) ws.saveExtraction(ws.findResponse('e1', s, q)!, read('embedded', eq), 'embedded');
  ws.importGiven('e1', [{ studentId: 'S4', questionId: 'q1', extraction: read('given', 'Eq(v, 3*u)') }]);
  await markPending({ workspace: ws, exam, engine: new FakeEngine() });
  ws.setOverride(ws.findResponse('e1', 'S3', 'q1')!, 'a', 2, 'v = 3u is right for this question variant');
  ws.setOverride(ws.findResponse('e1', 'S1', 'q1')!, 'a', 2, 'checked: right');
  ws.setOverride(ws.findResponse('e1', 'S1', 'q1')!, 'm', 1); // a manual item marked by hand: not a regression case
  return ws;
}

test('a widened accepted form: who gains which mark, per-item counts, totals with overrides in force; nothing is written', async () => {
  const ws = await graded();
  const before = dump(ws);
  const p = await previewScheme({ workspace: ws, edited: edited(['Eq(v, 2*u)', 'Eq(v, 3*u)']), engine: new FakeEngine() });
  assert.equal(dump(ws), before, 'the workspace is exactly as it was: marks, overrides, audit, exam, verdicts');

  assert.deepEqual(p.changedQuestions, ['q1'], 'q2 is not re-marked: its marking did not change');
  assert.equal(p.remarked, 4);
  assert.deepEqual(
    p.changes.map((c) => [c.studentId, c.itemId, c.before, c.after, c.outcomeBefore, c.outcomeAfter, c.direction, c.override]),
    [
      ['S2', 'a', 0, 2, 'withheld', 'awarded', 'gain', null],
      ['S3', 'a', 0, 2, 'withheld', 'awarded', 'gain', 2],
      ['S4', 'a', 0, 2, 'withheld', 'awarded', 'gain', null],
    ],
  );
  const a = p.items.find((i) => i.itemId === 'a')!;
  assert.deepEqual([a.gained, a.lost, a.unchanged, a.status], [3, 0, 1, 'kept']);
  const m = p.items.find((i) => i.itemId === 'm')!;
  assert.deepEqual([m.gained, m.lost, m.unchanged], [0, 0, 4], 'the manual item stays open for everyone');
  assert.ok(!p.items.some((i) => i.questionId === 'q2'));
  // S3's override stays in force: its total does not move although its automatic mark does.
  assert.deepEqual(
    p.students.map((s) => [s.studentId, s.before, s.after]),
    [
      ['S2', 0, 2],
      ['S4', 0, 2],
    ],
  );
  assert.equal(p.studentsUnchanged, 2);
  // Overrides as regression cases: S3's override now agrees with the engine; S1's still does.
  assert.deepEqual(
    { ...p.overrides, cases: p.overrides.cases.map((c) => [c.studentId, c.automaticBefore, c.automaticAfter]) },
    { total: 2, disagreeBefore: 1, disagreeAfter: 0, newlyDisagree: 0, newlyAgree: 1, cases: [['S3', 0, 2]] },
  );
  assert.deepEqual(p.notPreviewed, []);
  ws.close();
});

test('a narrowed accepted form loses marks, makes the automatic mark disagree with an override; applied, the marks are those previewed and the disagreement is listed', async () => {
  const ws = await graded();
  const change = edited(['Eq(v, 3*u)']);
  const p = await previewScheme({ workspace: ws, edited: change, engine: new FakeEngine() });
  const s1 = p.changes.find((c) => c.studentId === 'S1')!;
  assert.deepEqual([s1.before, s1.after, s1.direction, s1.override], [2, 0, 'loss', 2]);
  const a = p.items.find((i) => i.itemId === 'a')!;
  assert.deepEqual([a.gained, a.lost, a.unchanged], [3, 1, 0]);
  // S1's total stays 4 (override a = 2, m = 1, q2 b = 1): the override is in force.
  assert.ok(!p.students.some((s) => s.studentId === 'S1'));
  assert.equal(p.overrides.newlyDisagree, 1, "the change would make the automatic mark disagree with S1's override");
  assert.equal(p.overrides.newlyAgree, 1, "and agree with S3's");
  assert.deepEqual(
    p.overrides.cases.map((c) => [c.studentId, c.disagreesBefore, c.disagreesAfter]),
    [
      ['S1', false, true],
      ['S3', true, false],
    ],
  );

  // Before the change: only S3's override disagrees.
  const now = overrideCases(ws, 'e1');
  assert.deepEqual([now.overrides, now.agreeing, now.open], [2, 1, 0]);
  assert.deepEqual(
    now.disagreeing.map((c) => [c.studentId, c.automatic, c.override, c.schemeChangedSince]),
    [['S3', 0, 2, false]],
  );

  // Apply as the app's Save does: the stored marks are the preview's.
  await new Promise((r) => setTimeout(r, 5)); // the change is later than the overrides
  ws.importExam(change.exam);
  await markPending({ workspace: ws, exam: change, engine: new FakeEngine() });
  const stored = ws.itemMarksOfExam('e1');
  for (const c of p.changes) assert.equal(stored.get(c.responseId)!.find((i) => i.itemId === c.itemId)!.awarded, c.after, `${c.studentId} ${c.itemId}`);
  const after = overrideCases(ws, 'e1');
  assert.deepEqual(
    after.disagreeing.map((c) => [c.studentId, c.itemId, c.automatic, c.override, c.comment, c.schemeChangedSince]),
    [['S1', 'a', 0, 2, 'checked: right', true]],
    'the override the change parted from is listed, as made before the change',
  );
  assert.deepEqual([after.overrides, after.agreeing], [2, 1]);
  ws.close();
});

test('only wording changed: nothing is re-marked; an added item is counted as added', async () => {
  const ws = await graded();
  const wording = await previewScheme({
    workspace: ws,
    edited: edited(['Eq(v, 2*u)'], (e) => {
      e.title = 'Renamed';
      e.questions[0].scheme[0].description = 'the speed, said otherwise';
      e.questions[0].prompt = 'A new prompt';
    }),
    engine: new FakeEngine(),
  });
  assert.deepEqual([wording.changedQuestions, wording.remarked, wording.changes.length, wording.students.length], [[], 0, 0, 0]);
  const added = await previewScheme({
    workspace: ws,
    edited: edited(['Eq(v, 2*u)'], (e) => {
      e.questions[1].scheme.push({ id: 'c', description: '', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] });
    }),
    engine: new FakeEngine(),
  });
  assert.deepEqual(added.changedQuestions, ['q2']);
  const c = added.items.find((i) => i.itemId === 'c')!;
  assert.deepEqual([c.status, c.gained, c.unchanged, c.outcomeOnly], ['added', 1, 1, 1]);
  assert.deepEqual(
    added.changes.map((x) => [x.studentId, x.itemId, x.before, x.after, x.outcomeBefore, x.outcomeAfter]),
    [
      ['S1', 'c', null, 0, 'absent', 'withheld'],
      ['S2', 'c', null, 1, 'absent', 'awarded'],
    ],
  );
  ws.close();
});

test('changed variables: readings that applying would read again are not previewed, imported lists are; dropping a question with responses is refused', async () => {
  const ws = await graded();
  const p = await previewScheme({
    workspace: ws,
    edited: edited(['Eq(v, 3*u)'], (e) => {
      e.questions[0].variables[1].description = 'launch speed';
    }),
    engine: new FakeEngine(),
  });
  assert.deepEqual(
    p.notPreviewed.map((n) => [n.studentId, n.kind]),
    [
      ['S1', 'read-again'],
      ['S2', 'read-again'],
      ['S3', 'read-again'],
    ],
  );
  assert.deepEqual(
    p.changes.map((c) => [c.studentId, c.direction]),
    [['S4', 'gain']],
    'the imported list is kept by a save, so it is previewed',
  );
  assert.ok(p.students.find((s) => s.studentId === 'S4'));
  const dropped = structuredClone(validateExam(base).exam);
  dropped.questions.pop();
  await assert.rejects(previewScheme({ workspace: ws, edited: validateExam(dropped), engine: new FakeEngine() }), /question 'q2' has 2 responses/);
  ws.close();
});

test('a stopped preview says so and writes nothing', async () => {
  const ws = await graded();
  const before = dump(ws);
  const stop = new AbortController();
  stop.abort();
  await assert.rejects(previewScheme({ workspace: ws, edited: edited(['Eq(v, 3*u)']), engine: new FakeEngine(), signal: stop.signal }), PreviewStopped);
  assert.equal(dump(ws), before);
  ws.close();
});

test('disagreement: only an automatic mark can disagree with an override', () => {
  assert.equal(disagrees(0, 2), true);
  assert.equal(disagrees(2, 2), false);
  assert.equal(disagrees(null, 2), false, 'undecided: the override decides');
  assert.equal(disagrees(undefined, 0), false, 'not marked yet');
});
