import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCsv, CsvFileError } from '../../electron/engine/io/csv/read.ts';
import { parseResponsesCsv, ResponsesCsvError } from '../../electron/engine/io/csv/responses.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';

const Q = ['q1', 'q2'];

function throwsCsv(fn: () => unknown): CsvFileError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof CsvFileError, `expected CsvFileError, got ${e}`);
    return e;
  }
  assert.fail('expected an error');
}

test('responses CSV: BOM, CRLF and quoted multi-line fields, with the line each record starts on', () => {
  const text = '\uFEFFstudent_id,question_id,response\r\nS1,q1,"v = u\r\nt = 2*S/u"\r\nS2,q1,"He said ""hi"", then\r\n\r\nleft"\r\nS1,q2,plain\r\n';
  const rows = parseResponsesCsv(text, Q);
  assert.deepEqual(
    rows.map((r) => [r.line, r.studentId, r.questionId, r.text]),
    [
      [2, 'S1', 'q1', 'v = u\nt = 2*S/u'],
      [4, 'S2', 'q1', 'He said "hi", then\n\nleft'],
      [7, 'S1', 'q2', 'plain'],
    ],
  );
  // A Buffer with the BOM's bytes reads the same.
  assert.equal(parseResponsesCsv(Buffer.from(text, 'utf8'), Q).length, 3);
});

test('malformed CSV is rejected whole with the line and the reason', () => {
  let e = throwsCsv(() => parseResponsesCsv('student_id,question_id,response\nS1,q1,ok\nS2,q1\nS3,q1,ok\n', Q, 'r.csv'));
  assert.equal(e.line, 3);
  assert.match(e.message, /^r\.csv, line 3: wrong number of fields: expected 3, got 2/);
  e = throwsCsv(() => parseResponsesCsv('student_id,question_id,response\nS1,q1,ok\nS2,q1,"never\nclosed\n', Q));
  assert.equal(e.line, 3, 'an unclosed quote is reported where it opens');
  assert.match(e.message, /never closed/);
  e = throwsCsv(() => parseResponsesCsv('student_id,question_id,response\nS1,q1,"a"b\n', Q));
  assert.equal(e.line, 2);
  e = throwsCsv(() => parseResponsesCsv('student,question,response\nS1,q1,a\n', Q));
  assert.match(e.message, /line 1: missing columns 'student_id', 'question_id'/);
  e = throwsCsv(() => parseResponsesCsv('', Q));
  assert.match(e.message, /empty file/);
  e = throwsCsv(() => readCsv(Buffer.from([0x61, 0x2c, 0xff, 0x0a]), ['a']));
  assert.match(e.message, /not valid UTF-8/);
});

test('duplicate (student, question) pairs and unknown question ids are all reported by line', () => {
  const text = 'student_id,question_id,response\nS1,q1,a\nS2,q9,b\nS1,q1,c\n,q2,d\n';
  try {
    parseResponsesCsv(text, Q, 'r.csv');
    assert.fail('expected rejection');
  } catch (e) {
    assert.ok(e instanceof ResponsesCsvError);
    assert.deepEqual(
      e.problems.map((p) => p.line),
      [3, 4, 5],
    );
    assert.match(e.message, /line 3: unknown question id 'q9' \(the exam has q1, q2\)/);
    assert.match(e.message, /line 4: duplicate response for student 'S1', question 'q1' \(first on line 2\)/);
    assert.match(e.message, /line 5: empty student_id/);
    // Each problem names whose row it is, as far as the row says (the app lists them so).
    assert.deepEqual(
      e.problems.map((p) => [p.studentId ?? null, p.questionId ?? null]),
      [
        ['S2', 'q9'],
        ['S1', 'q1'],
        [null, 'q2'],
      ],
    );
  }
});

test('equations CSV: extra columns ignored, one bad row reported and graded as nothing, the rest goes on', () => {
  const vars = (q: string) => (q === 'q1' ? ['v', 'u'] : undefined);
  const text = [
    'student_id,question_id,equations,ambiguous,tags',
    'S1,q1,"[""Eq(v, u)"", ""v = 2*u""]",false,clean;chain',
    'S2,q1,"[""Eq(v, U)""]",false,x',
    'S3,q1,not json,false,x',
    'S4,q7,"[]",false,x',
    'S5,q1,"[""__import__(\'os\')""]",false,x',
    'S6,q1,"{""a"": 1}",false,x',
    'S7,q1,[],false,words',
  ].join('\n');
  const { rows, problems } = parseEquationsCsv(text, vars);
  assert.equal(rows.length, 7);
  assert.deepEqual(rows[0].sources, ['Eq(v, u)', 'Eq(v, 2*u)']);
  assert.equal(rows[0].extra.tags, 'clean;chain');
  assert.equal(rows[6].error, undefined);
  assert.deepEqual(rows[6].sources, []);
  assert.deepEqual(
    problems.map((p) => p.line),
    [3, 4, 5, 6, 7],
  );
  assert.match(problems[0].message, /equations\[0\] "Eq\(v, U\)": symbol 'U' is not a variable of this question \(v, u\); did you mean 'u'\?/);
  assert.match(problems[1].message, /not valid JSON/);
  assert.match(problems[2].message, /unknown question id 'q7'/);
  for (const i of [1, 2, 3, 4, 5]) assert.deepEqual(rows[i].equations, [], `row ${i} graded as nothing`);
});
