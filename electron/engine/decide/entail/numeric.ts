// Double-precision evaluation of equations at admissible points, and sampling of a premise's
// solution set: assign every variable but one at random, then solve the premise for the last one
// (scan its admissible interval for sign changes, bisect to adjacent doubles, keep the root only
// if the residual is tiny relative to the size of the terms). Nothing here is a proof: a point
// found is evidence the premise is satisfiable (intermediate value theorem on a continuous
// bracket), and a conclusion clearly violated there is a counterexample.
import { type Domain } from '../../../../shared/exam.ts';
import { type Equation, type Expr, symbolsOf } from '../../../../shared/equation/ast.ts';
import { boxAround, evalEquationIv, isInterval } from './interval.ts';
import { constRational, ratToNumber } from './rational.ts';
import type { Rng } from './rng.ts';

/** Value and an estimate of its rounding-error scale (sum of the magnitudes of the terms). */
type VM = [number, number];
type Env = Record<string, number>;
type Compiled = (env: Env) => VM;

const NAN: VM = [NaN, NaN];
/** Clearly undefined (a radicand or log argument well below zero): the marker survives arithmetic. */
const UNDEF: VM = [NaN, -1];
const isNaNVM = (x: VM): boolean => x[0] !== x[0];
/** Undefined beyond doubt at this point (not just by rounding). */
export const clearlyUndefined = (x: VM): boolean => isNaNVM(x) && x[1] === -1;
const below = (x: number, m: number): boolean => x < -1e-6 * Math.max(m, Math.abs(x));

/** Tolerances (relative to the terms' magnitudes). */
export const PREMISE_TOL = 1e-11;
export const AGREE_TOL = 1e-9;
export const VIOLATE_TOL = 1e-6;

export function compileExpr(e: Expr): Compiled {
  switch (e.kind) {
    case 'num': {
      const v = ratToNumber(constRational(e)!);
      const out: VM = [v, Math.abs(v)];
      return () => out;
    }
    case 'const': {
      const v = e.name === 'pi' ? Math.PI : Math.E;
      const out: VM = [v, v];
      return () => out;
    }
    case 'sym': {
      const name = e.name;
      return (env) => {
        const v = env[name];
        return v === undefined ? NAN : [v, Math.abs(v)];
      };
    }
    case 'neg': {
      const a = compileExpr(e.arg);
      return (env) => {
        const x = a(env);
        return isNaNVM(x) ? x : [-x[0], x[1]];
      };
    }
    case 'bin': {
      const l = compileExpr(e.left);
      if (e.op === '**') {
        const k = constRational(e.right);
        if (k) {
          const p = ratToNumber(k);
          const integer = k.d === 1n;
          return (env) => {
            const lx = l(env);
            if (isNaNVM(lx)) return lx;
            const [a, m] = lx;
            // The principal root of a negative number is not real.
            if (!integer && a < 0) return below(a, m) ? UNDEF : NAN;
            const v = Math.pow(a, p);
            if (!Number.isFinite(v)) return NAN;
            return [v, p > 0 ? Math.max(Math.abs(v), Math.pow(m, p)) : Math.abs(v) * (1 + Math.abs(p))];
          };
        }
        const r = compileExpr(e.right);
        return (env) => {
          const lx = l(env);
          const rx = r(env);
          if (isNaNVM(lx)) return lx;
          if (isNaNVM(rx)) return rx;
          const [a, ma] = lx;
          const [b, mb] = rx;
          if (a < 0 && !Number.isInteger(b)) return below(a, ma) ? UNDEF : NAN;
          const v = Math.pow(a, b);
          if (!Number.isFinite(v)) return NAN;
          return [v, Math.abs(v) * (1 + Math.abs(b) * (ma / Math.max(Math.abs(a), 1e-300)) * 1e-0 + Math.abs(Math.log(Math.max(Math.abs(a), 1e-300))) * mb)];
        };
      }
      const r = compileExpr(e.right);
      switch (e.op) {
        case '+':
          return (env) => {
            const lx = l(env);
            const rx = r(env);
            if (isNaNVM(lx)) return lx;
            if (isNaNVM(rx)) return rx;
            const [a, ma] = lx;
            const [b, mb] = rx;
            return [a + b, ma + mb];
          };
        case '-':
          return (env) => {
            const lx = l(env);
            const rx = r(env);
            if (isNaNVM(lx)) return lx;
            if (isNaNVM(rx)) return rx;
            const [a, ma] = lx;
            const [b, mb] = rx;
            return [a - b, ma + mb];
          };
        case '*':
          return (env) => {
            const lx = l(env);
            const rx = r(env);
            if (isNaNVM(lx)) return lx;
            if (isNaNVM(rx)) return rx;
            const [a, ma] = lx;
            const [b, mb] = rx;
            return [a * b, ma * mb];
          };
        case '/':
          return (env) => {
            const lx = l(env);
            const rx = r(env);
            if (isNaNVM(lx)) return lx;
            if (isNaNVM(rx)) return rx;
            const [a, ma] = lx;
            const [b, mb] = rx;
            if (b === 0 || !Number.isFinite(a / b)) return NAN;
            // A denominator lost in its own rounding error is "maybe zero": not a usable point.
            if (Math.abs(b) <= 1e-13 * mb) return NAN;
            return [a / b, ma / Math.abs(b) + (Math.abs(a) * mb) / (b * b)];
          };
      }
      throw new Error(`operator ${e.op}`);
    }
    case 'call': {
      const a = compileExpr(e.args[0]);
      const f = e.fn;
      return (env) => {
        const ax = a(env);
        if (isNaNVM(ax)) return ax;
        const [x, m] = ax;
        let v: number;
        let d: number; // |derivative| for error propagation
        switch (f) {
          case 'sqrt':
            if (x < 0) return below(x, m) ? UNDEF : NAN;
            v = Math.sqrt(x);
            return [v, Math.sqrt(m)];
          case 'Abs':
            return [Math.abs(x), m];
          case 'sin':
            v = Math.sin(x);
            d = Math.abs(Math.cos(x));
            break;
          case 'cos':
            v = Math.cos(x);
            d = Math.abs(Math.sin(x));
            break;
          case 'tan':
            v = Math.tan(x);
            d = 1 + v * v;
            break;
          case 'asin':
          case 'acos':
            if (x < -1 || x > 1) return Math.abs(x) > 1 + 1e-6 * Math.max(1, m) ? UNDEF : NAN;
            v = f === 'asin' ? Math.asin(x) : Math.acos(x);
            d = 1 / Math.sqrt(Math.max(1 - x * x, 1e-300));
            break;
          case 'atan':
            v = Math.atan(x);
            d = 1 / (1 + x * x);
            break;
          case 'exp':
            v = Math.exp(x);
            d = v;
            break;
          case 'log':
            if (x <= 0) return below(x, m) ? UNDEF : NAN;
            v = Math.log(x);
            d = 1 / x;
            break;
          default:
            return NAN;
        }
        if (!Number.isFinite(v)) return NAN;
        return [v, Math.abs(v) + d * m];
      };
    }
  }
}

export type CompiledEq = {
  /** Residual lhs - rhs and the terms' magnitude scale; NaN where undefined. */
  residual: (env: Env) => VM;
};

export function compileEquation(eq: Equation): CompiledEq {
  const l = compileExpr(eq.lhs);
  const r = compileExpr(eq.rhs);
  return {
    residual: (env) => {
      const lx = l(env);
      const rx = r(env);
      if (isNaNVM(lx)) return lx;
      if (isNaNVM(rx)) return rx;
      const [a, ma] = lx;
      const [b, mb] = rx;
      return [a - b, Math.max(ma + mb, Math.abs(a) + Math.abs(b))];
    },
  };
}

/** Relative residual: |lhs - rhs| / scale (0 when exactly equal); NaN where undefined. */
export function relResidual(c: CompiledEq, env: Env): number {
  const [r, m] = c.residual(env);
  if (Number.isNaN(r)) return NaN;
  if (r === 0) return 0;
  return Math.abs(r) / Math.max(m, 1e-300);
}

/** The admissible set of one variable: an interval (open or closed ends), maybe excluding 0. */
export type VarSpec = { name: string; lo: number; hi: number; loClosed: boolean; hiClosed: boolean; nonzero: boolean };

export function varSpecs(domain: Domain, extra: string[]): Map<string, VarSpec> {
  const out = new Map<string, VarSpec>();
  for (const v of domain.variables) {
    const s: VarSpec = { name: v.name, lo: -Infinity, hi: Infinity, loClosed: false, hiClosed: false, nonzero: false };
    for (const a of v.assumptions ?? []) {
      if (a === 'positive' && s.lo <= 0) Object.assign(s, { lo: 0, loClosed: false });
      if (a === 'nonnegative' && s.lo < 0) Object.assign(s, { lo: 0, loClosed: true });
      if (a === 'nonzero') s.nonzero = true;
    }
    if (v.range) {
      const [lo, hi] = v.range;
      if (lo >= s.lo) Object.assign(s, { lo, loClosed: false });
      if (hi <= s.hi) Object.assign(s, { hi, hiClosed: false });
    }
    out.set(v.name, s);
  }
  for (const name of extra) {
    if (!out.has(name)) out.set(name, { name, lo: -Infinity, hi: Infinity, loClosed: false, hiClosed: false, nonzero: false });
  }
  return out;
}

export const specEmpty = (s: VarSpec): boolean => !(s.lo < s.hi) && !(s.lo === s.hi && s.loClosed && s.hiClosed && !(s.nonzero && s.lo === 0));

const logUniform = (rng: Rng, a: number, b: number): number => Math.exp(Math.log(a) + (Math.log(b) - Math.log(a)) * rng());

/** A random admissible value, concentrated on physically sensible magnitudes (0.1 .. 10). */
export function sampleValue(s: VarSpec, rng: Rng): number {
  if (Number.isFinite(s.lo) && Number.isFinite(s.hi)) {
    if (s.lo === s.hi) return s.lo;
    for (let i = 0; i < 8; i++) {
      const x = s.lo + (s.hi - s.lo) * (0.001 + 0.998 * rng());
      if (!(s.nonzero && x === 0)) return x;
    }
    return (s.lo + s.hi) / 2;
  }
  const mag = logUniform(rng, 0.1, 10);
  if (Number.isFinite(s.lo)) return s.lo + mag;
  if (Number.isFinite(s.hi)) return s.hi - mag;
  return rng() < 0.5 ? -mag : mag;
}

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

export const inSpec = (s: VarSpec, x: number): boolean =>
  (x > s.lo || (s.loClosed && x === s.lo)) && (x < s.hi || (s.hiClosed && x === s.hi)) && !(s.nonzero && x === 0);

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

export type PointCheck = 'agree' | 'violate' | 'borderline';

export function checkAt(c: CompiledEq, env: Env): PointCheck {
  if (clearlyUndefined(c.residual(env))) return 'violate'; // the conclusion is not even defined there
  const rel = relResidual(c, env);
  if (Number.isNaN(rel)) return 'borderline'; // undefined there, or maybe only by rounding: let Z3 decide
  if (rel <= AGREE_TOL) return 'agree';
  if (rel > VIOLATE_TOL) return 'violate';
  return 'borderline';
}

export const formatValue = (x: number): string => {
  const s = Number(x.toPrecision(15)).toString();
  return /e/.test(s) ? x.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : s;
};
