// Where the reader has to choose how far an unbracketed operator reaches, and the brackets each
// choice puts in. Typed maths often leaves the scope to the reader:
//  - a '√' without brackets: "√2h/g" is √(2h/g), √(2h)/g or √2·h/g; "1/√1-v²/c²" may take the
//    root over the difference;
//  - a '/' beside an unbracketed '+'/'-': "F/m+M" is F/m + M or F/(m+M); "u + √D/2" is u + √D/2
//    or (u + √D)/2;
//  - a fraction in a power: "(1 - β²)^-1/2" is (1 - β²)^(-1)/2 or (1 - β²)^(-1/2).
// Each such place is a choice point with its options (option 0 is the reading the gold
// conventions give as written, or the most likely one where the reader used to refuse). Nothing
// here decides which one the student meant: every option becomes a reading (see
// Extraction.alternatives), and the engine settles whether they differ.
//
// Not choices (the text is clear): a numeric fraction (2/3 + x, ½at² + ut), a sum of fractions
// (1/a + 1/b: another fraction on the far side of the '+' shows the student's grouping), a
// bracket the student wrote, an exponent that would not be written as a fraction (v^2/2, v^2/4), a grouping that
// would add a bare number to a quantity (1 - v²/c² is never (1 - v²)/c²). Pure.

import { factorEnd, insertBrackets, isOperand, matching, startsOperand, type Insertion, type Item } from './items.ts';

/** A choice point: what it is about, and the brackets each option puts in (option 0 first). */
export type ChoicePoint = { reason: string; options: Insertion[][] };

/** Readings of one side beyond this many are not enumerated: the side is left unread. */
export const MAX_SIDE_READINGS = 8;

const isBinarySign = (items: Item[], k: number): boolean => items[k]?.k === 'op' && (items[k].text === '+' || items[k].text === '-') && isOperand(items[k - 1]);

/** End (exclusive) of the group holding position a: the ')' closing the bracket around it, or the end. */
function groupEnd(items: Item[], a: number): number {
  let depth = 0;
  for (let k = a; k < items.length; k++) {
    if (items[k].k === 'lp') depth++;
    else if (items[k].k === 'rp' && --depth < 0) return k;
  }
  return items.length;
}

/** End (exclusive) of the term from a: up to a '+'/'-' between terms at this depth, or the group's end. */
function termEnd(items: Item[], a: number, end: number): number {
  let depth = 0;
  for (let k = a; k < end; k++) {
    if (items[k].k === 'lp') depth++;
    else if (items[k].k === 'rp') depth--;
    else if (depth === 0 && k > a && isBinarySign(items, k)) return k;
  }
  return end;
}

const onlyNumbers = (items: Item[], a: number, b: number): boolean =>
  b > a && items.slice(a, b).every((it) => it.k === 'num' || (it.k === 'op' && it.text === '^'));

/**
 * '√' with a bare argument: how far it reaches. The reach can end after the first atom (√2·h),
 * after its power (√(x²) or √x·x), after the factors glued to it (√(2h)/g), at the end of its term
 * (√(2h/g)) or, when a '+'/'-' follows, at the end of the bracket or side (√(1 - v²/c²)). One
 * reach is no choice. Option 0: the first atom when that is the usual reading (√2 + 1, √x y with
 * a space), otherwise the whole term.
 */
export function sqrtReaches(items: Item[]): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (let p = 0; p < items.length; p++) {
    if (items[p].k !== 'fn' || items[p].text !== 'sqrt' || items[p + 1]?.k === 'lp') continue;
    const a = p + 1;
    const arg = items[a];
    if (!arg || (arg.k !== 'num' && arg.k !== 'sym')) continue; // no clear argument: the renderer says so
    const gEnd = groupEnd(items, a);
    const tEnd = termEnd(items, a, gEnd);
    const withPower = factorEnd(items, a);
    let tight = withPower;
    while (tight > 0 && tight < tEnd && startsOperand(items[tight]) && !items[tight].sp) {
      const f = factorEnd(items, tight);
      if (f < 0) break;
      tight = f;
    }
    const ends = new Set<number>([a + 1]);
    if (withPower > a + 1) ends.add(withPower);
    if (tight > 0) ends.add(tight);
    ends.add(tEnd);
    // Over a '+'/'-' only where the root could cover a difference of quantities (√1-v²/c², not √2 + 1).
    if (gEnd > tEnd && !onlyNumbers(items, a, gEnd)) ends.add(gEnd);
    const sorted = [...ends].filter((e) => e > a && e <= gEnd).sort((x, y) => x - y);
    // Ends that split a factor (inside a power or a call) are not readings.
    const reaches = sorted.filter((e) => e === a + 1 || e === tEnd || e === gEnd || factorBoundary(items, a, e));
    if (reaches.length < 2) continue;
    const next = items[a + 1];
    const usual =
      !next ||
      (next.sp && !(arg.k === 'num' && next.k === 'sym')) ||
      (next.k === 'op' && (next.text === '+' || next.text === '-' || next.text === '*')) ||
      next.k === 'rp';
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

/** Whether e ends a factor that starts at a (walking factor by factor over products and quotients). */
function factorBoundary(items: Item[], a: number, e: number): boolean {
  let k = a;
  while (k < e) {
    const f = factorEnd(items, k);
    if (f < 0) return false;
    if (f === e) return true;
    k = f;
    if (items[k]?.k === 'op' && (items[k].text === '*' || items[k].text === '/')) k++;
  }
  return k === e;
}

/** The groups of items: the whole side and the inside of every bracket, as [start, end). */
function groups(items: Item[]): [number, number][] {
  const out: [number, number][] = [[0, items.length]];
  for (let k = 0; k < items.length; k++) {
    if (items[k].k !== 'lp') continue;
    const m = matching(items, k);
    if (m > k + 1) out.push([k + 1, m]);
  }
  return out;
}

/** Top-level terms of a group, with the positions of their top-level '/'. */
function termsOf(items: Item[], s: number, e: number): { start: number; end: number; slashes: number[] }[] {
  const terms: { start: number; end: number; slashes: number[] }[] = [];
  let start = s;
  let slashes: number[] = [];
  let depth = 0;
  for (let k = s; k < e; k++) {
    const it = items[k];
    if (it.k === 'lp') depth++;
    else if (it.k === 'rp') depth--;
    else if (depth === 0 && k > start && isBinarySign(items, k)) {
      terms.push({ start, end: k, slashes });
      start = k + 1;
      slashes = [];
    } else if (depth === 0 && it.k === 'op' && it.text === '/') slashes.push(k);
  }
  terms.push({ start, end: e, slashes });
  return terms;
}

/**
 * '/' beside an unbracketed '+'/'-' in the same group: the denominator may reach to the group's end
 * (F/m+M as F/(m+M)) and the numerator back to its start (u + √D/2 as (u + √D)/2). Not where the
 * fraction is numeric, where the student bracketed that part, or where a fraction on the far
 * side shows the grouping (1/u + 1/v).
 */
export function fractionScopes(items: Item[]): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (const [s, e] of groups(items)) {
    const terms = termsOf(items, s, e);
    if (terms.length < 2) continue;
    terms.forEach((t, j) => {
      if (t.slashes.length === 0) return;
      let forward: Insertion[] | null = null;
      let backward: Insertion[] | null = null;
      const last = t.slashes[t.slashes.length - 1];
      const q = last + 1;
      const dEnd = factorEnd(items, q);
      if (
        j < terms.length - 1 &&
        !(items[q]?.k === 'lp' && !items[q].made) &&
        dEnd === t.end &&
        !onlyNumbers(items, q, dEnd) &&
        terms.slice(j + 1).every((o) => o.slashes.length === 0 && !onlyNumbers(items, o.start, o.end))
      ) {
        forward = [
          [q, 'lp'],
          [e, 'rp'],
        ];
      }
      const first = t.slashes[0];
      const bracketed = items[t.start].k === 'lp' && !items[t.start].made && matching(items, t.start) === first - 1;
      if (
        j > 0 &&
        !bracketed &&
        !onlyNumbers(items, t.start, first) &&
        terms.slice(0, j).every((o) => o.slashes.length === 0 && !onlyNumbers(items, o.start, o.end))
      ) {
        backward = [
          [s, 'lp'],
          [first, 'rp'],
        ];
      }
      if (!forward && !backward) return;
      const options: Insertion[][] = [[]];
      if (forward && backward) options.push([...forward, ...backward], forward, backward);
      else options.push((forward ?? backward)!);
      points.push({ reason: "how far an unbracketed '/' reaches beside a '+' or '-'", options });
    });
  }
  return points;
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
