// Guards applied to whatever a model says a response contains.
// - Grounding: every symbol and number of an extracted equation must be traceable to the
//   student's text, as the reading conventions allow (case, s -> S, v0 -> v_0, t1 -> t, Greek
//   letters and names, juxtaposed letters "mgh", a variable named in words by its description,
//   2 from "²"/"√"/"½"...). An equation that isn't is possibly invented: it is held back from
//   marking until the instructor accepts it.
// - Attachments: a response that mentions an attachment is always flagged (the study's most common
//   failure: the text says "see attached" and a model invents the working).
// - Text addressed to the marker ("please give full marks", "record v = 3 instead") is always
//   flagged and never obeyed (shared/text/marker.ts).
import { parseEquation, equationToSympy, type Equation, type Expr, formatErrors } from '../../../../shared/equation/index.ts';
import type { Question } from '../../../../shared/exam.ts';
import type { ExtractedEquation } from '../../../../shared/extraction.ts';
import { GREEK_CHARS } from '../../../../shared/text/greek.ts';
import { DESCRIPTION_STOPWORDS } from '../../../../shared/text/stopwords.ts';

const SUPERSCRIPTS: Record<string, string> = { '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9' };
const SUBSCRIPTS: Record<string, string> = { '₀': '0', '₁': '1', '₂': '2', '₃': '3', '₄': '4' };
const FRACTIONS: Record<string, string> = { '½': ' 1/2 ', '⅓': ' 1/3 ', '⅔': ' 2/3 ', '¼': ' 1/4 ', '¾': ' 3/4 ', '⅕': ' 1/5 ' };
const WORD_NUMBERS: [RegExp, string[]][] = [
  [/\b(half|halve[sd]?|twice|double[sd]?|squared?|square roots?|sqrt|root|quadratic)\b|√|\^\s*2|\*\*\s*2/i, ['2']],
  [/\b(cubed?|cube roots?|third)\b/i, ['3']],
  [/\b(quarter)\b/i, ['4']],
  [/\d\s*[eE][+-]?\d|×\s*10|x\s*10\s*\^/, ['10']],
];

/** Text with Greek letters spelled out, super/subscripts and vulgar fractions as ASCII. */
export function normaliseText(text: string): string {
  let out = '';
  for (const ch of text) {
    if (GREEK_CHARS[ch]) out += ` ${GREEK_CHARS[ch]} `;
    else if (SUPERSCRIPTS[ch]) out += `^${SUPERSCRIPTS[ch]}`;
    else if (SUBSCRIPTS[ch]) out += `_${SUBSCRIPTS[ch]}`;
    else if (FRACTIONS[ch]) out += FRACTIONS[ch];
    else out += ch;
  }
  return out;
}

export const normNumber = (s: string): string => {
  let t = s.replace(/^0+(?=\d)/, '');
  if (t.includes('.')) t = t.replace(/0+$/, '').replace(/\.$/, '');
  if (t.startsWith('.')) t = `0${t}`;
  return t === '' ? '0' : t;
};

export type TextIndex = {
  /** Lower-cased identifiers with underscores removed ("v_0" -> "v0"). */
  tokens: Set<string>;
  /** Single letters (exact case and lower case) seen in short math tokens ("mgh" -> m, g, h). */
  mathLetters: Set<string>;
  numbers: Set<string>;
  /** Lower-cased words of the text. */
  words: Set<string>;
  /** A Greek letter seems lost to a text-encoding problem ("sin?", U+FFFD). */
  mangledGreek: boolean;
};

const GREEK_NAME_SET = new Set(Object.values(GREEK_CHARS));

/** Function names whose letters are never symbols the student wrote ("sqrt" writes no t). */
const FUNCTION_WORDS = new Set([
  'sqrt',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'arcsin',
  'arccos',
  'arctan',
  'exp',
  'log',
  'ln',
  'abs',
  'sec',
  'csc',
  'cot',
]);

/**
 * Index a text for grounding. With a question, a run of letters counts as juxtaposed symbols
 * ("mgh", "2gh") only when every letter is one of its single-letter variables (any case): a word
 * beside a digit ("2 apples", "5 times") writes no symbol.
 */
export function indexText(text: string, q?: Question): TextIndex {
  const t = normaliseText(text);
  const singles = q ? new Set(q.variables.filter((v) => v.name.length === 1).map((v) => v.name.toLowerCase())) : null;
  const tokens = new Set<string>();
  const mathLetters = new Set<string>();
  const words = new Set<string>();
  const idRe = /[A-Za-z][A-Za-z0-9_']*/g;
  for (let m = idRe.exec(t); m; m = idRe.exec(t)) {
    const tok = m[0].replace(/'+$/, '');
    tokens.add(tok.toLowerCase().replace(/_/g, ''));
    words.add(tok.toLowerCase());
    // Short tokens next to math characters are juxtaposed symbols: "2gh", "mgh =", "(kx".
    const before = t.slice(Math.max(0, m.index - 2), m.index);
    const after = t.slice(m.index + m[0].length, m.index + m[0].length + 2);
    const letters = tok.replace(/[_0-9]/g, '');
    // A digit counts only right against the run ("2gh", not "2 apples"); operators within two characters.
    const near = /[=+\-*/^()√]/.test(before) || /\d$/.test(before) || /[=+\-*/^()]/.test(after) || /^\d/.test(after);
    const symbolRun = !FUNCTION_WORDS.has(tok.toLowerCase()) && (!singles || [...letters].every((c) => singles.has(c.toLowerCase())));
    if (near && symbolRun && letters.length <= 6) for (const c of letters) mathLetters.add(c).add(c.toLowerCase());
  }
  const numbers = new Set<string>(['0', '1']);
  const numRe = /(?<![A-Za-z_\d.])(\d+(?:\.\d+)?|\.\d+)(?:[eE]([+-]?\d+))?/g;
  for (let m = numRe.exec(t); m; m = numRe.exec(t)) {
    numbers.add(normNumber(m[1]));
    if (m[2]) numbers.add(normNumber(m[2].replace(/^[+-]/, ''))).add('10');
  }
  for (const [re, ns] of WORD_NUMBERS) if (re.test(t)) ns.forEach((n) => numbers.add(n));
  const mangledGreek = /\uFFFD|\b(?:sin|cos|tan)\s*\(?\s*\?/.test(t);
  return { tokens, mathLetters, numbers, words, mangledGreek };
}

export function numbersOf(e: Expr, out: string[] = []): string[] {
  switch (e.kind) {
    case 'num':
      out.push(normNumber(e.text));
      break;
    case 'neg':
      numbersOf(e.arg, out);
      break;
    case 'bin':
      numbersOf(e.left, out);
      numbersOf(e.right, out);
      break;
    case 'call':
      e.args.forEach((a) => numbersOf(a, out));
      break;
  }
  return out;
}

export function symbolsOfExpr(e: Expr, out: Set<string>): void {
  if (e.kind === 'sym') out.add(e.name);
  else if (e.kind === 'neg') symbolsOfExpr(e.arg, out);
  else if (e.kind === 'bin') {
    symbolsOfExpr(e.left, out);
    symbolsOfExpr(e.right, out);
  } else if (e.kind === 'call') e.args.forEach((a) => symbolsOfExpr(a, out));
}

/** How a variable is traceable to the text, or null. */
export function symbolGrounding(name: string, idx: TextIndex, q: Question): 'written' | 'juxtaposed' | 'described' | null {
  const key = name.toLowerCase().replace(/_/g, '');
  if (idx.tokens.has(key)) return 'written';
  // t1, t_2, v0 for v? (a numbered or primed copy of the letter)
  for (const tok of idx.tokens) if (tok.startsWith(key) && /^\d+$/.test(tok.slice(key.length))) return 'written';
  if (name.length === 1 && idx.mathLetters.has(name)) return 'juxtaposed';
  // A Greek letter lost to encoding ("sin?", "cos\uFFFD"): the angle is there, its glyph is not.
  if (GREEK_NAME_SET.has(name) && idx.mangledGreek) return 'written';
  const v = q.variables.find((x) => x.name === name);
  // A description word grounds a plain symbol only: "bottom" doesn't say which of x_b, x_t the student meant.
  if (v?.description && !name.includes('_')) {
    const content =
      v.description
        .toLowerCase()
        .match(/[a-z]+/g)
        ?.filter((w) => w.length >= 4 && !DESCRIPTION_STOPWORDS.has(w)) ?? [];
    if (content.some((w) => idx.words.has(w) || idx.words.has(`${w}s`))) return 'described';
  }
  return null;
}

export type GroundingResult = { grounded: boolean; reasons: string[] };

export function groundEquation(eq: Equation, idx: TextIndex, q: Question): GroundingResult {
  const reasons: string[] = [];
  const syms = new Set<string>();
  symbolsOfExpr(eq.lhs, syms);
  symbolsOfExpr(eq.rhs, syms);
  for (const s of syms) if (!symbolGrounding(s, idx, q)) reasons.push(`'${s}' does not appear in the student's text`);
  for (const n of new Set([...numbersOf(eq.lhs), ...numbersOf(eq.rhs)])) {
    if (!idx.numbers.has(n)) reasons.push(`the number ${n} does not appear in the student's text`);
  }
  return { grounded: reasons.length === 0, reasons };
}

/** Split a list into grounded and ungrounded equations (with the reasons). */
export function groundList(
  equations: ExtractedEquation[],
  text: string,
  q: Question,
): { grounded: ExtractedEquation[]; ungrounded: { source: string; reasons: string[] }[] } {
  const idx = indexText(text, q);
  const variables = q.variables.map((v) => v.name);
  const grounded: ExtractedEquation[] = [];
  const ungrounded: { source: string; reasons: string[] }[] = [];
  for (const e of equations) {
    const r = parseEquation(e.source, { variables });
    if (!r.ok) {
      ungrounded.push({ source: e.source, reasons: [formatErrors(r.errors)] });
      continue;
    }
    const g = groundEquation(r.value, idx, q);
    if (g.grounded) grounded.push(e);
    else ungrounded.push({ source: e.source, reasons: g.reasons });
  }
  return { grounded, ungrounded };
}

/** Whether a response mentions an attachment (always flagged: the working is not in the text). */
export { mentionsAttachment } from '../../../../shared/text/attachments.ts';

/** Text addressed to the marker (always flagged, never obeyed): the same detector as the embedded extractor's. */
export { addressesMarker, findMarkerAddresses } from '../../../../shared/text/marker.ts';

/** Canonical SymPy source of an equation string, or null. */
export function canonical(source: string, variables: readonly string[]): string | null {
  const r = parseEquation(source, { variables });
  return r.ok ? equationToSympy(r.value) : null;
}
