// The question's vocabulary for the embedded extractor: which written symbols stand for which
// variable (s -> S, V0 -> v_0, t1 -> t, a symbol the student defined in words), how letter runs
// split into symbols and functions (mgh -> m g h, v0cos -> v0 cos), and which words of a label
// ("Group time", "max compression") name a variable. Pure.

import type { Question } from '../exam.ts';

/** Functions students write, and the grammar's name for each. */
export const FUNCTION_WORDS: Record<string, string> = {
  sin: 'sin', cos: 'cos', tan: 'tan', sqrt: 'sqrt', root: 'sqrt', exp: 'exp', ln: 'log', log: 'log',
  asin: 'asin', acos: 'acos', atan: 'atan', arcsin: 'asin', arccos: 'acos', arctan: 'atan', abs: 'Abs',
};

/** Short English words that must never be read as products of symbols ("us" is not u*s). */
export const STOPWORDS = new Set(
  (
    'a an as at be by do go he if in is it me my no of ok on or so to up us we vs am hm hmm mm its the and for but not was ' +
    'has had get got let set per via etc ie eg kg cm km mm ms wrt yes yet how why who you she her him his our out off all ' +
    'any can may now one two six ten too use see say put try did does done way own new old big bit few lot thus then than ' +
    'that this with from into onto each also just only what when which where here there they them their these those ' +
    'some such same both have will would should could must make take gives give gets sets else over under s.t'
  ).split(/\s+/),
);

/** Single letters that are English words in prose unless the question has them as variables. */
const ENGLISH_LETTERS = new Set(['a', 'A', 'I']);

/** Unit words dropped after a value (`100 m`, `2 m/s`, `9.8 m/s^2`). */
export const UNIT_WORDS = new Set([
  'm', 's', 'kg', 'N', 'J', 'W', 'cm', 'mm', 'km', 'h', 'g', 'ms', 'Hz', 'Pa', 'degrees', 'deg', 'rad', 'min', 'hr',
  // Electrical and thermal units: `12 V`, `5 A`, `300 K`, `2 mol`, `101 kPa`.
  'V', 'A', 'mA', 'kV', 'kW', 'kJ', 'K', 'mol', 'kPa', 'atm', 'ohm', 'ohms',
]);

const STOP_LABEL = new Set(['the', 'a', 'an', 'her', 'his', 'their', 'its', 'our', 'my', 'this', 'that', 'is', 'so', 'and', 'then', 'now', 'we', 'i', 'let', 'be', 'denote', 'denotes', 'represent', 'represents']);
const PREPOSITIONS = new Set(['of', 'for', 'to', 'at', 'relative', 'per', 'in', 'on', 'above', 'below', 'from', 'with', 'when', 'along', 'over', 'by', 'across', 'until']);
const MODIFIERS = new Set(['total', 'whole', 'overall', 'final', 'maximum', 'entire', 'full', 'required', 'answer', 'unknown']);

const stem = (w: string): string => {
  let x = w.toLowerCase().replace(/'s$/, '').replace(/'$/, '');
  if (x === 'max') x = 'maximum';
  if (x === 'min') x = 'minimum';
  if (x.length > 3 && x.endsWith('s') && !x.endsWith('ss')) x = x.slice(0, -1);
  return x;
};

const words = (s: string): string[] => (s.match(/[A-Za-z]+(?:'[A-Za-z]*)?/g) ?? []).map(stem);

/** Participles after a noun ("current drawn", "power dissipated", "work done"): not the head. */
const PARTICIPLE = /^(?:[a-z]{3,}[^e]ed|done|drawn|given|taken|shown|known|held|kept|lost|spent|made|stored|supplied)$/;

/** Head noun: the last content word before the first preposition, participles after it skipped. */
function headOf(ws: string[]): { head: string | null; content: string[] } {
  const content = ws.filter((w) => !STOP_LABEL.has(w));
  const p = content.findIndex((w) => PREPOSITIONS.has(w));
  const pre = p < 0 ? content : content.slice(0, p);
  let h = pre.length - 1;
  while (h > 0 && PARTICIPLE.test(pre[h])) h--;
  return { head: h >= 0 ? pre[h] : null, content: content.filter((w) => !PREPOSITIONS.has(w)) };
}

export type Lexicon = {
  variables: string[];
  target?: string;
  /** The question's only Greek-named variable, if it is the only Greek letter in the question (pi counted). */
  greek?: string;
  /** Resolve one written symbol (no implicit products) to a variable, or null. */
  resolve(sym: string, aliases: ReadonlyMap<string, string>): string | null;
  /** The variable a phrase names ("Group time", "launch speed"), or null when not clear. */
  labelVariable(label: string): string | null;
  /**
   * 'other' when the phrase names a quantity of the question's kind that is plainly not one of its
   * variables ("speed over the ground", "time to the top"): its equations can't be written.
   */
  labelKind(label: string): 'variable' | 'other' | 'unknown';
  /** The variable a numbered symbol stands for by the numbered-subscript rule alone (t1, T_2 -> t), or null. */
  numberedRoot(sym: string, aliases: ReadonlyMap<string, string>): string | null;
  /**
   * Whether the variable's description names one particular quantity ("total current drawn from the
   * battery"), not any of several ("a journey time"): numbered symbols then name other quantities.
   */
  describesOne(name: string): boolean;
};

const cache = new WeakMap<Question, Lexicon>();

export function lexiconFor(q: Question): Lexicon {
  const hit = cache.get(q);
  if (hit) return hit;
  const variables = q.variables.map((v) => v.name);
  const exact = new Set(variables);
  const flat = new Map<string, string[]>(); // lowercase, no underscores -> variables
  for (const v of variables) {
    const k = v.replace(/_/g, '').toLowerCase();
    flat.set(k, [...(flat.get(k) ?? []), v]);
  }
  // Greek letters a lost '?' could stand for: Greek-named variables, subscripted ones too (theta_0),
  // and pi when the question's answers use it ("T = 2?√(L/g)" lost a π, not the variable).
  const greekVars = variables.filter((v) => GREEKISH.has(v.replace(/_[A-Za-z0-9]+$/, '').toLowerCase()));
  const usesPi = [q.answer ?? '', ...q.scheme.flatMap((it) => it.accept ?? [])].some((f) => /\bpi\b/.test(f));
  const greekCandidates = greekVars.length + (usesPi ? 1 : 0);
  const promptWords = new Set(words(`${q.prompt} ${q.title}`));
  const capitalInitials = new Set((`${q.prompt} ${q.variables.map((v) => v.description).join(' ')}`.match(/\b[A-Z][a-z]+/g) ?? []).map((w) => w[0]));
  const descInfo = q.variables.map((v) => {
    const ws = words(v.description);
    return { name: v.name, head: headOf(ws).head, words: new Set(ws) };
  });
  for (const d of descInfo) for (const w of d.words) promptWords.add(w);

  const base = (sym: string): string | null => {
    if (exact.has(sym)) return sym;
    const c = flat.get(sym.replace(/_/g, '').toLowerCase());
    if (c && c.length === 1) {
      // A case variant only when the other case isn't itself something else in the question.
      return c[0];
    }
    return null;
  };

  const resolve = (sym: string, aliases: ReadonlyMap<string, string>): string | null => {
    // An alias '' marks a symbol the response uses for something that is not a variable.
    if (aliases.has(sym)) return aliases.get(sym) || null;
    const b = base(sym);
    if (b) return b;
    // Subscripted variant of a variable: t1, t_2, T_group, t_Mali, V_M.
    const m = /^([A-Za-z]+?)_?([A-Za-z0-9]+)$/.exec(sym);
    if (!m) return null;
    const [, stemSym, sub] = m;
    const root = aliases.get(stemSym) ?? base(stemSym);
    if (!root || root.includes('_')) return null;
    const subOk =
      /^\d{1,2}$/.test(sub) ||
      (sub.length > 1 && (promptWords.has(stem(sub)) || MODIFIERS.has(stem(sub)))) ||
      (/^[A-Z]$/.test(sub) && capitalInitials.has(sub) && (sym.includes('_') || !base(sub)));
    // A capital letter glued on without '_' that is itself a variable ("RT" with T the temperature)
    // is a factor, not a subscript: "nRT" is n*R*T, never n*R_T.
    return subOk ? root : null;
  };

  const numberedRoot = (sym: string, aliases: ReadonlyMap<string, string>): string | null => {
    if (aliases.has(sym) || base(sym)) return null;
    const m = /^([A-Za-z]+?)_?(\d{1,2})$/.exec(sym);
    if (!m) return null;
    const root = aliases.get(m[1]) ?? base(m[1]);
    return root && !root.includes('_') ? root : null;
  };
  const describesOne = (name: string): boolean => {
    const d = q.variables.find((v) => v.name === name)?.description ?? '';
    return d.trim() !== '' && !/^(a|an|any|each|either|one|every)\b/i.test(d.trim());
  };

  const ANSWER_HEADS = new Set(['answer', 'result', 'solution']);
  const labelVariable = (label: string): string | null => {
    const { head, content } = headOf(words(label));
    if (!head || content.length === 0 || content.length > 6) return null;
    if (ANSWER_HEADS.has(head) && content.length <= 2 && q.target) return q.target;
    const cands = descInfo.filter((d) => d.head === head);
    let best: string | null = null;
    let bestScore = -1;
    let tie = false;
    for (const d of cands) {
      if (!content.every((w) => d.words.has(w) || promptWords.has(w) || MODIFIERS.has(w))) continue;
      const score = content.filter((w) => d.words.has(w)).length;
      if (score > bestScore) {
        best = d.name;
        bestScore = score;
        tie = false;
      } else if (score === bestScore) tie = true;
    }
    return tie ? null : best;
  };

  const labelKind = (label: string): 'variable' | 'other' | 'unknown' => {
    if (labelVariable(label)) return 'variable';
    const { head, content } = headOf(words(label));
    if (!head || content.length === 0 || content.length > 6) return 'unknown';
    const cands = descInfo.filter((d) => d.head === head);
    if (cands.length === 0) return 'unknown';
    // The phrase names something the question doesn't: a word foreign to the question after the
    // head ("speed over the ground", "time to the top"). A foreign word before the head ("actual
    // speed") might just be a synonym-ish modifier: unknown, left unread.
    const h = content.indexOf(head);
    const foreignAfter = content.slice(h + 1).filter((w) => !promptWords.has(w) && !MODIFIERS.has(w));
    const foreignBefore = content.slice(0, h).filter((w) => !promptWords.has(w) && !MODIFIERS.has(w));
    return foreignAfter.length > 0 && foreignBefore.length === 0 ? 'other' : 'unknown';
  };

  const lex: Lexicon = {
    labelKind,
    numberedRoot,
    describesOne,
    variables,
    target: q.target,
    greek: greekVars.length === 1 && greekCandidates === 1 ? greekVars[0] : undefined,
    resolve,
    labelVariable,
  };
  cache.set(q, lex);
  return lex;
}

const GREEKISH = new Set([
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi',
  'omicron', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega',
]);

export type Piece = { kind: 'sym'; name: string; text: string } | { kind: 'fn'; name: string; text: string };

/**
 * Split a letter run into symbols and functions (mgh -> m g h; v0cos -> v_0 cos; sintheta -> sin
 * theta), longest pieces first with backtracking. Null when it doesn't split: a word, or a symbol
 * the question doesn't know.
 */
export function splitRun(run: string, lex: Lexicon, aliases: ReadonlyMap<string, string>, why?: { caseChange?: boolean }): Piece[] | null {
  if (STOPWORDS.has(run.toLowerCase()) && !lex.variables.includes(run) && !aliases.has(run)) return null;
  if (ENGLISH_LETTERS.has(run) && !lex.variables.includes(run) && !aliases.has(run)) return null;
  // A plural of a function word is English ("the roots v = ..."), not root(s)*...
  if (/^(root|sine|cosine|log)s$/i.test(run)) return null;
  const memo = new Map<number, Piece[] | null>();
  const go = (i: number): Piece[] | null => {
    if (i === run.length) return [];
    if (memo.has(i)) return memo.get(i)!;
    let out: Piece[] | null = null;
    for (let j = run.length; j > i && !out; j--) {
      const part = run.slice(i, j);
      if (part.startsWith('_') || /^\d/.test(part)) break;
      if (j < run.length && run[j] === '_') continue; // never cut a name from its subscript
      const fn = FUNCTION_WORDS[part];
      const v = fn ? null : (lex.resolve(part, aliases) ?? (part === 'pi' ? 'pi' : null));
      if (fn || v) {
        const rest = go(j);
        if (rest) out = [fn ? { kind: 'fn', name: fn, text: part } : { kind: 'sym', name: v!, text: part }, ...rest];
      }
    }
    memo.set(i, out);
    return out;
  };
  const pieces = go(0);
  // A run of mixed case whose letters had to change case to become variables ("Ts" -> t*S, "Vu")
  // is more likely a name with a subscript (T_s) than a product: not read. A run in one case
  // ("UV" from a student who writes in capitals) is still a product.
  const syms = pieces?.filter((p) => p.kind === 'sym') ?? [];
  const mixedCase = /[A-Z]/.test(run) && /[a-z]/.test(run);
  const caseChanged = syms.some((p) => p.text !== p.name && p.text.toLowerCase() === p.name.toLowerCase());
  if (mixedCase && syms.length >= 2 && caseChanged) return null;
  // An all-lowercase product that needs a capital to split ("ma" as m*A when the question has A but
  // no a) is doubtful: the student more likely meant a letter the question doesn't have. Not read;
  // `why.caseChange` tells the caller it is maths it couldn't map, not a word. (A lone letter, s for
  // S, is still read.)
  if (!/[A-Z]/.test(run) && syms.length >= 2 && caseChanged) {
    if (why) why.caseChange = true;
    return null;
  }
  return pieces;
}
