// Dimensions over the seven SI base quantities, with exact rational exponents (a square root of
// a length is length^(1/2), kept exactly, never rounded). A dimension is a plain array of seven
// fractions, so it travels as JSON. Pure.

/** The SI base units, in the order of a dimension's exponents (kg first, as physicists write `kg m^2/s^2`). */
export const BASE_UNITS = ['kg', 'm', 's', 'A', 'K', 'mol', 'cd'] as const;

/** An exact exponent n/d (d > 0, lowest terms). */
export type Exponent = { n: number; d: number };

/** Exponents of kg, m, s, A, K, mol, cd. */
export type Dimension = readonly Exponent[];

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a || 1;
}

/** n/d in lowest terms with a positive denominator. */
export function exponent(n: number, d = 1): Exponent {
  if (!Number.isInteger(n) || !Number.isInteger(d) || d === 0) throw new Error(`not an exact exponent: ${n}/${d}`);
  if (d < 0) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return { n: n / g, d: d / g };
}

const ZERO: Exponent = { n: 0, d: 1 };

/** The dimension of a pure number. */
export const DIMENSIONLESS: Dimension = BASE_UNITS.map(() => ZERO);

/** A dimension from integer exponents by base unit (`{ m: 1, s: -2 }`). */
export function dimensionOf(exps: Partial<Record<(typeof BASE_UNITS)[number], number>>): Dimension {
  return BASE_UNITS.map((u) => exponent(exps[u] ?? 0));
}

export const isDimensionless = (a: Dimension): boolean => a.every((e) => e.n === 0);

export const sameDimension = (a: Dimension, b: Dimension): boolean => a.every((e, i) => e.n === b[i].n && e.d === b[i].d);

export const multiply = (a: Dimension, b: Dimension): Dimension => a.map((e, i) => exponent(e.n * b[i].d + b[i].n * e.d, e.d * b[i].d));

export const divide = (a: Dimension, b: Dimension): Dimension => a.map((e, i) => exponent(e.n * b[i].d - b[i].n * e.d, e.d * b[i].d));

/** a raised to the exact power p/q. */
export const power = (a: Dimension, p: number, q = 1): Dimension => a.map((e) => exponent(e.n * p, e.d * q));

const SUPERSCRIPT: Record<string, string> = { '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻' };

function powerText(base: string, e: Exponent, pretty: boolean): string {
  if (e.n === 1 && e.d === 1) return base;
  const text = e.d === 1 ? String(e.n) : `${e.n}/${e.d}`;
  if (pretty && e.d === 1) return base + [...text].map((c) => SUPERSCRIPT[c] ?? c).join('');
  return e.d === 1 ? `${base}^${text}` : `${base}^(${text})`;
}

/**
 * A dimension written in SI base units as a physicist writes them: `m/s`, `kg m^2/s^2`,
 * `kg/(m s^2)`, `1` for a pure number; `pretty` writes powers as superscripts (`m²/s`).
 */
export function formatDimension(a: Dimension, opts: { pretty?: boolean } = {}): string {
  const pretty = opts.pretty ?? false;
  const up: string[] = [];
  const down: string[] = [];
  a.forEach((e, i) => {
    if (e.n > 0) up.push(powerText(BASE_UNITS[i], e, pretty));
    else if (e.n < 0) down.push(powerText(BASE_UNITS[i], { n: -e.n, d: e.d }, pretty));
  });
  const top = up.length ? up.join(' ') : '1';
  if (down.length === 0) return top;
  return `${top}/${down.length > 1 ? `(${down.join(' ')})` : down[0]}`;
}
