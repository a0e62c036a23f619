import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { parseExamJson, validateExam, exportExamJson, ExamError } from '../../electron/engine/io/exam.ts';

const base = () => ({
  format: 'exam.v1',
  id: 'e',
  questions: [
    { id: 'q1', variables: [{ name: 'v' }], target: 'v', scheme: [{ id: 'a', marks: 1, match: 'answer', accept: ['Eq(v, 1)'] }] },
    {
      id: 'q2',
      variables: [{ name: 'u', assumptions: ['positive'] }, { name: 'v' }],
      target: 'v',
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(v, u)'] },
        { id: 'b', marks: 1, manual: true },
        { id: 'c', marks: 1, match: 'implied', accept: ['Eq(v, 2*u)', 'Eq(v, U)'] },
      ],
      answer: 'Eq(v, sqrt(u, 2))',
    },
  ],
});

function problems(data: unknown): string[] {
  try {
    validateExam(data);
  } catch (e) {
    assert.ok(e instanceof ExamError);
    return e.problems.map((p) => `${p.path}: ${p.message}`);
  }
  return [];
}

test('accepted forms and answers are parsed against the question variables; errors name the place', () => {
  const p = problems(base());
  assert.equal(p.length, 2);
  assert.match(p[0], /^questions\[1\]\.scheme\[2\]\.accept\[1\]: symbol 'U' is not a variable/);
  assert.match(p[1], /^questions\[1\]\.answer: .*sqrt/);
});

test('a variable name the grammar cannot take as a symbol is refused at its path, with a name to use instead', () => {
  const e = base() as any;
  e.questions[0].variables.push({ name: 'lambda', description: 'wavelength' });
  const p = problems(e);
  assert.ok(
    p.some((x) => /^questions\[0\]\.variables\[\d+\]\.name: 'lambda' can't be a variable name .*'lambda_0'/.test(x)),
    p.join('\n'),
  );
});

test('schema errors name the path; structural checks (duplicates, target, match) too', () => {
  const e = base() as any;
  e.questions[0].variables[0].assumptions = ['huge'];
  e.questions[0].scheme[0].marks = -1;
  assert.ok(problems(e).some((p) => p.startsWith('questions[0].variables[0].assumptions[0]:')));
  assert.ok(problems(e).some((p) => p.startsWith('questions[0].scheme[0].marks:')));
  const d = base() as any;
  d.questions[1].id = 'q1';
  d.questions[1].answer = 'Eq(v, u)';
  d.questions[1].scheme[2].accept = ['Eq(v, 2*u)'];
  d.questions[0].target = 'w';
  d.questions[0].scheme.push({ id: 'a', marks: 1 });
  const p = problems(d);
  assert.ok(p.includes("questions[1].id: duplicate question id 'q1'"), p.join('\n'));
  assert.ok(p.some((x) => x.startsWith("questions[0].target: target 'w' is not a variable")));
  assert.ok(p.includes("questions[0].scheme[1].id: duplicate scheme item id 'a'"));
  assert.ok(p.some((x) => x.startsWith('questions[0].scheme[1].match:')));
  assert.throws(() => parseExamJson('{"format": '), /not valid JSON/);
});

test('export round-trips through import', () => {
  const ok = base() as any;
  ok.questions[1].answer = 'Eq(v, u)';
  ok.questions[1].scheme[2].accept = ['Eq(v, 2*u)'];
  const a = validateExam(ok);
  const b = parseExamJson(exportExamJson(a.exam));
  assert.deepEqual(b.exam, a.exam);
});

test('the demo exam and (when present) the development exam import cleanly', () => {
  const demo = parseExamJson(readFileSync(new URL('../../resources/demo/exam.json', import.meta.url), 'utf8'));
  assert.ok(demo.exam.questions.length >= 2);
  const dev = new URL('../../../shared/data/exam.json', import.meta.url);
  if (existsSync(dev)) assert.equal(parseExamJson(readFileSync(dev, 'utf8')).exam.questions.length, 3);
});

test('unknown keys are rejected at every level, naming the JSON path and the nearest known key', () => {
  const e = base() as any;
  e.titel = 'Mechanics';
  e.questions[0].promt = 'text';
  e.questions[1].variables[0] = { name: 'u', assumption: ['positive'] };
  e.questions[1].scheme[0].Marks = 2;
  e.questions[1].scheme[1].zzzzzz = true;
  const p = problems(e);
  assert.ok(
    p.includes('titel: unknown key "titel": did you mean "title"? exam.v1 allows "format", "id", "title", "constants", "questions" here; rename or remove it'),
    p.join('\n'),
  );
  assert.ok(
    p.some((x) => x.startsWith('questions[0].promt: unknown key "promt": did you mean "prompt"?')),
    p.join('\n'),
  );
  assert.ok(
    p.some((x) => x.startsWith('questions[1].variables[0].assumption: unknown key "assumption": did you mean "assumptions"?')),
    p.join('\n'),
  );
  assert.ok(
    p.some((x) => x.startsWith('questions[1].scheme[0].Marks: unknown key "Marks": did you mean "marks"?')),
    p.join('\n'),
  );
  // Nothing near enough: no guess, but the keys allowed there.
  const far = p.find((x) => x.startsWith('questions[1].scheme[1].zzzzzz'));
  assert.ok(far && !far.includes('did you mean') && far.includes('"manual"'), String(far));
  // Before, a misspelt key was dropped in silence: v lost `positive` and the exam loaded.
  const one = base() as any;
  one.questions[1].variables[0] = { name: 'u', assumption: ['positive'] };
  one.questions[1].answer = 'Eq(v, u)';
  one.questions[1].scheme[2].accept = ['Eq(v, 2*u)'];
  assert.throws(
    () => validateExam(one, 'exam.json'),
    (err: Error) => err instanceof ExamError && /^exam\.json: invalid exam:\n {2}questions\[1\]\.variables\[0\]\.assumption: unknown key/.test(err.message),
  );
  delete one.questions[1].variables[0].assumption;
  one.questions[1].variables[0].assumptions = ['positive'];
  assert.deepEqual(validateExam(one).exam.questions[1].variables[0].assumptions, ['positive']);
});

test('marks and ranges are bounded, finite numbers', () => {
  const ok = () => {
    const e = base() as any;
    e.questions[1].answer = 'Eq(v, u)';
    e.questions[1].scheme[2].accept = ['Eq(v, 2*u)'];
    return e;
  };
  let e = ok();
  e.questions[0].scheme[0].marks = 1e308;
  assert.deepEqual(problems(e), ['questions[0].scheme[0].marks: marks must be at most 1000 per item']);
  e = ok();
  e.questions[0].scheme[0].marks = 1000;
  assert.deepEqual(problems(e), []);
  // JSON's 1e400 parses to Infinity: said plainly, with the path.
  const text = JSON.stringify(ok()).replace('"marks":1,', '"marks":1e400,');
  assert.throws(() => parseExamJson(text), /questions\[0\]\.scheme\[0\]\.marks: must be a finite number/);
  e = ok();
  e.questions[1].variables[0].range = [0, 1e400];
  assert.deepEqual(problems(e), ['questions[1].variables[0].range[1]: must be a finite number (a number this large cannot be represented)']);
  e = ok();
  e.questions[1].variables[0].range = [-1e300, 1];
  assert.match(problems(e)[0], /^questions\[1\]\.variables\[0\]\.range\[0\]: a range end must be between/);
  e = ok();
  e.questions[1].variables[0].range = [0, 1.5708];
  assert.deepEqual(problems(e), []);
});

test('export of a validated exam is accepted by the strict schema (no stray keys)', () => {
  const demo = parseExamJson(readFileSync(new URL('../../resources/demo/exam.json', import.meta.url), 'utf8'));
  assert.deepEqual(parseExamJson(exportExamJson(demo.exam)).exam, demo.exam);
});
