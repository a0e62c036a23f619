// One step of the scale bench, in its own process (so each step starts as a fresh CLI run would,
// and its peak memory is its own): what `equimark grade --equations` does, timed.
//   node --import tsx bench/scale-run.ts METHOD EXAM.json ROWS.csv OUTDIR
// METHOD 'sequential' (one response at a time, per-response reads and writes, the pair cache in
// memory only: the method before issue 14) or 'scale' (the default path). Prints one JSON line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/decide/engine-factory.ts';
import { grade } from '../electron/engine/grade.ts';
import { loadExamFile } from '../electron/engine/io/exam.ts';
import { readEquationsCsvPieces } from '../electron/engine/io/csv/equations.ts';
import { hashedAsRead, keepReadThrough, knownReadThrough, readThroughUnlessKnown } from '../electron/engine/io/read-through.ts';
import { fileBytes } from '../electron/engine/io/csv/csv-pieces.ts';
import { writeClassExports } from '../electron/engine/io/class-exports.ts';
import { Workspace } from '../electron/engine/store/workspace.ts';
import { limitHeapGrowth } from '../electron/cli/heap-growth.ts';

const [method, examPath, rowsPath, outDir] = process.argv.slice(2);
// As the command line does (electron/cli/main.ts).
limitHeapGrowth();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const exam = loadExamFile(examPath);
// As `equimark grade --equations` reads it: its records read through once (a malformed file
// changes nothing), then a piece at a time, each piece imported as it is read.
// (skipped for the bytes last read through into the output folder, as the command line does).
const known = knownReadThrough(outDir);
const readThrough = await readThroughUnlessKnown(() => fileBytes(rowsPath), known, rowsPath);
if (readThrough !== known) keepReadThrough(outDir, readThrough);
// Hashed as read, its problems counted: a file imported whole before into the same readings is
// not read again (engine/given-import.ts).
const read = hashedAsRead(fileBytes(rowsPath));
let problems = 0;
const rows = (async function* () {
  for await (const p of readEquationsCsvPieces(read.bytes, (q) => exam.questions.get(q)?.variables, rowsPath)) {
    problems += p.problems.length;
    yield p.rows;
  }
})();
const file = { sha256: readThrough, readWhole: () => problems === 0 && read.sha256() === readThrough };
const ws = new Workspace(join(outDir, 'workspace.sqlite'));
const sequential = method === 'sequential';
// Z3 prepared at its first query, as the command line's engine is (electron/cli/engine.ts).
const engine = await createEngine({ sympy: false, onNotice: () => {}, entailer: { z3Ahead: false, ...(sequential ? { canonical: false } : {}) } });
/** When the grade's answer groups' comparisons (review/prepare-groups.ts) began and ended, if they did. */
let groupsFrom: number | undefined;
let groupsTo: number | undefined;
const summary = await grade({
  workspace: ws,
  exam,
  engine,
  onProgress: (p) => {
    if (p.phase === 'groups' && p.done === 0) groupsFrom = performance.now();
    if (p.phase === 'groups' && p.done === p.total) groupsTo = performance.now();
  },
  input: { kind: 'given', rows, ...(sequential ? {} : { file }) },
  ...(sequential ? { sequential: true } : {}),
} as Parameters<typeof grade>[0]);
const groupsMs = groupsFrom === undefined || groupsTo === undefined ? 0 : groupsTo - groupsFrom;
// As `equimark grade` does (its marks.csv and equations.csv): written only when the workspace
// changed since they were (export-stamp.ts), a page of responses at a time.
writeClassExports(ws, exam.exam, outDir, ['marks.csv', 'equations.csv']);
const stats = engine.stats();
await engine.close();
ws.close();
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  `${JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    responses: summary.responses,
    markedNow: summary.markedNow,
    decided: stats.pairs - stats.cacheHits,
    z3Calls: stats.z3Calls,
    marks: readFileSync(join(outDir, 'marks.csv'), 'utf8').length,
    // The answer groups' comparisons at the grade's end, and how many questions they compared.
    groupsMs,
    groupsCompared: summary.answerGroups?.compared.length ?? 0,
  })}\n`,
);
