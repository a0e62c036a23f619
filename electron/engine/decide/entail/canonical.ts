// One representative for equations that are the same equation written differently, so a pair is
// decided once however its equations were written: `a - b = 0` and `0 = a - b` are `a = b`;
// `k*a = k*b` and `-a = -b` (k a non-zero number, also leading a product `k*a*c/d`) are `a = b`; and of `a = b` and `b = a` the one
// whose source sorts first stands for both. Each rewrite keeps the solution set and the points
// where the equation is defined (k*a is defined exactly where a is; a - b where both are), so
// every verdict about the representative (a proof, a counterexample point, a vacuous premise) is
// a verdict about the equation as written. Nothing is expanded or cancelled: x/x = 1 stays itself.
import { equationToSympy, numberToRational, type Equation, type Expr } from '../../../../shared/equation/index.ts';

const isZero = (e: Expr): boolean => e.kind === 'num' && numberToRational(e.text).n === 0n;

/**
 * The leading non-zero number `k` of a product or quotient written `k*x*y/z` (parsed left to right,
 * so k sits at the left end of the chain), and the chain without it; undefined when there is none.
 * k*x*y/z is k*(x*y/z) exactly, defined at the same points.
 */
function leadingFactor(e: Expr): { k: string; rest: Expr } | undefined {
  if (e.kind !== 'bin' || (e.op !== '*' && e.op !== '/')) return undefined;
  if (e.op === '*' && e.left.kind === 'num') return isZero(e.left) ? undefined : { k: e.left.text, rest: e.right };
  const inner = leadingFactor(e.left);
  return inner && { k: inner.k, rest: { kind: 'bin', op: e.op, left: inner.rest, right: e.right } };
}

/** One rewrite step, or null when none applies. */
function step(eq: Equation): Equation | null {
  const { lhs, rhs } = eq;
  if (isZero(rhs) && lhs.kind === 'bin' && lhs.op === '-') return { lhs: lhs.left, rhs: lhs.right };
  if (isZero(lhs) && rhs.kind === 'bin' && rhs.op === '-') return { lhs: rhs.left, rhs: rhs.right };
  const a = leadingFactor(lhs);
  const b = a && leadingFactor(rhs);
  if (a && b && a.k === b.k) return { lhs: a.rest, rhs: b.rest };
  if (lhs.kind === 'neg' && rhs.kind === 'neg') return { lhs: lhs.arg, rhs: rhs.arg };
  return null;
}

export type Canonical = { eq: Equation; key: string };

const memo = new WeakMap<Equation, Canonical>();

/** The representative of `eq` and its source (the cache key). */
export function canonicalEquation(eq: Equation): Canonical {
  const hit = memo.get(eq);
  if (hit) return hit;
  let e = eq;
  for (let n = 0; n < 64; n++) {
    const next = step(e);
    if (!next) break;
    e = next;
  }
  const a = equationToSympy(e);
  const b = equationToSympy({ lhs: e.rhs, rhs: e.lhs });
  const c: Canonical = a <= b ? { eq: e, key: a } : { eq: { lhs: e.rhs, rhs: e.lhs }, key: b };
  memo.set(eq, c);
  return c;
}

/**
 * `e` with each chain of one associative operator grouped from the left: `a*(b*c)` is `(a*b)*c`,
 * `a + (b + c)` is `(a + b) + c`. The same function, defined at the same points: brackets that
 * change nothing ("12 × 3×10⁸" read as 12*(3*10**8) by one reader and 12*3*10**8 by another).
 */
export function leftGrouped(e: Expr): Expr {
  if (e.kind === 'neg') return { kind: 'neg', arg: leftGrouped(e.arg) };
  if (e.kind === 'call') return { ...e, args: e.args.map(leftGrouped) };
  if (e.kind !== 'bin') return e;
  if (e.op !== '*' && e.op !== '+') return { ...e, left: leftGrouped(e.left), right: leftGrouped(e.right) };
  const op = e.op;
  const terms: Expr[] = [];
  const collect = (x: Expr): void => {
    if (x.kind === 'bin' && x.op === op) {
      collect(x.left);
      collect(x.right);
    } else terms.push(leftGrouped(x));
  };
  collect(e);
  return terms.reduce((left, right) => ({ kind: 'bin', op, left, right }));
}

const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
};

const forms = new WeakMap<Expr, string>();

/**
 * A key for `e` that is the same for expressions that differ only by the order and grouping of
 * their products, quotients and sums: (1/(2π))·√x and √x/(2π), −b + a and a − b, 2·(x·y)/4 and
 * x·y/2. Each product is its numeric coefficient (an exact rational) and its other factors, each
 * marked as multiplying or dividing, sorted; each sum its terms, sorted. These rewrites keep the
 * function and the points where it is defined (x/(y·z) is x·y⁻¹·z⁻¹ exactly, defined where y and
 * z are not zero), so equal keys are the same function. Nothing is cancelled or combined (x²/x
 * stays itself, x + x is not 2x), and a quotient inside a denominator (a/(b/c)) is one factor:
 * flattening it would define it where c = 0.
 */
export function productForm(e: Expr): string {
  let f = forms.get(e);
  if (f === undefined) forms.set(e, (f = formOf(e)));
  return f;
}

function formOf(e: Expr): string {
  switch (e.kind) {
    case 'num':
    case 'sym':
    case 'const':
      return termForm(e);
    case 'call':
      return `${e.fn}(${e.args.map(productForm).join(', ')})`;
    case 'neg':
    case 'bin':
      if (e.kind === 'bin' && (e.op === '+' || e.op === '-')) {
        const terms: string[] = [];
        const collect = (x: Expr, sign: 1 | -1): void => {
          if (x.kind === 'bin' && (x.op === '+' || x.op === '-')) {
            collect(x.left, sign);
            collect(x.right, x.op === '-' ? (-sign as 1 | -1) : sign);
          } else terms.push(termForm(sign === 1 ? x : { kind: 'neg', arg: x }));
        };
        collect(e, 1);
        return terms.sort().join(' + ');
      }
      return termForm(e);
  }
}

/** A product or quotient as its coefficient and sorted factors (see productForm); a constant marked apart from a variable of its name (E). */
function termForm(e: Expr): string {
  let n = 1n;
  let d = 1n;
  const factors: string[] = [];
  const walk = (x: Expr, up: boolean): void => {
    if (x.kind === 'neg') {
      n = -n;
      walk(x.arg, up);
    } else if (x.kind === 'bin' && x.op === '*') {
      walk(x.left, up);
      walk(x.right, up);
    } else if (x.kind === 'bin' && x.op === '/' && up) {
      walk(x.left, true);
      walk(x.right, false);
    } else if (x.kind === 'num' && numberToRational(x.text).n !== 0n) {
      const r = numberToRational(x.text);
      if (up) [n, d] = [n * r.n, d * r.d];
      else [n, d] = [n * r.d, d * r.n];
    } else {
      const inner =
        x.kind === 'bin' && x.op === '**'
          ? `(${productForm(x.left)})**(${productForm(x.right)})`
          : x.kind === 'bin'
            ? `(${formOfQuotientOrSum(x)})`
            : x.kind === 'num'
              ? x.text
              : x.kind === 'call'
                ? productForm(x)
                : x.kind === 'const'
                  ? `#${x.name}`
                  : x.name;
      factors.push(`${up ? '*' : '/'}${inner}`);
    }
  };
  walk(e, true);
  const g = gcd(n, d) || 1n;
  return `${n / g}/${d / g}${factors.sort().join('')}`;
}

/** A sum, or a quotient inside a denominator, as one factor. */
const formOfQuotientOrSum = (x: Expr & { kind: 'bin' }): string => (x.op === '/' ? `${productForm(x.left)}|${productForm(x.right)}` : productForm(x));
