// SymPy worker figures: cold start (spawn → ready) and requests per second for typical verdicts,
// with a ping round trip measured in the same run as the baseline (ratios, not absolute goals).
// Standalone: `node --import tsx bench/sympy.bench.ts`; or through `npm run bench -- sympy`.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Equation } from '../shared/equation/ast.ts';
import { parseEquationOrThrow } from '../shared/equation/parser.ts';
import type { Domain } from '../shared/exam.ts';
import { SympyWorker } from '../electron/engine/decide/sympy/index.ts';
import { createEngine } from '../electron/engine/decide/engine-factory.ts';
import { loadExamFile } from '../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../electron/engine/io/csv/equations.ts';
import { markEquations } from '../electron/engine/decide/marking.ts';

const eq = (s: string): Equation => parseEquationOrThrow(s);
const pos = (...names: string[]): Domain => ({ variables: names.map((name) => ({ name, assumptions: ['positive'] })) });
const q2: Domain = {
  variables: [...pos('R', 'v_0', 'g', 't').variables, { name: 'theta', assumptions: ['positive'], range: [0, 1.5708] }],
};
const q1 = pos('v', 'u', 'w', 'S', 't');

/** Typical verdict requests: the Entailer asks these after numeric agreement on trig/exp/log. */
const VERDICTS: [Equation, Equation, Domain, 'proved' | 'unknown'][] = [
  [eq('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)'), eq('Eq(R, v_0**2*sin(2*theta)/g)'), q2, 'proved'],
  [eq('Eq(R, v_0**2*sin(2*theta)/g)'), eq('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)'), q2, 'proved'],
  [eq('Eq(R, v_0*cos(theta)*t)'), eq('Eq(t, R/(v_0*cos(theta)))'), q2, 'proved'],
  [eq('Eq(v, (u + sqrt(u**2 + 4*w**2))/2)'), eq('Eq(v**2 - u*v - w**2, 0)'), q1, 'proved'],
  [eq('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)'), eq('Eq(R, v_0**2*sin(theta)/g)'), q2, 'unknown'],
];

async function timed<T>(n: number, fn: (i: number) => Promise<T>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - t0) / 1000;
}

export async function main(): Promise<void> {
  const colds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const w = new SympyWorker();
    const s = await w.start();
    await w.close();
    if (s.state !== 'ready') {
      console.log(`sympy bench skipped: ${s.message}`);
      return;
    }
    colds.push(s.startMs ?? NaN);
  }
  const w = new SympyWorker();
  try {
    const s = await w.start();
    console.log(`${s.message}`);
    console.log(`cold start (spawn → ready, incl. import sympy): median ${median(colds).toFixed(0)} ms of ${colds.map((c) => c.toFixed(0)).join(', ')}`);
    const pings = 200;
    const pingS = await timed(pings, () => w.ping());
    const pingRps = pings / pingS;
    console.log(`baseline ping round trip: ${pingRps.toFixed(0)} req/s (${((pingS / pings) * 1000).toFixed(2)} ms each)`);
    // Warm the SymPy caches once, then measure.
    for (const [p, c, d, want] of VERDICTS) {
      const got = await w.proveEntailment(p, c, d);
      if (got !== want) throw new Error(`verdict changed: expected ${want}, got ${got}`);
    }
    const rounds = 4;
    const n = rounds * VERDICTS.length;
    const proveS = await timed(n, (i) => {
      const [p, c, d] = VERDICTS[i % VERDICTS.length];
      return w.proveEntailment(p, c, d);
    });
    const rps = n / proveS;
    console.log(
      `typical verdicts (prove_entailment, warm): ${rps.toFixed(1)} req/s (${((proveS / n) * 1000).toFixed(0)} ms each); ratio to ping ${(rps / pingRps).toFixed(4)}`,
    );
    for (const [p, c, d, want] of VERDICTS.slice(0, 1).concat(VERDICTS.slice(-1))) {
      const one = await timed(3, () => w.proveEntailment(p, c, d));
      console.log(`  ${want.padEnd(7)} ${((one / 3) * 1000).toFixed(0)} ms  ${JSON.stringify(p.lhs.kind === 'sym' ? p.lhs.name : '')}…`);
    }
    const dom = q1;
    const ans = eq('Eq(v, (u + sqrt(u**2 + 4*w**2))/2)');
    const other = await timed(5, () => Promise.all([w.limits({ equation: ans, target: 'v' }, 'u', 'w', dom), w.simplify(ans, dom)]));
    console.log(`limits + simplify of the q1 answer: ${((other / 5) * 1000).toFixed(0)} ms per pair`);
  } finally {
    await w.close();
  }
  await gradingEffect();
}

/**
 * What the prover costs grading: the development set's gold lists marked by the product's engine
 * (createEngine) without SymPy (baseline) and with it, a cold pass then a warm regrade (same
 * engine, verdict cache warm). The worker is asked only where a verdict would be sampling.
 */
async function gradingEffect(): Promise<void> {
  const data = fileURLToPath(new URL('../../shared/data/', import.meta.url));
  if (!existsSync(`${data}gold.csv`)) {
    console.log('grading effect skipped: no development data at ../shared/data');
    return;
  }
  const exam = loadExamFile(`${data}exam.json`);
  const rows = parseEquationsCsv(readFileSync(`${data}gold.csv`), (q) => exam.questions.get(q)?.variables).rows.filter((r) => !r.error);
  const run = async (withSympy: boolean) => {
    const engine = await createEngine(withSympy ? {} : { sympy: false });
    try {
      const pass = async () => {
        const t0 = performance.now();
        for (const r of rows) await markEquations(engine, exam.questions.get(r.questionId)!, r.equations);
        return performance.now() - t0;
      };
      const cold = await pass();
      const warm = await pass();
      return { cold, warm, asked: engine.sympyStatus()?.requests ?? 0, coldStart: engine.sympyStatus()?.startMs };
    } finally {
      await engine.close();
    }
  };
  const base = await run(false);
  const sym = await run(true);
  console.log(`grading the ${rows.length} gold lists (marking only): without SymPy cold ${base.cold.toFixed(0)} ms, warm regrade ${base.warm.toFixed(1)} ms`);
  console.log(
    `  with SymPy: cold ${sym.cold.toFixed(0)} ms (ratio ${(sym.cold / base.cold).toFixed(2)}, incl. worker start ${sym.coldStart ?? '?'} ms; ${sym.asked} proofs asked), warm regrade ${sym.warm.toFixed(1)} ms (ratio ${(sym.warm / Math.max(base.warm, 0.1)).toFixed(2)})`,
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
