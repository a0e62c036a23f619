// Checking a candidate counterexample exactly, before anyone is shown it (a verdict is
// exact or it says it isn't). A point found by double-precision sampling is only a candidate; it
// becomes a counterexample when one of these proves it:
//
//   exact   every value is a rational, the premise evaluates to true and the conclusion to false
//           (or undefined) in exact rational arithmetic (bigint numerator/denominator);
//   bracket every value but one (x) is an exact rational; interval arithmetic with outward
//           rounding (./interval.ts) shows the premise defined (hence continuous) on [a, b] with
//           opposite strict signs at a and b, so it has a root x* in [a, b] (intermediate value
//           theorem), and shows the conclusion false (or undefined) at every point of [a, b],
//           so at x* too. x is then shown as a decimal inside [a, b], and the note gives [a, b].
//
// Anything else is not a counterexample (the caller answers unknown, never refuted).
import type { Equation, Expr } from '../../../../shared/equation/ast.ts';
import { symbolsOf } from '../../../../shared/equation/ast.ts';
import { type Box, evalEquationIv, type Iv, isInterval, point, provablyViolated, ratIv } from './interval.ts';
import { inSpec, type VarSpec } from './numeric.ts';
import { constRational, doubleToRat, type Rat, rat, ratAdd, ratDiv, ratMul, ratSub, ratToNumber } from './rational.ts';

type REnv = Record<string, Rat>;
/** Exact value, undefined, or "can't tell exactly" (null: transcendental, irrational root, too big). */
type RVal = Rat | 'undef' | null;

const MAX_BITS = 4096;
const bits = (x: bigint): number => (x < 0n ? -x : x).toString(2).length;
const tooBig = (r: Rat): boolean => bits(r.n) + bits(r.d) > MAX_BITS;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x && x * x <= n && (x + 1n) * (x + 1n) > n) return x;
    if (y === x) break;
    x = y;
  }
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}
/** Exact q-th root of a non-negative rational, or null when it is irrational. */
function rootRat(r: Rat, q: bigint): Rat | null {
  if (q === 2n) {
    const a = isqrt(r.n);
    const b = isqrt(r.d);
    return a * a === r.n && b * b === r.d ? rat(a, b) : null;
  }
  if (q > 64n) return null;
  const f = (n: bigint): bigint | null => {
    const x = BigInt(Math.round(Math.pow(Number(n), 1 / Number(q))));
    for (let d = -2n; d <= 2n; d++) if (x + d >= 0n && (x + d) ** q === n) return x + d;
    return null;
  };
  const a = f(r.n);
  const b = f(r.d);
  return a !== null && b !== null ? rat(a, b) : null;
}
function powRat(b: Rat, k: bigint): RVal {
  if (k === 0n) return rat(1n);
  const n = k < 0n ? -k : k;
  if (BigInt(bits(b.n) + bits(b.d)) * n > BigInt(MAX_BITS)) return null;
  if (k < 0n && b.n === 0n) return 'undef';
  const p = rat(b.n ** n, b.d ** n);
  return k < 0n ? ratDiv(rat(1n), p) : p;
}

export function evalRat(e: Expr, env: REnv): RVal {
  switch (e.kind) {
    case 'num':
      return constRational(e);
    case 'const':
      return null;
    case 'sym':
      return env[e.name] ?? null;
    case 'neg': {
      const a = evalRat(e.arg, env);
      return a === null || a === 'undef' ? a : rat(-a.n, a.d);
    }
    case 'call': {
      const a = evalRat(e.args[0], env);
      if (a === null || a === 'undef') return a;
      if (e.fn === 'Abs') return a.n < 0n ? rat(-a.n, a.d) : a;
      if (e.fn === 'sqrt') return a.n < 0n ? 'undef' : rootRat(a, 2n);
      if (e.fn === 'log' && a.n <= 0n) return 'undef';
      if ((e.fn === 'asin' || e.fn === 'acos') && (a.n > a.d || -a.n > a.d)) return 'undef';
      return null;
    }
    case 'bin': {
      const l = evalRat(e.left, env);
      if (e.op === '**') {
        const k =
          constRational(e.right) ??
          (() => {
            const r = evalRat(e.right, env);
            return r === null || r === 'undef' ? null : r;
          })();
        if (l === 'undef') return 'undef';
        if (!k) {
          const r = evalRat(e.right, env);
          return r === 'undef' ? 'undef' : null;
        }
        if (l === null) return null;
        if (k.d === 1n) return powRat(l, k.n);
        // Principal root: real only for a non-negative base (positive for a negative power).
        if (l.n < 0n || (l.n === 0n && k.n < 0n)) return 'undef';
        const root = rootRat(l, k.d);
        return root === null ? null : powRat(root, k.n);
      }
      const r = evalRat(e.right, env);
      if (l === 'undef' || r === 'undef') return 'undef';
      if (l === null || r === null) return null;
      let out: Rat;
      switch (e.op) {
        case '+':
          out = ratAdd(l, r);
          break;
        case '-':
          out = ratSub(l, r);
          break;
        case '*':
          out = ratMul(l, r);
          break;
        case '/':
          if (r.n === 0n) return 'undef';
          out = ratDiv(l, r);
          break;
        default:
          return null;
      }
      return tooBig(out) ? null : out;
    }
  }
  return null;
}

/** Truth of an equation at an exact point: true, false (false or undefined), or null (can't tell exactly). */
export function holdsExactly(eq: Equation, env: REnv): boolean | null {
  const l = evalRat(eq.lhs, env);
  const r = evalRat(eq.rhs, env);
  if (l === 'undef' || r === 'undef') return false;
  if (l === null || r === null) return null;
  return l.n === r.n && l.d === r.d;
}

/** Exact decimal text of a rational when it terminates (short enough), else 'n/d'. */
export function ratText(r: Rat): string {
  if (r.d === 1n) return r.n.toString();
  let d = r.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  const k = Math.max(twos, fives);
  if (d === 1n && k <= 64) {
    const scaled = (r.n * 10n ** BigInt(k)) / r.d; // exact
    const neg = scaled < 0n;
    const s = (neg ? -scaled : scaled).toString().padStart(k + 1, '0');
    const txt = `${s.slice(0, s.length - k)}.${s.slice(s.length - k)}`.replace(/0+$/, '').replace(/\.$/, '');
    return (neg ? '-' : '') + txt;
  }
  return `${r.n}/${r.d}`;
}

/** A short dyadic rational near x (a multiple of 2^-k with a few significant bits), in the spec. */
function niceNear(x: number, s: VarSpec): Rat[] {
  const out: Rat[] = [];
  if (x === 0 || !Number.isFinite(x)) return out;
  const e = Math.floor(Math.log2(Math.abs(x)));
  for (const sig of [10, 20, 30]) {
    const scale = Math.pow(2, sig - e);
    const y = Math.round(x * scale) / scale;
    if (y !== 0 && Number.isFinite(y) && inSpec(s, y)) out.push(doubleToRat(y));
  }
  return out;
}

export type VerifiedCounterexample = {
  /** Values as text: exact decimals or fractions; a bracketed root as a decimal inside its bracket. */
  values: Record<string, string>;
  how: 'exact' | 'bracket';
  note: string;
};

type Solve = (env: Record<string, number>, name: string) => number[];

/**
 * Try to turn a sampled point (premise satisfied to rounding, conclusion apparently violated) into a
 * proven counterexample. `vars` lists every variable to report; `solve` re-solves the premise for
 * one variable with the others fixed (numerically); `specs` are the admissible sets.
 */
export function verifyCounterexample(
  premise: Equation,
  conclusion: Equation,
  env: Record<string, number>,
  vars: string[],
  specs: Map<string, VarSpec>,
  solve: Solve,
): VerifiedCounterexample | null {
  const pVars = symbolsOf(premise);
  const admissible = (name: string, x: number): boolean => {
    const s = specs.get(name);
    return !s || inSpec(s, x);
  };
  const show = (r: REnv): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const v of vars) out[v] = ratText(r[v]);
    return out;
  };
  const exactCheck = (r: REnv): VerifiedCounterexample | null => {
    if (holdsExactly(premise, r) !== true) return null;
    const c = holdsExactly(conclusion, r);
    if (c === true) return null;
    if (c === null) {
      const box: Box = {};
      for (const [k, x] of Object.entries(r)) box[k] = ratIv(x);
      if (!provablyViolated(conclusion, box)) return null;
    }
    return {
      values: show(r),
      how: 'exact',
      note: 'checked exactly: the premise holds in rational arithmetic at these values and the conclusion is false or undefined there (interval arithmetic with outward rounding where it has transcendental terms)',
    };
  };

  const rounded = (skip?: string): REnv | null => {
    const r: REnv = {};
    for (const v of vars) {
      if (v === skip) continue;
      const s = specs.get(v);
      const c = s ? niceNear(env[v], s) : [];
      r[v] = c.length ? c[0] : doubleToRat(env[v]);
      if (!admissible(v, ratToNumber(r[v]))) return null;
    }
    return r;
  };

  // 1. Every value rounded to a short dyadic, then the point as it is (doubles are rationals).
  const all = rounded();
  const direct = (all && exactCheck(all)) ?? exactCheck(Object.fromEntries(vars.map((v) => [v, doubleToRat(env[v])])));
  if (direct) return direct;

  // 2. Solve the premise for one variable with the others fixed at short exact values.
  for (const x of pVars) {
    const base = rounded(x);
    if (!base) continue;
    const fixed: Record<string, number> = {};
    for (const [k, q] of Object.entries(base)) fixed[k] = ratToNumber(q);
    // Linear in x with x = expr(others): solve exactly.
    const solvedExact = solveExplicit(premise, x, base);
    if (solvedExact && admissible(x, ratToNumber(solvedExact))) {
      const got = exactCheck({ ...base, [x]: solvedExact });
      if (got) return got;
    }
    const roots = solve(fixed, x).sort((a, b) => Math.abs(a - env[x]) - Math.abs(b - env[x]));
    for (const x0 of roots.slice(0, 3)) {
      const got = bracket(premise, conclusion, base, x, x0, specs.get(x)) ?? exactCheck({ ...base, [x]: doubleToRat(x0) });
      if (got) return { ...got, values: { ...show({ ...base, [x]: doubleToRat(x0) }), ...got.values } };
    }
  }
  return null;
}

/** `0 = 1`: false everywhere, so a "counterexample" to `eq ⇒ FALSE` is a proven point of eq. */
const FALSE_EQ: Equation = { lhs: { kind: 'num', text: '0' }, rhs: { kind: 'num', text: '1' } };

/**
 * A sampled point of an equation (satisfied to rounding) proved to stand for a true solution: the
 * equation holds exactly at short rational values, or one variable's root is bracketed by a sign
 * change with the equation defined between (as for a counterexample, above). A point that only
 * nearly satisfies it ("(v + u)(v − u) = v²" at v = 10⁶, where −u² is small beside v²) is not one.
 */
export function verifyPremisePoint(
  eq: Equation,
  env: Record<string, number>,
  vars: string[],
  specs: Map<string, VarSpec>,
  solve: Solve,
): VerifiedCounterexample | null {
  const got = verifyCounterexample(eq, FALSE_EQ, env, vars, specs, solve);
  return (
    got && {
      ...got,
      note: got.how === 'exact' ? 'checked exactly in rational arithmetic' : 'a root bracketed with interval arithmetic (a sign change, defined throughout)',
    }
  );
}

/**
 * A candidate exact root in x: `x = f(others)` evaluated exactly, else the secant through two exact
 * evaluations of lhs - rhs (the root itself when the premise is linear in x). Only a candidate: the
 * caller checks the premise exactly there.
 */
function solveExplicit(eq: Equation, x: string, env: REnv): Rat | null {
  for (const [a, b] of [
    [eq.lhs, eq.rhs],
    [eq.rhs, eq.lhs],
  ] as const) {
    if (a.kind === 'sym' && a.name === x && !symbolsOf(b).includes(x)) {
      const v = evalRat(b, env);
      return v === null || v === 'undef' ? null : v;
    }
  }
  const f = (t: Rat): Rat | null => {
    const e = { ...env, [x]: t };
    const l = evalRat(eq.lhs, e);
    const r = evalRat(eq.rhs, e);
    return l === null || r === null || l === 'undef' || r === 'undef' ? null : ratSub(l, r);
  };
  for (const [p, q] of [
    [rat(1n), rat(2n)],
    [rat(0n), rat(1n)],
  ]) {
    const fp = f(p);
    const fq = f(q);
    if (!fp || !fq) continue;
    const slope = ratSub(fq, fp);
    if (slope.n === 0n) continue;
    return ratSub(p, ratDiv(fp, slope)); // p - f(p) (q - p) / (f(q) - f(p)), q - p = 1
  }
  return null;
}

function bracket(premise: Equation, conclusion: Equation, base: REnv, x: string, x0: number, spec: VarSpec | undefined): VerifiedCounterexample | null {
  const boxWith = (iv: Iv): Box => {
    const b: Box = {};
    for (const [k, q] of Object.entries(base)) b[k] = ratIv(q);
    b[x] = iv;
    return b;
  };
  const sign = (t: number): number => {
    const r = evalEquationIv(premise, boxWith(point(t))).residual;
    if (!isInterval(r)) return 0;
    return r.lo > 0 ? 1 : r.hi < 0 ? -1 : 0;
  };
  for (const rel of [1e-14, 1e-12, 1e-10, 1e-8]) {
    const h = Math.max(Math.abs(x0) * rel, 1e-300);
    const a = x0 - h;
    const b = x0 + h;
    if (!(a < b)) continue;
    if (spec && !(inSpec(spec, a) && inSpec(spec, b))) continue;
    const sa = sign(a);
    const sb = sign(b);
    if (sa === 0 || sb === 0 || sa === sb) continue;
    const whole = boxWith({ lo: a, hi: b });
    // Defined (so continuous) on the whole bracket: the intermediate value theorem gives a root.
    if (!isInterval(evalEquationIv(premise, whole).residual)) continue;
    if (!provablyViolated(conclusion, whole)) continue;
    const values: Record<string, string> = { [x]: formatInside(x0, a, b) };
    return {
      values,
      how: 'bracket',
      note: `checked with interval arithmetic (outward rounding): ${x} is the premise's root in [${a}, ${b}] (the premise changes sign there and is defined throughout), the other values are exact, and the conclusion is false or undefined on the whole interval`,
    };
  }
  return null;
}

/** A short decimal inside [a, b]. */
function formatInside(x0: number, a: number, b: number): string {
  for (let p = 6; p <= 17; p++) {
    const t = Number(x0.toPrecision(p));
    if (t >= a && t <= b) {
      const s = String(t);
      if (!/e/i.test(s)) return s;
      return ratText(doubleToRat(t));
    }
  }
  return ratText(doubleToRat(x0));
}

/**
 * The premise is known to be an identity (a SymPy proof that it holds wherever it is defined): the
 * point, rounded to short exact values, is a premise point as soon as the premise is defined there
 * (interval arithmetic), and a counterexample when the conclusion is false or undefined there.
 */
export function verifyWithIdentityPremise(
  premise: Equation,
  conclusion: Equation,
  env: Record<string, number>,
  vars: string[],
  specs: Map<string, VarSpec>,
): VerifiedCounterexample | null {
  const r: REnv = {};
  for (const v of vars) {
    const s = specs.get(v);
    const c = s ? niceNear(env[v], s) : [];
    r[v] = c.length ? c[0] : doubleToRat(env[v]);
    if (s && !inSpec(s, ratToNumber(r[v]))) return null;
  }
  const box: Box = {};
  for (const [k, x] of Object.entries(r)) box[k] = ratIv(x);
  if (holdsExactly(premise, r) === false) return null;
  if (!isInterval(evalEquationIv(premise, box).residual)) return null; // defined there
  const c = holdsExactly(conclusion, r);
  if (c === true || (c === null && !provablyViolated(conclusion, box))) return null;
  const values: Record<string, string> = {};
  for (const v of vars) values[v] = ratText(r[v]);
  return {
    values,
    how: 'exact',
    note: 'checked: the premise is an identity (angle formulas and sin² + cos² = 1, or a SymPy proof) defined at these exact values, and the conclusion is false or undefined there (interval arithmetic with outward rounding)',
  };
}
