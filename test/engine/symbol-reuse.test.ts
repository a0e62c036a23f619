// One symbol used for two quantities (issue 11): dimensions show it, and the reading goes to review
// with both equations named; a student's plain error in physics is not that, and stays `read`.
// Questions and readings written for these tests.
import { variableUnits } from '../../shared/units/infer-unit.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Question } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { symbolInTwoRoles, withSymbolReuseCheck } from '../../electron/engine/decide/symbol-reuse.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { equationsCsv } from '../../electron/engine/io/csv/write.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { grade } from '../../electron/engine/grade.ts';
import { chips } from '../../electron/app/views.ts';

// A swing: the period is T; its rope's tension has its own variable F.
const SWING: Question = {
  id: 'swing',
  title: '',
  prompt: 'A child of mass m sits on a swing of rope length L. Find the period T of small swings and the tension F at the lowest point.',
  variables: [
    ['m', 'mass of the child'],
    ['L', 'length of the rope'],
    ['g', 'gravitational acceleration'],
    ['T', 'period of small swings'],
    ['F', 'tension in the rope at the lowest point'],
    ['v', 'speed at the lowest point'],
    ['k', 'a number the student may introduce'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
  target: 'T',
  scheme: [],
};

const reading = (sources: string[], status: Extraction['status'] = 'read'): Extraction => ({
  status,
  source: 'embedded',
  equations: sources.map((source) => ({ source })),
  unread: [],
  flags: [],
  notes: [],
});

test('T for the tension in one equation and for the period in another: needs-review, flag symbol-reused, both named', () => {
  const x = reading(['Eq(T - m*g, m*v**2/L)', 'Eq(T, 2*pi*sqrt(L/g))']);
  const out = withSymbolReuseCheck(SWING, x);
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['symbol-reused']);
  const n = out.notes.find((k) => k.kind === 'symbol-reused');
  assert.ok(n);
  assert.match(n.text, /T seems to stand for two quantities/);
  assert.match(n.text, /tension/);
  assert.deepEqual(out.equations, x.equations, 'the reading itself is never changed');
});

test('an error in physics that balances in no role a physicist writes the letter for is not a reuse', () => {
  // v = 2gL doesn't balance (v a speed), and v is written for no kind whose unit would balance it.
  for (const eqs of [
    ['Eq(v, 2*g*L)', 'Eq(T, 2*pi*sqrt(L/g))'],
    ['Eq(T, 2*pi*sqrt(g/L))'], // a wrong period: one role only, no other equation uses T
    ['Eq(T, 2*pi*sqrt(L/g))', 'Eq(F, m*g + m*v**2/L)'],
  ]) {
    const out = withSymbolReuseCheck(SWING, reading(eqs));
    assert.equal(out.status, 'read', eqs.join(' ; '));
    assert.deepEqual(out.flags, []);
  }
});

test('numbers that may stand for quantities leave an equation unchecked', () => {
  // "T = 9.8 m" could be T = (9.8 m/s²)·m, a tension with g put in.
  const out = withSymbolReuseCheck(SWING, reading(['Eq(T, 9.8*m)', 'Eq(T, 2*pi*sqrt(L/g))']));
  assert.equal(out.status, 'read');
});

test("only readers are checked (not the instructor's correction nor a given list), and a partial keeps its status with the flag", () => {
  const eqs = ['Eq(T - m*g, m*v**2/L)', 'Eq(T, 2*pi*sqrt(L/g))'];
  for (const source of ['manual', 'given'] as const) {
    const x = { ...reading(eqs), source };
    assert.equal(withSymbolReuseCheck(SWING, x), x);
  }
  const partial = withSymbolReuseCheck(SWING, reading(eqs, 'partial'));
  assert.equal(partial.status, 'partial');
  assert.deepEqual(partial.flags, ['symbol-reused']);
});

test('units come from the exam where it declares them, else from the descriptions', () => {
  const declared: Question = { ...SWING, variables: SWING.variables.map((v) => (v.name === 'T' ? { ...v, unit: 'N', description: 'something' } : v)) };
  const units = variableUnits(declared);
  assert.equal(units.get('T')?.dimension.join(), variableUnits(SWING).get('F')?.dimension.join());
  assert.equal(units.has('k'), false, 'a description naming no kind of quantity gives no unit');
  const eqs = ['Eq(T - m*g, m*v**2/L)', 'Eq(T, 2*pi*sqrt(L/g))'].map((s) => parseEquationOrThrow(s, { variables: SWING.variables.map((v) => v.name) }));
  assert.deepEqual(symbolInTwoRoles(eqs, variableUnits(SWING)), { symbol: 'T', kind: 'tension', own: 1, other: 0 });
});

let engine: Entailer;
before(async () => {
  engine = await Entailer.create({ z3Workers: 1 });
});
after(async () => {
  await engine.close();
});

test('grading stores the reading at needs-review with the flag; equations.csv and the app say so', async () => {
  const exam = validateExam({
    format: 'exam.v1',
    id: 'swing',
    questions: [{ ...SWING, id: 'q1', scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(T, 2*pi*sqrt(L/g))'] }] }],
  });
  const ws = new Workspace(':memory:');
  try {
    const rows = [
      { line: 2, studentId: 'S1', questionId: 'q1', text: 'At the bottom T - mg = mv^2/L\nT = 2π√(L/g)' },
      { line: 3, studentId: 'S2', questionId: 'q1', text: 'T = 2π√(L/g)\nF = 3mg' },
    ];
    await grade({ workspace: ws, exam, engine, input: { kind: 'responses', rows } });
    const list = ws.listResponses('swing');
    const byStudent = new Map(list.map((r) => [r.studentId, r]));
    const s1 = ws.getExtraction(byStudent.get('S1')!.id)!;
    assert.equal(s1.status, 'needs-review');
    assert.ok(s1.flags.includes('symbol-reused'));
    // The note quotes both equations as the student typed them.
    assert.match(
      s1.notes.find((n) => n.kind === 'symbol-reused')?.text ?? '',
      /"T - mg = mv\^2\/L" balances only with T a tension, "T = 2π√\(L\/g\)" only with T as the question's T/,
    );
    assert.ok(chips(byStudent.get('S1')!, exam.exam).includes('symbol-reused'), 'the app shows the chip');
    assert.ok(!chips(byStudent.get('S2')!, exam.exam).includes('symbol-reused'));
    assert.equal(ws.getExtraction(byStudent.get('S2')!.id)!.status, 'read');
    const csv = equationsCsv(ws, exam.exam);
    assert.match(
      csv.split('\n').find((l) => l.startsWith('S1,'))!,
      /needs-review.*symbol-reused/,
    );
  } finally {
    ws.close();
  }
});
