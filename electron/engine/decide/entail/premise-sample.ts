// Sampling of a premise's solution set: assign every variable but one at random, then solve the
// premise for the last one (scan its admissible interval for sign changes, bisect to adjacent
// doubles, keep the root only if the residual is tiny relative to the size of the terms). Nothing
// here is a proof: a point found is evidence the premise is satisfiable (intermediate value theorem
// on a continuous bracket), and a conclusion clearly violated there is a counterexample.
import { type Equation, symbolsOf } from '../../../../shared/equation/ast.ts';
import { boxAround, evalEquationIv, isInterval } from './interval.ts';
import { compileEquation, PREMISE_TOL, relResidual, type CompiledEq, type Env, type VM } from './numeric-eval.ts';
import { inSpec, sampleValue, specEmpty, type VarSpec } from './var-spec.ts';
import type { Rng } from './rng.ts';

/** Ordered scan points across the whole admissible interval of a variable. */
function scanGrid(s: VarSpec, rng: Rng): number[] {
  const N = 96;
  const out: number[] = [];
  const logspace = (): number[] => {
    const a = Math.log(1e-6);
    const b = Math.log(1e6);
    const j = rng();
    const xs: number[] = [];
    for (let i = 0; i < N; i++) xs.push(Math.exp(a + ((b - a) * (i + j)) / N));
    return xs;
  };
  if (Number.isFinite(s.lo) && Number.isFinite(s.hi)) {
    if (s.loClosed) out.push(s.lo);
    const j = rng();
    for (let i = 0; i < N; i++) out.push(s.lo + ((s.hi - s.lo) * (i + 0.05 + 0.9 * j)) / N);
    if (s.hiClosed) out.push(s.hi);
  } else if (Number.isFinite(s.lo)) {
    if (s.loClosed) out.push(s.lo);
    for (const x of logspace()) out.push(s.lo + x);
  } else if (Number.isFinite(s.hi)) {
    for (const x of logspace().reverse()) out.push(s.hi - x);
    if (s.hiClosed) out.push(s.hi);
  } else {
    const xs = logspace();
    for (const x of [...xs].reverse()) out.push(-x);
    out.push(0);
    for (const x of xs) out.push(x);
  }
  return s.nonzero ? out.filter((x) => x !== 0) : out;
}

/** Roots of the premise in one variable, the others fixed (env is not modified). */
function rootsIn(c: CompiledEq, env: Env, name: string, s: VarSpec, rng: Rng): number[] {
  const e: Env = { ...env };
  const f = (x: number): VM => {
    e[name] = x;
    return c.residual(e);
  };
  const grid = scanGrid(s, rng);
  const vals = grid.map(f);
  const roots: number[] = [];
  for (let i = 0; i < grid.length; i++) {
    const [r, m] = vals[i];
    if (Number.isNaN(r)) continue;
    if (r === 0 || Math.abs(r) <= PREMISE_TOL * m) {
      roots.push(grid[i]);
      continue;
    }
    if (i + 1 >= grid.length) continue;
    const [r2, m2] = vals[i + 1];
    if (Number.isNaN(r2) || r2 === 0 || Math.abs(r2) <= PREMISE_TOL * m2) continue;
    if (Math.sign(r) === Math.sign(r2)) continue;
    // Bisect to adjacent doubles.
    let a = grid[i];
    let b = grid[i + 1];
    let fa = r;
    let ok = true;
    for (let k = 0; k < 200; k++) {
      const mid = a + (b - a) / 2;
      if (mid <= a || mid >= b) break;
      const [fm] = f(mid);
      if (Number.isNaN(fm)) {
        ok = false;
        break;
      }
      if (fm === 0) {
        a = b = mid;
        break;
      }
      if (Math.sign(fm) === Math.sign(fa)) {
        a = mid;
        fa = fm;
      } else b = mid;
    }
    if (!ok) continue;
    let best = NaN;
    let bestRel = Infinity;
    for (const x of [a, b]) {
      if (s.nonzero && x === 0) continue;
      const [rx, mx] = f(x);
      if (Number.isNaN(rx)) continue;
      const rel = rx === 0 ? 0 : Math.abs(rx) / Math.max(mx, 1e-300);
      if (rel < bestRel) {
        bestRel = rel;
        best = x;
      }
    }
    // A sign change across a pole leaves a huge residual: not a root.
    if (bestRel <= PREMISE_TOL) roots.push(best);
  }
  return roots.filter((x) => inSpec(s, x));
}

/** Roots of the equation in one variable, the others fixed at env's values (numerically). */
export function solveFor(eq: Equation, env: Env, name: string, s: VarSpec, rng: Rng): number[] {
  const c = compileEquation(eq);
  return rootsIn(c, env, name, s, rng).filter((x) => onPremise(eq, { ...env, [name]: x }));
}

/** Relative radius of the box a sampled point stands for (the point is only known to rounding). */
export const POINT_RHO = 1e-12;
/** Width of an equation's residual interval on that box, relative to its scale, beyond which its value there is noise. */
export const ILL_CONDITIONED = 1e-7;

/**
 * The premise holds at the point up to the point's own uncertainty: interval arithmetic on a box
 * of relative radius POINT_RHO around it encloses 0 (so a multiple root's near-miss, or a huge
 * trig argument whose rounding-error scale hid a residual of order 1, is not a premise point).
 */
export function onPremise(eq: Equation, env: Env): boolean {
  const { residual } = evalEquationIv(eq, boxAround(env, POINT_RHO));
  return isInterval(residual) && residual.lo <= 0 && residual.hi >= 0;
}

/**
 * The equation's value at the point is meaningful: its residual on the point's box is defined and
 * narrow relative to the natural size of the question, the values of its sides and of the
 * variables (no huge trig argument, no catastrophic cancellation such as (u + exp(40)) - exp(40),
 * no constant known only to a few digits such as sin(10**100)). Intermediate terms don't count:
 * a residual that is small only next to a huge cancelled term is no evidence.
 */
export function wellConditioned(eq: Equation, env: Env): boolean {
  const { residual, lhs, rhs } = evalEquationIv(eq, boxAround(env, POINT_RHO));
  if (!isInterval(residual) || !isInterval(lhs) || !isInterval(rhs)) return false;
  const mid = (x: { lo: number; hi: number }): number => Math.abs(x.lo / 2 + x.hi / 2);
  let scale = Math.max(mid(lhs), mid(rhs));
  for (const x of Object.values(env)) scale = Math.max(scale, Math.abs(x));
  const w = residual.hi - residual.lo;
  return Number.isFinite(w) && w <= ILL_CONDITIONED * Math.max(scale, 1e-300);
}

export type PremiseSample = {
  /** Admissible points (every variable of the domain and of the premise) satisfying the premise. */
  points: Env[];
  /** The premise has no variables: true everywhere / false everywhere (numerically). */
  constant?: 'true' | 'false';
};

/** Sample up to `want` admissible points on the premise's solution set. */
export function samplePremise(eq: Equation, specs: Map<string, VarSpec>, want: number, rng: Rng): PremiseSample {
  const c = compileEquation(eq);
  const eqVars = symbolsOf(eq);
  const all = [...specs.values()];
  const randomEnv = (): Env => {
    const env: Env = {};
    for (const s of all) env[s.name] = sampleValue(s, rng);
    return env;
  };
  if (all.some(specEmpty)) return { points: [] };
  if (eqVars.length === 0) {
    const rel = relResidual(c, {});
    if (Number.isNaN(rel) || rel > PREMISE_TOL) return { points: [], constant: 'false' };
    return { points: Array.from({ length: want }, randomEnv), constant: 'true' };
  }
  const points: Env[] = [];
  const maxAttempts = want * 2 + 4;
  for (let attempt = 0; attempt < maxAttempts && points.length < want; attempt++) {
    // Give up early on premises that look unsatisfiable: they go to Z3.
    if (points.length === 0 && attempt >= 2 * eqVars.length + 4) break;
    const name = eqVars[attempt % eqVars.length];
    const env = randomEnv();
    // Already satisfied at the random point (an identity in this variable): keep that point.
    const here = relResidual(c, env);
    if (here <= PREMISE_TOL && onPremise(eq, env)) {
      points.push(env);
      continue;
    }
    const roots = rootsIn(c, env, name, specs.get(name)!, rng);
    if (!roots.length) continue;
    env[name] = roots[Math.floor(rng() * roots.length)];
    const rel = relResidual(c, env);
    if (!(rel <= PREMISE_TOL)) continue;
    if (!onPremise(eq, env)) continue;
    points.push(env);
  }
  return { points };
}
