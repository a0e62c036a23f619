// Where the reader has to choose how far an unbracketed operator reaches, and the brackets each
// choice puts in. Typed maths often leaves the scope to the reader:
//  - a '√' without brackets: "√2h/g" is √(2h/g), √(2h)/g or √2·h/g; "1/√1-v²/c²" may take the
//    root over the difference;
//  - a '/' beside an unbracketed '+'/'-': "F/m+M" is F/m + M or F/(m+M); "u + √D/2" is u + √D/2
//    or (u + √D)/2;
//  - a fraction in a power: "(1 - β²)^-1/2" is (1 - β²)^(-1)/2 or (1 - β²)^(-1/2);
//  - a '/' before a product written with spaces or '*': "(d - f)/f d" is (d - f)/f·d or (d - f)/(f d);
//  - a second '/' after a denominator: "kQ/d/2" is (kQ/d)/2 or kQ/(d/2).
// Each such place is a choice point with its options (option 0 is the reading the gold
// conventions give as written, or the most likely one where the reader used to refuse). Nothing
// here decides which one the student meant: every option becomes a reading (see
// Extraction.alternatives), and the engine settles whether they differ.
//
// Not choices (the text is clear): a numeric fraction (2/3 + x, ½at² + ut), a sum of fractions
// (1/a + 1/b: another fraction on the far side of the '+' shows the student's grouping), a
// bracket the student wrote, an exponent that would not be written as a fraction (v^2/2, v^2/4), a grouping that
// would add a bare number to a quantity (1 - v²/c² is never (1 - v²)/c²). Pure.

import { insertBrackets, isOperand, startsOperand, type Insertion, type Item } from './items.ts';

/** The reason of a choice where a '/' beside a '+'/'-' may reach over the sum (F/m+M; a − b/c). */
export const FRACTION_BESIDE_SUM = "how far an unbracketed '/' reaches beside a '+' or '-'";

/** A choice point: what it is about, and the brackets each option puts in (option 0 first). */
export type ChoicePoint = { reason: string; options: Insertion[][] };

/** Readings of one side beyond this many are not enumerated: the side is left unread. */
export const MAX_SIDE_READINGS = 8;

const isBinarySign = (items: Item[], k: number): boolean => items[k]?.k === 'op' && (items[k].text === '+' || items[k].text === '-') && isOperand(items[k - 1]);

/** More choice points than this in one side make more readings than MAX_SIDE_READINGS anyway: the search stops. */
const MAX_POINTS = 4;

/**
 * The bracket structure of a side, found in one pass (the reader's choices look things up here,
 * so a side is examined in time linear in its length): for each '(' its ')', for each position
 * the end of the group around it, and for each position the end of its term in that group.
 */
type Structure = { close: Int32Array; groupEnd: Int32Array; termEnd: Int32Array; groups: [number, number][]; nonNumbers: Int32Array; symbols: Int32Array };

function structure(items: Item[]): Structure {
  const n = items.length;
  const close = new Int32Array(n).fill(-1);
  const groupEnd = new Int32Array(n).fill(n);
  const termEnd = new Int32Array(n).fill(n);
  const nonNumbers = new Int32Array(n + 1); // prefix counts of items that are neither numbers nor '^'
  const symbols = new Int32Array(n + 1); // prefix counts of symbols and functions
  const open: number[] = [];
  for (let k = 0; k < n; k++) {
    nonNumbers[k + 1] = nonNumbers[k] + (items[k].k === 'num' || (items[k].k === 'op' && items[k].text === '^') ? 0 : 1);
    symbols[k + 1] = symbols[k] + (items[k].k === 'sym' || items[k].k === 'fn' ? 1 : 0);
    if (items[k].k === 'lp') open.push(k);
    else if (items[k].k === 'rp' && open.length) close[open.pop()!] = k;
  }
  const groups: [number, number][] = [[0, n]];
  for (let k = 0; k < n; k++) if (items[k].k === 'lp' && close[k] > k + 1) groups.push([k + 1, close[k]]);
  for (const [s, e] of groups) {
    // Top-level positions of the group (a bracket is jumped over), each given the group's end and its term's end.
    const top: number[] = [];
    for (let k = s; k < e; k = items[k].k === 'lp' && close[k] >= 0 ? close[k] + 1 : k + 1) top.push(k);
    let end = e;
    for (let i = top.length - 1; i >= 0; i--) {
      const k = top[i];
      groupEnd[k] = e;
      termEnd[k] = end;
      if (k > s && isBinarySign(items, k)) end = k;
    }
    // A bracket's inside belongs to its own group; a position right after a '(' is set there.
  }
  return { close, groupEnd, termEnd, groups, nonNumbers, symbols };
}

const onlyNumbers = (st: Structure, a: number, b: number): boolean => b > a && st.nonNumbers[b] === st.nonNumbers[a];

/** End (exclusive) of the factor starting at p (as items.ts factorEnd, with the brackets looked up). */
function factorEndIn(items: Item[], st: Structure, p: number): number {
  const it = items[p];
  if (!it) return -1;
  let e: number;
  if (it.k === 'num' || it.k === 'sym') e = p + 1;
  else if (it.k === 'lp') e = st.close[p] < 0 ? -1 : st.close[p] + 1;
  else if (it.k === 'fn' && items[p + 1]?.k === 'lp') e = st.close[p + 1] < 0 ? -1 : st.close[p + 1] + 1;
  else return -1;
  while (e > 0 && items[e]?.k === 'op' && items[e].text === '^') {
    let q = e + 1;
    if (items[q]?.k === 'op' && items[q].text === '-') q++;
    e = items[q]?.k === 'lp' ? (st.close[q] < 0 ? -1 : st.close[q] + 1) : items[q]?.k === 'num' || items[q]?.k === 'sym' ? q + 1 : -1;
  }
  return e;
}

/**
 * '√' with a bare argument: how far it reaches. The reach can end after the first atom (√2·h),
 * after its power (√(x²) or √x·x), after the factors glued to it (√(2h)/g), at the end of its term
 * (√(2h/g)) or, when a '+'/'-' follows, at the end of the bracket or side (√(1 - v²/c²)). One
 * reach is no choice. Option 0: the first atom when that is the usual reading (√2 + 1, √x y with
 * a space), otherwise the whole term. A root never reaches over a '+'/'-' to a term with a root of
 * its own (√2 + √a), nor over numbers only (√2 + 1).
 */
export function sqrtReaches(items: Item[], st: Structure = structure(items)): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (let p = 0; p < items.length && points.length < MAX_POINTS; p++) {
    if (items[p].k !== 'fn' || items[p].text !== 'sqrt' || items[p + 1]?.k === 'lp') continue;
    const a = p + 1;
    const arg = items[a];
    if (!arg || (arg.k !== 'num' && arg.k !== 'sym')) continue; // no clear argument: the renderer says so
    const gEnd = st.groupEnd[a];
    const tEnd = st.termEnd[a];
    const withPower = factorEndIn(items, st, a);
    const ends = [a + 1];
    if (withPower > a + 1) ends.push(withPower);
    // The factors glued to it (no space).
    let tight = withPower;
    while (tight > 0 && tight < tEnd && startsOperand(items[tight]) && !items[tight].sp) {
      const f = factorEndIn(items, st, tight);
      if (f < 0 || f > tEnd) break;
      tight = f;
    }
    if (tight > 0) ends.push(tight);
    ends.push(tEnd);
    let rootAfter = false;
    for (let j = tEnd; j < gEnd && !rootAfter; j = items[j].k === 'lp' && st.close[j] >= 0 ? st.close[j] + 1 : j + 1) {
      rootAfter = items[j].k === 'fn' && items[j].text === 'sqrt';
    }
    // Over a '+'/'-' only straight after its argument (√1-v²/c², √u²+w²; not √2/2 + x).
    if (gEnd > tEnd && tEnd === withPower && !onlyNumbers(st, a, gEnd) && !rootAfter) ends.push(gEnd);
    // A reach over numbers only past the first atom (√2/2 as √(2/2)) is not a reading anyone means.
    const reaches = [...new Set(ends)]
      .filter((e) => e > a && e <= gEnd && (e === a + 1 || e === withPower || st.symbols[e] > st.symbols[a + 1]))
      .sort((x, y) => x - y);
    if (reaches.length < 2) continue;
    // The usual reading, where the root takes its first atom: not "√2h", "√x²", "√L/g", "√2(…)".
    const next = items[a + 1];
    const unusual =
      // ("√2 R", a space after the number: the root takes the number, as in "V₀/(√2 R)".)
      (arg.k === 'num' && next?.k === 'sym' && !next.sp) ||
      (next?.k === 'op' && next.text === '^') ||
      (next?.k === 'op' && next.text === '/' && arg.k === 'sym') ||
      (!!next && !next.sp && (next.k === 'sym' || next.k === 'num' || next.k === 'fn' || next.k === 'lp'));
    const usual = !unusual;
    const first = usual ? a + 1 : tEnd;
    const order = [first, ...reaches.filter((e) => e !== first)];
    points.push({
      reason: "how far an unbracketed '√' reaches",
      options: order.map((e) => [
        [a, 'lp'],
        [e, 'rp'],
      ]),
    });
  }
  return points;
}

/** Top-level terms of a group, with the positions of their top-level '/'. */
function termsOf(items: Item[], st: Structure, s: number, e: number): { start: number; end: number; slashes: number[] }[] {
  const terms: { start: number; end: number; slashes: number[] }[] = [];
  let start = s;
  let slashes: number[] = [];
  for (let k = s; k < e; k = items[k].k === 'lp' && st.close[k] >= 0 ? st.close[k] + 1 : k + 1) {
    const it = items[k];
    if (k > start && isBinarySign(items, k)) {
      terms.push({ start, end: k, slashes });
      start = k + 1;
      slashes = [];
    } else if (it.k === 'op' && it.text === '/') slashes.push(k);
  }
  terms.push({ start, end: e, slashes });
  return terms;
}

/**
 * '/' beside an unbracketed '+'/'-' in the same group: the denominator may reach to the group's end
 * (F/m+M as F/(m+M)) and the numerator back to its start (u + √D/2 as (u + √D)/2). Not where the
 * fraction is numeric, where the student bracketed that part, where a fraction on the far side
 * shows the grouping (1/u + 1/v), or where a bare number would be added to a quantity.
 */
export function fractionScopes(items: Item[], st: Structure = structure(items)): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (const [s, e] of st.groups) {
    if (points.length >= MAX_POINTS) break;
    const terms = termsOf(items, st, s, e);
    if (terms.length < 2) continue;
    // Whether every term after j (before j) is plain: no fraction of its own, not a bare number. A
    // division by a number ("M/2", a coefficient) is no fraction that shows the student's grouping:
    // "(m2 − m1)g/m1+m2+M/2" may still mean (m2 − m1)g/(m1 + m2 + M/2).
    const byNumber = (k: number): boolean => {
      const end = factorEndIn(items, st, k + 1);
      return end > k + 1 && onlyNumbers(st, k + 1, end);
    };
    const hasSymbol = (o: { start: number; end: number }): boolean => items.slice(o.start, o.end).some((it) => it.k === 'sym');
    const plain = terms.map((o) => (o.slashes.length === 0 || (o.slashes.every(byNumber) && hasSymbol(o))) && !onlyNumbers(st, o.start, o.end));
    const plainAfter = new Array<boolean>(terms.length + 1).fill(true);
    for (let j = terms.length - 1; j >= 0; j--) plainAfter[j] = plainAfter[j + 1] && plain[j];
    // Backwards, a term with a '/' of its own before this one shows the grouping, a division by a
    // number too: "aL²/2 + bL⁴/4" gives each term its own denominator, never (aL²/2 + bL⁴)/4.
    let plainBefore = true;
    terms.forEach((t, j) => {
      const before = plainBefore;
      plainBefore = plainBefore && plain[j] && t.slashes.length === 0;
      if (t.slashes.length === 0 || points.length >= MAX_POINTS) return;
      let forward: Insertion[] | null = null;
      let backward: Insertion[] | null = null;
      const q = t.slashes[t.slashes.length - 1] + 1;
      const dEnd = factorEndIn(items, st, q);
      if (j < terms.length - 1 && !(items[q]?.k === 'lp' && !items[q].made) && dEnd === t.end && !onlyNumbers(st, q, dEnd) && plainAfter[j + 1]) {
        forward = [
          [q, 'lp'],
          [e, 'rp'],
        ];
      }
      const first = t.slashes[0];
      const bracketed = items[t.start].k === 'lp' && !items[t.start].made && st.close[t.start] === first - 1;
      if (j > 0 && !bracketed && !onlyNumbers(st, t.start, first) && before) {
        backward = [
          [s, 'lp'],
          [first, 'rp'],
        ];
      }
      if (!forward && !backward) return;
      const options: Insertion[][] = [[]];
      if (forward && backward) options.push([...forward, ...backward], forward, backward);
      else options.push((forward ?? backward)!);
      points.push({ reason: FRACTION_BESIDE_SUM, options });
    });
  }
  return points;
}

/** The choice points of a side whose '√' reaches are settled: its fractions and its powers. */
export function scopeChoices(items: Item[]): ChoicePoint[] {
  const st = structure(items);
  return [
    ...fractionScopes(items, st),
    ...spacedDenominators(items, st),
    ...numericDenominators(items, st),
    ...chainedDivisions(items, st),
    ...powerScopes(items),
  ];
}

/** The reason of a choice where a '/' among numbers may reach over the product after it ("150 × 240/1.6×10⁻¹⁹ × 12"). */
export const FRACTION_OF_NUMBERS = "how far an unbracketed '/' reaches over a product of numbers";

/** The most items a bracketed number spans ("(1.60*10^(-19))" is nine): bounds the look back for its '(' (linear time). */
const NUMBER_SPAN = 24;

/** A number, or numbers in brackets (a power of ten is bracketed when read: "(1.6*10^-19)"), from p, with its power: its end, or -1. */
function numberEnd(items: Item[], st: Structure, p: number): number {
  const it = items[p];
  if (it?.k === 'num' || (it?.k === 'sym' && it.text === 'pi')) return factorEndIn(items, st, p);
  if (it?.k !== 'lp') return -1;
  const e = factorEndIn(items, st, p);
  for (let j = p + 1; j < e - 1; j++) if (items[j].k === 'sym' || items[j].k === 'fn') return -1;
  return e;
}

/**
 * A '/' in substituted numbers whose denominator is followed by more numbers multiplied in
 * ("150 × 240/1.60×10⁻¹⁹ × 12", "50 * 12 / 60 * 0.5"): (a/b)·c as written
 * or a/(b·c), as students mean when they copy a formula's denominator ("Pt/eV") into numbers. The
 * blind rounds' writers mark such rows ambiguous where nothing after settles them; the engine
 * settles the choice for the reading as written where the student's next step holds only so
 * (settledByChain). Only where the numerator's term and the denominator are numbers (a symbol in
 * them is spacedDenominators' business); not a simple fraction as a coefficient ("1/2 × 1200 ×
 * 15²", "3/4 × 9.8": a one-digit integer over a one-digit integer), nor a fraction times a
 * fraction ("340/512 × 1500/340").
 */
export function numericDenominators(items: Item[], st: Structure = structure(items)): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (let k = 1; k < items.length && points.length < MAX_POINTS; k++) {
    if (items[k].k !== 'op' || items[k].text !== '/') continue;
    // The numerator's term: numbers joined by '*' back to the term's start.
    let j = k - 1;
    let numerator = 0;
    for (;;) {
      let start = j;
      // (Back to its '(' over at most NUMBER_SPAN items: a bracket longer than that holds no number.)
      if (items[j]?.k === 'rp') while (start > 0 && j - start < NUMBER_SPAN && !(items[start].k === 'lp' && st.close[start] === j)) start--;
      else while (start > 0 && items[start - 1].k === 'op' && items[start - 1].text === '^') start -= 2;
      if (numberEnd(items, st, start) !== j + 1) break;
      numerator++;
      if (items[start - 1]?.k === 'op' && items[start - 1].text === '*') j = start - 2;
      else {
        j = start - 1;
        break;
      }
    }
    const before = items[j];
    if (numerator === 0 || (before && !(before.k === 'lp' || (before.k === 'op' && (before.text === '+' || before.text === '-'))))) continue;
    const q = k + 1;
    const d = numberEnd(items, st, q);
    if (d < 0) continue;
    const simple = numerator === 1 && k === j + 2 && /^\d$/.test(items[k - 1].text) && /^\d$/.test(items[q].text);
    if (simple) continue;
    let e = d;
    while (e < st.termEnd[q] && items[e]?.k === 'op' && items[e].text === '*') {
      const f = numberEnd(items, st, e + 1);
      if (f < 0 || f > st.termEnd[q]) break;
      e = f;
    }
    // "340/512 × 1500/340": a fraction times a fraction, as the student grouped it.
    if (e === d || (items[e]?.k === 'op' && items[e].text === '/')) continue;
    points.push({
      reason: FRACTION_OF_NUMBERS,
      options: [
        [],
        [
          [q, 'lp'],
          [e, 'rp'],
        ],
      ],
    });
  }
  return points;
}

/**
 * '/' whose denominator is followed, after a space or a '*', by more factors of the same term: "m
 * v/q B" and "m*v/q*B" are (m v/q)·B as written or m v/(q B) as often meant. Not where the student bracketed the
 * denominator, where it is a number over a number ("1/2 m v²" is ½·m·v²), or where the factors are glued to it
 * ("mv/qB": the run is read as one product already).
 */
export function spacedDenominators(items: Item[], st: Structure = structure(items)): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (let k = 0; k < items.length && points.length < MAX_POINTS; k++) {
    if (items[k].k !== 'op' || items[k].text !== '/') continue;
    const q = k + 1;
    const den = items[q];
    // A number over a number (π counted) is a coefficient ("1/2 m v²", "π/2 √(L/g)"); a number under symbols is a
    // denominator like any other ("8πGρ/3 R²": (8πGρ/3)·R² or 8πGρ/(3R²)).
    if (!den || (den.k === 'num' && numericNumerator(items, k)) || (den.k === 'lp' && !den.made)) continue;
    const d = factorEndIn(items, st, q);
    // "d*y/m*L": a "*" typed tight between the denominator and a plain symbol is the same choice as
    // a space. Before a function or a bracket ("V_0/R*exp(-t/(R*C))", "n_1/n_2*sin(θ)") it is
    // the programmer's left-to-right product, a factor beside the fraction.
    const star = (k2: number): boolean =>
      items[k2]?.k === 'op' && items[k2].text === '*' && !items[k2].sp && items[k2 + 1]?.k === 'sym' && !items[k2 + 1].sp && items[k2 + 2]?.k !== 'lp';
    if (d < 0 || !(items[d]?.sp || star(d))) continue;
    let e = d;
    while (e < st.termEnd[q] && (startsOperand(items[e]) || star(e))) {
      const f = factorEndIn(items, st, star(e) ? e + 1 : e);
      if (f < 0 || f > st.termEnd[q]) break;
      e = f;
    }
    if (e === d || onlyNumbers(st, d, e)) continue;
    points.push({
      reason: "how far an unbracketed '/' reaches over a product written with spaces",
      options: [
        [],
        [
          [q, 'lp'],
          [e, 'rp'],
        ],
      ],
    });
  }
  return points;
}

/**
 * "k(q_1 + q_2)/d/2": a second '/' right after a denominator is (…/d)/2 as written, or …/(d/2)
 * as often meant (the distance d/2 to the midpoint). Not where both denominators are numbers.
 */
export function chainedDivisions(items: Item[], st: Structure = structure(items)): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (let k = 0; k < items.length && points.length < MAX_POINTS; k++) {
    if (items[k].k !== 'op' || items[k].text !== '/') continue;
    const q = k + 1;
    const d = factorEndIn(items, st, q);
    if (d < 0 || items[d]?.k !== 'op' || items[d].text !== '/') continue;
    const e = factorEndIn(items, st, d + 1);
    if (e < 0 || (onlyNumbers(st, q, d) && onlyNumbers(st, d + 1, e))) continue;
    points.push({
      reason: "whether a second '/' divides the denominator before it",
      options: [
        [],
        [
          [q, 'lp'],
          [e, 'rp'],
        ],
      ],
    });
  }
  return points;
}

/** The factors of the term before the '/' at k are numbers or π ("1/2", "4π/3", "π/2"). */
function numericNumerator(items: Item[], k: number): boolean {
  let j = k - 1;
  while (j >= 0 && (items[j].k === 'num' || (items[j].k === 'sym' && items[j].text === 'pi') || (items[j].k === 'op' && items[j].text === '*'))) j--;
  return j < k - 1 && (j < 0 || items[j].k === 'lp' || (items[j].k === 'op' && items[j].text !== '^' && items[j].text !== '/'));
}

/** "x^-1/2", "x^1/2": a power whose exponent may be the fraction (x^(-1/2)) or only its numerator ((x^-1)/2). */
export function powerScopes(items: Item[]): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (let k = 0; k < items.length; k++) {
    if (items[k].k !== 'op' || items[k].text !== '^') continue;
    let q = k + 1;
    if (items[q]?.k === 'op' && items[q].text === '-') q++;
    const [n, slash, d] = [items[q], items[q + 1], items[q + 2]];
    if (n?.k !== 'num' || slash?.k !== 'op' || slash.text !== '/' || d?.k !== 'num' || (items[q + 3]?.k === 'op' && items[q + 3].text === '^')) continue;
    if (!/^\d+$/.test(n.text) || !/^\d+$/.test(d.text)) continue;
    const [num, den] = [Number(n.text), Number(d.text)];
    // A fractional exponent is written in lowest terms, and is likely only where the literal power
    // is odd to write (x^1, a negative power) or is a half power (r^3/2); v^2/4 and v^2/3 are v²/n.
    const negative = q > k + 1;
    if (den < 2 || gcd(num, den) !== 1 || !(num === 1 || negative || den === 2)) continue;
    points.push({
      reason: "whether the fraction after '^' is all of the exponent",
      options: [
        [],
        [
          [k + 1, 'lp'],
          [q + 3, 'rp'],
        ],
      ],
    });
  }
  return points;
}

/**
 * Every combination of the choice points' options (option 0 of each first), applied to items; null
 * when there are more than MAX_SIDE_READINGS.
 */
export function combine(items: Item[], points: ChoicePoint[]): { items: Item[]; reasons: string[] }[] | null {
  let combos: { ins: Insertion[]; reasons: string[] }[] = [{ ins: [], reasons: [] }];
  for (const pt of points) {
    const next: typeof combos = [];
    for (const c of combos) {
      pt.options.forEach((o, i) => next.push({ ins: [...c.ins, ...o], reasons: i === 0 ? c.reasons : [...c.reasons, pt.reason] }));
    }
    if (next.length > MAX_SIDE_READINGS) return null;
    combos = next;
  }
  return combos.map((c) => ({ items: insertBrackets(items, c.ins), reasons: c.reasons }));
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
