// A re-run given the equations file it imported whole last time skips reading it
// (engine/given-import.ts): only when the file's bytes, the questions' variables and the exam's
// readings are those of that import. Every case here is checked against a cold grade of the same
// exam and file in a new workspace (the exports' bytes, every stored mark) and against the same
// steps taken without the stamp (the file always read): a skip taken wrongly changes a byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { note } from '../../shared/extraction.ts';
import { grade, type GradeSummary } from '../../electron/engine/grade.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { readEquationsCsvPieces } from '../../electron/engine/io/csv/equations.ts';
import { hashedAsRead } from '../../electron/engine/io/read-through.ts';
import { CLASS_EXPORTS, writeClassExports } from '../../electron/engine/io/class-exports.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { FakeEngine } from './fake-engine.ts';

type Spec = { acceptA?: string[]; variables?: string[] };
const examOf = ({ acceptA = ['Eq(x, 1)'], variables = ['x'] }: Spec = {}): LoadedExam =>
  validateExam({
    format: 'exam.v1',
    id: 'gi',
    questions: [
      {
        id: 'q1',
        variables: variables.map((name) => ({ name })),
        scheme: [
          { id: 'a', marks: 1, match: 'implied', accept: acceptA },
          { id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] },
        ],
      },
      { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'c', marks: 1, match: 'implied', accept: ['Eq(x, 3)'] }] },
    ],
  });

const LISTS: [string, string, string[]][] = [
  ['S1', 'q1', ['Eq(x, 1)']],
  ['S2', 'q1', ['Eq(x, 2)', 'Eq(x, 1)']],
  ['S3', 'q1', ['Eq(x, 5)']],
  ['S4', 'q1', []],
  ['S1', 'q2', ['Eq(x, 3)']],
  ['S2', 'q2', ['Eq(x, 4)']],
];
const csvOf = (lists: [string, string, string[]][]): string =>
  `student_id,question_id,equations\n${lists.map(([s, q, l]) => `${s},${q},"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;
const FILE = csvOf(LISTS);
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * grade() as `equimark grade --equations` calls it: the file's pieces hashed as read and their
 * problems counted; with `stamp: false`, without the file (always read). `hashed` stands for the
 * bytes the command line hashed first (by default the file's own). `read` tells whether the rows
 * were read at all.
 */
async function run(ws: Workspace, exam: LoadedExam, text: string, opts: { stamp?: boolean; hashed?: string } = {}) {
  const read = hashedAsRead([Buffer.from(text, 'utf8')]);
  let problems = 0;
  let wasRead = false;
  const rows = (async function* () {
    wasRead = true;
    for await (const p of readEquationsCsvPieces(read.bytes, (q) => exam.questions.get(q)?.variables)) {
      problems += p.problems.length;
      yield p.rows;
    }
  })();
  const hashed = opts.hashed ?? sha(text);
  const file = { sha256: hashed, readWhole: () => problems === 0 && read.sha256() === hashed };
  const summary: GradeSummary = await grade({
    workspace: ws,
    exam,
    engine: new FakeEngine(),
    input: { kind: 'given', rows, ...(opts.stamp === false ? {} : { file }) },
  });
  return { summary, read: wasRead };
}

/** The three class exports' bytes as `equimark grade` writes them, and every stored mark (the time aside). */
function outputs(ws: Workspace, exam: LoadedExam): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-given-import-'));
  try {
    writeClassExports(ws, exam.exam, dir);
    const out: Record<string, unknown> = Object.fromEntries(CLASS_EXPORTS.map((n) => [n, readFileSync(join(dir, n), 'utf8')]));
    for (const r of ws.listResponses('gi')) {
      const m = ws.getMarks(r.id);
      out[`${r.studentId}/${r.questionId}`] = {
        reading: ws.getExtraction(r.id)?.equations,
        marks: m && { ...m, markedAt: undefined, extractionId: undefined },
      };
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The outputs of a cold grade of `exam` and `text` in a new workspace. */
async function cold(exam: LoadedExam, text: string): Promise<Record<string, unknown>> {
  const ws = new Workspace(':memory:');
  try {
    await run(ws, exam, text, { stamp: false });
    return outputs(ws, exam);
  } finally {
    ws.close();
  }
}

/**
 * The same steps in two workspaces, one with the stamp and one always reading the file; `last`
 * is the step checked: the two give the same summary and outputs, and those of a cold grade
 * (unless `cold: false`: steps that leave more than the last file imports).
 */
async function both(
  steps: (ws: Workspace, stamp: boolean) => Promise<void>,
  last: { exam: LoadedExam; text: string; hashed?: string; cold?: false },
): Promise<{ read: boolean; summary: GradeSummary; ws: Workspace }> {
  const plain = new Workspace(':memory:');
  const ws = new Workspace(':memory:');
  try {
    await steps(plain, false);
    await steps(ws, true);
    const p = await run(plain, last.exam, last.text, { stamp: false });
    const s = await run(ws, last.exam, last.text, last.hashed ? { hashed: last.hashed } : {});
    assert.deepEqual(s.summary, p.summary, 'the summary is that of an import that reads the file');
    const out = outputs(ws, last.exam);
    assert.deepEqual(out, outputs(plain, last.exam), 'the outputs are those of the same steps reading the file');
    if (last.cold !== false) assert.deepEqual(out, await cold(last.exam, last.text), 'the outputs are those of a cold grade');
    return { read: s.read, summary: s.summary, ws };
  } finally {
    plain.close();
  }
}

test('a re-run with the same file and exam does not read the file; its marks and exports are those of a cold grade', async () => {
  const exam = examOf();
  const { read, summary, ws } = await both(async (w) => void (await run(w, exam, FILE)), { exam, text: FILE });
  ws.close();
  assert.equal(read, false, 'the file is not read');
  assert.deepEqual(summary.imported, { inserted: 0, updated: 0, unchanged: LISTS.length, kept: 0, setAside: 0 });
  assert.equal(summary.markedNow, 0);
});

test('a re-grade after a scheme change does not read the file either; the marks are those of a cold grade under the new scheme', async () => {
  const exam = examOf();
  const changed = examOf({ acceptA: ['Eq(x, 1)', 'Eq(x, 5)'] });
  const { read, summary, ws } = await both(async (w) => void (await run(w, exam, FILE)), { exam: changed, text: FILE });
  ws.close();
  assert.equal(read, false);
  assert.ok(summary.markedNow > 0, "q1's responses are marked again");
});

test('a file changed in one list is read and imported', async () => {
  const exam = examOf();
  const other = csvOf(LISTS.map(([s, q, l]) => (s === 'S3' && q === 'q1' ? [s, q, ['Eq(x, 1)']] : [s, q, l])));
  const { read, summary, ws } = await both(async (w) => void (await run(w, exam, FILE)), { exam, text: other });
  ws.close();
  assert.equal(read, true);
  assert.equal(summary.imported.updated, 1);
});

test("a question's variables changed: the file is read again (a list that parsed no longer does)", async () => {
  const exam = examOf({ variables: ['x', 'y'] });
  const changed = examOf({ variables: ['x'] });
  const withY = csvOf(LISTS.map(([s, q, l]) => (s === 'S3' && q === 'q1' ? [s, q, ['Eq(y, 5)']] : [s, q, l])));
  const { read, ws } = await both(async (w) => void (await run(w, exam, withY)), { exam: changed, text: withY });
  ws.close();
  assert.equal(read, true);
});

test('a reading changed in the workspace since (a correction, a response added): the file is read again and puts its lists back', async () => {
  const exam = examOf();
  const corrected = await both(
    async (w) => {
      await run(w, exam, FILE);
      const r = w.listResponses('gi').find((x) => x.studentId === 'S3')!;
      w.saveExtraction(
        r.id,
        { equations: [{ source: 'Eq(x, 1)' }], status: 'read', source: 'manual', flags: [], unread: [], notes: [note('instructor', 'corrected')] },
        'manual',
      );
    },
    { exam, text: FILE },
  );
  corrected.ws.close();
  assert.equal(corrected.read, true);
  assert.equal(corrected.summary.imported.updated, 1);
  // Another file imported since (a response added) and then the first one again: read again
  // (the response added stays, as it would without the stamp: no cold grade to compare with).
  const extra = csvOf([...LISTS, ['S5', 'q2', ['Eq(x, 3)']]]);
  const added = await both(
    async (w) => {
      await run(w, exam, FILE);
      await run(w, exam, extra);
    },
    { exam, text: FILE, cold: false },
  );
  added.ws.close();
  assert.equal(added.read, true);
});

test('a file read with a problem, or from bytes other than those hashed, leaves no stamp: the next run reads it again', async () => {
  const exam = examOf();
  const bad = `${FILE}S9,q1,"[""Eq(x, ""]"\n`;
  const problem = await both(async (w) => void (await run(w, exam, bad)), { exam, text: bad });
  problem.ws.close();
  assert.equal(problem.read, true, 'a file with a bad row is read (and its problems reported) every time');
  // The file changed between the command line's hash and its read: the stamp would name bytes
  // that were not imported, so none is kept, and the same hash given again reads the file.
  const changedMeanwhile = await both(async (w) => void (await run(w, exam, FILE, { hashed: sha('other bytes') })), {
    exam,
    text: FILE,
    hashed: sha('other bytes'),
  });
  changedMeanwhile.ws.close();
  assert.equal(changedMeanwhile.read, true);
});
