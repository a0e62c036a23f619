// A CSV file read a piece at a time (csv-pieces.ts) reads exactly as the whole file does
// (readCsv): the same rows with the same lines, whatever the piece and chunk sizes and wherever a
// chunk cuts a multi-byte character, a CRLF or a doubled quote; and a bad file gives the same
// error at the same line, after the pieces before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCsv, CsvFileError } from '../../electron/engine/io/csv/read.ts';
import { readCsvPieces } from '../../electron/engine/io/csv/csv-pieces.ts';

const COLS = ['student_id', 'question_id', 'response'];

/** The bytes in chunks of `size`. */
function* chunks(bytes: Uint8Array, size: number): Iterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function inPieces(
  bytes: Uint8Array,
  chunk: number,
  piece: number,
): Promise<{ rows: [number, Record<string, string>][]; pieces: number; error?: string }> {
  const rows: [number, Record<string, string>][] = [];
  let pieces = 0;
  try {
    for await (const t of readCsvPieces(chunks(bytes, chunk), COLS, 'f.csv', piece)) {
      pieces++;
      for (const r of t.rows) rows.push([r.line, r.values]);
    }
  } catch (e) {
    assert.ok(e instanceof CsvFileError, String(e));
    return { rows, pieces, error: e.message };
  }
  return { rows, pieces };
}

function whole(bytes: Uint8Array): { rows: [number, Record<string, string>][]; error?: string } {
  try {
    return { rows: readCsv(Buffer.from(bytes), COLS, 'f.csv').rows.map((r) => [r.line, r.values]) };
  } catch (e) {
    assert.ok(e instanceof CsvFileError, String(e));
    return { rows: [], error: e.message };
  }
}

const enc = (s: string) => new TextEncoder().encode(s);

const GOOD =
  '\uFEFFstudent_id,question_id,response\n' +
  'S1,q1,"v = u\nt = 2·S/u"\n\n' +
  'S2,q1,"a ""quote""\n\nthen"\n' +
  Array.from({ length: 40 }, (_, i) => `S${i + 3},q2,"Δv = ${i} m/s², ""x"", é"\n`).join('') +
  'S99,q1,last';

test('a good file reads the same rows and lines in pieces as whole, LF, CRLF or CR-only, at every cut', async () => {
  for (const text of [GOOD, GOOD.replace(/\n/g, '\r\n'), GOOD.replace(/\n/g, '\r')]) {
    const bytes = enc(text);
    const want = whole(bytes);
    assert.equal(want.error, undefined);
    assert.equal(want.rows.length, 43);
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20])
      for (const piece of [1, 50, 300, 1 << 20]) {
        const got = await inPieces(bytes, chunk, piece);
        assert.deepEqual(got, { ...want, pieces: got.pieces }, `chunk ${chunk}, piece ${piece}`);
        if (piece === 1 && chunk === 64) assert.ok(got.pieces > 10, 'read in many pieces');
      }
  }
});

const BAD: [string, string][] = [
  ['a wrong number of fields late in the file', GOOD.replace('S30,q2,', 'S30,q2,extra,')],
  ['a multi-line record with a wrong number of fields', GOOD.replace('S30,q2,"Δv', 'S30,q2,x,"Δv\n')],
  ['an unclosed quote late in the file', `${GOOD}\nS100,q1,"never closed\nS101,q1,x\n`],
  ['a quote inside an unquoted field', GOOD.replace('S35,q2,', 'S35,q2,ab"c ')],
  ['text after a closing quote', GOOD.replace('S20,q2,"Δv = 17 m/s², ""x"", é"', 'S20,q2,"Δv" x')],
  ['a NUL byte late in the file', GOOD.replace('S40,q2,', 'S40,q2,\u0000')],
  ['a missing column', GOOD.replace('question_id', 'question')],
  ['an empty file', '\n\n'],
];

test('a bad file gives the error of the whole file, with its line, after the pieces before it', async () => {
  for (const [what, text] of BAD) {
    const bytes = enc(text);
    const want = whole(bytes);
    assert.ok(want.error, what);
    for (const chunk of [1, 5, 64, 1 << 20])
      for (const piece of [1, 200, 1 << 20]) {
        const got = await inPieces(bytes, chunk, piece);
        assert.equal(got.error, want.error, `${what}: chunk ${chunk}, piece ${piece}`);
        // What was handed out before the error is the file's rows before it, as they are.
        const line: number = Number(/line (\d+)/.exec(want.error!)?.[1] ?? 1);
        const before: [number, Record<string, string>][] = whole(
          enc(
            text
              .split('\n')
              .slice(0, line - 1)
              .join('\n'),
          ),
        ).rows;
        for (const r of got.rows) assert.ok(r[0] < line, `${what}: a row at or after the bad line was given`);
        assert.deepEqual(got.rows, before.slice(0, got.rows.length), what);
      }
  }
});

test('invalid UTF-8 cut by a chunk is refused with the line and byte of the whole file', async () => {
  const good = enc(GOOD.replace(/\n/g, '\r\n'));
  const at = good.indexOf(enc('S25')[0], good.length / 2);
  const bytes = new Uint8Array([...good.subarray(0, at), 0xe2, 0x82, 0x41, ...good.subarray(at)]);
  const want = whole(bytes).error!;
  assert.match(want, /line \d+: not valid UTF-8 text \(bytes e2 82 41/);
  for (const chunk of [1, 2, 3, 4, 100]) assert.equal((await inPieces(bytes, chunk, 100)).error, want, `chunk ${chunk}`);
  const utf16 = new Uint8Array([0xff, 0xfe, ...enc('student_id')]);
  assert.equal((await inPieces(utf16, 1, 100)).error, whole(utf16).error);
});
