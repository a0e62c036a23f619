// Double-precision evaluation: expressions and equations compiled to closures that return a value
// with an estimate of its rounding-error scale, so a residual can be judged relative to the size of
// its terms (agree, violate, or too close to call). Nothing here is a proof.
import { type Equation, type Expr } from '../../../../shared/equation/ast.ts';
import { constRational, ratToNumber } from './rational.ts';

/** Value and an estimate of its rounding-error scale (sum of the magnitudes of the terms). */
export type VM = [number, number];
/** Values of the variables at one point. */
export type Env = Record<string, number>;
export type Compiled = (env: Env) => VM;

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

/**
 * Both operands evaluated at the point; an undefined one (the left first) is the result as it is,
 * keeping its marker; else f of the two values and their scales.
 */
function both(l: Compiled, r: Compiled, f: (a: number, ma: number, b: number, mb: number) => VM): Compiled {
  return (env) => {
    const lx = l(env);
    const rx = r(env);
    if (isNaNVM(lx)) return lx;
    if (isNaNVM(rx)) return rx;
    return f(lx[0], lx[1], rx[0], rx[1]);
  };
}

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
        return both(l, compileExpr(e.right), (a, ma, b, mb) => {
          if (a < 0 && !Number.isInteger(b)) return below(a, ma) ? UNDEF : NAN;
          const v = Math.pow(a, b);
          if (!Number.isFinite(v)) return NAN;
          return [v, Math.abs(v) * (1 + Math.abs(b) * (ma / Math.max(Math.abs(a), 1e-300)) * 1 + Math.abs(Math.log(Math.max(Math.abs(a), 1e-300))) * mb)];
        });
      }
      const r = compileExpr(e.right);
      switch (e.op) {
        case '+':
          return both(l, r, (a, ma, b, mb) => [a + b, ma + mb]);
        case '-':
          return both(l, r, (a, ma, b, mb) => [a - b, ma + mb]);
        case '*':
          return both(l, r, (a, ma, b, mb) => [a * b, ma * mb]);
        case '/':
          return both(l, r, (a, ma, b, mb) => {
            if (b === 0 || !Number.isFinite(a / b)) return NAN;
            // A denominator lost in its own rounding error is "maybe zero": not a usable point.
            if (Math.abs(b) <= 1e-13 * mb) return NAN;
            return [a / b, ma / Math.abs(b) + (Math.abs(a) * mb) / (b * b)];
          });
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
    residual: both(l, r, (a, ma, b, mb) => [a - b, Math.max(ma + mb, Math.abs(a) + Math.abs(b))]),
  };
}

/** Relative residual: |lhs - rhs| / scale (0 when exactly equal); NaN where undefined. */
export function relResidual(c: CompiledEq, env: Env): number {
  const [r, m] = c.residual(env);
  if (Number.isNaN(r)) return NaN;
  if (r === 0) return 0;
  return Math.abs(r) / Math.max(m, 1e-300);
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
