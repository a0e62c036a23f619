// Strict inputs: CSV files read the same whatever their line endings; NUL bytes and
// invalid UTF-8 are rejected with their line; errors in multi-line records name the record's
// first line; CSV exports neutralise formula-like cells (OWASP CSV injection).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readCsv, CsvFileError, detectLineEnding, firstInvalidUtf8, unneutraliseId } from '../../electron/engine/io/csv/read.ts';
import { parseResponsesCsv } from '../../electron/engine/io/csv/responses.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { neutraliseFormula, safeCsv } from '../../electron/engine/io/csv/write.ts';

const Q = ['q1', 'q2'];
const DEV = new URL('../../../shared/data/responses.csv', import.meta.url);

function rejects(fn: () => unknown): CsvFileError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof CsvFileError, `expected CsvFileError, got ${e}`);
    return e;
  }
  assert.fail('expected the file to be rejected');
}

const shape = (rows: ReturnType<typeof parseResponsesCsv>) => rows.map((r) => [r.line, r.studentId, r.questionId, r.text]);

test('LF, CRLF and CR-only files give the same rows, line numbers and texts', () => {
  const lf = 'student_id,question_id,response\nS1,q1,"v = u\nt = 2*S/u"\n\nS2,q1,"a ""quote""\n\nthen"\nS1,q2,plain\n';
  const want = [
    [2, 'S1', 'q1', 'v = u\nt = 2*S/u'],
    [5, 'S2', 'q1', 'a "quote"\n\nthen'],
    [8, 'S1', 'q2', 'plain'],
  ];
  assert.deepEqual(shape(parseResponsesCsv(lf, Q)), want);
  const crlf = lf.replace(/\n/g, '\r\n');
  const cr = lf.replace(/\n/g, '\r');
  assert.equal(detectLineEnding(lf), 'lf');
  assert.equal(detectLineEnding(crlf), 'crlf');
  assert.equal(detectLineEnding(cr), 'cr');
  for (const text of [crlf, cr, `\uFEFF${cr}`]) {
    assert.deepEqual(shape(parseResponsesCsv(text, Q)), want);
    assert.deepEqual(shape(parseResponsesCsv(Buffer.from(text, 'utf8'), Q)), want);
  }
  // No carriage return survives into a response (a CR-only file used to keep them, and graded differently).
  assert.ok(parseResponsesCsv(cr, Q).every((r) => !r.text.includes('\r')));
  // Excel's mix (CRLF between records, LF inside cells) reads the same too.
  const excel = 'student_id,question_id,response\r\nS1,q1,"v = u\nt = 2*S/u"\r\n\r\nS2,q1,"a ""quote""\n\nthen"\r\nS1,q2,plain\r\n';
  assert.equal(detectLineEnding(excel), 'mixed');
  assert.deepEqual(shape(parseResponsesCsv(excel, Q)), want);
  // The equations CSV reader shares it.
  const eq = 'student_id,question_id,equations\nS1,q1,"[""Eq(v, u)""]"\nS2,q1,[]\n';
  const vars = () => ['v', 'u'];
  const a = parseEquationsCsv(eq, vars).rows.map((r) => [r.line, r.studentId, r.sources]);
  assert.deepEqual(
    parseEquationsCsv(eq.replace(/\n/g, '\r'), vars).rows.map((r) => [r.line, r.studentId, r.sources]),
    a,
  );
  assert.deepEqual(
    parseEquationsCsv(eq.replace(/\n/g, '\r\n'), vars).rows.map((r) => [r.line, r.studentId, r.sources]),
    a,
  );
});

test('the development responses read the same as LF, CRLF and CR-only', { skip: !existsSync(DEV) && 'no ../shared/data/responses.csv' }, () => {
  const lf = readFileSync(DEV, 'utf8').replace(/\r\n?/g, '\n');
  const qs = ['q1', 'q2', 'q3'];
  const want = shape(parseResponsesCsv(Buffer.from(lf), qs));
  assert.ok(want.length > 50);
  assert.deepEqual(shape(parseResponsesCsv(Buffer.from(lf.replace(/\n/g, '\r\n')), qs)), want);
  assert.deepEqual(shape(parseResponsesCsv(Buffer.from(lf.replace(/\n/g, '\r')), qs)), want);
});

test('a NUL byte is rejected with its line, whatever the line endings', () => {
  for (const nl of ['\n', '\r\n', '\r']) {
    const text = ['student_id,question_id,response', 'S1,q1,ok', 'S2,q1,"two', 'lines"', 'S3,q1,a\u0000b', ''].join(nl);
    const e = rejects(() => parseResponsesCsv(Buffer.from(text), Q, 'r.csv'));
    assert.equal(e.line, 5, JSON.stringify(nl));
    assert.match(e.message, /^r\.csv, line 5: a NUL byte/);
    assert.match(e.message, /save the file as UTF-8/);
  }
  // A string (the app hands the CSV over as text) too.
  assert.equal(rejects(() => parseResponsesCsv('student_id,question_id,response\nS1,q1,\u0000\n', Q)).line, 2);
});

test('invalid UTF-8 is rejected with its line number', () => {
  for (const nl of ['\n', '\r\n', '\r']) {
    const head = Buffer.from(['student_id,question_id,response', 'S1,q1,"caf\u00e9', 'ok"', 'S2,q1,na'].join(nl));
    // Latin-1 "ï" (0xEF alone) in the middle of line 4, as a file saved as Windows-1252 would have it.
    const buf = Buffer.concat([head, Buffer.from([0xef]), Buffer.from(`ve${nl}S3,q1,x${nl}`)]);
    const e = rejects(() => parseResponsesCsv(buf, Q, 'r.csv'));
    assert.equal(e.line, 4, JSON.stringify(nl));
    assert.match(e.message, /^r\.csv, line 4: not valid UTF-8 text \(bytes ef 76 65 /);
    assert.match(e.message, /save the file as UTF-8/);
  }
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('student_id,question_id,response\n', 'utf16le')]);
  assert.match(rejects(() => readCsv(utf16, ['student_id'])).message, /line 1: the file is UTF-16/);
  // The validator agrees with the standard's edge cases.
  assert.equal(firstInvalidUtf8(Buffer.from('a\u00e9\u20ac\u{1F600}z', 'utf8')), -1);
  assert.equal(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80])), 1, 'overlong');
  assert.equal(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80])), 0, 'surrogate');
  assert.equal(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xe2, 0x82])), 2, 'truncated at the end');
  assert.equal(firstInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80])), 0, 'above U+10FFFF');
});

test('errors in a multi-line record name its first line; an unclosed quote where it opens', () => {
  for (const nl of ['\n', '\r\n', '\r']) {
    // A record whose quoted field spans lines 3-5 has a fourth field.
    let text = ['student_id,question_id,response', 'S1,q1,ok', 'S2,q1,"a', 'b', 'c",extra', 'S3,q1,ok', ''].join(nl);
    let e = rejects(() => parseResponsesCsv(text, Q, 'r.csv'));
    assert.equal(e.line, 3, JSON.stringify(nl));
    assert.match(e.message, /line 3: wrong number of fields: expected 3, got 4 \(.*double quotes\); the record runs from line 3 to line 5$/);
    // A quote opened on line 2 and never closed: the next quote (line 4) closes it with text after it.
    text = ['student_id,question_id,response', 'S1,q1,"never', 'S2,q1,x', 'S3,q1,"y"', 'S4,q1,z', ''].join(nl);
    e = rejects(() => parseResponsesCsv(text, Q, 'r.csv'));
    assert.equal(e.line, 2, JSON.stringify(nl));
    assert.match(e.message, /line 2: a quoted field that opens in this record is closed on line 4 .*is its closing " missing\?/);
    // Never closed at all: where it opens, after an empty line too.
    text = ['student_id,question_id,response', '', 'S1,q1,ok', 'S2,q1,"never', 'S3,q1,x', 'S4,q1,y', ''].join(nl);
    e = rejects(() => parseResponsesCsv(text, Q));
    assert.equal(e.line, 4, JSON.stringify(nl));
    assert.match(e.message, /a quoted field opens here and is never closed/);
  }
});

test('CSV exports neutralise formula-like cells with a single quote (OWASP), and ids read back', () => {
  for (const c of ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) assert.equal(neutraliseFormula(c), `'${c}`);
  for (const c of ['S001', '1', '0.5', '', "'=already", 'a=b', '["Eq(v, u)"]']) assert.equal(neutraliseFormula(c), c);
  const csv = safeCsv([
    ['student_id', 'question_id', 'total'],
    ['=cmd|"/C calc"!A0', 'q1', '2'],
    ['@x', '-q', '1'],
  ]);
  assert.equal(csv, `student_id,question_id,total\n"'=cmd|""/C calc""!A0",q1,2\n'@x,'-q,1\n`);
  // No data line starts with a formula character, quoted or not.
  for (const line of csv.trim().split('\n')) assert.doesNotMatch(line, /^"?[=+\-@\t\r]/);
  // An exported equations.csv reads back onto the same students (the quote comes off again).
  assert.equal(unneutraliseId("'=cmd"), '=cmd');
  assert.equal(unneutraliseId("'plain"), "'plain");
  const back = parseEquationsCsv(`student_id,question_id,equations\n"'=cmd|""/C calc""!A0",q1,[]\n'@x,q1,[]\n`, () => ['v']);
  assert.deepEqual(
    back.rows.map((r) => r.studentId),
    ['=cmd|"/C calc"!A0', '@x'],
  );
});
