// Sparse multivariate polynomials and rational functions with exact rational coefficients, shared
// by the algebraic proof rule (poly.ts) and the trig-identity prover (trig-identity.ts). A monomial
// maps atom names to exponents; a polynomial maps each monomial's canonical key to its term. Every
// operation that builds terms is bounded by a term limit chosen by the caller: past it, TooBig.
import { type Rat, rat, ratAdd, ratMul } from './rational.ts';

export type Mono = Map<string, number>;
export type Poly = Map<string, { c: Rat; m: Mono }>;
/** Rational function n/d. */
export type RF = { n: Poly; d: Poly };

/** Thrown when a polynomial grows past its term limit (or the input is out of a prover's reach). */
export class TooBig extends Error {}

/** Canonical key of a monomial: `v^e` factors (zero exponents left out) sorted by name, joined by `*`. */
export const monoKey = (m: Mono): string =>
  [...m.entries()]
    .filter(([, e]) => e !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([v, e]) => `${v}^${e}`)
    .join('*');

export function mulMono(a: Mono, b: Mono): Mono {
  const m = new Map(a);
  for (const [v, e] of b) m.set(v, (m.get(v) ?? 0) + e);
  for (const [v, e] of m) if (e === 0) m.delete(v);
  return m;
}

/** Canonical text of a polynomial (equal for equal polynomials). */
export const pkey = (p: Poly): string =>
  [...p.keys()]
    .sort()
    .map((k) => `${k}:${p.get(k)!.c.n}/${p.get(k)!.c.d}`)
    .join('+');
export const pequal = (a: Poly, b: Poly): boolean => a.size === b.size && pkey(a) === pkey(b);
export const isConst = (p: Poly): boolean => p.size === 0 || (p.size === 1 && p.has(''));

export type PolyArithmetic = {
  /** p += c * m, in place. */
  addInto: (p: Poly, c: Rat, m: Mono) => void;
  constPoly: (c: Rat) => Poly;
  /** The polynomial 1 * atom. */
  atomPoly: (atom: string) => Poly;
  one: () => Poly;
  /** a + b (sign 1n) or a - b (sign -1n). */
  padd: (a: Poly, b: Poly, sign?: bigint) => Poly;
  pmul: (a: Poly, b: Poly) => Poly;
  /** a/b + c/d (or minus) over the common denominator b*d. */
  rfAdd: (a: RF, b: RF, sign?: bigint) => RF;
  rfMul: (a: RF, b: RF) => RF;
};

/** Polynomial arithmetic that throws TooBig when any polynomial it builds has more than maxTerms terms. */
export function polyArithmetic(maxTerms: number): PolyArithmetic {
  function addInto(p: Poly, c: Rat, m: Mono): void {
    const k = monoKey(m);
    const cur = p.get(k);
    const nc = cur ? ratAdd(cur.c, c) : c;
    if (nc.n === 0n) p.delete(k);
    else p.set(k, { c: nc, m });
    if (p.size > maxTerms) throw new TooBig();
  }
  const constPoly = (c: Rat): Poly => {
    const p: Poly = new Map();
    if (c.n !== 0n) addInto(p, c, new Map());
    return p;
  };
  const atomPoly = (a: string): Poly => {
    const p: Poly = new Map();
    addInto(p, rat(1n), new Map([[a, 1]]));
    return p;
  };
  function padd(a: Poly, b: Poly, sign = 1n): Poly {
    const out: Poly = new Map(a);
    for (const t of b.values()) addInto(out, sign === 1n ? t.c : rat(-t.c.n, t.c.d), t.m);
    return out;
  }
  function pmul(a: Poly, b: Poly): Poly {
    const out: Poly = new Map();
    for (const x of a.values()) for (const y of b.values()) addInto(out, ratMul(x.c, y.c), mulMono(x.m, y.m));
    return out;
  }
  return {
    addInto,
    constPoly,
    atomPoly,
    one: () => constPoly(rat(1n)),
    padd,
    pmul,
    rfAdd: (a, b, sign = 1n) => ({ n: padd(pmul(a.n, b.d), pmul(b.n, a.d), sign), d: pmul(a.d, b.d) }),
    rfMul: (a, b) => ({ n: pmul(a.n, b.n), d: pmul(a.d, b.d) }),
  };
}
