// An exam edit never changes what was read behind the instructor's back: the readers' extractions
// are dropped (to be read again) only when a question's variable names or descriptions change,
// the instructor's corrections are kept, and a kept equation that no longer parses against the
// new variables holds the response for review (flag engine-error, items undecided, the equation
// named) instead of being dropped unseen while the rest is marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { grade } from '../../electron/engine/grade.ts';
import { embeddedExtractor, type Technique } from '../../electron/engine/read/registry.ts';
import { reviewOfResponse } from '../../electron/engine/review/state.ts';
import type { Exam } from '../../shared/exam.ts';
import { FakeEngine } from './fake-engine.ts';

const examWith = (variables: { name: string; description?: string; assumptions?: string[]; unit?: string }[]) =>
  validateExam({
    format: 'exam.v1',
    id: 'edit',
    questions: [
      {
        id: 'q1',
        variables,
        scheme: [
          { id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] },
          { id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] },
        ],
      },
    ],
  });

const technique: Technique = { name: 'embedded', extractor: embeddedExtractor };
const rows = [
  { line: 2, studentId: 'S1', questionId: 'q1', text: 'x = 1' },
  { line: 3, studentId: 'S2', questionId: 'q1', text: 'x = 5' },
];

async function gradedWorkspace() {
  const ws = new Workspace(':memory:');
  const first = examWith([{ name: 'x' }, { name: 'y' }]);
  await grade({ workspace: ws, exam: first, engine: new FakeEngine(), technique, input: { kind: 'responses', rows } });
  // The instructor corrects S2's reading to two equations, one of them in y.
  const s2 = ws.findResponse('edit', 'S2', 'q1')!;
  ws.saveExtraction(
    s2,
    { equations: [{ source: 'Eq(y, 3)' }, { source: 'Eq(x, 2)' }], status: 'read', source: 'manual', flags: [], unread: [], notes: [] },
    'manual',
  );
  await grade({ workspace: ws, exam: first, engine: new FakeEngine(), technique, input: { kind: 'none' } });
  return { ws, s1: ws.findResponse('edit', 'S1', 'q1')!, s2 };
}

const regrade = (ws: Workspace, exam: ReturnType<typeof examWith>) =>
  grade({ workspace: ws, exam, engine: new FakeEngine(), technique, input: { kind: 'none' } });

test('a correction whose equation no longer parses after a variable is renamed holds the response, naming the equation', async () => {
  const { ws, s1, s2 } = await gradedWorkspace();
  assert.equal(ws.getMarks(s2)!.items.find((i) => i.itemId === 'b')!.outcome, 'awarded', 'the correction earned b before the edit');

  const renamed = examWith([{ name: 'x' }, { name: 'z' }]); // y is gone
  const s = await regrade(ws, renamed);
  assert.deepEqual(
    s.engineErrors.map((e) => e.studentId),
    ['S2'],
  );
  assert.match(s.engineErrors[0].message, /equation 1 \(Eq\(y, 3\)\)/);
  assert.match(s.engineErrors[0].message, /variables changed/);

  const x2 = ws.getExtraction(s2)!;
  assert.equal(x2.source, 'manual', "the instructor's correction is kept");
  assert.deepEqual(
    x2.equations.map((e) => e.source),
    ['Eq(y, 3)', 'Eq(x, 2)'],
    'nothing dropped',
  );
  assert.equal(x2.status, 'needs-review');
  assert.ok(x2.flags.includes('engine-error'));
  const m2 = ws.getMarks(s2)!;
  assert.ok(
    m2.items.every((i) => i.outcome === 'undecided' && i.awarded === null),
    'no item is marked on the rest of the list unseen',
  );
  const summary = ws.listResponses('edit').find((r) => r.studentId === 'S2')!;
  assert.equal(reviewOfResponse(summary, renamed.exam as Exam).state, 'needs-review');

  // The reader's own reading was read again on the new variables and marked as usual.
  assert.equal(ws.getExtraction(s1)!.source, 'embedded');
  assert.equal(ws.getMarks(s1)!.items.find((i) => i.itemId === 'a')!.awarded, 1);
  ws.close();
});

test('an edit of assumptions or units keeps every reading (only marks are redone)', async () => {
  const { ws, s1, s2 } = await gradedWorkspace();
  const before1 = ws.getExtraction(s1)!.id;
  const before2 = ws.getExtraction(s2)!.id;
  const edited = examWith([
    { name: 'x', assumptions: ['positive'], unit: 'm' },
    { name: 'y', unit: 'm' },
  ]);
  const s = await regrade(ws, edited);
  assert.deepEqual(s.engineErrors, []);
  assert.equal(s.extractedNow, 0, 'nothing read again');
  assert.equal(ws.getExtraction(s1)!.id, before1);
  assert.equal(ws.getExtraction(s2)!.id, before2);
  assert.equal(ws.getMarks(s2)!.items.find((i) => i.itemId === 'b')!.awarded, 1, 'marked again on the same correction');
  ws.close();
});

test("a changed description reads the readers' responses again but keeps the instructor's correction", async () => {
  const { ws, s1, s2 } = await gradedWorkspace();
  const before1 = ws.getExtraction(s1)!.id;
  const before2 = ws.getExtraction(s2)!.id;
  const s = await regrade(ws, examWith([{ name: 'x', description: 'distance along the track' }, { name: 'y' }]));
  assert.equal(s.extractedNow, 1, 'only the reader-made reading is read again');
  assert.notEqual(ws.getExtraction(s1)!.id, before1);
  assert.equal(ws.getExtraction(s2)!.id, before2);
  ws.close();
});

test('an edit re-marks only the questions it touches: another question keeps its marks; a new title or prompt re-marks none', async () => {
  const two = (acceptA: string, title = 'Two', prompt = '') =>
    validateExam({
      format: 'exam.v1',
      id: 'two',
      title,
      questions: [
        { id: 'q1', prompt, variables: [{ name: 'x' }], scheme: [{ id: 'a', marks: 1, match: 'implied', accept: [acceptA] }] },
        { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] }] },
      ],
    });
  const ws = new Workspace(':memory:');
  const responses = [
    { line: 2, studentId: 'S1', questionId: 'q1', text: 'x = 1' },
    { line: 3, studentId: 'S1', questionId: 'q2', text: 'x = 2' },
  ];
  const first = await grade({ workspace: ws, exam: two('Eq(x, 1)'), engine: new FakeEngine(), technique, input: { kind: 'responses', rows: responses } });
  assert.equal(first.markedNow, 2);
  const renamed = await grade({
    workspace: ws,
    exam: two('Eq(x, 1)', 'Two, renamed', 'Find x.'),
    engine: new FakeEngine(),
    technique,
    input: { kind: 'none' },
  });
  assert.equal(renamed.markedNow, 0, 'a new title or prompt changes no mark');
  const edited = await grade({ workspace: ws, exam: two('Eq(x, 3)', 'Two, renamed', 'Find x.'), engine: new FakeEngine(), technique, input: { kind: 'none' } });
  assert.equal(edited.markedNow, 1, "only q1's response is marked again");
  assert.equal(ws.getMarks(ws.findResponse('two', 'S1', 'q1')!)!.total, 0, 'q1 re-marked with the new form');
  assert.equal(ws.getMarks(ws.findResponse('two', 'S1', 'q2')!)!.total, 1, 'q2 kept');
  // Something exam-wide (a constant) re-marks every question.
  const withConstant = two('Eq(x, 3)', 'Two, renamed', 'Find x.');
  const wide = validateExam({ ...withConstant.exam, constants: [{ name: 'g', value: 9.81, unit: 'm/s^2' }] });
  assert.equal((await grade({ workspace: ws, exam: wide, engine: new FakeEngine(), technique, input: { kind: 'none' } })).markedNow, 2);
});
