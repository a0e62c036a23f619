// exam.v1's units, constants, given values, numeric items and require_dimensions: every problem
// named with its JSON path, misspelt keys with a suggestion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExamError, validateExam } from '../../electron/engine/io/exam.ts';

const base = () => ({
  format: 'exam.v1',
  id: 'u',
  constants: [{ name: 'g', value: 9.81, unit: 'm/s^2' }] as any[],
  questions: [
    {
      id: 'q1',
      variables: [{ name: 'v', unit: 'm/s' }, { name: 'g' }, { name: 'h', unit: 'm' }] as any[],
      target: 'v',
      given: [{ name: 'h', value: 5, unit: 'm' }] as any[],
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(v**2, 2*g*h)'], require_dimensions: true },
        { id: 'b', marks: 1, match: 'numeric', numeric: { value: 9.9, unit: 'm/s', sig_figs: 2 } },
      ] as any[],
    },
  ],
});

const problems = (exam: unknown): string[] => {
  try {
    validateExam(exam);
  } catch (e) {
    if (e instanceof ExamError) return e.problems.map((p) => `${p.path}: ${p.message}`);
    throw e;
  }
  return [];
};

test('a valid exam with units, constants, given values and a numeric item (no accepted forms needed) loads, units compiled', () => {
  const ex = validateExam(base());
  const cq = ex.questions.get('q1')!;
  assert.deepEqual([...cq.units!.bySymbol.keys()].sort(), ['g', 'h', 'v'], "g's unit comes from the constant");
  assert.equal(cq.units!.values.get('h')!.si, 5);
  assert.equal(cq.units!.values.get('g')!.si, 9.81);
});

test('a unit that does not parse names its path and the unit', () => {
  const e = base();
  e.questions[0].variables.push({ name: 'w', unit: 'mps' });
  assert.deepEqual(problems(e), ["questions[0].variables[3].unit: unknown unit 'mps'"]);
  const c = base();
  c.constants.push({ name: 'c', value: 3e8, unit: 'm/sec2x' }, { name: 'g', value: 9.8, unit: 'm/s^2' });
  assert.deepEqual(problems(c), ["constants[1].unit: can't read unit 'm/sec2x' after 'm/sec2'", "constants[2].name: duplicate constant 'g'"]);
});

test("given values: the name must be a variable, its unit of the variable's dimension", () => {
  const e = base();
  e.questions[0].given.push({ name: 'hh', value: 1 }, { name: 'v', value: 2, unit: 's' });
  assert.deepEqual(problems(e), [
    "questions[0].given[1].name: 'hh' is not a variable of this question (v, g, h)",
    "questions[0].given[2].unit: 's' is s, but v's unit 'm/s' is m/s",
  ]);
});

test("numeric items: the expectation is there, its quantity a variable, its unit of the quantity's dimension", () => {
  const missing = base();
  delete missing.questions[0].scheme[1].numeric;
  assert.deepEqual(problems(missing), ['questions[0].scheme[1].numeric: a numeric item needs \'numeric\': {"value": ..., "unit": ...} (the expected value)']);
  const notVar = base();
  notVar.questions[0].scheme[1].numeric.quantity = 'R';
  assert.deepEqual(problems(notVar), ["questions[0].scheme[1].numeric.quantity: 'R' is not a variable of this question (v, g, h)"]);
  const wrongDim = base();
  wrongDim.questions[0].scheme[1].numeric.unit = 'km';
  assert.deepEqual(problems(wrongDim), ["questions[0].scheme[1].numeric.unit: 'km' is m, but v's unit is m/s"]);
  const stray = base();
  stray.questions[0].scheme[0].numeric = { value: 1 };
  assert.match(problems(stray).join('\n'), /scheme\[0\]\.numeric: only an item with match 'numeric' has 'numeric'/);
});

test('require_dimensions needs a unit on every variable of the question', () => {
  const e = base();
  e.constants = [];
  assert.deepEqual(problems(e), ['questions[0].scheme[0].require_dimensions: dimensions can be checked only where every variable has a unit; g has none']);
});

test('misspelt new keys get the nearest known key', () => {
  const e = base();
  e.questions[0].variables[0] = { name: 'v', unti: 'm/s' };
  e.questions[0].scheme[1].numeric = { value: 9.9, unit: 'm/s', sigfigs: 2 };
  e.constants[0] = { name: 'g', vaule: 9.81, value: 9.81, unit: 'm/s^2' };
  e.questions[0].given[0] = { nmae: 'h', name: 'h', value: 5 };
  const p = problems(e).join('\n');
  assert.match(p, /questions\[0\]\.variables\[0\]\.unti: unknown key "unti": did you mean "unit"\?/);
  assert.match(p, /scheme\[1\]\.numeric\.sigfigs: unknown key "sigfigs": did you mean "sig_figs"\?/);
  assert.match(p, /constants\[0\]\.vaule: unknown key "vaule": did you mean "value"\?/);
  assert.match(p, /given\[0\]\.nmae: unknown key "nmae": did you mean "name"\?/);
});
