// Maths runs between prose: where runs of maths tokens start and end (bullets, lines continued by
// a dangling operator or an open bracket), and trimming a run's edges (stray brackets, a list
// number, an equation number, a trailing unit). Pure.

import { UNIT_WORDS, type Lexicon } from './lexicon.ts';
import { parseUnit, type Unit } from '../units/parse-unit.ts';
import { sameDimension } from '../units/dimension.ts';
import type { Tok } from './tokens.ts';

export const isMathTok = (t: Tok): boolean => ['num', 'id', 'usym', 'op', 'eq', 'lp', 'rp', 'pm', 'rel'].includes(t.kind);

/** Runs of maths tokens, as [start, end) indices into toks. */
export function segments(toks: Tok[]): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let depth = 0;
  const close = (end: number): void => {
    if (start >= 0) out.push([start, end]);
    start = -1;
    depth = 0;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    // A bullet: '-' or '*' first on its line, followed by a space.
    if (t.kind === 'op' && (t.text === '-' || t.text === '*') && (i === 0 || toks[i - 1].kind === 'nl') && toks[i + 1]?.sp) {
      close(i);
      continue;
    }
    if (t.kind === 'nl') {
      if (start >= 0) {
        const last = toks[i - 1];
        let j = i;
        while (toks[j]?.kind === 'nl') j++;
        const cont = last.kind === 'op' || last.kind === 'eq' || last.kind === 'pm' || depth > 0 || toks[j]?.kind === 'eq';
        if (cont && j < toks.length && isMathTok(toks[j])) continue;
      }
      close(i);
      continue;
    }
    if (isMathTok(t)) {
      if (start < 0) start = i;
      if (t.kind === 'lp') depth++;
      if (t.kind === 'rp') depth--;
      continue;
    }
    close(i);
  }
  close(toks.length);
  return out;
}

/**
 * Drop unmatched brackets at the edges, one at a time, until none is left: a closing bracket first
 * when the run dips below depth 0 (with a list number before it, "1)"), an opening bracket last, an
 * opening bracket first when more open than close, a closing bracket last when more close. The
 * window's depth and lowest depth come from prefix sums and a range-minimum table (linear-ish
 * in the run, not quadratic).
 */
function trimBrackets(t: Tok[]): Tok[] {
  const n = t.length;
  const depthAt = new Int32Array(n + 1); // depth after the first k tokens
  for (let k = 0; k < n; k++) depthAt[k + 1] = depthAt[k] + (t[k].kind === 'lp' ? 1 : t[k].kind === 'rp' ? -1 : 0);
  let lowest: RangeMin | null = null; // built when first asked
  let lo = 0;
  let hi = n;
  for (let changed = true; changed && hi > lo;) {
    changed = true;
    const depth = depthAt[hi] - depthAt[lo];
    // Whether the window goes below depth 0 (asked only with a closing bracket first).
    const closes = t[lo].kind === 'rp' || (hi - lo > 1 && t[lo].kind === 'num' && t[lo + 1].kind === 'rp');
    const dips = closes && (lowest ??= rangeMin(depthAt)).min(lo + 1, hi) < depthAt[lo];
    if (hi - lo > 1 && t[lo].kind === 'num' && t[lo + 1].kind === 'rp' && dips)
      lo += 2; // a numbered list: "1) v = ..."
    else if (t[lo].kind === 'rp' && dips) lo++;
    else if (t[hi - 1].kind === 'lp') hi--;
    else if (depth > 0 && t[lo].kind === 'lp') lo++;
    else if (depth < 0 && t[hi - 1].kind === 'rp') hi--;
    else changed = false;
  }
  return lo === 0 && hi === n ? t : t.slice(lo, hi);
}

type RangeMin = { levels: Int32Array[]; min(i: number, j: number): number };

/** Minimum of a[i..j] (inclusive) in O(1) after O(n log n) set-up (a sparse table). */
function rangeMin(a: Int32Array): RangeMin {
  const levels: Int32Array[] = [a];
  for (let w = 1; 2 * w <= a.length; w *= 2) {
    const prev = levels[levels.length - 1];
    const next = new Int32Array(a.length - 2 * w + 1);
    for (let i = 0; i < next.length; i++) next[i] = Math.min(prev[i], prev[i + w]);
    levels.push(next);
  }
  return { levels, min: rangeMinOf };
}

function rangeMinOf(this: RangeMin, i: number, j: number): number {
  const k = 31 - Math.clz32(j - i + 1);
  return Math.min(this.levels[k][i], this.levels[k][j - (1 << k) + 1]);
}

/** A token that is a unit word ("m", "kg", "eV"), whatever kind the tokenizer gave it. */
export const isUnitWord = (x: Tok | undefined): x is Tok => !!x && (x.kind === 'id' || x.kind === 'usym' || x.kind === 'word') && UNIT_WORDS.has(x.text);
const isUnit = (t: Tok[], k: number): boolean => isUnitWord(t[k]);
const followsOperand = (t: Tok[], k: number): boolean => !!t[k - 1] && ['num', 'rp', 'id', 'usym'].includes(t[k - 1].kind) && t[k].sp;
/** No symbol between k and the '=' before it (a value, so a unit after it is a unit). */
function sideIsNumeric(t: Tok[], k: number): boolean {
  for (let j = k - 1; j >= 0 && t[j].kind !== 'eq'; j--) {
    // (π is a number: "A = 1600π m²" is an area in square metres.)
    if (t[j].kind === 'usym' || (t[j].kind === 'id' && t[j].pieces!.some((p) => p.kind === 'sym' && p.name !== 'pi'))) return false;
  }
  return true;
}

/** A unit's tokens as text, spaces kept ("m s^-2" is metres per second squared, "ms^-2" per millisecond squared). */
const unitText = (ts: Tok[]): string => ts.map((y, j) => (j > 0 && y.sp ? ' ' : '') + y.text).join('');

const namesVariableInAnyCase = (lex: Lexicon, u: string): boolean => lex.variables.some((v) => v.toLowerCase() === u.toLowerCase());

/**
 * Drop unmatched brackets at the edges and a trailing unit. `ambiguous` is set when the last token
 * could be a unit or a variable and nothing tells which ("x = √(2mgh/k) m": metres, or times m?).
 */
export function trim(ts: Tok[], lex: Lexicon, ambiguous?: { unit?: string; unitOrProduct?: string; cut?: string }): Tok[] {
  let t = trimBrackets(ts.filter((x) => x.kind !== 'nl'));
  // A trailing equation number: "... = 2S/u   (1)".
  if (
    t.length > 3 &&
    t[t.length - 1].kind === 'rp' &&
    t[t.length - 2].kind === 'num' &&
    t[t.length - 3].kind === 'lp' &&
    t[t.length - 3].sp &&
    /^\d+$/.test(t[t.length - 2].text)
  ) {
    t = t.slice(0, -3);
  }
  // Trailing units: `100 m`, `2 m/s`, `9.8 m/s^2`, `400 N/m`, `2S/u s`.
  const n = t.length;
  let cut = -1;
  if (n >= 5 && isUnit(t, n - 5) && t[n - 4].text === '/' && isUnit(t, n - 3) && t[n - 2].text === '^' && t[n - 1].kind === 'num' && followsOperand(t, n - 5))
    cut = n - 5;
  else if (
    n >= 3 &&
    isUnit(t, n - 3) &&
    t[n - 2].text === '/' &&
    isUnit(t, n - 1) &&
    followsOperand(t, n - 3) &&
    ['s', 'm', 'h', 'hr', 'min', 'kg'].includes(t[n - 1].text)
  )
    cut = n - 3;
  else if (
    n >= 3 &&
    isUnit(t, n - 3) &&
    t[n - 2].text === '^' &&
    t[n - 1].kind === 'num' &&
    followsOperand(t, n - 3) &&
    // A unit letter that names a variable in either case ("½ M V^2": V is v written in capitals,
    // not volts squared) is a unit only after a plain number.
    (!namesVariableInAnyCase(lex, t[n - 3].text) || sideIsNumeric(t, n - 3))
  )
    cut = n - 3; // `0.01 m^3`
  else if (n >= 1 && isUnit(t, n - 1) && followsOperand(t, n - 1)) {
    const u = t[n - 1].text;
    if (!lex.variables.includes(u)) cut = n - 1;
    else if (notTheQuantitysUnit(t, lex, u)) {
      /* the variable: "a = (3/4) g" */
    } else if (sideIsNumeric(t, n - 1)) cut = n - 1;
    else if (t[n - 2].kind === 'rp' && ambiguous) ambiguous.unit = u;
  }
  // "k = 0.056 /min": a per-unit set apart from its value by a space (the unit word ends the run).
  else if (n >= 2 && t[n - 1].text === '/' && t[n - 1].sp && ['num', 'rp'].includes(t[n - 2].kind) && sideIsNumeric(t, n - 1)) cut = n - 1;
  // "Δm = 0.0421 u": the atomic mass unit, after a value, where u names nothing in the question.
  else if (n >= 2 && t[n - 1].kind === 'usym' && t[n - 1].text === 'u' && t[n - 1].sp && ['num', 'rp'].includes(t[n - 2].kind) && sideIsNumeric(t, n - 1))
    cut = n - 1;
  // "J = 67.5 N s": a unit word between the value and the unit word cut is part of the unit, where
  // it names no variable in either case and the side is a number; "τ = 2.97 N m" with the question's
  // n a number of turns: where it names one only in the other case, the whole must be the unit the
  // quantity is measured in.
  if (cut > 1 && isUnit(t, cut - 1) && t[cut - 1].sp && ['num', 'rp'].includes(t[cut - 2].kind) && sideIsNumeric(t, cut - 1)) {
    const word = t[cut - 1].text;
    const whole = parseUnit(unitText(t.slice(cut - 1)));
    if (!namesVariableInAnyCase(lex, word) || (!lex.variables.includes(word) && whole.ok && ofTheQuantity(t, lex, whole.unit))) cut -= 1;
  }
  if (cut < 0) cut = siUnitAfterValue(t, lex, ambiguous);
  if (cut > 0 && ambiguous) ambiguous.cut = unitText(t.slice(cut));
  return cut > 0 ? t.slice(0, cut) : t;
}

/** Whether `unit` measures the variable `name` (its unit inferred from the question). */
export function isUnitOf(lex: Lexicon, name: string | null, unit: Unit): boolean {
  const own = name ? lex.unitOf(name) : null;
  return !!own && sameDimension(own.dimension, unit.dimension);
}

/** The variable an equation `t` ("a = …") gives a value, or null. */
const quantityOf = (t: Tok[]): string | null =>
  t.length > 2 && t[1].kind === 'eq' && t[0].kind === 'id' && t[0].pieces?.length === 1 ? t[0].pieces[0].name : null;

/** The kelvin, for "a temperature" (parsed once: siUnitAfterValue asks for it at every run's end). */
const KELVIN = parseUnit('K');

/** Whether `unit` is that of the variable an equation `t` ("a = …") gives a value. */
export function ofTheQuantity(t: Tok[], lex: Lexicon, unit: Unit): boolean {
  return isUnitOf(lex, quantityOf(t), unit);
}

/**
 * "a = 3/4 g" with g the question's field strength and a an acceleration: a letter that spells a
 * unit (grams) the quantity is not measured in is the variable, not a unit.
 */
function notTheQuantitysUnit(t: Tok[], lex: Lexicon, letters: string): boolean {
  const name = quantityOf(t);
  const unit = parseUnit(letters);
  return !!name && !!lex.unitOf(name) && unit.ok && !isUnitOf(lex, name, unit.unit);
}

/**
 * "ε0 = 8.85×10^-12 F/m", "C = 1.77 × 10^-10 F": after a side that is only a number, the letters
 * that end it and spell an SI unit (shared/units) with none of the question's variables in them
 * (in either case) are that unit. Where the cut starts, or -1.
 */
function siUnitAfterValue(t: Tok[], lex: Lexicon, ambiguous?: { unitOrProduct?: string }): number {
  // (Ten tokens back: "kg·m·s^(-1)" is nine.)
  for (let k = Math.max(1, t.length - 10); k < t.length; k++) {
    const x = t[k];
    // After a number, or a number in powers of ten, which normalize.ts brackets: "(1.6*10^(-19)) C".
    if (!(x.kind === 'id' || x.kind === 'usym') || !['num', 'rp'].includes(t[k - 1].kind) || !sideIsNumeric(t, k)) continue;
    const rest = t.slice(k);
    // "T1 = 20 C" with T_1 a temperature: C (or F) after a temperature's value is its scale, not
    // the question's c (a specific heat) nor a coulomb.
    if (rest.length === 1 && /^[CF]$/.test(x.text) && KELVIN.ok && isUnitOf(lex, quantityOf(t), KELVIN.unit)) return k;
    const letters = rest.filter((y) => y.kind === 'id' || y.kind === 'usym');
    // ("s^-2", "s^(-2)": a negative power, the '-' right after the '^' or its bracket.)
    const inUnit = (y: Tok, j: number): boolean =>
      y.kind === 'id' ||
      y.kind === 'usym' ||
      y.kind === 'num' ||
      ['/', '^', '*'].includes(y.text) ||
      (y.text === '-' && /^[\^(]$/.test(rest[j - 1]?.text ?? '')) ||
      (y.kind === 'lp' && rest[j - 1]?.text === '^') ||
      (y.kind === 'rp' && rest[j - 1]?.kind === 'num' && rest[j - 3]?.kind === 'lp');
    if (!rest.every(inUnit)) continue;
    // Spaces kept: "m s^-2" is metres per second squared, "ms^-2" per millisecond squared.
    const unit = parseUnit(unitText(rest));
    if (!unit.ok) continue;
    // "kg m²": a unit opening with a word that names nothing in the question (kg, rad, Hz) is a
    // unit throughout, even where a later letter is a variable's (m, the child's mass).
    // A token read as holding a variable ("mg": m times g) is maths, whatever unit its letters spell.
    const holdsVariable = (y: Tok): boolean => namesVariableInAnyCase(lex, y.text) || !!y.pieces?.some((p) => p.kind === 'sym');
    const opensWithUnitWord = letters[0].text.length >= 2 && !holdsVariable(letters[0]);
    // "a = 1.76 × 10¹⁵ m s⁻²" with m a mass: a letter no variable of the question is (s) can't be
    // read as maths, and the whole is the unit of the quantity the side gives: a unit.
    // "B = 0.56 T" where the question's t is a thickness and it has no T: a letter the question
    // writes only in the other case, spelling the unit the quantity is measured in, is that unit.
    const otherCaseUnit = letters.length === 1 && !lex.variables.includes(letters[0].text) && ofTheQuantity(t, lex, unit.unit);
    // "Q = CV = 3.34×10^-7 C" with the question's C a capacitance: a letter that is a variable, but
    // spells the unit the quantity is measured in where the variable itself is measured in another
    // (farads, not coulombs), is that unit: read as C the side would be a charge times nothing.
    const own = letters.length === 1 ? lex.unitOf(letters[0].text) : null;
    // (Set apart by a space only: glued, "0.5m" with m a mass stays the doubt it was.)
    const unitNotVariable = !!own && x.sp && lex.variables.includes(letters[0].text) && !sameDimension(own.dimension, unit.unit.dimension);
    const unreadableAsMaths = (letters.some((y) => y.kind === 'usym') || otherCaseUnit || unitNotVariable) && ofTheQuantity(t, lex, unit.unit);
    if (!opensWithUnitWord && !unreadableAsMaths && letters.some(holdsVariable)) {
      // "E = 1.0 × 10⁴ V m⁻¹" with V and m the question's: the field's own unit, or 10⁴·V/m? The
      // letters spell the quantity's unit, so reading them as a product is no longer safe.
      if (ambiguous && letters.length > 1 && ofTheQuantity(t, lex, unit.unit)) ambiguous.unitOrProduct = unitText(rest);
      continue;
    }
    // Glued to the number ("2.0s", "49N"): a unit only when none of its letters is the question's
    // in either case ("0.5m" with m a mass stays the doubt it was).
    if (!x.sp && !unreadableAsMaths && letters.some(holdsVariable)) continue;
    return k;
  }
  return -1;
}
