// Tokens of normalised student text, and rendering a run of maths tokens into the strict grammar's
// source (implicit products made explicit, `^` -> `**`, bare function arguments bracketed). Pure.

import { GREEK_NAMES } from '../text/greek.ts';
import { STOPWORDS } from '../text/stopwords.ts';
import { LOG_UNSURE, type Lexicon, type Piece, splitRun, UNIT_WORDS } from './lexicon.ts';
import { parseUnit } from '../units/parse-unit.ts';
import { unitOfKind } from '../units/infer-unit.ts';
import { factorEnd, isOperand, startsOperand, type Item } from './items.ts';
import { combine, MAX_SIDE_READINGS, scopeChoices, sqrtReaches } from './scope-choices.ts';
import { NAME_BREAK } from './normalize.ts';

export type TokKind = 'num' | 'id' | 'word' | 'usym' | 'op' | 'eq' | 'lp' | 'rp' | 'pm' | 'rel' | 'arrow' | 'punct' | 'nl';

export type Tok = {
  kind: TokKind;
  text: string;
  /** Offsets into the normalised text. */
  start: number;
  end: number;
  /** Whitespace right before it. */
  sp: boolean;
  /** For 'id': what it splits into. */
  pieces?: Piece[];
};

const TWO_CHAR: Record<string, TokKind> = {
  '**': 'op',
  '=>': 'arrow',
  '->': 'arrow',
  '>>': 'rel',
  '<<': 'rel',
  '<=': 'rel',
  '>=': 'rel',
  '==': 'eq',
  '+-': 'pm',
  '!=': 'rel',
};

export function tokenize(s: string, lex: Lexicon, aliases: ReadonlyMap<string, string>): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let sp = true;
  const push = (kind: TokKind, text: string, len: number): void => {
    out.push({ kind, text, start: i, end: i + len, sp });
    i += len;
    sp = false;
  };
  const idRe = /[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?:'[A-Za-z]*)*/y;
  const numRe = /\d+(?:\.\d+)?/y;
  const wordRe = /[\p{L}\p{M}]+/uy;
  const splits = new Map<string, { pieces: Piece[] | null; why: { caseChange?: boolean } }>();
  while (i < s.length) {
    const c = s[i];
    if (c === '\n') {
      push('nl', '\n', 1);
      sp = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      sp = true;
      continue;
    }
    if (c === NAME_BREAK) {
      i++;
      continue;
    }
    // "1,500": a thousands separator, or a decimal comma (1.5) as much of Europe writes it; not
    // read either way (split at the comma it was read as 1).
    const grouped = /\d+(?:,\d+)+/y;
    grouped.lastIndex = i;
    const g = grouped.exec(s);
    if (g) {
      push('word', g[0], g[0].length);
      continue;
    }
    numRe.lastIndex = i;
    let m = numRe.exec(s);
    if (m) {
      push('num', m[0], m[0].length);
      continue;
    }
    idRe.lastIndex = i;
    m = idRe.exec(s);
    if (m) {
      let text = m[0];
      // "sin2θ": a function name glued to a number is the function of that number times what follows ("sqrt2", "root2": √2).
      const fnNum = /^(sin|cos|tan|sqrt|root)(?=\d)/.exec(text);
      if (fnNum) text = fnNum[1];
      const t: Tok = { kind: 'word', text, start: i, end: i + text.length, sp };
      if (text === '+/-') {
        // not reached: handled below
      }
      if (!text.includes("'")) {
        // The same run splits the same way all through one response (pieces are only read).
        // A run an English word spells, glued into maths ("me⁴", "/me"), is maths: "(32π²ε₀²ħ²)/me⁴".
        // So is one standing alone between an operator or '=' and the end of the maths ("v = at",
        // "v = u + at", "= at =" with a and t the question's): "at", "as" are words only in prose.
        let before = i - 1;
        while (before >= 0 && (s[before] === ' ' || s[before] === '\t')) before--;
        let after = i + text.length;
        while (after < s.length && (s[after] === ' ' || s[after] === '\t')) after++;
        const alone =
          /[=+\-−×·*/]/.test(s[before] ?? '') &&
          (after >= s.length || /[=+\-−×·*/),;\n]/.test(s[after]) || (s[after] === '.' && !/\d/.test(s[after + 1] ?? '')));
        const inMaths = s[i + text.length] === '^' || /[/*^]/.test(s[i - 1] ?? '') || alone;
        const key = inMaths ? `${text}\u0000maths` : text;
        let split = splits.get(key);
        if (!split) {
          const why: { caseChange?: boolean } = {};
          split = { pieces: splitRun(text, lex, aliases, why, inMaths), why };
          splits.set(key, split);
        }
        const { pieces, why } = split;
        if (pieces) {
          t.kind = 'id';
          t.pieces = pieces;
        } else if (why.caseChange) {
          t.kind = 'usym'; // "ma" with the question's A but no a: maths, but not mapped
        } else if (
          (/^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*$/.test(text) && !/_\d{3,}$/.test(text)) ||
          ((GREEK_NAMES.has(text) || text === 'hbar') && !(text === 'Omega' && out.at(-1)?.kind === 'num'))
        ) {
          // "λ_max", "v_rel", "θ" in a question with no θ: a name with a subscript or a Greek
          // letter is never English, so never a word to step over at a run's edge. (Ω after a
          // number is the ohm; "IMG_2231" is a file's name.)
          t.kind = 'usym';
        } else if (/^[Dd]elta[A-Za-z](?:_?[A-Za-z0-9]+)?$/.test(text)) {
          t.kind = 'usym'; // "ΔU", "Δx": the change of a quantity, maths the question has no variable for
        } else if (/[a-z]/.test(text) && /^.+[A-Z]/.test(text) && !UNIT_WORDS.has(text) && !parseUnit(text.replace(/^mu(?=[A-Za-z])/, 'μ')).ok) {
          // "nRT" where it doesn't split into the question's symbols: a capital inside a run with
          // small letters is no English word, so maths that can't be read (as a word after "Q ="
          // it made the equation a definition in words, dropped with no trace).
          t.kind = 'usym';
        } else if (
          /^[A-Za-z](?:_?[A-Za-z0-9]+)?$/.test(text) &&
          (text.length === 1 || /[_0-9]/.test(text)) &&
          !['a', 'A', 'I'].includes(text) &&
          !STOPWORDS.has(text.toLowerCase())
        ) {
          t.kind = 'usym';
        }
      }
      // "v'", "λ'", "T''": a primed symbol, another value of a quantity (not "it's", "students'").
      else if (/^(?:[A-Za-z]{1,3}|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9]+|[A-Za-z]+\d+)'+$/.test(text) || GREEK_NAMES.has(text.replace(/'+$/, ''))) t.kind = 'usym';
      out.push(t);
      i += text.length;
      sp = false;
      continue;
    }
    wordRe.lastIndex = i;
    m = wordRe.exec(s);
    if (m) {
      // A letter outside Latin and Greek ("ℰ" for an emf) is a symbol, not a word of prose.
      push(m[0].length <= 2 ? 'usym' : 'word', m[0], m[0].length);
      continue;
    }
    if (s.startsWith('+/-', i)) {
      push('pm', '±', 3);
      continue;
    }
    if (s.startsWith('-->', i)) {
      push('arrow', '->', 3);
      continue;
    }
    if (s.startsWith('...', i)) {
      push('punct', '...', 3);
      continue;
    }
    const two = s.slice(i, i + 2);
    if (TWO_CHAR[two]) {
      push(TWO_CHAR[two], two === '**' ? '^' : two === '+-' ? '±' : two, 2);
      continue;
    }
    if ('+-*/^'.includes(c)) push('op', c, 1);
    else if (c === '=') push('eq', c, 1);
    else if (c === '(' || c === '[') push('lp', c, 1);
    else if (c === ')' || c === ']') push('rp', c, 1);
    else if (c === '±' || c === '∓') push('pm', c, 1);
    else if ('<>≠≤≥~'.includes(c)) push('rel', c, 1);
    else if (c === '⇒' || c === '→') push('arrow', c, 1);
    else push('punct', c, 1);
  }
  return changesOfQuantities(out, lex, aliases);
}

/**
 * "Δλ", "\Delta U", "delta lambda": Delta before a symbol is the change of that quantity, which is
 * not the quantity (Δλ = λ − λ₀): one symbol the question has no variable for, never the symbol
 * with the Delta dropped. (Glued to a Latin letter, "ΔU" is one run already.) Where the question has
 * that change as a variable of its own ("delta L" with Delta_L), it is that variable, as "ΔL" is.
 */
function changesOfQuantities(toks: Tok[], lex: Lexicon, aliases: ReadonlyMap<string, string>): Tok[] {
  const out: Tok[] = [];
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    const next = toks[k + 1];
    // "dT/dt", "dV/dt": a derivative, one symbol no question variable is (gold can't write it;
    // lexicon.ts foreignQuantity names it), never d·T/(d·t) with the question's d.
    // ("di/do" with the question's d_i and d_o: two variables, not a derivative. "dΦ/dt": the d
    // and a Greek letter come as two tokens, glued.)
    const oneName = (x: Tok): boolean => x.kind === 'id' && x.pieces?.length === 1;
    const letters = (x: Tok | undefined): boolean => !!x && ['id', 'usym', 'word'].includes(x.kind);
    // (normalize.ts sets a Greek name apart by spaces: "dΦ/dt" arrives as "d Phi /dt".)
    const greekAfterD = t.text === 'd' && letters(next) && GREEK_NAMES.has(next.text);
    const [slash, over] = greekAfterD ? [toks[k + 2], toks[k + 3]] : [next, toks[k + 2]];
    if (
      (greekAfterD || (!oneName(t) && /^d[A-Za-z][A-Za-z0-9_]*$/.test(t.text) && letters(t))) &&
      slash?.kind === 'op' &&
      slash.text === '/' &&
      (greekAfterD || !slash.sp) &&
      letters(over) &&
      !oneName(over) &&
      /^d[A-Za-z][A-Za-z0-9_]?$/.test(over.text) &&
      !over.sp
    ) {
      const top = greekAfterD ? `d${next.text}` : t.text;
      out.push({ kind: 'usym', text: `${top}/${over.text}`, start: t.start, end: over.end, sp: t.sp });
      k += greekAfterD ? 3 : 2;
      continue;
    }
    if ((t.kind === 'word' || t.kind === 'usym') && /^[Dd]elta$/.test(t.text) && next && (next.kind === 'id' || next.kind === 'usym')) {
      const text = `Delta${next.text}`;
      const pieces = splitRun(text, lex, aliases, {}, false);
      // (Or the one variable the question describes as that change: "delta p" for J, "the change of momentum".)
      const own = pieces?.length === 1 && pieces[0].kind === 'sym';
      out.push(own ? { kind: 'id', text, start: t.start, end: next.end, sp: t.sp, pieces } : { kind: 'usym', text, start: t.start, end: next.end, sp: t.sp });
      k++;
      continue;
    }
    // "f-number", "x-axis", "u-tube": a letter hyphened to a word is one word, never the letter
    // minus a word (which left "f-" as maths it couldn't read, and the response partial). Not a
    // word that names a kind of quantity ("T-weight = ma" is maths with a word in it, a doubt).
    const word = toks[k + 2];
    const beyond = toks[k + 3];
    if (
      /^[A-Za-z]$/.test(t.text) &&
      ['id', 'usym', 'word'].includes(t.kind) &&
      (t.sp || k === 0) &&
      next?.kind === 'op' &&
      next.text === '-' &&
      !next.sp &&
      word?.kind === 'word' &&
      /^[a-z]{3,}$/.test(word.text) &&
      !unitOfKind(word.text) &&
      !word.sp &&
      (!beyond || beyond.sp || !['lp', 'op', 'num', 'id', 'usym'].includes(beyond.kind) || (beyond.kind === 'op' && beyond.text !== '^'))
    ) {
      out.push({ kind: 'word', text: `${t.text}-${word.text}`, start: t.start, end: word.end, sp: t.sp });
      k += 2;
      continue;
    }
    // "0 °C", "80°F": the letter after a number's degrees is the temperature scale, a unit, never
    // the symbol (C read as the question's c, the specific heat, made "0 °C = 273 K" c = 273).
    const beforeDeg = out[out.length - 1];
    if (
      (t.kind === 'id' || t.kind === 'usym') &&
      /^[CF]$/.test(t.text) &&
      beforeDeg?.kind === 'word' &&
      /^(degrees|deg)$/.test(beforeDeg.text) &&
      out[out.length - 2]?.kind === 'num'
    ) {
      out.push({ kind: 'word', text: t.text, start: t.start, end: t.end, sp: t.sp });
      continue;
    }
    // "K1 a (t_h − t_i)/l1": an 'a' between two pieces of maths is a symbol (here the area, in the
    // wrong case), not the article; read as the article it would cut the equation in two.
    const prev = out[out.length - 1];
    if (t.kind === 'word' && (t.text === 'a' || t.text === 'A') && prev && next && OPERAND_END.has(prev.kind) && OPERAND_START.has(next.kind)) {
      out.push({ ...t, kind: 'usym' });
      continue;
    }
    out.push(t);
  }
  return out;
}

const OPERAND_END = new Set<TokKind>(['id', 'usym', 'num', 'rp']);
const OPERAND_START = new Set<TokKind>(['id', 'usym', 'num', 'lp']);

export type Rendered = { ok: true; src: string } | { ok: false; reason: string; unmapped?: string[] };

/** Every reading of a run (reading 0 first), each with the choices that made it differ from reading 0. */
export type RenderedReadings = { ok: true; readings: { src: string; reasons: string[] }[] } | { ok: false; reason: string; unmapped?: string[] };

/** Render a run of maths tokens (no '=', no '±') into grammar source: reading 0 (see renderReadings). */
export function render(toks: Tok[]): Rendered {
  const r = renderReadings(toks);
  return r.ok ? { ok: true, src: r.readings[0].src } : r;
}

/**
 * Render a run of maths tokens (no '=', no '±') into grammar source, once for each way an
 * unbracketed '√', '/' or power can reach (scope-choices.ts); reading 0 first, the same source never twice.
 */
export function renderReadings(toks: Tok[]): RenderedReadings {
  const items: Item[] = [];
  const unmapped: string[] = [];
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    switch (t.kind) {
      case 'num':
        items.push({ k: 'num', text: t.text, sp: t.sp });
        break;
      case 'id':
        // "e^(−Rt/L)" typed in lower case where the question's E is an emf or an energy (and it has
        // no e): the exponential, not E written in another case.
        if (t.text === 'e' && t.pieces!.length === 1 && t.pieces![0].kind === 'sym' && t.pieces![0].name !== 'e' && expAhead(toks, k)) {
          items.push({ k: 'fn', text: 'exp', sp: t.sp });
          k++;
          break;
        }
        t.pieces!.forEach((p, j) => items.push({ k: p.kind, text: p.name, sp: j === 0 ? t.sp : false }));
        break;
      case 'usym':
        // "e^(−t/RC)" where the question has no e: the exponential (a bracketed exponent only;
        // how far "e^-t/RC" reaches is left to the reader's doubt).
        if (t.text === 'e' && expAhead(toks, k)) {
          items.push({ k: 'fn', text: 'exp', sp: t.sp });
          k++;
          break;
        }
        unmapped.push(t.text);
        break;
      case 'op':
        items.push({ k: 'op', text: t.text, sp: t.sp });
        break;
      case 'lp':
      case 'rp':
        items.push({ k: t.kind, text: t.kind === 'lp' ? '(' : ')', sp: t.sp });
        break;
      default:
        return { ok: false, reason: `unexpected '${t.text}'` };
    }
  }
  if (unmapped.length)
    return {
      ok: false,
      reason: `symbol${unmapped.length > 1 ? 's' : ''} ${unmapped.map((u) => `'${u.replace(/^(.*)_command$/, '\\$1')}'`).join(', ')} could not be mapped to a variable`,
      unmapped,
    };
  if (items.length === 0) return { ok: false, reason: 'empty' };
  if (items.some((it) => it.k === 'fn' && it.text === LOG_UNSURE)) return { ok: false, reason: "'log' could be the natural log or the log to base 10" };

  const tooMany = { ok: false as const, reason: 'too many ways to read where its brackets go' };
  // (Sides with no bare root and no '/', the most, have no choice to look for.)
  const bareRoot = items.some((it, k) => it.k === 'fn' && it.text === 'sqrt' && items[k + 1]?.k !== 'lp');
  const slash = items.some((it) => it.k === 'op' && it.text === '/');
  const roots = bareRoot ? combine(items, sqrtReaches(items)) : [{ items: items.slice(), reasons: [] }];
  if (!roots) return tooMany;
  const readings: { src: string; reasons: string[] }[] = [];
  let failure: Rendered | null = null;
  for (const root of roots) {
    const bad = bracketFunctionArguments(root.items) ?? bracketDenominators(root.items);
    if (!bad) logsToBaseTen(root.items);
    if (bad) {
      failure ??= bad;
      continue;
    }
    const scoped = slash ? combine(root.items, scopeChoices(root.items)) : [{ items: root.items, reasons: [] as string[] }];
    if (!scoped) return tooMany;
    for (const s of scoped) {
      const joined = joinItems(s.items);
      if (!joined.ok) {
        failure ??= joined;
        continue;
      }
      if (!readings.some((r) => r.src === joined.src)) readings.push({ src: joined.src, reasons: [...root.reasons, ...s.reasons] });
    }
    if (readings.length > MAX_SIDE_READINGS) return tooMany;
  }
  if (readings.length === 0) return (failure as Rendered & { ok: false }) ?? { ok: false, reason: 'empty' };
  return { ok: true, readings };
}

const TRIG = new Set(['sin', 'cos', 'tan']);

/**
 * The power written on a trigonometric function's name, taken off it: "sin²θ" and "sin^2(θ)" are
 * (sin θ)², "sin⁻¹x" is arcsin x (the only meaning physics gives it). Returns the power to put
 * back after the argument (null for none), or why the name's power can't be read.
 */
function powerOnName(items: Item[], p: number): { power: Item[] | null } | Rendered {
  const it = items[p];
  if (!TRIG.has(it.text) || items[p + 1]?.k !== 'op' || items[p + 1].text !== '^') return { power: null };
  const at = (j: number): Item | undefined => items[p + 2 + j];
  const minusOne = (j: number): boolean => at(j)?.k === 'op' && at(j)!.text === '-' && at(j + 1)?.k === 'num' && at(j + 1)!.text === '1';
  // '^' and what it raises to: "^-1", "^(-1)" (the inverse) or one digit.
  const taken = minusOne(0) ? 3 : at(0)?.k === 'lp' && minusOne(1) && at(3)?.k === 'rp' ? 5 : at(0)?.k === 'num' && /^[1-9]$/.test(at(0)!.text) ? 2 : 0;
  if (!taken) return { ok: false, reason: `unclear what the power on '${it.text}' applies to` };
  const power = items.splice(p + 1, taken);
  if (taken !== 2) {
    it.text = `a${it.text}`;
    return { power: null };
  }
  return { power };
}

/** Each log to base 10 (its argument bracketed already) written as the grammar has it: (log(x)/log(10)). */
function logsToBaseTen(items: Item[]): void {
  for (let p = 0; p < items.length; p++) {
    if (items[p].k !== 'fn' || items[p].text !== 'log10') continue;
    const end = closing(items, p + 1);
    if (end < 0) continue;
    const made = (k: Item['k'], text: string): Item => ({ k, text, sp: false, made: true });
    items.splice(end + 1, 0, made('op', '/'), made('fn', 'log'), made('lp', '('), made('num', '10'), made('rp', ')'), made('rp', ')'));
    items.splice(p, 1, made('lp', '('), { ...items[p], text: 'log' });
  }
}

/** The index of the ')' that closes the '(' at p, or -1. */
function closing(items: Item[], p: number): number {
  let depth = 0;
  for (let j = p; j < items.length; j++) {
    if (items[j].k === 'lp') depth++;
    else if (items[j].k === 'rp' && --depth === 0) return j;
  }
  return -1;
}

/** Bare function arguments bracketed (sin theta, sin 2theta, sqrt x, sqrt 2, sin²θ), or why not. */
function bracketFunctionArguments(items: Item[]): Rendered | null {
  for (let p = 0; p < items.length; p++) {
    const it = items[p];
    if (it.k !== 'fn') continue;
    const named = powerOnName(items, p);
    if ('ok' in named) return named;
    const bad = bracketArgument(items, p);
    if (bad) return bad;
    if (named.power) {
      const end = closing(items, p + 1);
      if (end < 0) return { ok: false, reason: `unclear what the power on '${it.text}' applies to` };
      // "sin²θ²" would be read two ways: not guessed.
      if (items[end + 1]?.k === 'op' && items[end + 1].text === '^') return { ok: false, reason: `unclear whether the power is inside '${it.text}'` };
      items.splice(end + 1, 0, ...named.power);
    }
  }
  return null;
}

/** Letters that name a rate in a phase (angular frequency, wave number): "sin ω t" is sin(ωt). */
const PHASE_RATES = new Set(['omega', 'k']);
/** Letters that name an angle: "cos θ t" is cos(θ)·t. */
const ANGLES = new Set(['theta', 'alpha', 'beta', 'phi', 'varphi', 'gamma']);

/**
 * "tan(15)", "sin 30" where the question's angle is 15°: a trig function of a lone number past 2π
 * is an angle in degrees typed without its sign far more often than that many radians. Read as
 * written it would be the radians; which the student meant is the marker's call (as "θ = 15°" is).
 */
function degreesWithoutSign(items: Item[], p: number): Rendered | null {
  const it = items[p];
  if (!TRIG.has(it.text)) return null;
  const bracketed = items[p + 1]?.k === 'lp' && items[p + 2]?.k === 'num' && items[p + 3]?.k === 'rp';
  const bare = items[p + 1]?.k === 'num' && !(items[p + 2] && !items[p + 2].sp && (items[p + 2].k === 'sym' || items[p + 2].k === 'lp'));
  const n = bracketed ? items[p + 2] : bare ? items[p + 1] : null;
  if (!n || !(Number(n.text) > 2 * Math.PI)) return null;
  return { ok: false, reason: `'${it.text}(${n.text})': an angle in degrees without its sign, or ${n.text} radians? Read as written it is radians` };
}

/** The bare argument of the function at p bracketed (nothing to do when it is bracketed), or why not. */
function bracketArgument(items: Item[], p: number): Rendered | null {
  const it = items[p];
  const degrees = degreesWithoutSign(items, p);
  if (degrees) return degrees;
  if (items[p + 1]?.k === 'lp') return null;
  const a = items[p + 1];
  const b = items[p + 2];
  if (!a || (a.k !== 'num' && a.k !== 'sym')) return { ok: false, reason: `'${it.text}' without a clear argument` };
  let n = 1;
  if (a.k === 'num' && b?.k === 'sym') {
    if (it.text === 'sqrt') return { ok: false, reason: `unclear how far '√' reaches` };
    // "cos2φ" glued: cos(2φ), or cos²φ typed without its superscript (Malus's law is I₀cos²φ;
    // "sin2α" in a range is sin(2α)): the two differ, so not guessed. With a space ("sin 2θ")
    // the 2 is the argument's coefficient.
    if (TRIG.has(it.text) && !a.sp && !b.sp && (a.text === '2' || a.text === '3'))
      return {
        ok: false,
        reason: `'${it.text}${a.text}${b.text}' could be ${it.text}(${a.text}·${b.text}) or ${it.text}^${a.text}(${b.text}), its power typed on the line`,
      };
    n = 2;
  }
  const after = items[p + 1 + n];
  if (after && after.k === 'op' && after.text === '^') return { ok: false, reason: `unclear whether the power is inside '${it.text}'` };
  // "ln V2/V1", "√L/g": the log of a ratio, the root of a ratio, or divided after? (sin θ/g stays sin(θ)/g.)
  // "ln 2/T" is log(2)/T: the log of a lone number is a constant physicists write that way (λ = ln 2/T).
  const isLog = it.text === 'log' || it.text === 'log10';
  const logOfNumber = isLog && a.k === 'num' && n === 1;
  if (after && after.k === 'op' && after.text === '/' && !logOfNumber && (isLog || it.text === 'exp' || (it.text === 'sqrt' && a.k === 'sym'))) {
    return { ok: false, reason: `unclear whether the division is inside '${it.text === 'sqrt' ? '√' : it.text === 'log10' ? 'log' : it.text}'` };
  }
  if (it.text === 'sqrt' && after && !after.sp && (after.k === 'sym' || after.k === 'num' || after.k === 'fn' || after.k === 'lp')) {
    return { ok: false, reason: `unclear how far '√' reaches` };
  }
  // "sin ωt", "cos kx", "sin 2πft": a trig function's argument glued to more symbols is all of
  // them, as physics writes a phase (sin(ωt), never sin(ω)·t), up to a space or an operator. Glued
  // to a bracket or a power after that ("cos ωt(…)", "sin ωt²") where it ends is not clear.
  if (TRIG.has(it.text) && after && !after.sp && after.k === 'sym') {
    while (items[p + 1 + n] && !items[p + 1 + n].sp && (items[p + 1 + n].k === 'sym' || items[p + 1 + n].k === 'num')) n++;
  }
  const end = items[p + 1 + n];
  // "sin ω t" with a space: a function's argument must be a pure number, so an angle's function
  // times what follows ("x = u cos θ t" is u·cos θ·t, never cos(θt)), a rate's the phase ("E₀ sin ω t"
  // is sin(ωt), never sin(ω)·t). Any other letter: not guessed.
  if (TRIG.has(it.text) && end && end.sp && (end.k === 'sym' || end.k === 'num')) {
    const arg = n === 1 && a.k === 'sym' ? a.text.replace(/_.*/, '') : null;
    if (arg !== null && PHASE_RATES.has(arg)) {
      while (items[p + 1 + n] && items[p + 1 + n].k === 'sym' && (n === 1 || !items[p + 1 + n].sp)) n++;
    } else if (arg === null || !ANGLES.has(arg)) {
      const shown = items
        .slice(p + 1, p + 1 + n)
        .map((x) => x.text)
        .join('');
      return { ok: false, reason: `unclear whether '${it.text} ${shown} ${end.text}' is ${it.text}(${shown}·${end.text}) or ${it.text}(${shown})·${end.text}` };
    }
  }
  // "cos ωt" under another function, or glued on past a symbol: not guessed. ("sinθcosθ" is two
  // functions, and is read.)
  if (end && !end.sp && (end.k === 'sym' || end.k === 'num' || end.k === 'lp' || (n > 1 && end.k === 'op' && end.text === '^'))) {
    return { ok: false, reason: `unclear how far '${it.text}' reaches` };
  }
  items.splice(p + 1 + n, 0, { k: 'rp', text: ')', sp: false, made: true });
  items.splice(p + 1, 0, { k: 'lp', text: '(', sp: false, made: true });
  return null;
}

/**
 * Whether the tight product items[g0, e) after a '/' is a number glued to π and nothing else
 * ("1/2π", "(1/2π)√(k/m)", "35.2/2π"): every writer of our sets reads it as 1/(2π), the idiom of
 * f = (1/2π)√(k/m) and of turns from radians, never ½π. With more glued on ("4/3πr³", the sphere's
 * (4/3)πr³), or a '*' after it ("1/2pi*sqrt(k/m)", which the writer of round 33 reads both ways), a
 * numeric numerator stays a doubt.
 */
const numberTimesPi = (items: Item[], g0: number, e: number): boolean =>
  e === g0 + 2 && items[g0].k === 'num' && items[g0 + 1].k === 'sym' && items[g0 + 1].text === 'pi' && !(items[e]?.k === 'op' && items[e].text === '*');

/** A tight product right after '/' is the whole denominator: v0 sin(θ)/2g = v0 sin(θ)/(2g). Or why not. */
function bracketDenominators(items: Item[]): Rendered | null {
  for (let p = 0; p < items.length; p++) {
    if (items[p].k !== 'op' || items[p].text !== '/') continue;
    const g0 = p + 1;
    let e = factorEnd(items, g0);
    if (e < 0) continue;
    let factors = 1;
    let bracketAfter = false; // a bracket of the student's among the factors after the first
    let fnAfter: string | null = null; // a function among them ("I₀/2cos²φ")
    while (e < items.length && startsOperand(items[e]) && !items[e].sp) {
      if (items[e].k === 'lp' && !items[e].made) bracketAfter = true;
      if (items[e].k === 'fn') fnAfter ??= items[e].text;
      const f = factorEnd(items, e);
      if (f < 0) break;
      e = f;
      factors++;
    }
    if (factors < 2) continue;
    // "u/2(1 + …)", "E/R(1 − e^(−Rt/L))" are read both ways by people ((E/R)(1 − …) or
    // E/(R(1 − …))): don't choose. Nor "u/(g)x", a bracket of the student's with more after it.
    if (bracketAfter || (items[g0].k === 'lp' && !items[g0].made)) {
      const what = items[g0].k === 'lp' ? `'/(…)' divides by what follows the bracket` : `'/${items[g0].text}(…)' divides by the bracket`;
      return { ok: false, reason: `unclear whether ${what} too` };
    }
    // "I₀/2cos²φ": half of I₀, times cos²φ (Malus's law), or I₀ over 2cos²φ? People read it
    // both ways where a function follows the number or letter after '/': don't choose.
    if (fnAfter) return { ok: false, reason: `unclear whether '/${items[g0].text}' divides by '${fnAfter}' too` };
    const numer = items[p - 1];
    const beforeNumer = items[p - 2];
    if (numer?.k === 'num' && !isOperand(beforeNumer) && !(beforeNumer?.k === 'op' && beforeNumer.text === '^') && !numberTimesPi(items, g0, e)) {
      return { ok: false, reason: `unclear whether '${numer.text}/${items[g0].text}…' is a fraction times the rest` };
    }
    items.splice(e, 0, { k: 'rp', text: ')', sp: false, made: true });
    items.splice(g0, 0, { k: 'lp', text: '(', sp: false, made: true });
  }
  return null;
}

/** "e^(": a '^' glued to the e, then a bracket (how far "e^-t/RC" reaches is left to the reader's doubt). */
const expAhead = (toks: Tok[], k: number): boolean => toks[k + 1]?.kind === 'op' && toks[k + 1].text === '^' && !toks[k + 1].sp && toks[k + 2]?.kind === 'lp';

/** The grammar's source: an explicit '*' between operands side by side, '^' as '**'. */
function joinItems(items: Item[]): Rendered {
  const out: string[] = [];
  for (let p = 0; p < items.length; p++) {
    const it = items[p];
    const prev = items[p - 1];
    if (p > 0 && isOperand(prev) && startsOperand(it)) {
      if (prev.k === 'num' && it.k === 'num') return { ok: false, reason: `two numbers side by side ('${prev.text} ${it.text}')` };
      out.push('*');
    }
    out.push(it.k === 'op' && it.text === '^' ? '**' : it.text);
  }
  return { ok: true, src: out.join(' ') };
}

/** A number, perhaps negative or in powers of ten ("2.4 × 10⁻¹⁷"): numbers, operators and brackets, no symbol. */
export const numbersOnly = (t: Tok[]): boolean =>
  t.some((x) => x.kind === 'num') && t.every((x) => x.kind === 'num' || x.kind === 'op' || x.kind === 'lp' || x.kind === 'rp');
