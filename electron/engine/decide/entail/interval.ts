// Interval arithmetic with outward rounding over our expression AST: each variable ranges over an
// interval [lo, hi] (a point when lo = hi) and the result encloses every value the expression takes
// on that box. Every operation widens its double result outward by a few units in the last place
// (IEEE + - * / sqrt are correctly rounded, V8's sin/cos/tan/exp/log/atan/asin/acos/pow are fdlibm
// ports accurate to under 1 ulp, so a widening of about 2 ulp is a proven bound), and integer powers
// are computed by repeated outward-rounded multiplication, never by Math.pow.
//
// The evaluation also says whether the expression is defined on the box:
//   an interval   defined at every point of the box, and continuous there;
//   'undef'       undefined at every point of the box (x/0 with the denominator exactly 0, the log
//                 of a non-positive box, sqrt of a negative box, ...);
//   'maybe'       can't tell (a denominator box containing 0, a tan pole inside, ...).
import type { Equation, Expr } from '../../../../shared/equation/ast.ts';
import { constRational, type Rat } from './rational.ts';

export type Iv = { lo: number; hi: number };
export type IvResult = Iv | 'undef' | 'maybe';
export type Box = Record<string, Iv>;

/** A little more than 2 ulp, relative. */
const REL = 4.5e-16;
const TINY = 5e-324;
export const down = (x: number): number => (x === -Infinity || Number.isNaN(x) ? -Infinity : x - (Math.abs(x) * REL + TINY));
export const up = (x: number): number => (x === Infinity || Number.isNaN(x) ? Infinity : x + (Math.abs(x) * REL + TINY));
const iv = (lo: number, hi: number): Iv => ({ lo: down(lo), hi: up(hi) });
const exact = (x: number): Iv => ({ lo: x, hi: x });
export const point = exact;

/** An enclosure of a rational (its double, widened: Number() of big parts may round twice). */
export function ratIv(r: Rat): Iv {
  const x = Number(r.n) / Number(r.d);
  if (Number.isNaN(x)) return { lo: -Infinity, hi: Infinity };
  if (r.d === 1n && Number.isSafeInteger(x)) return exact(x);
  return { lo: down(down(x)), hi: up(up(x)) };
}

const contains0 = (a: Iv): boolean => a.lo <= 0 && a.hi >= 0;
const isIv = (r: IvResult): r is Iv => typeof r === 'object';

function add(a: Iv, b: Iv): Iv {
  return { lo: down(a.lo + b.lo), hi: up(a.hi + b.hi) };
}
function sub(a: Iv, b: Iv): Iv {
  return { lo: down(a.lo - b.hi), hi: up(a.hi - b.lo) };
}
function mul(a: Iv, b: Iv): Iv {
  const ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi].map((x) => (Number.isNaN(x) ? 0 : x)); // 0 * inf
  return { lo: down(Math.min(...ps)), hi: up(Math.max(...ps)) };
}
function recip(b: Iv): Iv {
  return { lo: down(1 / b.hi), hi: up(1 / b.lo) };
}
function div(a: Iv, b: Iv): IvResult {
  if (b.lo === 0 && b.hi === 0) return 'undef';
  if (contains0(b)) return 'maybe';
  return mul(a, recip(b));
}
/** x**n for x >= 0 (scalar), rounded down / up. */
function powScalar(x: number, n: number, dir: (x: number) => number): number {
  let r = 1;
  let b = x;
  let k = n;
  while (k > 0) {
    if (k & 1) r = dir(r * b);
    k = Math.floor(k / 2);
    if (k > 0) b = dir(b * b);
  }
  return r;
}
function powInt(a: Iv, n: number): IvResult {
  if (n === 0) return exact(1);
  if (n < 0) {
    const p = powInt(a, -n);
    if (!isIv(p)) return p;
    return div(exact(1), p);
  }
  const lo = Math.max(0, a.lo);
  const hi = Math.max(0, a.hi);
  const nlo = Math.max(0, -a.hi);
  const nhi = Math.max(0, -a.lo);
  if (a.lo >= 0) return { lo: powScalar(lo, n, down), hi: powScalar(hi, n, up) };
  if (a.hi <= 0) {
    const m = { lo: powScalar(nlo, n, down), hi: powScalar(nhi, n, up) };
    return n % 2 === 0 ? m : { lo: -m.hi, hi: -m.lo };
  }
  // Straddles 0.
  const top = powScalar(Math.max(hi, nhi), n, up);
  if (n % 2 === 0) return { lo: 0, hi: top };
  return { lo: -powScalar(nhi, n, up), hi: powScalar(hi, n, up) };
}
/** x**r, r a non-integer (principal root): defined for x >= 0 (x > 0 when r < 0). */
function powReal(a: Iv, r: number): IvResult {
  if (a.hi < 0 || (r < 0 && a.hi <= 0)) return 'undef';
  if (a.lo < 0 || (r < 0 && a.lo <= 0)) return 'maybe';
  const f = (x: number): number => Math.pow(x, r);
  const x1 = f(a.lo);
  const x2 = f(a.hi);
  const lo = Math.min(x1, x2);
  const hi = Math.max(x1, x2);
  return { lo: Math.max(0, down(down(lo))), hi: up(up(hi)) };
}

const TWO_PI = 2 * Math.PI;
/** Does [a, b] (maybe) contain a point c + 2kπ, or c + kπ when period is π? Errs towards yes. */
function mayContain(a: Iv, c: number, period: number): boolean {
  const k1 = (a.lo - c) / period;
  const k2 = (a.hi - c) / period;
  const eps = 1e-9 + 1e-13 * Math.max(Math.abs(k1), Math.abs(k2));
  return Math.floor(k2 + eps) >= Math.ceil(k1 - eps);
}
const TRIG_LIMIT = 1e12;
function sinIv(a: Iv, shift: number): Iv {
  // sin(x + shift); shift 0 (sin) or π/2 (cos).
  if (!(Math.abs(a.lo) < TRIG_LIMIT && Math.abs(a.hi) < TRIG_LIMIT) || a.hi - a.lo >= 6.2) return { lo: -1, hi: 1 };
  const f = (x: number): number => (shift ? Math.cos(x) : Math.sin(x));
  const y1 = f(a.lo);
  const y2 = f(a.hi);
  let lo = down(down(Math.min(y1, y2)));
  let hi = up(up(Math.max(y1, y2)));
  // Maxima of sin(x + s) at x = π/2 - s + 2kπ, minima at -π/2 - s + 2kπ.
  if (mayContain(a, Math.PI / 2 - shift, TWO_PI)) hi = 1;
  if (mayContain(a, -Math.PI / 2 - shift, TWO_PI)) lo = -1;
  return { lo: Math.max(-1, lo), hi: Math.min(1, hi) };
}

function call(fn: string, a: Iv): IvResult {
  switch (fn) {
    case 'sqrt':
      if (a.hi < 0) return 'undef';
      if (a.lo < 0) return 'maybe';
      return { lo: Math.max(0, down(Math.sqrt(a.lo))), hi: up(Math.sqrt(a.hi)) };
    case 'Abs':
      if (a.lo >= 0) return a;
      if (a.hi <= 0) return { lo: -a.hi, hi: -a.lo };
      return { lo: 0, hi: Math.max(-a.lo, a.hi) };
    case 'sin':
      return sinIv(a, 0);
    case 'cos':
      return sinIv(a, Math.PI / 2);
    case 'tan':
      if (!(Math.abs(a.lo) < TRIG_LIMIT && Math.abs(a.hi) < TRIG_LIMIT) || a.hi - a.lo >= 3) return 'maybe';
      if (mayContain(a, Math.PI / 2, Math.PI)) return 'maybe';
      return { lo: down(down(Math.tan(a.lo))), hi: up(up(Math.tan(a.hi))) };
    case 'asin':
    case 'acos': {
      if (a.hi < -1 || a.lo > 1) return 'undef';
      if (a.lo < -1 || a.hi > 1) return 'maybe';
      if (fn === 'asin') return { lo: Math.max(-Math.PI / 2 - 1e-15, down(down(Math.asin(a.lo)))), hi: up(up(Math.asin(a.hi))) };
      return { lo: Math.max(0, down(down(Math.acos(a.hi)))), hi: up(up(Math.acos(a.lo))) };
    }
    case 'atan':
      return { lo: down(down(Math.atan(a.lo))), hi: up(up(Math.atan(a.hi))) };
    case 'exp':
      return { lo: Math.max(0, down(down(Math.exp(a.lo)))), hi: up(up(Math.exp(a.hi))) };
    case 'log':
      if (a.hi <= 0) return 'undef';
      if (a.lo <= 0) return 'maybe';
      return { lo: down(down(Math.log(a.lo))), hi: up(up(Math.log(a.hi))) };
  }
  return 'maybe';
}

/** Both arguments must be intervals; 'undef' wins over 'maybe' (a sub-term undefined everywhere). */
function both(a: IvResult, b: IvResult, f: (a: Iv, b: Iv) => IvResult): IvResult {
  if (a === 'undef' || b === 'undef') return 'undef';
  if (a === 'maybe' || b === 'maybe') return 'maybe';
  return f(a, b);
}

const PI_IV: Iv = { lo: down(Math.PI), hi: up(Math.PI) };
const E_IV: Iv = { lo: down(Math.E), hi: up(Math.E) };

export type IvStats = {
  /** Largest magnitude of the arithmetic top layer (nodes not inside a function argument or an exponent). */
  top: number;
};

export function evalIv(e: Expr, box: Box, st?: IvStats, topLevel = true): IvResult {
  const r = evalNode(e, box, st, topLevel);
  if (st && topLevel && isIv(r)) st.top = Math.max(st.top, Math.abs(r.lo), Math.abs(r.hi));
  return r;
}

function evalNode(e: Expr, box: Box, st: IvStats | undefined, top: boolean): IvResult {
  switch (e.kind) {
    case 'num':
      return ratIv(constRational(e)!);
    case 'const':
      return e.name === 'pi' ? PI_IV : E_IV;
    case 'sym': {
      const v = box[e.name];
      return v ?? 'maybe';
    }
    case 'neg': {
      const a = evalIv(e.arg, box, st, top);
      return isIv(a) ? { lo: -a.hi, hi: -a.lo } : a;
    }
    case 'call': {
      const a = evalIv(e.args[0], box, st, false);
      if (!isIv(a)) return a;
      return call(e.fn, a);
    }
    case 'bin': {
      if (e.op === '**') {
        const base = evalIv(e.left, box, st, top);
        const k = constRational(e.right);
        if (k) {
          if (!isIv(base)) return base;
          if (k.d === 1n) {
            if (k.n > 10n ** 7n || k.n < -(10n ** 7n)) return 'maybe';
            return powInt(base, Number(k.n));
          }
          return powReal(base, Number(k.n) / Number(k.d));
        }
        const ex = evalIv(e.right, box, st, false);
        return both(base, ex, (b, x) => {
          if (x.lo === x.hi && Number.isInteger(x.lo) && Math.abs(x.lo) <= 1e7) return powInt(b, x.lo);
          // b**x = exp(x log b) for b > 0.
          if (b.lo <= 0) return b.hi < 0 && x.lo === x.hi ? 'undef' : 'maybe';
          const l = call('log', b);
          if (!isIv(l)) return l;
          return call('exp', mul(x, l));
        });
      }
      const l = evalIv(e.left, box, st, top);
      const r = evalIv(e.right, box, st, top);
      switch (e.op) {
        case '+':
          return both(l, r, add);
        case '-':
          return both(l, r, sub);
        case '*':
          return both(l, r, mul);
        case '/':
          return both(l, r, div);
      }
    }
  }
  return 'maybe';
}

export type IvEquation = {
  /** lhs - rhs on the box, or 'undef' / 'maybe'. */
  residual: IvResult;
  /** Largest magnitude of either side's arithmetic top layer on the box (a scale for the residual). */
  scale: number;
  lhs: IvResult;
  rhs: IvResult;
};

export function evalEquationIv(eq: Equation, box: Box): IvEquation {
  const st: IvStats = { top: 0 };
  const l = evalIv(eq.lhs, box, st);
  const r = evalIv(eq.rhs, box, st);
  return { residual: both(l, r, sub), scale: st.top, lhs: l, rhs: r };
}

/** The equation is false at every point of the box, or undefined at every point of it. */
export function provablyViolated(eq: Equation, box: Box): boolean {
  const { residual } = evalEquationIv(eq, box);
  if (residual === 'undef') return true;
  if (residual === 'maybe') return false;
  return residual.lo > 0 || residual.hi < 0;
}

/** A box of relative radius rho around a point (a point exactly 0 stays 0). */
export function boxAround(env: Record<string, number>, rho: number): Box {
  const box: Box = {};
  for (const [k, x] of Object.entries(env)) {
    const r = Math.abs(x) * rho;
    box[k] = r === 0 ? exact(x) : { lo: down(x - r), hi: up(x + r) };
  }
  return box;
}

export const isInterval = isIv;
export { iv as widen };
