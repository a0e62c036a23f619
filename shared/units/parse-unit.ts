// Unit strings as physicists write them: `m/s`, `m/s^2`, `m s^-1`, `m·s⁻²`, `kg m^2/s^2`,
// `J/(kg K)`, `kJ`, `km/h`, `µF`, `Ω`, `1` for a pure number. A factor is a unit symbol (with an
// SI prefix where the unit takes one) and an optional power (`^2`, `**2`, `^-1`, `^(1/2)`, `²`,
// `⁻¹`, or digits right after the symbol: `m2`). `/` puts the next factor in the denominator with
// the factors written after it with spaces (`J/kg K` is J/(kg K), as it is read aloud); `*`, `·`
// or a second `/` ends it. Used for the exam's units (the whole string must be a unit) and for the
// unit after a number in a student's text (the longest unit that starts there). Pure.
import { DIMENSIONLESS, divide, multiply, power, sameDimension, type Dimension } from './dimension.ts';
import { lookupUnit } from './unit-table.ts';

/** A unit: its factor to SI base units and its dimension (`km/h`: factor 1/3.6, m/s). */
export type Unit = { factor: number; dimension: Dimension };

export type UnitParse = { ok: true; unit: Unit } | { ok: false; error: string };

const ONE: Unit = { factor: 1, dimension: DIMENSIONLESS };
const LETTER = /[A-Za-zµμΩ]/;
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const TIMES = new Set(['*', '·', '⋅', '×']);

type Read = { unit: Unit; end: number };
/** Where reading stopped on a symbol that is not a unit (for the exam's error message). */
type Trouble = { unknown?: string };

const mul = (a: Unit, b: Unit): Unit => ({ factor: a.factor * b.factor, dimension: multiply(a.dimension, b.dimension) });
const div = (a: Unit, b: Unit): Unit => ({ factor: a.factor / b.factor, dimension: divide(a.dimension, b.dimension) });
function pow(a: Unit, p: number, q: number): Unit {
  return { factor: a.factor ** (p / q), dimension: power(a.dimension, p, q) };
}

/** A power after a factor: [p, q, end], or null when there is none. */
function readPower(s: string, i: number): [number, number, number] | null {
  if (s[i] === '^' || s.startsWith('**', i)) {
    let j = i + (s[i] === '^' ? 1 : 2);
    const open = s[j] === '(';
    if (open) j++;
    const m = /^([-−]?)(\d{1,2})(?:\/(\d{1,2}))?/.exec(s.slice(j));
    if (!m) return null;
    j += m[0].length;
    if (open) {
      if (s[j] !== ')') return null;
      j++;
    }
    const q = m[3] ? Number(m[3]) : 1;
    if (q === 0) return null;
    return [(m[1] ? -1 : 1) * Number(m[2]), q, j];
  }
  let j = i;
  let sign = 1;
  if (s[j] === '⁻') {
    sign = -1;
    j++;
  }
  let digits = '';
  while (j < s.length && SUPERSCRIPT_DIGITS.includes(s[j])) digits += String(SUPERSCRIPT_DIGITS.indexOf(s[j++]));
  if (digits) return [sign * Number(digits), 1, j];
  // Digits right after a symbol: `m2`, `s-1` is not taken (a minus there is more likely an operator).
  const m = /^\d{1,2}(?![\d.])/.exec(s.slice(i));
  if (m) return [Number(m[0]), 1, i + m[0].length];
  return null;
}

function readFactor(s: string, i: number, trouble: Trouble): Read | null {
  let base: Read;
  if (s[i] === '(') {
    const inner = readProduct(s, i + 1, trouble);
    if (!inner) return null;
    let j = inner.end;
    while (s[j] === ' ') j++;
    if (s[j] !== ')') return null;
    base = { unit: inner.unit, end: j + 1 };
  } else if (s[i] === '°' || s[i] === '%') {
    const def = lookupUnit(s[i])!;
    base = { unit: { factor: def.factor, dimension: def.dimension }, end: i + 1 };
  } else if (s[i] !== undefined && LETTER.test(s[i])) {
    let j = i;
    while (j < s.length && LETTER.test(s[j])) j++;
    const name = s.slice(i, j);
    const def = lookupUnit(name);
    if (!def) {
      trouble.unknown ??= name;
      return null;
    }
    base = { unit: { factor: def.factor, dimension: def.dimension }, end: j };
  } else return null;
  // A power may be set off by spaces (`m s ^(-1)`, as LaTeX `s}^{-1}` reads).
  let at = base.end;
  while (s[at] === ' ') at++;
  const p = s[at] === '^' || s.startsWith('**', at) ? readPower(s, at) : readPower(s, base.end);
  return p ? { unit: pow(base.unit, p[0], p[1]), end: p[2] } : base;
}

/** The longest product of factors from i (`kg m^2/s^2`); null when no factor starts at i. */
function readProduct(s: string, i: number, trouble: Trouble): Read | null {
  let unit: Unit;
  let end: number;
  if (s[i] === '1' && !/[\d.]/.test(s[i + 1] ?? '')) {
    unit = ONE; // `1/s`, or `1` alone: a pure number
    end = i + 1;
  } else {
    const first = readFactor(s, i, trouble);
    if (!first) return null;
    ({ unit, end } = first);
  }
  let below = false;
  for (;;) {
    let k = end;
    while (s[k] === ' ') k++;
    let sep: 'times' | 'over' | 'space';
    if (TIMES.has(s[k])) sep = 'times';
    else if (s[k] === '/') sep = 'over';
    else if (k > end) sep = 'space';
    else break;
    if (sep !== 'space') {
      k++;
      while (s[k] === ' ') k++;
    }
    // After a space only a unit symbol goes on (`kg m`); a bracket there is something else (`m (1)`).
    if (sep === 'space' && s[k] === '(') break;
    const next = readFactor(s, k, sep === 'space' ? {} : trouble);
    if (!next) break;
    if (sep === 'over') below = true;
    else if (sep === 'times') below = false;
    unit = below ? div(unit, next.unit) : mul(unit, next.unit);
    end = next.end;
  }
  return { unit, end };
}

/** Parse a whole unit string (the exam's `unit` fields). */
export function parseUnit(text: string): UnitParse {
  const s = text.trim();
  if (s === '') return { ok: false, error: 'empty unit' };
  const trouble: Trouble = {};
  const r = readProduct(s, 0, trouble);
  if (r && r.end === s.length) return { ok: true, unit: r.unit };
  if (trouble.unknown) return { ok: false, error: `unknown unit '${trouble.unknown}'` };
  return { ok: false, error: `can't read unit '${text}'${r ? ` after '${s.slice(0, r.end)}'` : ''}` };
}

/** Parse a unit the caller knows is valid (exam units already validated). Throws otherwise. */
export function unitOrThrow(text: string): Unit {
  const p = parseUnit(text);
  if (!p.ok) throw new Error(p.error);
  return p.unit;
}

/**
 * The longest unit written at `start` of `text` (a student's "40.8 m", "9.81 m/s²", "3.2kJ"),
 * with where it ends; null when none starts there.
 */
export function readUnitAt(text: string, start: number): { unit: Unit; end: number; written: string } | null {
  const r = readProduct(text, start, {});
  if (!r || (text[start] === '1' && r.end === start + 1)) return null; // a lone `1` after a number is a digit, not a unit
  return { unit: r.unit, end: r.end, written: text.slice(start, r.end) };
}

/** A value in `from` expressed in `to`; null when the dimensions differ. */
export function convert(value: number, from: Unit, to: Unit): number | null {
  if (!sameDimension(from.dimension, to.dimension)) return null;
  return (value * from.factor) / to.factor;
}
