// What the words around a maths run say about it: a label naming a variable ("Group time = 2S/u"),
// an operation on the working ("multiply by u(v+w)"), words that change it ("all square rooted"),
// a limiting condition ("when w is small"), function notation x(t), unreadable maths cutting it
// up ("R dq/dt + q/C"). Pure.

import { STOPWORDS } from '../text/stopwords.ts';
import { UNIT_WORDS } from './lexicon.ts';
import type { Ctx } from './context.ts';
import { isMathTok } from './runs.ts';
import type { Tok } from './tokens.ts';

export const CLAUSE_JOIN = /^(and|so|then|thus|hence|therefore|but|while|whereas)$/i;

/** A word of a label: prose, or a lower-case word the tokenizer took for an unknown symbol ("max speed"). */
const labelWord = (x: Tok): boolean => x.kind === 'word' || (x.kind === 'usym' && /^[a-z]{3,}$/.test(x.text));

/**
 * Words right before token index i, as a label, if they start a clause. `stated`: the words say the
 * maths after them is a value ("… is √(2gL)"), so they may open a bracketed aside.
 */
function labelBefore(toks: Tok[], i: number, stated = false): string | null {
  const ws: string[] = [];
  let j = i - 1;
  while (j >= 0 && labelWord(toks[j]) && !CLAUSE_JOIN.test(toks[j].text)) ws.unshift(toks[j--].text);
  if (ws.length === 0) return null;
  // "…, and its period is 2π√(r³/GM)": a joining word starts a clause as a line start does.
  if (j >= 0 && toks[j].kind === 'word') return ws.join(' ');
  // "(The speed when the rope goes taut is √(2gL) = 19.8 m/s.)": a bracket opening an aside starts
  // a clause where its words say what the maths is ("(height 2R above the bottom)" names no
  // quantity the maths is the value of: not taken for a label).
  if (stated && j >= 0 && toks[j].kind === 'lp' && (j === 0 || toks[j].sp || ['nl', 'punct'].includes(toks[j - 1].kind))) return ws.join(' ');
  if (j >= 0 && !['nl', 'punct', 'arrow'].includes(toks[j].kind)) return null;
  if (j >= 0 && toks[j].kind === 'punct' && ["'", '"'].includes(toks[j].text)) return null;
  return ws.join(' ');
}

/**
 * The label of a fragment or '= expr' (the words before it: "Group time = 2S/u", "max
 * compression: √(2gh/k)", "Mali's time is 2S/v", "time S/(v + w)") and what it names.
 */
export function labelOf(
  ctx: Ctx,
  toks: Tok[],
  i0: number,
  startsWithEq: boolean,
): { kind: 'variable' | 'other' | 'unknown'; v: string | null; label: string } | null {
  let label: string | null = null;
  if (startsWithEq) label = labelBefore(toks, i0);
  else {
    const p = toks[i0 - 1];
    if (p && p.kind === 'punct' && p.text === ':') label = labelBefore(toks, i0 - 1);
    else if (p && p.kind === 'word' && /^(is|equals)$/i.test(p.text)) label = labelBefore(toks, i0 - 1, true);
    // "its initial energy is just mgh": an adverb between the verb and the maths.
    else if (p && p.kind === 'word' && /^(just|simply|only|still|then|therefore|also)$/i.test(p.text) && /^(is|equals)$/i.test(toks[i0 - 2]?.text ?? ''))
      label = labelBefore(toks, i0 - 2, true);
    else if (p && p.kind === 'word') label = labelBefore(toks, i0);
  }
  if (!label) return null;
  // A clause ("The time to the bottom is a quarter of the period: π/2 √(L/g)") is not a name: what
  // it says the expression is can't be told from its words.
  if (/\b(is|are|was|were|equals|gives|becomes|means)\b/i.test(label)) return { kind: 'unknown', v: null, label };
  const kind = ctx.lex.labelKind(label);
  return { kind, v: kind === 'variable' ? ctx.lex.labelVariable(label) : null, label };
}

/** Words after which an expression is an operation on the working, not a value ("multiply by u(v+w)"). */
export const OPERATION_WORDS =
  /^(by|cancel|cancels|cancelling|canceling|cancelled|multiply|multiplying|divide|dividing|factor|factorise|factorize|expand|expanding|use|using|apply|applying)$/i;

/**
 * Words after which an expression is referred to as a thing ("the +w on the way out", "this 2S/u
 * term"), not stated as the value of anything: no equation (gold convention 1).
 */
export const REFERRING_WORDS = /^(the|this|that|these|those)$/i;

/** Nouns for a piece of maths ("the component N sinθ", "the term mv²/r"): after a referring word, the maths is named, not stated. */
export const REFERENT_NOUNS = /^(component|components|term|terms|expression|factor|quantity|product|combination|bracket|part)$/i;

/**
 * Words of a proportionality before an expression ("density goes like 1/T", "losses go down as
 * 1/V²", "proportional to r²"): how a quantity varies, not its value (gold convention 1).
 */
const VARIES =
  /^(?:goes|go|going|varies|vary|varying|scales|scale|scaling|falls|fall|drops|drop|decreases|decrease|increases|increase|grows|grow|rises|rise|depends|depend)$/i;

/** Whether the words right before `k` say the expression after them is a proportionality. */
export function proportionalityBefore(toks: Tok[], k: number): boolean {
  const w = (j: number): string => (toks[j]?.kind === 'word' ? toks[j].text : '');
  if (toks[k - 1]?.text === '∝') return true;
  if (/^(?:like|as)$/i.test(w(k - 1))) return VARIES.test(w(k - 2)) || (/^(?:up|down|off)$/i.test(w(k - 2)) && VARIES.test(w(k - 3)));
  if (/^to$/i.test(w(k - 1))) return /^(?:proportional|proportionally)$/i.test(w(k - 2));
  return /^(?:on)$/i.test(w(k - 1)) && /^(?:depends|depend)$/i.test(w(k - 2));
}

/** Nouns after an expression that name it as a piece of something ("no ρgh terms", "the I²R heating"): named, not stated. */
const NAMED_BY_NOUN_AFTER = /^(?:term|terms|component|components|factor|heating|loss|losses)$/i;

/** Whether the word right after the expression names it as a piece of something, or a '∝' makes it one side of a proportionality ("T² ∝ r³"). */
export const namedByNounAfter = (toks: Tok[], i1: number): boolean =>
  toks[i1]?.text === '∝' || (toks[i1]?.kind === 'word' && NAMED_BY_NOUN_AFTER.test(toks[i1].text));

const MODIFIER_WORD = /^(rooted|squared|cubed|halved|doubled|inverted|reciprocal|reciprocated|negated|times|plus|minus|divided|multiplied)$/i;

/** "x = 2mgh/k all square rooted", "x = 2mgh/k (squared)": words right after change what was written. */
export function modifiedAfter(toks: Tok[], i1: number): string | null {
  const seen: string[] = [];
  for (let k = i1; k < toks.length && seen.length < 4; k++) {
    const x = toks[k];
    if (x.kind === 'lp' || x.kind === 'rp') continue;
    if (x.kind !== 'word') break;
    seen.push(x.text);
    if (MODIFIER_WORD.test(x.text)) return seen.join(' ');
  }
  return null;
}

/**
 * "turns a fraction 1 − T_C/T_H of Q_H into work": maths followed by "of" and a symbol is a factor
 * of that quantity, so the words state a product the reader can't assemble. Returns "of Q_H", or null.
 */
export function factorOfAnother(toks: Tok[], i1: number): string | null {
  const of = toks[i1];
  const what = toks[i1 + 1];
  if (of?.kind !== 'word' || !/^of$/i.test(of.text)) return null;
  return what?.kind === 'id' || what?.kind === 'usym' ? `${of.text} ${what.text}` : null;
}

const CONDITION_WORD = /^(when|as|if|for)$/i;
const LIMIT_WORD =
  /^(small|smaller|large|larger|big|bigger|tiny|huge|negligible|negligibly|zero|infinity|infinite|dominates|dominant|much|tends|tending|approaches|approaching|vanishes)$/i;

/**
 * An equation followed in the same sentence by a limiting condition ("v = u when w is small",
 * "v = w if w >> u", "v = u for w -> 0") is a statement about a limit, which gold does not record
 * (convention 1). Returns the condition's text, or null.
 */
export function limitingCondition(toks: Tok[], i1: number): string | null {
  if (toks[i1]?.kind !== 'word' || !CONDITION_WORD.test(toks[i1].text)) return null;
  const ix = indexOf(toks);
  const k = ix.nextLimit[i1];
  return k < ix.sentenceEnd[i1] ? textOf(toks, i1, k + 1) : null;
}

/**
 * The same read backwards: an equation after a limiting condition earlier in its sentence ("when
 * R2 >> R1, R ≈ R1 so I = V/R1", "If R2 is huge the term vanishes and I = V/R1", "As r → ∞, v = 0")
 * is the limiting value, not recorded (convention 1). The condition needs a condition word and then
 * a limit on a symbol: '>>', '<<', '≈', an arrow '→', or a word such as small, large, huge, vanishes.
 */
export function limitingConditionBefore(toks: Tok[], i0: number): string | null {
  const ix = indexOf(toks);
  if (i0 <= 0) return null;
  // The first condition word of the sentence before i0, the first limit after it.
  const cond = ix.firstCondition[i0 - 1];
  if (cond < 0) return null;
  // The condition is on a symbol, named before the limit ("when R2 >> R1", "as r → ∞", "if R2 is
  // huge"); "for small angles sin θ ≈ θ" is the question's own regime, not a limit taken by the
  // student (the limit is on the angles, not on a symbol: "for small u" is on u).
  const j = ix.nextLimitBack[cond + 1] ?? toks.length;
  if (j < i0 && (ix.lastSymbol[j] >= cond || isSymbolTok(toks[j + 1]))) return textOf(toks, cond, j + (isSymbolTok(toks[j + 1]) ? 2 : 1));
  return null;
}

/**
 * "Finally q = CV_0 because no current flows", "Eventually I = 0", "after a long time v = ...": an
 * equation whose sentence opens with the state at the end may be the limit the quantity tends to
 * (not recorded), or simply the last step; which can't be told, so it is a doubt. "Finally," with
 * a comma is the last step of the working ("Finally, x = √(2mgh/k)") and is read.
 */
export function finalState(toks: Tok[], i0: number): string | null {
  let k = i0 - 1;
  const ws: Tok[] = [];
  while (k >= 0 && toks[k].kind === 'word') ws.unshift(toks[k--]);
  if (k >= 0 && !endsSentence(toks[k])) return null;
  const said = ws.map((w) => w.text).join(' ');
  if (
    /^(?:eventually|after a (?:long|very long) time|in the long run|in (?:the )?steady state|once (?:it is |it's )?fully (?:charged|discharged))\b/i.test(said)
  )
    return said;
  if (/^finally$/i.test(said)) return said;
  return null;
}

const textOf = (toks: Tok[], a: number, b: number): string =>
  toks
    .slice(a, b)
    .map((t) => t.text)
    .join(' ');

const isSymbolTok = (y: Tok): boolean => y.kind === 'usym' || (y.kind === 'id' && y.pieces!.some((p) => p.kind === 'sym'));
const endsSentence = (x: Tok): boolean => x.kind === 'nl' || (x.kind === 'punct' && /^[.;!?]$/.test(x.text));
const APPROACH_WORD = /^(approaches|approaching|tends|tending)$/i;
/**
 * "as u approaches v", "tends to zero": a limit has something it approaches. "heard as the train
 * approaches" (moving closer) has nothing after the verb, and states no limit.
 */
const approachesNothing = (toks: Tok[], k: number): boolean => {
  if (!APPROACH_WORD.test(toks[k].text)) return false;
  const next = toks[k + 1];
  return !next || !(next.kind === 'num' || isSymbolTok(next) || (next.kind === 'word' && /^(to|zero|infinity)$/i.test(next.text)) || next.text === '∞');
};
/** A limit after a condition word, read forwards ("v = u when w is small", "... for w -> 0"). */
/** "… 0 = v₀² − 2aL → v₀ = √(2aL)": an arrow before an equation is "so", not "tends to". */
const impliesEquation = (toks: Tok[], k: number): boolean => !!toks[k + 1] && isSymbolTok(toks[k + 1]) && toks[k + 2]?.kind === 'eq';
const isLimit = (toks: Tok[], k: number): boolean => {
  const x = toks[k];
  return (
    x.kind === 'rel' ||
    (x.kind === 'arrow' && !impliesEquation(toks, k)) ||
    (x.kind === 'word' && LIMIT_WORD.test(x.text) && !approachesNothing(toks, k)) ||
    (x.kind === 'num' && Number(x.text) === 0)
  );
};
/** A limit in a condition before an equation ("when R2 >> R1, ...", "as r → ∞, ..."). */
const isLimitBack = (toks: Tok[], k: number): boolean => {
  const x = toks[k];
  return (
    (x.kind === 'rel' && ['>>', '<<', '~'].includes(x.text)) ||
    (x.kind === 'arrow' && (x.text === '->' || x.text === '→') && !impliesEquation(toks, k)) ||
    (x.kind === 'word' && (LIMIT_WORD.test(x.text) || /^(infinity|huge|tiny|vanish|vanishing|disappears)$/i.test(x.text)) && !approachesNothing(toks, k))
  );
};

/**
 * Facts about a response's tokens that every run asks about, worked out once (so reading all the
 * runs stays linear): where each sentence ends, the first condition word of the sentence so far,
 * the last symbol so far, the next limit, and the maximal stretch of maths and unreadable runs.
 */
type TokIndex = {
  /** Index of the token ending k's sentence (or toks.length). */
  sentenceEnd: Int32Array;
  /** The first condition word from k's sentence start up to k inclusive, or -1. */
  firstCondition: Int32Array;
  /** The last symbol at or before k, or -1. */
  lastSymbol: Int32Array;
  /** The first forwards / backwards limit at or after k (toks.length if none). */
  nextLimit: Int32Array;
  nextLimitBack: Int32Array;
  /** The stretch of maths and unreadable runs holding k: [from, to). */
  stretchFrom: Int32Array;
  stretchTo: Int32Array;
};

const indexes = new WeakMap<Tok[], TokIndex>();

function indexOf(toks: Tok[]): TokIndex {
  const hit = indexes.get(toks);
  if (hit) return hit;
  const n = toks.length;
  const ix: TokIndex = {
    sentenceEnd: new Int32Array(n + 1),
    firstCondition: new Int32Array(n + 1),
    lastSymbol: new Int32Array(n + 1),
    nextLimit: new Int32Array(n + 1),
    nextLimitBack: new Int32Array(n + 1),
    stretchFrom: new Int32Array(n + 1),
    stretchTo: new Int32Array(n + 1),
  };
  let cond = -1;
  let sym = -1;
  let from = 0;
  for (let k = 0; k < n; k++) {
    const x = toks[k];
    if (endsSentence(x)) cond = -1;
    else if (cond < 0 && x.kind === 'word' && CONDITION_WORD.test(x.text)) cond = k;
    if (isSymbolTok(x)) sym = k;
    ix.firstCondition[k] = cond;
    ix.lastSymbol[k] = sym;
    if (!inStretch(x)) from = k + 1;
    ix.stretchFrom[k] = from;
  }
  let end = n;
  let lim = n;
  let limBack = n;
  let to = n;
  ix.sentenceEnd[n] = n;
  ix.nextLimit[n] = n;
  ix.nextLimitBack[n] = n;
  ix.stretchTo[n] = n;
  for (let k = n - 1; k >= 0; k--) {
    const x = toks[k];
    if (endsSentence(x)) end = k;
    if (isLimit(toks, k)) lim = k;
    if (isLimitBack(toks, k)) limBack = k;
    if (!inStretch(x)) to = k;
    ix.sentenceEnd[k] = end;
    ix.nextLimit[k] = lim;
    ix.nextLimitBack[k] = limBack;
    ix.stretchTo[k] = to;
  }
  indexes.set(toks, ix);
  return ix;
}

/**
 * "x(t) = A cos(ωt)", "q(0) = C V_0": a symbol glued to a bracket holding one lone symbol or number
 * is function notation (x as a function of t, q at time 0), not a product: the equation can't be
 * written in the question's variables. ("u(v + w)", "m(g + a)", "2S(v - w)" hold more than one
 * term and stay products.) Returns the reason, or null.
 */
export function functionNotation(t: Tok[]): string | null {
  for (let k = 0; k + 3 < t.length; k++) {
    const f = t[k];
    const [lp, arg, rp] = [t[k + 1], t[k + 2], t[k + 3]];
    if (lp.kind !== 'lp' || lp.sp) continue;
    const name = f.kind === 'usym' ? f.text : f.kind === 'id' && f.pieces!.at(-1)!.kind === 'sym' ? f.pieces!.at(-1)!.text : null;
    if (!name) continue;
    const lone = (x: Tok | undefined): boolean =>
      !!x && (x.kind === 'usym' || x.kind === 'num' || (x.kind === 'id' && x.pieces!.length === 1 && x.pieces![0].kind === 'sym'));
    if (rp.kind === 'rp' && lone(arg)) return `'${name}(${arg.text})' looks like ${name} as a function of ${arg.text}, not a product`;
    // "F(2r) = F/16": a number glued to one symbol in the bracket, after a symbol alone, is the same
    // notation (F at twice the distance), not a product.
    const [sym, close] = [t[k + 3], t[k + 4]];
    // (A symbol alone before it, no factor beside it: "mg(2r)", "u² + 2g(2r)" are products, a height of 2r.)
    const before = t[k - 1];
    const alone = !before || !['num', 'id', 'usym', 'rp'].includes(before.kind);
    if (alone && lone(f) && f.kind !== 'num' && arg.kind === 'num' && sym && sym.kind !== 'num' && lone(sym) && !sym.sp && close?.kind === 'rp')
      return `'${name}(${arg.text}${sym.text})' looks like ${name} as a function of ${arg.text}${sym.text}, not a product`;
  }
  return null;
}

/** A letter run that is neither English nor a unit nor the question's ('dq', 'dt' in "R dq/dt + q/C"). */
export const unreadableRun = (t: Tok | undefined): boolean =>
  !!t &&
  t.kind === 'word' &&
  /^[A-Za-z][A-Za-z0-9_]*$/.test(t.text) &&
  t.text.length <= 6 &&
  !STOPWORDS.has(t.text.toLowerCase()) &&
  !UNIT_WORDS.has(t.text) &&
  !CLAUSE_JOIN.test(t.text);

const inStretch = (t: Tok): boolean => isMathTok(t) || unreadableRun(t);

/**
 * "R dq/dt + q/C = V_0": maths the reader can't read ('dq', 'dt') splits the run, and what is left
 * ("+ q/C = V_0") is a side with a part silently dropped. The cut shows by an operator dangling at
 * it, or by an operator on the far side of the unreadable run. Returns [reason, token range of
 * the whole cut-up expression] or null.
 */
export function cutByUnreadable(toks: Tok[], i0: number, i1: number): [string, number, number] | null {
  const prev = toks[i0 - 1];
  const next = toks[i1];
  const first = toks[i0];
  const last = toks[i1 - 1];
  let from = i0;
  let run: Tok | null = null;
  if (unreadableRun(prev) && (first.kind === 'op' || toks[i0 - 2]?.kind === 'op')) run = prev;
  else if (unreadableRun(next) && (last.kind === 'op' || toks[i1 + 1]?.kind === 'op')) run = next;
  if (!run) return null;
  // The whole expression on the line: out over maths and unreadable runs.
  const ix = indexOf(toks);
  let to = i1;
  if (from > 0 && inStretch(toks[from - 1])) from = ix.stretchFrom[from - 1];
  if (to < toks.length && inStretch(toks[to])) to = ix.stretchTo[to];
  return [`'${run.text}' is written into it and can't be read: the equation would be recorded with a part missing`, from, to];
}

/** The doubt on a value in degrees, however it is stated ("θ = 55°", "the angle is 55°"): one wording. */
export const degreesDoubt = (value: string): string => `${value} is in degrees: whether it stands as written or in radians (30° is π/6) is the marker's call`;
