// Entailment benchmark: every (gold equation, accepted form) pair of the development set, both
// directions (as 'equivalent' needs), decided
//   1. cold (fresh engine: numeric fast path, cache, Z3 only where needed),
//   2. warm (same engine again: everything from the cache),
//   3. pairwise Z3 (the study's method: every algebraic pair sent to Z3 alone, no cache, no fast path),
//   4. parallel Z3: the same Z3-bound work (pairwise Z3 on the first PARALLEL_PAIRS pairs) with the
//      Z3 pool at one worker and at one worker per core (2 here), pairs asked concurrently; the
//      speed-up is the ratio of the two, measured in the same run,
// all in one run. Prints pairs decided per second, Z3 calls, and the ratios.
// Run: node --import tsx bench/entail.bench.ts   (or npm run bench -- entail)
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { Entailer } from '../electron/engine/decide/entail/index.ts';
import type { Verdict } from '../electron/engine/decide/entail/types.ts';
import { type Equation, parseEquation } from '../shared/equation/index.ts';
import { ExamSchema, questionDomain, type Domain } from '../shared/exam.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = process.env.EQUIMARK_DATA ?? resolve(here, '../../shared/data');

type Pair = { premise: Equation; conclusion: Equation; domain: Domain };

export function loadPairs(dataDir = DATA): { pairs: Pair[]; skipped: number } {
  const exam = ExamSchema.parse(JSON.parse(readFileSync(join(dataDir, 'exam.json'), 'utf8')));
  const rows = parse(readFileSync(join(dataDir, 'gold.csv'), 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
  const pairs: Pair[] = [];
  let skipped = 0;
  for (const row of rows) {
    const q = exam.questions.find((x) => x.id === row.question_id);
    if (!q) continue;
    const names = q.variables.map((v) => v.name);
    const domain = questionDomain(q);
    const accepts = q.scheme.filter((s) => !s.manual).flatMap((s) => s.accept);
    for (const src of JSON.parse(row.equations) as string[]) {
      const g = parseEquation(src, { variables: names });
      if (!g.ok) {
        skipped++;
        continue;
      }
      for (const a of accepts) {
        const acc = parseEquation(a, { variables: names });
        if (!acc.ok) throw new Error(`exam accept form ${a}: ${acc.errors[0].message}`);
        pairs.push({ premise: g.value, conclusion: acc.value, domain });
        pairs.push({ premise: acc.value, conclusion: g.value, domain });
      }
    }
  }
  return { pairs, skipped };
}

async function decideAll(engine: Entailer, pairs: Pair[]): Promise<{ ms: number; verdicts: Verdict[] }> {
  const t0 = performance.now();
  const verdicts: Verdict[] = [];
  for (const p of pairs) verdicts.push(await engine.entails(p.premise, p.conclusion, p.domain));
  return { ms: performance.now() - t0, verdicts };
}

/** Decide the pairs with up to `concurrency` asked at once (the Z3 pool decides them in parallel). */
async function decideConcurrently(engine: Entailer, pairs: Pair[], concurrency: number): Promise<{ ms: number; verdicts: Verdict[] }> {
  const t0 = performance.now();
  const verdicts: Verdict[] = new Array(pairs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < pairs.length) {
      const i = next++;
      verdicts[i] = await engine.entails(pairs[i].premise, pairs[i].conclusion, pairs[i].domain);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { ms: performance.now() - t0, verdicts };
}

const PARALLEL_PAIRS = Number(process.env.BENCH_PARALLEL_PAIRS ?? 600);

/** Pairwise Z3 (Z3-bound) on the first PARALLEL_PAIRS pairs with a pool of `workers` (workers started before timing). */
async function parallelRun(pairs: Pair[], workers: number): Promise<{ ms: number; verdicts: Verdict[]; calls: number }> {
  const e = await Entailer.create({ mode: 'pairwise-z3', z3Workers: workers });
  try {
    // Start every worker (Z3's WASM loaded, solver thread up) before the clock runs.
    await decideConcurrently(e, pairs.slice(0, workers * 4), workers * 2);
    const before = e.stats().z3Calls;
    const r = await decideConcurrently(e, pairs, workers * 2);
    return { ...r, calls: e.stats().z3Calls - before };
  } finally {
    await e.close();
  }
}

const rate = (n: number, ms: number): string => `${((n * 1000) / Math.max(ms, 1e-6)).toFixed(0)} pairs/s`;

export async function main(): Promise<void> {
  const { pairs, skipped } = loadPairs();
  console.log(`${pairs.length} (gold equation, accepted form) pairs, both directions${skipped ? `; ${skipped} gold equations did not parse` : ''}`);

  const engine = await Entailer.create();
  const cold = await decideAll(engine, pairs);
  const sCold = engine.stats();
  const warm = await decideAll(engine, pairs);
  const sWarm = engine.stats();
  await engine.close();

  const baseline = await Entailer.create({ mode: 'pairwise-z3' });
  const pw = await decideAll(baseline, pairs);
  const sPw = baseline.stats();
  await baseline.close();

  const methods = new Map<string, number>();
  for (const v of cold.verdicts) methods.set(v.method, (methods.get(v.method) ?? 0) + 1);
  let disagree = 0;
  const examples: string[] = [];
  cold.verdicts.forEach((v, i) => {
    const b = pw.verdicts[i];
    if (v.holds !== null && b.holds !== null && v.holds !== b.holds) {
      disagree++;
      if (examples.length < 5) examples.push(`  ${JSON.stringify(pairs[i].premise)} -> ... engine ${v.method}, pairwise ${b.method}`);
    }
  });

  console.log(
    `cold:          ${cold.ms.toFixed(0)} ms, ${rate(pairs.length, cold.ms)}, z3 calls ${sCold.z3Calls}, unique pairs decided ${sCold.pairs - sCold.cacheHits}, cache hits ${sCold.cacheHits}, decided without z3 ${sCold.decidedWithoutZ3}`,
  );
  console.log(
    `warm:          ${warm.ms.toFixed(1)} ms, ${rate(pairs.length, warm.ms)}, z3 calls ${sWarm.z3Calls - sCold.z3Calls}, cache hits ${sWarm.cacheHits - sCold.cacheHits}`,
  );
  console.log(
    `pairwise z3:   ${pw.ms.toFixed(0)} ms, ${rate(pairs.length, pw.ms)}, z3 calls ${sPw.z3Calls} (${sPw.decidedWithoutZ3} non-algebraic pairs decided numerically)`,
  );
  console.log(
    `ratio:         ${(sPw.z3Calls / Math.max(sCold.z3Calls, 1)).toFixed(1)}x fewer z3 calls cold (goal >= 20x); cold ${(pw.ms / cold.ms).toFixed(1)}x faster, warm ${(pw.ms / warm.ms).toFixed(0)}x faster than pairwise`,
  );
  console.log(`cold methods:  ${[...methods].map(([m, n]) => `${m} ${n}`).join(', ')}`);
  console.log(`engine vs pairwise z3: ${disagree} decided pairs disagree`);
  for (const e of examples) console.log(e);

  // 4. The Z3 pool: one worker against one per core, the same Z3-bound pairs, in the same run.
  const sub = pairs.slice(0, PARALLEL_PAIRS);
  const cores = Math.max(2, Math.min(availableParallelism(), 4));
  const one = await parallelRun(sub, 1);
  const many = await parallelRun(sub, cores);
  const differ = one.verdicts.filter((v, i) => v.holds !== null && many.verdicts[i].holds !== null && v.holds !== many.verdicts[i].holds).length;
  console.log(
    `z3 pool:       ${sub.length} pairs pairwise (${one.calls} z3 calls): 1 worker ${one.ms.toFixed(0)} ms, ${cores} workers ${many.ms.toFixed(0)} ms: ${(one.ms / many.ms).toFixed(2)}x speed-up on ${availableParallelism()} cores; ${differ} decided pairs differ`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
