// Verdicts in words: the one formatter the command line (`equimark check`), the student's report
// and the app's evidence column share, so a verdict reads the same wherever it is shown. Pure
// code (no Node, no DOM).
import type { Verdict } from '../verdict.ts';

/** Whether the entailment holds, in the words every output starts from. */
export function verdictHead(v: Pick<Verdict, 'holds'>): 'holds' | 'does not hold' | 'undecided' {
  return v.holds === true ? 'holds' : v.holds === false ? 'does not hold' : 'undecided';
}

/** A value of a counterexample as a teacher reads it: long decimals to 4 significant figures, anything else as it is. */
export function roundValue(x: string): string {
  return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(x) && x.length > 7 ? String(Number(Number(x).toPrecision(4))) : x;
}

/**
 * A counterexample's assignment: exact (`u=1, v=3/2`) for the technical line, or rounded and
 * spaced (`u = 1, v = 1.5`) for the instructor's words.
 */
export function counterexampleText(c: Record<string, string>, style: 'exact' | 'rounded' = 'exact'): string {
  return Object.entries(c)
    .map(([k, x]) => (style === 'exact' ? `${k}=${x}` : `${k} = ${roundValue(x)}`))
    .join(', ');
}

/**
 * The method as it really went. The entailment engine proves some implications by exact
 * polynomial algebra and files them under 'z3-proved' with a note that Z3 was never called;
 * worded as stored that reads "proved (Z3) (… without calling z3)", which contradicts itself. Such
 * a verdict is shown as proved by exact algebra, with the note's reason and without the claim.
 */
function shownMethod(v: Pick<Verdict, 'method' | 'note'>): { method: string; note: string | undefined } {
  if (v.method === 'z3-proved' && v.note && /without calling z3/i.test(v.note)) {
    const why = v.note
      .replace(/,?\s*without calling z3/i, '')
      .replace(/^proved algebraically\s*/i, '')
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    return { method: 'exact-algebra', note: why || undefined };
  }
  return { method: v.method, note: v.note };
}

/**
 * One line with everything the verdict says, for the command line and the plain-text report:
 * `holds (z3-proved)`, `does not hold (numeric-counterexample; counterexample u=1, v=2)`,
 * `holds (numeric-agreement; 24 samples; sin/cos: Z3 can't decide)`.
 */
export function verdictLine(v: Verdict): string {
  const shown = shownMethod(v);
  const parts: string[] = [shown.method];
  if (v.samples !== undefined) parts.push(`${v.samples} samples`);
  if (v.counterexample) parts.push(`counterexample ${counterexampleText(v.counterexample)}`);
  if (shown.note) parts.push(shown.note);
  return `${verdictHead(v)} (${parts.join('; ')})`;
}

/** Each method in an instructor's words (what the evidence column says). */
const METHOD_WORDS: Record<Verdict['method'], (v: Verdict) => string> = {
  identical: () => 'the same equation',
  'z3-proved': () => 'proved (Z3)',
  'sympy-proved': () => 'proved (SymPy)',
  'z3-refuted': () => 'refuted',
  'numeric-counterexample': () => 'refuted',
  'numeric-agreement': (v) => `agrees numerically at ${v.samples ?? 'several'} points (not a proof)`,
  'vacuous-premise': () => 'the equation has no admissible solution',
  unknown: () => 'undecided',
  'numeric-value': () => 'compared as a number with its unit',
};

/**
 * The verdict in an instructor's words, for the app: `proved (Z3)`, `refuted: for example
 * u = 1, v = 2.333`, `agrees numerically at 24 points (not a proof)`, `undecided (z3 timed out)`.
 */
export function verdictWords(v: Verdict): string {
  const shown = shownMethod(v);
  // A method this build doesn't know (a newer workspace) is shown by its name.
  let s = shown.method === 'exact-algebra' ? 'proved by exact algebra' : (METHOD_WORDS[v.method]?.(v) ?? String(v.method));
  if (v.counterexample) s += `: for example ${counterexampleText(v.counterexample, 'rounded')}`;
  if (shown.note && v.method !== 'numeric-agreement') s += ` (${shown.note})`;
  return s;
}
