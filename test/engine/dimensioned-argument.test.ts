// A quantity with units as an exponent or a function's argument (issue 11): the mark a misreading
// leaves ("e^(−Rt/L)" read as the emf E raised to a power), so the reading goes to review with the
// equation named; physics written that way is never right, and forms that are (P·V^γ) stay `read`.
// Questions and readings written for these tests.
import { variableUnits } from '../../shared/units/infer-unit.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Question } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { dimensionedArgument, withDimensionedArgumentCheck } from '../../electron/engine/decide/dimensioned-argument.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { equationsCsv } from '../../electron/engine/io/csv/write.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { grade } from '../../electron/engine/grade.ts';
import { chips } from '../../electron/app/views.ts';

// A coil switched onto a battery, with a gas cylinder beside it (two topics, so both forms meet).
const COIL: Question = {
  id: 'coil',
  title: '',
  prompt: 'A coil of inductance L and resistance R is switched onto a battery of emf E at t = 0. Find the current I at time t.',
  variables: [
    { name: 'E', description: 'emf of the battery', unit: 'V' },
    { name: 'R', description: 'resistance of the coil' },
    { name: 'L', description: 'inductance of the coil' },
    { name: 't', description: 'time since the switch closed' },
    { name: 'I', description: 'current in the coil' },
    { name: 'omega', description: 'angular frequency of the supply' },
    { name: 'P', description: 'pressure of the gas' },
    { name: 'V', description: 'volume of the gas' },
    { name: 'gamma', description: 'ratio of the heat capacities' },
    { name: 'n', description: 'a number the student may introduce' },
  ].map((v) => ({ ...v, assumptions: ['positive' as const] })),
  target: 'I',
  scheme: [],
};
const NAMES = COIL.variables.map((v) => v.name);

const reading = (sources: string[], status: Extraction['status'] = 'read'): Extraction => ({
  status,
  source: 'embedded',
  equations: sources.map((source) => ({ source })),
  unread: [],
  flags: [],
  notes: [],
});

test('the emf raised to a power made of quantities: needs-review, flag dimensioned-argument, the equation named', () => {
  const x = reading(['Eq(I, E/R*(1 - E**(-R*t/L)))']);
  const out = withDimensionedArgumentCheck(COIL, x);
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['dimensioned-argument']);
  const n = out.notes.find((k) => k.kind === 'dimensioned-argument');
  assert.ok(n);
  assert.match(n.text, /E, a quantity in V, is raised to a power made of quantities, -R\*t\/L: was the exponential meant\?/);
  assert.deepEqual(out.equations, x.equations, 'the reading itself is never changed');
});

test('a sine, exponential or log of a quantity with units, or an exponent with units, is doubted', () => {
  for (const [src, why] of [
    ['Eq(I, E/R*sin(t))', /the argument of sin, t, has units \(s\)/],
    ['Eq(I, E/R*exp(-t))', /the argument of exp, -t, has units/],
    ['Eq(t, L/R*log(E))', /the argument of log, E, has units/],
    ['Eq(I, E/R*2**(R*t))', /the exponent of .* has units/],
    ['Eq(I, E/R*(1 - exp(-t**2/L)))', /the argument of exp/], // a number inside a power of its own is no value put in
  ] as const) {
    const out = withDimensionedArgumentCheck(COIL, reading([src]));
    assert.equal(out.status, 'needs-review', src);
    assert.match(out.notes[0]?.text ?? '', why, src);
  }
});

test('physics written with powers and functions is not doubted', () => {
  for (const src of [
    'Eq(I, E/R*(1 - exp(-R*t/L)))', // the exponential of a dimensionless group
    'Eq(I, E/R*sin(omega*t))',
    'Eq(P*V**gamma, P*V**gamma)', // a dimensionless variable as the exponent
    'Eq(I, E/R*(1 - exp(-0.5*t)))', // 0.5 may be R/L with its unit unwritten
    'Eq(I, E/R*sin(2*t))', // 2 may be omega
    'Eq(I, E/R*(1 - exp(-t/n)))', // n has no unit: unchecked, never flagged
    'Eq(I**2, E**2/R**2)', // a number as the exponent
    'Eq(V, (E/R)**(1/2))', // a wrong but plain power
  ]) {
    const out = withDimensionedArgumentCheck(COIL, reading([src]));
    assert.equal(out.status, 'read', src);
    assert.deepEqual(out.flags, [], src);
  }
});

test("only readers are checked (not the instructor's correction nor a given list), and a partial keeps its status with the flag", () => {
  const eqs = ['Eq(I, E/R*(1 - E**(-R*t/L)))'];
  for (const source of ['manual', 'given'] as const) {
    const x = { ...reading(eqs), source };
    assert.equal(withDimensionedArgumentCheck(COIL, x), x);
  }
  const partial = withDimensionedArgumentCheck(COIL, reading(eqs, 'partial'));
  assert.equal(partial.status, 'partial');
  assert.deepEqual(partial.flags, ['dimensioned-argument']);
  const parsed = ['Eq(I, 2*I)', 'Eq(I, E/R*cos(R))'].map((s) => parseEquationOrThrow(s, { variables: NAMES }));
  assert.equal(dimensionedArgument(parsed, variableUnits(COIL))?.index, 1, 'the first equation with such a form is named');
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
    id: 'coil',
    questions: [{ ...COIL, id: 'q1', scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(I, E/R*(1 - exp(-R*t/L)))'] }] }],
  });
  const ws = new Workspace(':memory:');
  try {
    // S1 writes the exponential with a capital E, which the question gives the emf.
    const rows = [
      { line: 2, studentId: 'S1', questionId: 'q1', text: 'I = (E/R)(1 - E^(-Rt/L))' },
      { line: 3, studentId: 'S2', questionId: 'q1', text: 'I = (E/R)(1 - exp(-Rt/L))' },
    ];
    await grade({ workspace: ws, exam, engine, input: { kind: 'responses', rows } });
    const byStudent = new Map(ws.listResponses('coil').map((r) => [r.studentId, r]));
    const s1 = ws.getExtraction(byStudent.get('S1')!.id)!;
    assert.equal(s1.status, 'needs-review');
    assert.ok(s1.flags.includes('dimensioned-argument'));
    assert.match(
      s1.notes.find((n) => n.kind === 'dimensioned-argument')?.text ?? '',
      /^"I = \(E\/R\)\(1 - E\^\(-Rt\/L\)\)": E, a quantity in V,/,
      'the equation as typed',
    );
    assert.ok(chips(byStudent.get('S1')!, exam.exam).includes('dimensioned-argument'), 'the app shows the chip');
    assert.ok(!chips(byStudent.get('S2')!, exam.exam).includes('dimensioned-argument'));
    assert.equal(ws.getExtraction(byStudent.get('S2')!.id)!.status, 'read');
    assert.match(
      equationsCsv(ws, exam.exam)
        .split('\n')
        .find((l) => l.startsWith('S1,'))!,
      /needs-review.*dimensioned-argument/,
    );
  } finally {
    ws.close();
  }
});
