// Scheme-change preview benchmark (issue 15, part 4): N given equation lists generated from the
// development set's gold lists (./scale-rows.ts; BENCH_PREVIEW_N, default 3,000) graded cold; then,
// each with a fresh engine (as after a restart: only the workspace's kept verdicts help):
//   1. the preview of a one-item change that decides new pairs and moves no mark (an equivalent
//      accepted form added, as the scale bench's re-grade);
//   2. the preview of a one-item change that moves marks (q1.a accepts a wrong time, t = 2S/v);
//   3. applying change 2 (exam saved, every response re-marked: what the app's Apply does);
// with the time of each against the cold grade measured in the same run, the pairs each decided,
// and whether the applied marks are those the preview showed.
// Run: npm run bench -- preview
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/decide/engine-factory.ts';
import { grade, markPending } from '../electron/engine/grade.ts';
import { validateExam, type LoadedExam } from '../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../electron/engine/io/csv/equations.ts';
import { previewScheme } from '../electron/engine/preview-scheme.ts';
import { Workspace } from '../electron/engine/store/workspace.ts';
import type { Exam } from '../shared/exam.ts';
import { scaleRows } from './scale-rows.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = process.env.EQUIMARK_DATA ?? resolve(here, '../../shared/data');
const N = Number(process.env.BENCH_PREVIEW_N ?? 3000);

async function timed<T>(body: (engine: Awaited<ReturnType<typeof createEngine>>) => Promise<T>): Promise<{ value: T; ms: number; decided: number }> {
  const engine = await createEngine({ sympy: false, onNotice: () => {} });
  try {
    const t0 = performance.now();
    const value = await body(engine);
    const s = engine.stats();
    return { value, ms: performance.now() - t0, decided: s.pairs - s.cacheHits };
  } finally {
    await engine.close();
  }
}

function changed(exam: Exam, edit: (e: Exam) => void): LoadedExam {
  const e = structuredClone(exam);
  edit(e);
  return validateExam(e);
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'equimark-preview-'));
  const ws = new Workspace(join(dir, 'workspace.sqlite'));
  try {
    const exam = validateExam(JSON.parse(readFileSync(join(DATA, 'exam.json'), 'utf8')));
    const gen = scaleRows(DATA, N);
    const { rows } = parseEquationsCsv(Buffer.from(gen.csv), (q) => exam.questions.get(q)?.variables, 'rows.csv');
    console.log(`N = ${gen.rows} given lists of the development set's exam, graded cold, then previewed with a fresh engine`);
    const cold = await timed((engine) => grade({ workspace: ws, exam, engine, input: { kind: 'given', rows } }));
    const q1a = (e: Exam) => e.questions[0].scheme.find((s) => s.id === 'a')!;
    const widen = changed(exam.exam, (e) => q1a(e).accept.push(q1a(e).accept[0].replace(/^Eq\((.*), (.*)\)$/, 'Eq(($1) + 1, ($2) + 1)')));
    const wrong = changed(exam.exam, (e) => (q1a(e).accept = ['Eq(t, 2*S/v)']));
    const same = await timed((engine) => previewScheme({ workspace: ws, edited: widen, engine }));
    const moves = await timed((engine) => previewScheme({ workspace: ws, edited: wrong, engine }));
    const apply = await timed(async (engine) => {
      ws.importExam(wrong.exam);
      return markPending({ workspace: ws, exam: wrong, engine });
    });
    const stored = ws.itemMarksOfExam(exam.exam.id);
    const agree = moves.value.changes.every((c) => stored.get(c.responseId)?.find((i) => i.itemId === c.itemId)?.awarded === c.after);
    const a = moves.value.items.find((i) => i.questionId === 'q1' && i.itemId === 'a')!;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`cold grade (baseline)                     ${s(cold.ms)}  decided ${cold.decided}`);
    console.log(
      `preview, equivalent form added to q1.a    ${s(same.ms)}  decided ${same.decided}  ${(cold.ms / same.ms).toFixed(1)}x faster than cold; ${same.value.remarked} re-marked, ${same.value.changes.length} changes`,
    );
    console.log(
      `preview, q1.a accepts t = 2S/v            ${s(moves.ms)}  decided ${moves.decided}  ${(cold.ms / moves.ms).toFixed(1)}x faster than cold; q1.a gained ${a.gained}, lost ${a.lost}, unchanged ${a.unchanged}`,
    );
    console.log(`apply that change (save, re-mark all)     ${s(apply.ms)}  decided ${apply.decided}  preview/apply ${(moves.ms / apply.ms).toFixed(2)}`);
    console.log(`applied marks are those previewed: ${agree ? 'yes' : 'NO'}`);
  } finally {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
