// Exact rewrites that remove repeated roots before anything samples or calls Z3. Each
// rewrite gives an equation with the same admissible solutions and the same definedness:
//   P**k = 0 (k a positive integer; also a product of such powers = 0)  ->  P = 0 (the product of the bases)
//   A**n = B**n, n odd                                                  ->  A = B
//   A**n = B**n, n even, A and B provably >= 0 on the domain           ->  A = B
// A multiple root is exactly where sampling fails (the residual never changes sign, and near-misses
// look like roots), and big exponents are beyond Z3; the reduced equation has neither problem.
import type { Equation, Expr } from '../../../../shared/equation/ast.ts';
import type { Domain } from '../../../../shared/exam.ts';
import { constRational } from './rational.ts';

const isZero = (e: Expr): boolean => {
  const r = constRational(e);
  return r !== null && r.n === 0n;
};

/** Positive integer exponent of `e` when it is `b**k`, else null. */
function intPower(e: Expr): { base: Expr; k: bigint } | null {
  if (e.kind !== 'bin' || e.op !== '**') return null;
  const k = constRational(e.right);
  if (!k || k.d !== 1n || k.n < 1n) return null;
  return { base: e.left, k: k.n };
}

function productFactors(e: Expr): Expr[] {
  if (e.kind === 'bin' && e.op === '*') return [...productFactors(e.left), ...productFactors(e.right)];
  return [e];
}

const same = (a: Expr, b: Expr): boolean => JSON.stringify(a) === JSON.stringify(b);

type Facts = { nonneg: Set<string> };
function facts(domain: Domain): Facts {
  const nonneg = new Set<string>();
  for (const v of domain.variables) {
    const a = v.assumptions ?? [];
    if (a.includes('positive') || a.includes('nonnegative') || (v.range !== undefined && v.range[0] >= 0)) nonneg.add(v.name);
  }
  return { nonneg };
}

/** Provably >= 0 wherever defined (sound, incomplete). */
function nonneg(e: Expr, f: Facts): boolean {
  switch (e.kind) {
    case 'num':
      return true;
    case 'const':
      return true;
    case 'sym':
      return f.nonneg.has(e.name);
    case 'neg':
      return isZero(e.arg);
    case 'call':
      return e.fn === 'sqrt' || e.fn === 'Abs' || e.fn === 'exp' || e.fn === 'acos';
    case 'bin': {
      if (e.op === '**') {
        const k = constRational(e.right);
        if (k && k.d === 1n && k.n % 2n === 0n) return true;
        if (k && k.d !== 1n) return true; // principal root: >= 0 wherever real
        return nonneg(e.left, f);
      }
      if (e.op === '-') return false;
      return nonneg(e.left, f) && nonneg(e.right, f);
    }
  }
}

export type Reduction = { eq: Equation; note?: string };

export function reduceEquation(eq: Equation, domain: Domain): Reduction {
  const f = facts(domain);
  // P**k = 0  ->  P = 0 (over products of powers too).
  for (const [z, side] of [
    [eq.rhs, eq.lhs],
    [eq.lhs, eq.rhs],
  ] as const) {
    if (!isZero(z)) continue;
    const fs = productFactors(side);
    let changed = false;
    const bases = fs.map((x) => {
      const p = intPower(x);
      if (p && p.k > 1n) {
        changed = true;
        return p.base;
      }
      return x;
    });
    if (changed) {
      const prod = bases.reduce((a, b) => ({ kind: 'bin', op: '*', left: a, right: b }) as Expr);
      return { eq: { lhs: prod, rhs: z }, note: 'a power equal to zero reduced to its base (a repeated root)' };
    }
  }
  // A**n = B**n.
  const pl = intPower(eq.lhs);
  const pr = intPower(eq.rhs);
  if (pl && pr && pl.k === pr.k && pl.k > 1n && !same(pl.base, pr.base)) {
    if (pl.k % 2n === 1n) return { eq: { lhs: pl.base, rhs: pr.base }, note: `both sides to the odd power ${pl.k}: reduced to their bases` };
    if (nonneg(pl.base, f) && nonneg(pr.base, f))
      return { eq: { lhs: pl.base, rhs: pr.base }, note: `both sides to the even power ${pl.k}, both bases non-negative: reduced to their bases` };
  }
  return { eq };
}
