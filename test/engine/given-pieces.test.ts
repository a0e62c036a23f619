// Given equation lists imported a piece at a time (issue 14: a class's file is never held
// whole): exactly the rows, problems and marks of the whole file; a file that goes wrong in a
// late piece stops there with the line, keeps what the pieces before it stored and loses nothing
// stored before the run, and the same command on the corrected file finishes the job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grade } from '../../electron/engine/grade.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { parseEquationsCsv, readEquationsCsvPieces, type EquationsRow } from '../../electron/engine/io/csv/equations.ts';
import { CsvFileError } from '../../electron/engine/io/csv/read.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';

const exam: LoadedExam = validateExam({
  format: 'exam.v1',
  id: 'pieces',
  questions: [
    {
      id: 'q1',
      variables: ['v', 'u', 'w', 't', 'S'].map((name) => ({ name, assumptions: ['positive'] })),
      target: 'v',
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(t, 2*S/u)'] },
        { id: 'b', marks: 1, match: 'equivalent', accept: ['Eq(v - u, w)'] },
        { id: 'c', marks: 2, match: 'answer', accept: ['Eq(v, u + w)'] },
      ],
    },
  ],
});
const variablesOf = (q: string) => exam.questions.get(q)?.variables;

const LISTS = [['Eq(t, 2*S/u)', 'Eq(v, u + w)'], ['Eq(u + w, v)', 'Eq(t*u, 2*S)'], ['Eq(v, u - w)', 'Eq(t, S/u)'], ['Eq(3*(v - u), 3*(w))'], []];
const cell = (l: string[]) => `"${JSON.stringify(l).replace(/"/g, '""')}"`;
/** 40 students' lists, with a list outside the grammar, an unknown question and a duplicate row among them. */
function classCsv(lists: (i: number) => string[] = (i) => LISTS[i % LISTS.length]): string {
  const rows = Array.from({ length: 40 }, (_, i) => `S${i},q1,${cell(lists(i))}`);
  rows[7] = 'S7,q1,"[""Eq(v, \'\')""]"';
  rows[12] = 'S12,q9,[]';
  rows.splice(30, 0, `S3,q1,${cell(['Eq(v, u)'])}`);
  return `student_id,question_id,equations\n${rows.join('\n')}\n`;
}

async function* bytes(text: string, size = 17): AsyncIterable<Uint8Array> {
  const b = new TextEncoder().encode(text);
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

/** The file's rows a piece of about 150 characters at a time, with every problem the pieces report. */
function pieces(text: string, problems: unknown[] = []): AsyncIterable<EquationsRow[]> {
  return (async function* () {
    for await (const p of readEquationsCsvPieces(bytes(text), variablesOf, 'lists.csv', 150)) {
      problems.push(...p.problems);
      yield p.rows;
    }
  })();
}

function outcomes(ws: Workspace): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of ws.listResponses(exam.exam.id)) {
    const m = ws.getMarks(r.id);
    out[`${r.studentId}`] = `${JSON.stringify(r.extraction?.equations)} ${m?.status}:${m?.total}:${m?.items.map((i) => `${i.itemId}=${i.outcome}`).join(',')}`;
  }
  return out;
}

async function graded(rows: Parameters<typeof grade>[0]['input'], ws = new Workspace(':memory:')): Promise<Workspace> {
  const engine = await Entailer.create({});
  try {
    await grade({ workspace: ws, exam, engine, input: rows });
  } finally {
    await engine.close();
  }
  return ws;
}

test('a file imported a piece at a time gives the rows, problems and marks of the whole file', async () => {
  const text = classCsv();
  const whole = parseEquationsCsv(text, variablesOf, 'lists.csv');
  const problems: unknown[] = [];
  const rows: EquationsRow[] = [];
  let n = 0;
  for await (const p of pieces(text, problems)) {
    rows.push(...p);
    n++;
  }
  assert.ok(n >= 5, `read in ${n} pieces`);
  assert.deepEqual(rows, whole.rows);
  assert.deepEqual(problems, whole.problems);
  assert.deepEqual(
    problems.map((p) => (p as { line: number }).line),
    [9, 14, 32],
  );
  const a = await graded({ kind: 'given', rows: whole.rows });
  const b = await graded({ kind: 'given', rows: pieces(text) });
  assert.equal(Object.keys(outcomes(b)).length, 39);
  assert.deepEqual(outcomes(b), outcomes(a));
  a.close();
  b.close();
});

test('a bad record in a late piece stops the import at its line, keeping what the pieces before it stored; the corrected file finishes', async () => {
  const before = classCsv();
  // The class's lists changed (every student now has the next list), and line 36 is malformed.
  const changed = classCsv((i) => LISTS[(i + 1) % LISTS.length]);
  const lines = changed.split('\n');
  lines[35] = `S33,q1,"[]" oops`;
  const bad = lines.join('\n');
  const ws = await graded({ kind: 'given', rows: pieces(before) });
  const was = outcomes(ws);
  await assert.rejects(graded({ kind: 'given', rows: pieces(bad) }, ws), (e: unknown) => e instanceof CsvFileError && e.line === 36 && e.file === 'lists.csv');
  const now = outcomes(ws);
  assert.deepEqual(Object.keys(now).sort(), Object.keys(was).sort(), 'no response lost');
  const fixed = await graded({ kind: 'given', rows: parseEquationsCsv(changed, variablesOf).rows });
  const want = outcomes(fixed);
  // The pieces before the bad one are stored: a run of rows from the top holds the new lists;
  // the others, the bad line's included, keep the lists and marks they had.
  const firstLine = new Map(parseEquationsCsv(changed, variablesOf).rows.map((r) => [r.studentId, r.line]));
  const byLine = [...firstLine].filter(([s]) => s in was).sort((x, y) => x[1] - y[1]);
  const updated = byLine.filter(([s]) => now[s] !== was[s]).map(([, line]) => line);
  assert.ok(updated.length >= 20, `${updated.length} rows imported before the bad piece`);
  for (const [s, line] of byLine) {
    if (line <= Math.max(...updated)) assert.equal(now[s].split(' ')[0], want[s].split(' ')[0], `${s}: its new list is stored`);
    else assert.equal(now[s], was[s], `${s}: as it was`);
  }
  assert.ok(Math.max(...updated) < 36);
  // The same command on the corrected file: the marks of grading it fresh.
  await graded({ kind: 'given', rows: pieces(changed) }, ws);
  assert.deepEqual(outcomes(ws), want);
  ws.close();
  fixed.close();
});
