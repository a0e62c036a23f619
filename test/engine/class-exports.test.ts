// The class's exports written a page of responses at a time (io/class-exports.ts) are byte for
// byte the files written whole (marksCsv, equationsCsv, gradebookCsv), whatever the page size;
// the stamp record holds their hashes, so a second call writes nothing; a page that fails leaves
// the files that were there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grade } from '../../electron/engine/grade.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { equationsCsv, gradebookCsv, marksCsv } from '../../electron/engine/io/csv/write.ts';
import { writeClassExports } from '../../electron/engine/io/class-exports.ts';
import { STAMP_FILE } from '../../electron/engine/io/export-stamp.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { FakeEngine } from './fake-engine.ts';

const exam = validateExam({
  format: 'exam.v1',
  id: 'ex',
  title: 'Exports (streamed)',
  questions: [
    { id: 'q1', variables: [{ name: 'x' }], scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] },
    {
      id: 'q2',
      variables: [{ name: 'x' }],
      scheme: [
        { id: 'b', marks: 2, match: 'implied', accept: ['Eq(x, 2)'] },
        { id: 'c', marks: 1, manual: true },
      ],
    },
  ],
});

// Seven students, two questions: pages of 3 split the class unevenly; an id that looks like a
// formula and a list with a quote test the cells' escaping across pages.
const rows = Array.from({ length: 7 }, (_, i) => [
  [`S${i}`, 'q1', JSON.stringify(i % 2 ? ['Eq(x, 1)'] : ['Eq(x, 3)'])],
  [i === 4 ? '=cmd' : `S${i}`, 'q2', JSON.stringify(i % 3 ? ['Eq(x, 2)'] : [])],
]).flat();
const csv = `student_id,question_id,equations\n${rows.map(([s, q, l]) => `${s},${q},"${l.replace(/"/g, '""')}"`).join('\n')}\n`;

test('the exports written a page at a time are the files written whole; a second call writes nothing', async () => {
  const ws = new Workspace(':memory:');
  const dir = mkdtempSync(join(tmpdir(), 'eqm-exports-'));
  try {
    await grade({
      workspace: ws,
      exam,
      engine: new FakeEngine(),
      input: { kind: 'given', rows: parseEquationsCsv(csv, (q) => exam.questions.get(q)?.variables).rows },
    });
    ws.setOverride(ws.findResponse('ex', 'S1', 'q2')!, 'c', 1);
    for (const pageSize of [1, 3, 14, 100]) {
      rmSync(join(dir, STAMP_FILE), { force: true });
      assert.deepEqual(writeClassExports(ws, exam.exam, dir, undefined, { pageSize }), { written: true });
      assert.equal(readFileSync(join(dir, 'marks.csv'), 'utf8'), marksCsv(ws, exam.exam), `marks.csv, pages of ${pageSize}`);
      assert.equal(readFileSync(join(dir, 'equations.csv'), 'utf8'), equationsCsv(ws, exam.exam), `equations.csv, pages of ${pageSize}`);
      assert.equal(readFileSync(join(dir, 'gradebook.csv'), 'utf8'), gradebookCsv(ws, exam.exam), `gradebook.csv, pages of ${pageSize}`);
    }
    const rec = JSON.parse(readFileSync(join(dir, STAMP_FILE), 'utf8')) as { files: Record<string, string> };
    for (const n of ['marks.csv', 'equations.csv', 'gradebook.csv'])
      assert.equal(
        rec.files[n],
        createHash('sha256')
          .update(readFileSync(join(dir, n)))
          .digest('hex'),
        `${n}'s hash is recorded`,
      );
    assert.deepEqual(writeClassExports(ws, exam.exam, dir, undefined, { pageSize: 3 }), { written: false }, 'up to date: nothing written');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('.tmp-')),
      [],
      'no temporary file left',
    );
  } finally {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an export that fails part-way leaves the files that were there and no temporary file', async () => {
  const ws = new Workspace(':memory:');
  const dir = mkdtempSync(join(tmpdir(), 'eqm-exports-'));
  try {
    await grade({
      workspace: ws,
      exam,
      engine: new FakeEngine(),
      input: { kind: 'given', rows: parseEquationsCsv(csv, (q) => exam.questions.get(q)?.variables).rows },
    });
    writeClassExports(ws, exam.exam, dir);
    const marks = readFileSync(join(dir, 'marks.csv'), 'utf8');
    // A change that moves a row (S3's q1.a was 1), so the files must be written again.
    ws.setOverride(ws.findResponse('ex', 'S3', 'q1')!, 'a', 0, 'seen on the paper');
    // The second page's read fails (the workspace closed under it); the read of the changed rows before it does not count.
    const list = ws.listResponses.bind(ws);
    let pages = 0;
    ws.listResponses = ((...a: Parameters<typeof list>) => {
      if (a[1]?.limit !== undefined && ++pages === 2) throw new Error('the workspace went away');
      return list(...a);
    }) as typeof ws.listResponses;
    assert.throws(() => writeClassExports(ws, exam.exam, dir, undefined, { pageSize: 3 }), /went away/);
    assert.equal(readFileSync(join(dir, 'marks.csv'), 'utf8'), marks, 'the earlier file is left whole');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('.tmp-')),
      [],
      'no temporary file left',
    );
    assert.ok(existsSync(join(dir, STAMP_FILE)));
  } finally {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The three files as a full write into a new folder gives them now. */
function fresh(ws: Workspace, e: typeof exam.exam): Record<string, string> {
  const d = mkdtempSync(join(tmpdir(), 'eqm-exports-fresh-'));
  try {
    writeClassExports(ws, e, d);
    return Object.fromEntries(['marks.csv', 'equations.csv', 'gradebook.csv'].map((n) => [n, readFileSync(join(d, n), 'utf8')]));
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}

const filesIn = (dir: string): Record<string, string> =>
  Object.fromEntries(['marks.csv', 'equations.csv', 'gradebook.csv'].map((n) => [n, readFileSync(join(dir, n), 'utf8')]));

test("after a change, files whose rows it doesn't move are left as they are; any change a row or the gradebook shows writes them, byte for byte a full write", async () => {
  const ws = new Workspace(':memory:');
  const dir = mkdtempSync(join(tmpdir(), 'eqm-exports-'));
  const given = (text: string, e = exam) => ({ kind: 'given' as const, rows: parseEquationsCsv(text, (q) => e.questions.get(q)?.variables).rows });
  try {
    await grade({ workspace: ws, exam, engine: new FakeEngine(), input: given(csv) });
    writeClassExports(ws, exam.exam, dir, undefined, { pageSize: 3 });
    const step = (what: string, e: typeof exam.exam, written: boolean): void => {
      assert.deepEqual(writeClassExports(ws, e, dir, undefined, { pageSize: 3 }), { written }, `${what}: ${written ? 'written' : 'left as they are'}`);
      assert.deepEqual(filesIn(dir), fresh(ws, e), `${what}: the files are those of a full write`);
      assert.deepEqual(writeClassExports(ws, e, dir), { written: false }, `${what}: then up to date`);
    };
    // An override giving the automatic mark (S3's q1.a is 1): stored, and no row moves.
    ws.setOverride(ws.findResponse('ex', 'S3', 'q1')!, 'a', 1, 'seen on the paper');
    step('an override equal to the automatic mark', exam.exam, false);
    // A scheme change that adds an accepted form no list has (evidence aside, no mark moves).
    const more = structuredClone(exam.exam);
    more.questions[0].scheme[0].accept.push('Eq(x, 7)');
    const v = validateExam;
    await grade({ workspace: ws, exam: v(more), engine: new FakeEngine(), input: { kind: 'none' } });
    step('an accepted form added that moves no mark', more, false);
    // One that moves marks: S0's x = 3 now earns q1.a.
    const moves = structuredClone(more);
    moves.questions[0].scheme[0].accept.push('Eq(x, 3)');
    await grade({ workspace: ws, exam: v(moves), engine: new FakeEngine(), input: { kind: 'none' } });
    step('an accepted form added that moves marks', moves, true);
    // A change the rows see with no response changed: the exam's title (the gradebook's heading), an item made manual.
    step("the exam's title", { ...moves, title: 'Another title' }, true);
    const manual = structuredClone(moves);
    manual.questions[1].scheme[0] = { ...manual.questions[1].scheme[0], manual: true };
    step('an item made manual (the exam not stored)', manual, true);
    // An override that moves a total; a response added (its list imported); a response's list corrected.
    ws.setOverride(ws.findResponse('ex', 'S2', 'q1')!, 'a', 1, 'seen on the paper');
    step('an override that moves a mark', moves, true);
    await grade({ workspace: ws, exam: v(moves), engine: new FakeEngine(), input: given(`${csv}S9,q1,"[""Eq(x, 3)""]"\n`, v(moves)) });
    step('a response added', moves, true);
  } finally {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
