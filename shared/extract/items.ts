// The items a run of maths tokens is rendered from (ids split into symbols and functions), and
// how far a bracket or a factor reaches among them. Shared by the renderer (tokens.ts) and the
// reading choices (scope-choices.ts). Pure.

/** Items after splitting ids: what the grammar source is built from. `made`: a bracket the reader put in, not the student. */
export type Item = { k: 'num' | 'sym' | 'fn' | 'op' | 'lp' | 'rp'; text: string; sp: boolean; made?: boolean };

export const isOperand = (it: Item | undefined): boolean => !!it && (it.k === 'num' || it.k === 'sym' || it.k === 'rp');
export const startsOperand = (it: Item | undefined): boolean => !!it && (it.k === 'num' || it.k === 'sym' || it.k === 'fn' || it.k === 'lp');

/** Index of the bracket closing the one opened at p, or -1. */
export function matching(items: Item[], p: number): number {
  let depth = 0;
  for (let k = p; k < items.length; k++) {
    if (items[k].k === 'lp') depth++;
    else if (items[k].k === 'rp' && --depth === 0) return k;
  }
  return -1;
}

/** End (exclusive) of the factor starting at p: atom or bracket or call, with its exponent. -1 if none. */
export function factorEnd(items: Item[], p: number): number {
  const it = items[p];
  if (!it) return -1;
  let e: number;
  if (it.k === 'num' || it.k === 'sym') e = p + 1;
  else if (it.k === 'lp') {
    const m = matching(items, p);
    if (m < 0) return -1;
    e = m + 1;
  } else if (it.k === 'fn' && items[p + 1]?.k === 'lp') {
    const m = matching(items, p + 1);
    if (m < 0) return -1;
    e = m + 1;
  } else return -1;
  while (items[e]?.k === 'op' && items[e].text === '^') {
    let q = e + 1;
    if (items[q]?.k === 'op' && items[q].text === '-') q++;
    const f = items[q]?.k === 'lp' ? matching(items, q) + 1 : items[q]?.k === 'num' || items[q]?.k === 'sym' ? q + 1 : -1;
    if (f <= 0) return -1;
    e = f;
  }
  return e;
}

/** Brackets put in (by the reader) at positions of `items`: `[position, 'lp' | 'rp']`, applied at once. */
export type Insertion = [number, 'lp' | 'rp'];

export function insertBrackets(items: Item[], ins: readonly Insertion[]): Item[] {
  const out = items.slice();
  // From the right, so earlier positions stay valid; at one position an opening bracket is put in
  // first, so a closing one put in at the same place ends up before it: ") (".
  const sorted = [...ins].sort((a, b) => b[0] - a[0] || (a[1] === 'lp' ? -1 : 1));
  for (const [at, k] of sorted) out.splice(at, 0, { k, text: k === 'lp' ? '(' : ')', sp: false, made: true });
  return out;
}
