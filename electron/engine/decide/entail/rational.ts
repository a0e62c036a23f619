// Exact rationals (bigint numerator/denominator), enough to fold constant sub-expressions such as
// exponents (`x**(1/2)`, `x**0.5`, `x**(-2)`) exactly.
import { type Expr, numberToRational } from '../../../../shared/equation/ast.ts';

export type Rat = { n: bigint; d: bigint };

const babs = (x: bigint): bigint => (x < 0n ? -x : x);
function gcd(a: bigint, b: bigint): bigint {
  a = babs(a);
  b = babs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

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
export const ratDiv = (a: Rat, b: Rat): Rat => rat(a.n * b.d, a.d * b.n);
export const isInt = (a: Rat): boolean => a.d === 1n;

/** Largest exponent we expand exactly (keeps hostile `x**(10**9)` cheap to reject). */
export const MAX_INT_POWER = 64n;

/** Exact value of a constant rational expression (numbers, + - * /, integer powers), else null. */
export function constRational(e: Expr): Rat | null {
  try {
    return fold(e);
  } catch {
    return null; // division by zero, too large a power
  }
}

function fold(e: Expr): Rat | null {
  switch (e.kind) {
    case 'num': {
      const r = numberToRational(e.text);
      return rat(r.n, r.d);
    }
    case 'neg': {
      const a = fold(e.arg);
      return a && rat(-a.n, a.d);
    }
    case 'bin': {
      const l = fold(e.left);
      if (!l) return null;
      const r = fold(e.right);
      if (!r) return null;
      switch (e.op) {
        case '+':
          return ratAdd(l, r);
        case '-':
          return ratSub(l, r);
        case '*':
          return ratMul(l, r);
        case '/':
          return ratDiv(l, r);
        case '**': {
          if (!isInt(r) || babs(r.n) > MAX_INT_POWER) return null;
          if (babs(l.n) > 10n ** 40n || l.d > 10n ** 40n) return null;
          const k = babs(r.n);
          let p = rat(l.n ** k, l.d ** k);
          if (r.n < 0n) p = ratDiv(rat(1n), p);
          return p;
        }
      }
      return null;
    }
    default:
      return null;
  }
}

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
