// A cheap, sound algebraic proof rule that spares Z3 the common easy cases (rearrangements,
// cleared denominators, both sides scaled). Each side becomes a rational function N/D with exact
// rational coefficients, roots (sqrt, **(1/2)) becoming opaque atoms named by their canonical
// radicand. e1 entails e2 when
//   (a) e2 is defined wherever e1 is: each factor of each e2 denominator is a non-zero constant, a
//       constant multiple of a factor of an e1 denominator, a monomial in variables assumed
//       non-zero, or a positive combination of positive variables; each e2 radicand appears as an
//       e1 root or is a positive combination of positive variables;
//   (b) N1 = c * m * N2 with c a non-zero constant and m a monomial in variables assumed non-zero
//       (or N2 is identically zero). With e1 defined, D1 != 0, so N1 = 0, so N2 = 0, and by (a)
//       D2 != 0, so e2 holds.
// Anything else (Abs, trig, big expansions, a failed match) returns false: the caller asks Z3.
import type { Domain } from '../../../../shared/exam.ts';
import type { Equation, Expr } from '../../../../shared/equation/ast.ts';
import { constRational, ratDiv, ratMul } from './rational.ts';
import { isConst, mulMono, pequal, pkey, type Poly, polyArithmetic, type RF, TooBig } from './polynomial.ts';

// constAtoms: pi and E become opaque atoms (sameConstant only; the entailment rule leaves them to Z3).
type Info = { divisors: Poly[]; roots: Map<string, RF>; constAtoms?: boolean };

const { addInto, atomPoly, constPoly, one, padd, pmul, rfAdd: rfAddCross, rfMul } = polyArithmetic(120);

/** p normalised so its first term (by key) has coefficient 1: equal for constant multiples. */
function monic(p: Poly): string {
  if (p.size === 0) return '0';
  const first = [...p.keys()].sort()[0];
  const c = p.get(first)!.c;
  const q: Poly = new Map();
  for (const [k, t] of p) q.set(k, { c: ratDiv(t.c, c), m: t.m });
  return pkey(q);
}

/** a ± b, over the shared denominator when they have one. */
function rfAdd(a: RF, b: RF, sign = 1n): RF {
  if (pequal(a.d, b.d)) return { n: padd(a.n, b.n, sign), d: a.d };
  return rfAddCross(a, b, sign);
}

function toRF(e: Expr, info: Info): RF {
  switch (e.kind) {
    case 'num':
      return { n: constPoly(constRational(e)!), d: one() };
    case 'sym':
      return { n: atomPoly(e.name), d: one() };
    case 'neg': {
      const a = toRF(e.arg, info);
      return { n: padd(new Map(), a.n, -1n), d: a.d };
    }
    case 'const':
      if (info.constAtoms) return { n: atomPoly(`#${e.name}`), d: one() };
      throw new TooBig();
    case 'call':
      if (e.fn === 'sqrt') return root(e.args[0], info);
      throw new TooBig();
    case 'bin': {
      if (e.op === '**') {
        // (A number's power, "10**(-12)", exactly, when only values are compared.)
        const c = info.constAtoms ? constRational(e) : null;
        if (c) return { n: constPoly(c), d: one() };
        const k = constRational(e.right);
        if (!k) throw new TooBig();
        if (k.n === 1n && k.d === 2n) return root(e.left, info);
        if (k.d !== 1n || k.n > 8n || k.n < -8n) throw new TooBig();
        const b = toRF(e.left, info);
        let r: RF = { n: one(), d: one() };
        for (let i = 0n; i < (k.n < 0n ? -k.n : k.n); i++) r = rfMul(r, b);
        if (k.n < 0n) {
          info.divisors.push(b.n);
          return { n: r.d, d: r.n };
        }
        return r;
      }
      const l = toRF(e.left, info);
      const r = toRF(e.right, info);
      switch (e.op) {
        case '+':
          return rfAdd(l, r);
        case '-':
          return rfAdd(l, r, -1n);
        case '*':
          return rfMul(l, r);
        case '/':
          for (const f of factors(e.right)) info.divisors.push(toRF(f, { divisors: [], roots: new Map(), constAtoms: info.constAtoms }).n);
          return { n: pmul(l.n, r.d), d: pmul(l.d, r.n) };
      }
    }
  }
  throw new TooBig();
}

/** Syntactic multiplicative factors (a*b -> a, b; a**k -> a). */
function factors(e: Expr): Expr[] {
  if (e.kind === 'bin' && e.op === '*') return [...factors(e.left), ...factors(e.right)];
  if (e.kind === 'bin' && e.op === '**' && constRational(e.right)?.d === 1n) return factors(e.left);
  if (e.kind === 'neg') return factors(e.arg);
  return [e];
}

function root(arg: Expr, info: Info): RF {
  const r = toRF(arg, info);
  const name = `√(${pkey(r.n)})/(${pkey(r.d)})`;
  info.roots.set(name, r);
  return { n: atomPoly(name), d: one() };
}

type Facts = { positive: Set<string>; nonzero: Set<string> };
function facts(domain: Domain): Facts {
  const positive = new Set<string>();
  const nonzero = new Set<string>();
  for (const v of domain.variables) {
    const a = v.assumptions ?? [];
    const pos = a.includes('positive') || (v.range !== undefined && v.range[0] >= 0);
    if (pos) positive.add(v.name);
    if (pos || a.includes('nonzero') || (v.range !== undefined && (v.range[0] >= 0 || v.range[1] <= 0))) nonzero.add(v.name);
  }
  return { positive, nonzero };
}

const positiveDefinite = (p: Poly, f: Facts): boolean =>
  p.size > 0 && [...p.values()].every((t) => t.c.n > 0n && [...t.m.keys()].every((v) => f.positive.has(v)));
const nonzeroMonomial = (p: Poly, f: Facts): boolean => p.size === 1 && [...[...p.values()][0].m.keys()].every((v) => f.nonzero.has(v));

function convert(eq: Equation): { f: RF; info: Info } | null {
  const info: Info = { divisors: [], roots: new Map() };
  try {
    return { f: rfAdd(toRF(eq.lhs, info), toRF(eq.rhs, info), -1n), info };
  } catch (e) {
    if (e instanceof TooBig || e instanceof Error) return null;
    throw e;
  }
}

/** Sound but incomplete: true only when e1 ⇒ e2 follows by the rule above. */
export function algebraicEntails(e1: Equation, e2: Equation, domain: Domain): boolean {
  const a = convert(e1);
  const b = convert(e2);
  if (!a || !b) return false;
  const f = facts(domain);
  // (a) definedness of e2.
  const d1 = new Set(a.info.divisors.map(monic));
  for (const q of b.info.divisors) {
    if (isConst(q) && q.size > 0) continue;
    if (d1.has(monic(q)) || nonzeroMonomial(q, f) || positiveDefinite(q, f)) continue;
    return false;
  }
  for (const [name, r] of b.info.roots) {
    if (a.info.roots.has(name)) continue;
    const ok = (p: Poly): boolean => positiveDefinite(p, f) || (isConst(p) && p.size > 0 && [...p.values()][0].c.n > 0n);
    if (!(ok(r.n) && ok(r.d))) return false;
  }
  // (b) N1 = c * m * N2.
  const n1 = a.f.n;
  const n2 = b.f.n;
  if (n2.size === 0) return true;
  if (n1.size !== n2.size) return false;
  const t2 = [...n2.values()][0];
  try {
    for (const t1 of n1.values()) {
      const c = ratDiv(t1.c, t2.c);
      const m = mulMono(t1.m, new Map([...t2.m].map(([v, e]) => [v, -e])));
      if (![...m.keys()].every((v) => f.nonzero.has(v))) continue;
      const scaled: Poly = new Map();
      for (const t of n2.values()) addInto(scaled, ratMul(t.c, c), mulMono(t.m, m));
      if (pequal(scaled, n1)) return true;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * Whether two expressions with no variables have the same value, proved exactly: each side a
 * rational function of pi, E and roots taken as indeterminates ("1/2*4*pi*0.15" and "4*pi*0.15/2"),
 * so equal functions are equal numbers. Incomplete (sqrt(8) is not seen as 2*sqrt(2)); false where
 * a divisor could be zero unseen (one holding a root) or a root is of a negative number.
 */
export function sameConstant(a: Expr, b: Expr): boolean {
  const info: Info = { divisors: [], roots: new Map(), constAtoms: true };
  try {
    const x = toRF(a, info);
    const y = toRF(b, info);
    const rootFree = (p: Poly): boolean => [...p.values()].every((t) => [...t.m.keys()].every((k) => !k.startsWith('√')));
    if (info.divisors.some((p) => p.size === 0 || !rootFree(p)) || !rootFree(x.d) || !rootFree(y.d)) return false;
    for (const r of info.roots.values()) {
      const negative = (p: Poly): boolean => isConst(p) && p.size > 0 && [...p.values()][0].c.n < 0n;
      if (r.n.size > 0 && negative(r.n) !== negative(r.d)) return false;
    }
    return pequal(pmul(x.n, y.d), pmul(y.n, x.d));
  } catch (e) {
    if (e instanceof TooBig || e instanceof Error) return false;
    throw e;
  }
}
