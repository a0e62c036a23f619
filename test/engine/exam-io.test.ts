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
