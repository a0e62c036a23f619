// Numbers stated with their units in a student's text ("40.8 m", "2.9 s", "9.81 m/s²", "3.2kJ",
// "v = 12 m/s", "about 41 m", "4.08 × 10^1 m"), for numeric scheme items. The embedded extractor
// drops units after a value (its equations are the maths); this scanner keeps them, with the
// number as written (its significant figures), whether it is approximate, the sentence it is in
// and the variable it is stated for when the text says so (`v = 12 m/s`, `v = √(2gh) = 9.9 m/s`).
// A number inside an expression (`2*9.81*5`, `2gh`, `v^2`, an equation tag `(1)`) is no stated
// value and is skipped. Deciding which number answers an item is the engine's (decide/numeric.ts).
// Pure.
import { GREEK_CHARS } from '../text/greek.ts';
import { hasLatex, identity, latexToPlain } from '../extract/normalize.ts';
import { readUnitAt, type Unit } from './parse-unit.ts';

export type StatedNumber = {
  /** Offsets of the number (sign included) and its unit in the text. */
  start: number;
  end: number;
  /** The number and unit as written ("40.8 m", "3.2kJ"). */
  written: string;
  /** The number as written ("40.8", "4.08 × 10^1"). */
  numberText: string;
  value: number;
  /** Significant figures as written; an integer's trailing zeros make a range (1200: 2 to 4). */
  sigFigs: { min: number; max: number };
  /** The unit as written, and read; null when none follows the number. */
  unitText: string | null;
  unit: Unit | null;
  /** The unit is also a variable of the question ("2 g": grams, or twice g?): it can't be told which. */
  unitAmbiguous: boolean;
  /** Stated as approximate ("about 41 m", "≈ 41 m"). */
  approximate: boolean;
  /** The question variable the number is stated for (`v = 12 m/s`), when the text says so. */
  assignedTo: string | null;
  /** Index into `sentences`. */
  sentence: number;
};

/**
 * `text`: what was scanned (LaTeX read as plain maths; offsets are into it); `prose`: `sentences`
 * with the stated values and their units blanked (so `m/s` doesn't name a variable m).
 */
export type TextNumbers = { text: string; numbers: StatedNumber[]; sentences: string[]; prose: string[] };

const SENTENCE_END = /[;!?\n]|\.(?!\d)/g;
/** How far around a number the scanner looks (bounded, so a long text costs linear time). */
const WINDOW = 240;
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const APPROXIMATE_BEFORE = /(?:\b(?:about|roughly|approximately|approx\.?|around|nearly|almost|circa|ca\.?)|[≈~≃])\s*$/i;
const RELATION_BEFORE = /(?:=|≈|≃|~|:|\bis|\bequals|\bof|\bto|\bas|\bbe)\s*$/i;
/** A mantissa, then an optional power of ten (`e3`, `× 10^3`, `x10⁻³`). */
const NUMBER =
  /(\d+(?:\.\d+)?|\.\d+)(?:[eE]([-−+]?\d{1,3})(?![\w.])|\s*[×x*·]\s*10\s*(?:\^|\*\*)\s*\(?([-−+]?\d{1,3})\)?|\s*[×x*·]\s*10([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}))?/y;
/** Words in a segment that make it prose rather than maths (function names are maths). */
const MATHS_WORDS = new Set(['sqrt', 'sin', 'cos', 'tan', 'exp', 'log', 'ln', 'asin', 'acos', 'atan']);

/** A symbol as students type it, in the grammar's spelling: `v₀` and `v0` are `v_0`-like, `θ` is `theta`. */
export function symbolKey(s: string): string {
  let out = '';
  for (const c of s) {
    const sub = SUBSCRIPTS.indexOf(c);
    out += sub >= 0 ? String(sub) : (GREEK_CHARS[c] ?? c);
  }
  return out.replace(/_/g, '');
}

/** The question variable a typed symbol names (exact spelling first, then ignoring case when that is unique). */
export function variableNamed(written: string, variables: readonly string[]): string | null {
  const k = symbolKey(written);
  const exact = variables.find((v) => symbolKey(v) === k);
  if (exact) return exact;
  const loose = variables.filter((v) => symbolKey(v).toLowerCase() === k.toLowerCase());
  return loose.length === 1 ? loose[0] : null;
}

/** Significant figures of a mantissa as written. */
export function significantFigures(mantissa: string): { min: number; max: number } {
  const digits = mantissa.replace('.', '').replace(/^0+/, '');
  if (digits === '') return { min: 1, max: 1 }; // "0", "0.0": one figure
  if (mantissa.includes('.')) return { min: digits.length, max: digits.length };
  const trailing = /0*$/.exec(digits)![0].length;
  return { min: Math.max(1, digits.length - trailing), max: digits.length };
}

const superToInt = (s: string): number => Number(s.replace('⁻', '-').replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹]/g, (c) => String(SUPERSCRIPTS.indexOf(c))));

/** Split into sentences: [start, end) offsets. */
function sentenceSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let from = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
    spans.push([from, m.index + 1]);
    from = m.index + 1;
  }
  if (from < text.length || spans.length === 0) spans.push([from, text.length]);
  return spans;
}

/** The variable a number is stated for: the symbol before the `=` chain that ends at the number. */
function assignedVariable(before: string, variables: readonly string[]): string | null {
  let stripped = before.replace(/\s+$/, '');
  if (!/[=≈≃~]$/.test(stripped)) stripped = stripped.replace(APPROXIMATE_BEFORE, '').replace(/\s+$/, ''); // "R = about 41 m"
  if (!/[=≈≃~]$/.test(stripped)) return null;
  const segments = stripped.slice(0, -1).split(/[=≈≃~]/);
  for (let k = segments.length - 1; k >= 0; k--) {
    const seg = segments[k];
    const id = /(?:^|[\s,:(])([A-Za-zα-ωΑ-Ωϑϕ][A-Za-z0-9_α-ωΑ-Ωϑϕ₀-₉]*)\s*$/.exec(seg);
    if (id) return variableNamed(id[1], variables);
    // An expression between two `=` (`v = √(2gh) = 9.9`): look further back, through maths only.
    const prose = (seg.match(/[A-Za-z]{3,}/g) ?? []).some((w) => !MATHS_WORDS.has(w.toLowerCase()));
    if (prose) return null;
  }
  return null;
}

/**
 * Every number stated as a value in the text, in order, with its unit (if any). `variables` are
 * the question's: a unit symbol that is also a variable ("2 g") is marked ambiguous, and
 * `assignedTo` names one of them.
 */
export function numbersInText(written: string, variables: readonly string[]): TextNumbers {
  // LaTeX (`v = 9.9\,\mathrm{m/s}`, `\frac{2S}{u}`) is read as the extractor reads it, as plain maths.
  // Maths delimiters are blanked (same length): "$x = 0.45$ m" states 0.45 m.
  const text = (hasLatex(written) ? latexToPlain(identity(written)).text : written).replace(/\$/g, ' ');
  const spans = sentenceSpans(text);
  const sentences = spans.map(([a, b]) => text.slice(a, b));
  const numbers: StatedNumber[] = [];
  // Sentence of each offset, found by walking forward (numbers come in order).
  let cursor = 0;
  const sentenceAt = (i: number): number => {
    while (cursor < spans.length - 1 && i >= spans[cursor][1]) cursor++;
    return i >= spans[cursor][0] && i < spans[cursor][1] ? cursor : spans.findIndex(([a, b]) => i >= a && i < b);
  };
  const varKeys = new Set(variables.map(symbolKey));
  for (let i = 0; i < text.length; i++) {
    if (!/[\d.]/.test(text[i]) || (text[i] === '.' && !/\d/.test(text[i + 1] ?? ''))) continue;
    const prev = text[i - 1] ?? '';
    if (/[\w.^_\\]/.test(prev) || /[A-Za-zα-ω₀-₉]/.test(prev)) {
      while (/[\d.]/.test(text[i + 1] ?? '')) i++; // part of a name (v0) or another number
      continue;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) continue;
    const numEnd = i + m[0].length;
    // A sign belongs to the number when it follows a relation, a space or the start ("is -3 J").
    let start = i;
    let sign = 1;
    const before0 = text.slice(Math.max(0, i - WINDOW), i).replace(/\s+$/, '');
    if (/[-−]$/.test(before0)) {
      const beforeSign = before0.slice(0, -1).replace(/\s+$/, '');
      if (beforeSign === '' || /[=≈≃~:(,]$/.test(beforeSign) || /[A-Za-z]{2,}$/.test(beforeSign)) {
        sign = -1;
        start = text.lastIndexOf(before0[before0.length - 1], i);
      } else {
        i = numEnd - 1;
        continue; // `x - 3`: inside an expression
      }
    } else if (/[-+*/^({×·√]$/.test(before0)) {
      i = numEnd - 1;
      continue; // `2*9.81`, `(1)`, `√2`: inside an expression, or an equation tag
    }
    // The unit: right after the number or after spaces.
    let k = numEnd;
    while (text[k] === ' ' || text[k] === '\u00a0') k++;
    const u = readUnitAt(text, k);
    const glued = k === numEnd;
    let end = u ? u.end : numEnd;
    // What follows must end the value: an operator, a bracket, or letters glued on mean maths (`2gh`, `9.81*5`).
    const after = text.slice(end, end + WINDOW);
    if (/^[\w({}]/.test(after) || /^\s*[*/^+×·=]/.test(after) || /^\)/.test(after)) {
      i = Math.max(i, (u ? u.end : numEnd) - 1);
      continue;
    }
    if (!u && glued && /^[A-Za-z]/.test(text[numEnd] ?? '')) {
      i = numEnd - 1;
      continue;
    }
    const mantissa = m[1];
    const exp = m[2] !== undefined ? Number(m[2].replace('−', '-')) : m[3] !== undefined ? Number(m[3].replace('−', '-')) : m[4] ? superToInt(m[4]) : 0;
    const value = sign * Number(mantissa) * 10 ** exp;
    const beforeText = text.slice(Math.max(spans[sentenceAt(i)]?.[0] ?? 0, start - WINDOW), start);
    const runs = u ? (u.written.match(/[A-Za-zα-ωΑ-Ω]+/g) ?? []) : [];
    const unitAmbiguous = runs.some((w) => varKeys.has(symbolKey(w)));
    // Two or more symbols that are all variables (`2 g h`): a product, not a unit.
    if (runs.length >= 2 && runs.every((w) => varKeys.has(symbolKey(w))) && /\s/.test(u!.written)) {
      i = numEnd - 1;
      continue;
    }
    // No unit, and a variable follows (`2 g h`): a product, not a value.
    const nextWord = /^\s*([A-Za-zα-ωΑ-Ω][\w]*)/.exec(after);
    if (!u && nextWord && varKeys.has(symbolKey(nextWord[1]))) {
      i = numEnd - 1;
      continue;
    }
    numbers.push({
      start,
      end,
      written: text.slice(start, end).replace(/\s+/g, ' '),
      numberText: text.slice(i, numEnd).trim(),
      value,
      sigFigs: significantFigures(mantissa),
      unitText: u ? u.written.replace(/\s+/g, ' ') : null,
      unit: u ? u.unit : null,
      unitAmbiguous,
      approximate: APPROXIMATE_BEFORE.test(beforeText),
      assignedTo: assignedVariable(beforeText, variables),
      sentence: Math.max(0, sentenceAt(i)),
    });
    end = Math.max(end, numEnd);
    i = end - 1;
  }
  const blanked = [...text.split('')];
  for (const n of numbers) for (let k = n.start; k < n.end; k++) blanked[k] = ' ';
  const plain = blanked.join('');
  const prose = spans.map(([a, b]) => plain.slice(a, b));
  return { text, numbers, sentences, prose };
}

/** Whether a sentence is about a quantity: it names its symbol as a word, or one of `words` (from its description). */
export function sentenceMentions(sentence: string, symbol: string, words: readonly string[]): boolean {
  const tokens = sentence.match(/[A-Za-zα-ωΑ-Ωϑϕ][A-Za-z0-9_α-ωΑ-Ωϑϕ₀-₉]*/g) ?? [];
  const key = symbolKey(symbol);
  if (tokens.some((t) => symbolKey(t) === key)) return true;
  const lower = sentence.toLowerCase();
  return words.some((w) => {
    const word = w.toLowerCase().replace(/[^a-z]/g, '');
    return word.length > 0 && new RegExp(`\\b${word}\\b`).test(lower);
  });
}

/** Whether a value is stated after a relation word or sign ("is 40.8 m", "= 40.8 m", "comes to 40.8 m"); `text` as scanned. */
export function statedByRelation(text: string, n: StatedNumber): boolean {
  return RELATION_BEFORE.test(text.slice(Math.max(0, n.start - WINDOW), n.start).replace(APPROXIMATE_BEFORE, ''));
}
