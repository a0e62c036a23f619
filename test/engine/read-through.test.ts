// The read-through of an equations CSV before anything is stored (io/read-through.ts): skipped
// only for the very bytes last read through without error; a file changed since, in any byte,
// is read through again, and a malformed one is still refused before anything is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvFileError } from '../../electron/engine/io/csv/read.ts';
import { READ_THROUGH_FILE, keepReadThrough, knownReadThrough, readThroughUnlessKnown } from '../../electron/engine/io/read-through.ts';

const GOOD = 'student_id,question_id,equations\nS1,q1,"[""t = u/g""]"\nS2,q1,[]\n';
/** One byte changed: the last record's quote left open. */
const BAD = 'student_id,question_id,equations\nS1,q1,"[""t = u/g""]"\nS2,q1,"[]\n';

/** A file's bytes as a source, counting how many times it is read. */
function counted(text: string) {
  const c = { reads: 0, open: () => (c.reads++, [Buffer.from(text, 'utf8')]) };
  return c;
}

test('the same bytes are read through once; other bytes are read through again, and a malformed file is refused', async () => {
  const first = counted(GOOD);
  const sha = await readThroughUnlessKnown(first.open, undefined, 'l.csv');
  assert.match(sha, /^[0-9a-f]{64}$/);
  assert.equal(first.reads, 1);
  // The same bytes again: hashed, not read through (one read, no CSV parse).
  const again = counted(GOOD);
  assert.equal(await readThroughUnlessKnown(again.open, sha, 'l.csv'), sha);
  assert.equal(again.reads, 1);
  // A byte changed since: read through again, and refused with its line.
  const bad = counted(BAD);
  await assert.rejects(readThroughUnlessKnown(bad.open, sha, 'l.csv'), (e: unknown) => e instanceof CsvFileError && e.line === 3);
  assert.equal(bad.reads, 2, 'hashed, then read through');
  // Another well-formed file: read through, and its own hash returned (to keep).
  const other = counted(GOOD.replace('S2', 'S3'));
  const sha2 = await readThroughUnlessKnown(other.open, sha, 'l.csv');
  assert.notEqual(sha2, sha);
  assert.equal(other.reads, 2);
});

test('the hash kept in the output folder is read back; a missing or damaged record is none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-read-through-'));
  try {
    assert.equal(knownReadThrough(dir), undefined);
    keepReadThrough(dir, 'a'.repeat(64));
    assert.equal(knownReadThrough(dir), 'a'.repeat(64));
    keepReadThrough(dir, 'not a hash');
    assert.equal(knownReadThrough(dir), undefined);
    // A hash kept by another version of the check: the file is read through again.
    writeFileSync(join(dir, READ_THROUGH_FILE), JSON.stringify({ sha256: 'a'.repeat(64), check: 'equations-csv-records.0' }));
    assert.equal(knownReadThrough(dir), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
