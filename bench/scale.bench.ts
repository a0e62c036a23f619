// Scale benchmark (issue 14): N given equation lists (default 67,500; BENCH_SCALE_N for a smaller
// run), generated from the development set's gold lists rewritten at random (./scale-rows.ts),
// graded as `equimark grade --equations` does, each step in its own process:
//   1. cold: a new workspace;
//   2. re-run with nothing to do: the same command again;
//   3. re-grade after a one-item scheme change: one accepted form added to one item;
// with the time, the per-response cost, the pairs decided, the Z3 calls and the peak memory
// (max RSS) of each, for the current method ('scale') and for the sequential method (one response
// at a time, per-response reads and writes, the pair cache in memory only) measured in the same
// run, and the ratio of the two (wall and CPU time: CPU time, main thread and Z3 workers, is the
// steadier figure on a machine shared with other work). The marks.csv of both methods must be identical.
// Run: npm run bench -- scale   (BENCH_SCALE_N=6750 npm run bench -- scale for a few minutes)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scaleRows } from './scale-rows.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = process.env.EQUIMARK_DATA ?? resolve(here, '../../shared/data');
const N = Number(process.env.BENCH_SCALE_N ?? 67500);
const METHODS = (process.env.BENCH_SCALE_METHODS ?? 'scale,sequential').split(',');

type Step = {
  ms: number;
  cpuMs: number;
  maxRssMb: number;
  responses: number;
  markedNow: number;
  decided: number;
  z3Calls: number;
  groupsMs?: number;
  groupsCompared?: number;
};

function step(method: string, exam: string, rows: string, out: string): Step {
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'scale-run.ts'), method, exam, rows, out], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Step;
}

/**
 * The exam with one accepted form added to one item: an equivalent form written so that no
 * rewriting makes it one already decided (`a + 1 = b + 1`), so its pairs are new and the marks stay.
 */
function changedExam(examText: string): string {
  const exam = JSON.parse(examText) as { questions: { id: string; scheme: { id: string; accept?: string[] }[] }[] };
  const item = exam.questions[0].scheme.find((s) => (s.accept?.length ?? 0) > 0)!;
  item.accept!.push(item.accept![0].replace(/^Eq\((.*), (.*)\)$/, 'Eq(($1) + 1, ($2) + 1)'));
  return JSON.stringify(exam, null, 2);
}

const line = (name: string, s: Step): string =>
  `${name.padEnd(34)} ${(s.ms / 1000).toFixed(1).padStart(6)} s (cpu ${(s.cpuMs / 1000).toFixed(1).padStart(5)} s)  ${((s.ms * 1000) / Math.max(1, s.responses)).toFixed(0).padStart(6)} µs/response  ` +
  `decided ${String(s.decided).padStart(7)}  z3 ${String(s.z3Calls).padStart(5)}  peak ${s.maxRssMb.toFixed(0)} MB` +
  (s.groupsMs ? `  (answer groups: ${s.groupsCompared} questions compared, ${(s.groupsMs / 1000).toFixed(1)} s)` : '');

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'equimark-scale-'));
  try {
    const gen = scaleRows(DATA, N);
    const rows = join(dir, 'rows.csv');
    writeFileSync(rows, gen.csv);
    const examText = readFileSync(join(DATA, 'exam.json'), 'utf8');
    const exam = join(dir, 'exam.json');
    const exam2 = join(dir, 'exam-changed.json');
    writeFileSync(exam, examText);
    writeFileSync(exam2, changedExam(examText));
    console.log(`N = ${gen.rows} given lists, ${gen.equations} equations, ${gen.distinct} distinct (question, equation); ${METHODS.join(' vs ')}`);
    const results = new Map<string, Step[]>();
    for (const m of METHODS) {
      const out = join(dir, m);
      mkdirSync(out);
      const cold = step(m, exam, rows, out);
      const marks = readFileSync(join(out, 'marks.csv'), 'utf8');
      const rerun = step(m, exam, rows, out);
      const regrade = step(m, exam2, rows, out);
      writeFileSync(join(dir, `${m}.marks.csv`), marks);
      results.set(m, [cold, rerun, regrade]);
      console.log(line(`${m}: cold`, cold));
      console.log(line(`${m}: re-run, nothing to do`, rerun));
      console.log(line(`${m}: re-grade, 1 item changed`, regrade));
    }
    const [a, b] = METHODS;
    if (b && results.has(a) && results.has(b)) {
      const same = readFileSync(join(dir, `${a}.marks.csv`), 'utf8') === readFileSync(join(dir, `${b}.marks.csv`), 'utf8');
      const ra = results.get(a)!;
      const rb = results.get(b)!;
      const names = ['cold', 're-run', 're-grade'];
      console.log(
        `ratio ${b}/${a}: ${names.map((n, i) => `${n} ${(rb[i].ms / ra[i].ms).toFixed(1)}x (cpu ${(rb[i].cpuMs / ra[i].cpuMs).toFixed(1)}x)`).join(', ')}, peak memory ${(Math.max(...rb.map((s) => s.maxRssMb)) / Math.max(...ra.map((s) => s.maxRssMb))).toFixed(1)}x`,
      );
      console.log(`marks.csv of ${a} and ${b}: ${same ? 'identical' : 'DIFFERENT'}`);
      if (!same) {
        // Where they differ: a row one method left undecided (a Z3 time-out under load) is not a
        // disagreement; two decided rows that differ are.
        const A = readFileSync(join(dir, `${a}.marks.csv`), 'utf8').split('\n');
        const B = readFileSync(join(dir, `${b}.marks.csv`), 'utf8').split('\n');
        const diff = A.map((l, i) => [l, B[i] ?? ''] as const).filter(([x, y]) => x !== y);
        const decidedBoth = diff.filter(([x, y]) => !x.endsWith(',undecided') && !y.endsWith(',undecided'));
        console.log(`  ${diff.length} rows differ: ${diff.length - decidedBoth.length} undecided by one method, ${decidedBoth.length} decided by both`);
        for (const [x, y] of decidedBoth.slice(0, 5)) console.log(`  ${a}: ${x}\n  ${b}: ${y}`);
      }
    }
    const goal = results.get('scale');
    if (goal && N >= 67500)
      console.log(
        `goals (67,500, 2 cores): cold ${(goal[0].ms / 1000).toFixed(1)} s (< 60), re-run ${(goal[1].ms / 1000).toFixed(1)} s (< 3), re-grade ${(goal[2].ms / 1000).toFixed(1)} s (< 10), peak ${Math.max(...goal.map((s) => s.maxRssMb)).toFixed(0)} MB (< 500)`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
