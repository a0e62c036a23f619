// Calibration in eval (electron/engine/eval/calibration.ts): status against correctness, precision
// per status, a `read` on gold marked ambiguous counted as an error of confidence, and the
// contradiction flags that cost correct readings; carried by the eval loop's report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibration, formatCalibration, type CalibrationInput } from '../../electron/engine/eval/calibration.ts';
import { runEval } from '../../electron/engine/eval/run.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { FakeEngine } from './fake-engine.ts';

const row = (status: CalibrationInput['status'], equivalent: boolean, ambiguous = false, flags: string[] = []): CalibrationInput => ({
  status,
  equivalent,
  ambiguous,
  flags,
});

test('the table: each status against equivalent / not / gold ambiguous, with precision', () => {
  const c = calibration([
    row('read', true),
    row('read', true),
    row('read', true),
    row('read', false),
    row('read', true, true), // equivalent, but gold ambiguous: an error of confidence all the same
    row('partial', true),
    row('partial', false),
    row('abstained', false),
    row('needs-review', true, false, ['contradiction']),
    row('needs-review', false, true, ['contradiction']),
  ]);
  const by = Object.fromEntries(c.rows.map((r) => [r.status, r]));
  assert.deepEqual(
    c.rows.map((r) => r.status),
    ['read', 'partial', 'abstained', 'needs-review'],
    'blank left out when no reading has it',
  );
  assert.deepEqual([by.read.total, by.read.equivalent, by.read.notEquivalent, by.read.goldAmbiguous], [5, 3, 1, 1]);
  assert.equal(by.read.precision, 3 / 5);
  assert.equal(by.partial.precision, 1 / 2);
  assert.equal(by.abstained.precision, 0);
  assert.deepEqual([by['needs-review'].equivalent, by['needs-review'].goldAmbiguous], [1, 1]);
  assert.deepEqual(c.confidenceErrors, { notEquivalent: 1, goldAmbiguous: 1, total: 2 });
  assert.deepEqual(c.contradictions, { flagged: 2, equivalent: 1 });
  const text = formatCalibration(c);
  assert.match(text, /read\s+5\s+3\s+1\s+1\s+60\.0%/);
  assert.match(text, /errors of confidence .*: 2 \(1 not equivalent, 1 gold ambiguous\)/);
  assert.match(text, /flagged 'contradiction': 2 \(equivalent to gold: 1\)/);
});

test('no readings: read is still shown, with no precision', () => {
  const c = calibration([]);
  assert.deepEqual(
    c.rows.map((r) => [r.status, r.total, r.precision]),
    [['read', 0, null]],
  );
});

test("eval's report carries the calibration of its rows", async () => {
  const exam = validateExam({
    format: 'exam.v1',
    id: 'cal',
    questions: [{ id: 'q1', variables: [{ name: 'x' }], scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] }],
  });
  const gold = parseEquationsCsv(
    'student_id,question_id,equations,ambiguous,tags\nA,q1,"[""Eq(x, 1)""]",false,\nB,q1,"[""Eq(x, 2)""]",true,\nC,q1,"[""Eq(x, 3)""]",false,\n',
    () => ['x'],
  ).rows;
  const said: Record<string, Extraction> = {
    A: { equations: [{ source: 'Eq(x, 1)' }], status: 'read', source: 'embedded', flags: [], unread: [], notes: [] },
    B: { equations: [{ source: 'Eq(x, 2)' }], status: 'read', source: 'embedded', flags: [], unread: [], notes: [] },
    C: { equations: [], status: 'abstained', source: 'embedded', flags: [], unread: [], notes: [] },
  };
  const { report } = await runEval({
    exam,
    engine: new FakeEngine(),
    technique: { name: 'plain', usesModel: false, extractor: { name: 'fixed', extract: (text) => said[text] } },
    responses: ['A', 'B', 'C'].map((s, i) => ({ line: i + 2, studentId: s, questionId: 'q1', text: s })),
    gold,
  });
  const read = report.calibration.rows.find((r) => r.status === 'read')!;
  assert.deepEqual([read.equivalent, read.notEquivalent, read.goldAmbiguous], [1, 0, 1]);
  assert.equal(report.calibration.confidenceErrors.goldAmbiguous, 1);
  assert.equal(report.calibration.rows.find((r) => r.status === 'abstained')!.notEquivalent, 1);
  assert.deepEqual(JSON.parse(JSON.stringify(report)).calibration, report.calibration, 'in the JSON of `eval --json`');
});
