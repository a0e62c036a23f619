// Exact rationals (bigint numerator/denominator), always in lowest terms with a positive
// denominator. Pure arithmetic, shared by the parser (which folds constants while parsing) and the
// engine's exact checks.

export type Rat = { n: bigint; d: bigint };

export const babs = (x: bigint): bigint => (x < 0n ? -x : x);

export function gcd(a: bigint, b: bigint): bigint {
  a = babs(a);
  b = babs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** n/d in lowest terms with d > 0; throws on a zero denominator. */
export function rat(n: bigint, d: bigint = 1n): Rat {
  if (d === 0n) throw new Error('division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

export const ratAdd = (a: Rat, b: Rat): Rat => rat(a.n * b.d + b.n * a.d, a.d * b.d);
export const ratSub = (a: Rat, b: Rat): Rat => rat(a.n * b.d - b.n * a.d, a.d * b.d);
export const ratMul = (a: Rat, b: Rat): Rat => rat(a.n * b.n, a.d * b.d);
/** a/b; throws when b is zero. */
export const ratDiv = (a: Rat, b: Rat): Rat => rat(a.n * b.d, a.d * b.n);
export const isInt = (a: Rat): boolean => a.d === 1n;

export const ratToNumber = (a: Rat): number => Number(a.n) / Number(a.d);

/** Exact rational of a finite double (doubles are dyadic rationals). */
export function doubleToRat(x: number): Rat {
  if (!Number.isFinite(x)) throw new Error(`not finite: ${x}`);
  if (Number.isInteger(x)) return rat(BigInt(x));
  let d = 1n;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    d *= 2n;
  }
  return rat(BigInt(m), d);
}

/** Decimal text of a rational with up to `digits` significant fraction digits (for counterexamples). */
export function ratToDecimal(a: Rat, digits = 12): string {
  if (a.d === 1n) return a.n.toString();
  const x = ratToNumber(a);
  return Number(x.toPrecision(digits)).toString();
}

/** `n` or `n/d`. */
export const ratText = (r: Rat): string => (r.d === 1n ? r.n.toString() : `${r.n}/${r.d}`);
