// A small sound prover of identities with sin/cos (no SymPy needed): is lhs - rhs zero wherever the
// equation is defined? Each side becomes a rational function with exact rational coefficients over
// atoms: variables, sin(A) and cos(A) for arguments A that are not sums or integer multiples
// (sin(2x), sin(x + y), cos(-x) are expanded by the angle formulas), and anything else (exp, log,
// roots, other powers) as an opaque atom named by its canonical text. tan(A) = sin(A)/cos(A). The
// numerator of lhs - rhs is then reduced modulo sin(A)**2 + cos(A)**2 = 1 (sin(A)**2 -> 1 - cos(A)**2,
// a normal form); zero proves the identity wherever the equation is defined (every denominator is
// non-zero there). Anything else, or anything too big: not proved (false), never a wrong "true".
import type { Equation, Expr } from '../../../../shared/equation/ast.ts';
import { exprToSympy } from '../../../../shared/equation/print.ts';
import { constRational, rat } from './rational.ts';
import { type Poly, polyArithmetic, type RF, TooBig } from './polynomial.ts';

const { addInto, atomPoly, constPoly, one, padd, pmul, rfAdd, rfMul } = polyArithmetic(400);
const poly = (p: Poly): RF => ({ n: p, d: one() });

/** sin and cos of an argument, expanded: [sin, cos]. */
function sinCos(arg: Expr, depth = 0): [RF, RF] {
  if (depth > 8) throw new TooBig();
  const k = constRational(arg);
  if (k && k.n === 0n) return [poly(new Map()), poly(one())];
  if (arg.kind === 'neg') {
    const [s, c] = sinCos(arg.arg, depth + 1);
    return [{ n: padd(new Map(), s.n, -1n), d: s.d }, c];
  }
  if (arg.kind === 'bin' && (arg.op === '+' || arg.op === '-')) {
    const [sa, ca] = sinCos(arg.left, depth + 1);
    const [sb, cb] = sinCos(arg.right, depth + 1);
    const sign = arg.op === '+' ? 1n : -1n;
    // sin(a ± b) = sa cb ± ca sb; cos(a ± b) = ca cb ∓ sa sb.
    return [rfAdd(rfMul(sa, cb), rfMul(ca, sb), sign), rfAdd(rfMul(ca, cb), rfMul(sa, sb), -sign)];
  }
  if (arg.kind === 'bin' && arg.op === '*') {
    const [kk, rest] = constRational(arg.left)
      ? [constRational(arg.left)!, arg.right]
      : constRational(arg.right)
        ? [constRational(arg.right)!, arg.left]
        : [null, null];
    if (kk && rest && kk.d === 1n && kk.n !== 0n && kk.n >= -6n && kk.n <= 6n) {
      const [s1, c1] = sinCos(rest, depth + 1);
      let s = s1;
      let c = c1;
      const n = kk.n < 0n ? -kk.n : kk.n;
      for (let i = 1n; i < n; i++) [s, c] = [rfAdd(rfMul(s, c1), rfMul(c, s1)), rfAdd(rfMul(c, c1), rfMul(s, s1), -1n)];
      return kk.n < 0n ? [{ n: padd(new Map(), s.n, -1n), d: s.d }, c] : [s, c];
    }
  }
  const key = exprToSympy(arg);
  return [poly(atomPoly(`sin(${key})`)), poly(atomPoly(`cos(${key})`))];
}

function toRF(e: Expr): RF {
  switch (e.kind) {
    case 'num':
      return poly(constPoly(constRational(e)!));
    case 'sym':
      return poly(atomPoly(e.name));
    case 'const':
      return poly(atomPoly(e.name));
    case 'neg': {
      const a = toRF(e.arg);
      return { n: padd(new Map(), a.n, -1n), d: a.d };
    }
    case 'call': {
      if (e.fn === 'sin' || e.fn === 'cos' || e.fn === 'tan') {
        const [s, c] = sinCos(e.args[0]);
        if (e.fn === 'sin') return s;
        if (e.fn === 'cos') return c;
        return { n: pmul(s.n, c.d), d: pmul(s.d, c.n) };
      }
      return poly(atomPoly(exprToSympy(e)));
    }
    case 'bin': {
      if (e.op === '**') {
        const k = constRational(e.right);
        if (!k || k.d !== 1n || k.n > 12n || k.n < -12n) return poly(atomPoly(exprToSympy(e)));
        const b = toRF(e.left);
        let r: RF = poly(one());
        const n = k.n < 0n ? -k.n : k.n;
        for (let i = 0n; i < n; i++) r = rfMul(r, b);
        return k.n < 0n ? { n: r.d, d: r.n } : r;
      }
      const l = toRF(e.left);
      const r = toRF(e.right);
      switch (e.op) {
        case '+':
          return rfAdd(l, r);
        case '-':
          return rfAdd(l, r, -1n);
        case '*':
          return rfMul(l, r);
        case '/':
          return { n: pmul(l.n, r.d), d: pmul(l.d, r.n) };
      }
    }
  }
  throw new TooBig();
}

/** Normal form modulo sin(A)**2 = 1 - cos(A)**2 for every A. */
function reduceSinSquares(p: Poly): Poly {
  let cur = p;
  for (let guard = 0; guard < 64; guard++) {
    let changed = false;
    const out: Poly = new Map();
    for (const t of cur.values()) {
      const atom = [...t.m.entries()].find(([v, e]) => v.startsWith('sin(') && e >= 2);
      if (!atom) {
        addInto(out, t.c, t.m);
        continue;
      }
      changed = true;
      const [s, e] = atom;
      const cosName = `cos(${s.slice(4)}`;
      const m1 = new Map(t.m);
      m1.set(s, e - 2);
      addInto(out, t.c, new Map(m1)); // * 1
      const m2 = new Map(m1);
      m2.set(cosName, (m2.get(cosName) ?? 0) + 2);
      addInto(out, rat(-t.c.n, t.c.d), m2); // * -cos²
    }
    cur = out;
    if (!changed) return cur;
  }
  throw new TooBig();
}

/** True only when lhs - rhs is provably zero wherever the equation is defined. */
export function isTrigIdentity(eq: Equation): boolean {
  try {
    const f = rfAdd(toRF(eq.lhs), toRF(eq.rhs), -1n);
    return reduceSinSquares(f.n).size === 0;
  } catch (e) {
    if (e instanceof TooBig) return false;
    return false;
  }
}
