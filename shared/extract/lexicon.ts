// The question's vocabulary for the embedded extractor: which written symbols stand for which
// variable (s -> S, V0 -> v_0, t1 -> t, a symbol the student defined in words), how letter runs
// split into symbols and functions (mgh -> m g h, v0cos -> v0 cos), and which words of a label
// ("Group time", "max compression") name a variable. Pure.

import type { Question } from '../exam.ts';
import { variableUnits } from '../units/infer-unit.ts';
import { parseUnit, type Unit } from '../units/parse-unit.ts';
import { GREEK_VARIABLE_NAMES } from '../text/greek.ts';
import { STOPWORDS } from '../text/stopwords.ts';
import { normalize } from './normalize.ts';

/** The SI prefixes a student types before a unit ("GPa", "kHz", "MeV", "μA"). */
const SI_PREFIX = /^(?:T|G|M|k|h|d|c|m|mu|μ|n|p)$/;

/** Functions students write, and the grammar's name for each. */
export const FUNCTION_WORDS: Record<string, string> = {
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  sqrt: 'sqrt',
  root: 'sqrt',
  exp: 'exp',
  ln: 'log',
  // "log" alone is the natural log or the log to base 10 by the question (Lexicon.logBase).
  log: 'log',
  lg: 'log10',
  log10: 'log10',
  log_10: 'log10',
  asin: 'asin',
  acos: 'acos',
  atan: 'atan',
  arcsin: 'asin',
  arccos: 'acos',
  arctan: 'atan',
  abs: 'Abs',
};

/** Single letters that are English words in prose unless the question has them as variables. */
const ENGLISH_LETTERS = new Set(['a', 'A', 'I']);

/** Unit words dropped after a value (`100 m`, `2 m/s`, `9.8 m/s^2`). */
export const UNIT_WORDS = new Set([
  'm',
  's',
  'kg',
  'N',
  'J',
  'W',
  'cm',
  'mm',
  'km',
  'h',
  'g',
  'ms',
  'Hz',
  'Pa',
  'degrees',
  'deg',
  'rad',
  'min',
  'hr',
  // Electrical and thermal units: `12 V`, `5 A`, `300 K`, `2 mol`, `101 kPa`.
  'V',
  'A',
  'mA',
  'kV',
  'kW',
  'kJ',
  'K',
  'mol',
  'kPa',
  'atm',
  'ohm',
  'ohms',
  // Atomic and wave units: `2.3 eV`, `500 nm`, `7.5 MHz` (never products of the question's letters
  // after a number; "mT", "mV", "kN" are left out: after a number they can be m·T, m·V, k·N).
  'eV',
  'keV',
  'MeV',
  'GeV',
  'nm',
  'kHz',
  'MHz',
  'GHz',
  // Decibels: "β = 96.5 dB" (a word with a capital inside, which is otherwise maths: tokens.ts).
  'dB',
  // Turns: "f = 0.85 rev/s".
  'rev',
]);

const STOP_LABEL = new Set([
  'the',
  'a',
  'an',
  'her',
  'his',
  'their',
  'its',
  'our',
  'my',
  // "the line's own voltage drop": the owner is said, not another quantity.
  'own',
  'this',
  'that',
  'is',
  'so',
  'and',
  'then',
  'now',
  'we',
  'i',
  'let',
  'be',
  'denote',
  'denotes',
  'represent',
  'represents',
]);
const PREPOSITIONS = new Set([
  'of',
  'for',
  'to',
  'at',
  'relative',
  'per',
  'in',
  'on',
  'above',
  'below',
  'from',
  'with',
  'when',
  'along',
  'over',
  'by',
  'across',
  'until',
  // "work against friction", "heat lost during the fall", "force due to gravity": the quantity is
  // named before them, not by the noun after ("friction", "fall", "gravity").
  'against',
  'during',
  'due',
  'onto',
  'toward',
  'towards',
]);
/** Words opening a clause inside a description ("time since the kettle was switched off"). */
const CLAUSE_WORDS = new Set(['since', 'while', 'after', 'before', 'that', 'which', 'where', 'as', 'between', 'into', 'through']);
/** A pronoun after the noun opens a clause with no "that" ("the height it falls", "the speed she reaches"); it names nothing. */
const PRONOUNS = new Set(['it', 'he', 'she', 'they', 'we']);
const MODIFIERS = new Set(['total', 'whole', 'overall', 'final', 'maximum', 'entire', 'full', 'required', 'answer', 'unknown']);

const stem = (w: string): string => {
  let x = w.toLowerCase().replace(/'s$/, '').replace(/'$/, '');
  if (x === 'max') x = 'maximum';
  if (x === 'min') x = 'minimum';
  if (x.length > 3 && x.endsWith('s') && !x.endsWith('ss')) x = x.slice(0, -1);
  return x;
};

/** The usual abbreviations of energies, written out: "KE at bottom" names what a description of "kinetic energy" names. */
const ABBREVIATIONS = new Map<string, string[]>([
  ['ke', ['kinetic', 'energy']],
  ['pe', ['potential', 'energy']],
  ['gpe', ['gravitational', 'potential', 'energy']],
  ['epe', ['elastic', 'potential', 'energy']],
  ['spe', ['spring', 'potential', 'energy']],
]);

const abbreviated = (label: string): boolean => (label.match(/[A-Za-z]+/g) ?? []).some((w) => ABBREVIATIONS.has(w.toLowerCase()));

const words = (s: string): string[] => (s.match(/[A-Za-z]+(?:'[A-Za-z]*)?/g) ?? []).map(stem).flatMap((w) => ABBREVIATIONS.get(w) ?? [w]);

/** Participles after a noun ("current drawn", "power dissipated", "work done"): not the head. */
const PARTICIPLE = /^(?:[a-z]{3,}[^e]ed|done|drawn|given|taken|shown|known|held|kept|lost|spent|made|stored|supplied|heard|seen|felt)$/;

/** Words that start a noun phrase: after a leading phrase of circumstance, the label's own noun phrase starts at one. */
const DETERMINERS = new Set(['the', 'a', 'an', 'her', 'his', 'their', 'its', 'our', 'my']);

/** Words of a label that make it a whole, and words of a description that make its variable one part (each bulb's, one person's). */
const WHOLE = new Set(['total', 'whole', 'overall', 'entire', 'combined', 'net', 'equivalent']);
const PART = new Set(['one', 'each', 'single', 'individual']);

/**
 * Words that make a quantity a different one from the bare noun (a component, a frame, an
 * average): "horizontal speed" is not "launch speed", "speed over the ground" not "walking
 * speed". A variable is named by such a label only when its description has the word itself.
 */
const QUALIFIERS = new Set([
  'horizontal',
  'vertical',
  'radial',
  'tangential',
  'perpendicular',
  'parallel',
  'normal',
  'transverse',
  'longitudinal',
  'axial',
  'component',
  'x',
  'y',
  'z',
  'average',
  'mean',
  'instantaneous',
  'angular',
  'ground',
  'floor',
]);

/**
 * Nouns that name one kind of physical quantity unmistakably. A label headed by one that no
 * variable's description uses names a quantity the question has no variable for. (Nouns that
 * students swap for one another, such as time and period, height and drop, length and distance,
 * are not here: a label headed by one of them and matching no description stays unknown.)
 */
const QUANTITY_NOUNS = new Set([
  'energy',
  'momentum',
  'force',
  'power',
  'work',
  'impulse',
  'pressure',
  'charge',
  'current',
  'voltage',
  'resistance',
  'acceleration',
  'speed',
  'frequency',
  'wavelength',
  'tension',
  'torque',
  'temperature',
  'density',
  'volume',
  'area',
  'weight',
  'fraction',
  'ratio',
]);

/**
 * What a symbol conventionally stands for in physics, every meaning a student might use it for
 * (a symbol is taken as foreign to a question only when none of these is in its descriptions).
 */
const SYMBOL_MEANINGS: Record<string, string[]> = {
  F: ['force', 'tension', 'weight', 'friction', 'thrust', 'drag', 'lift'],
  f: ['force', 'frequency', 'focal', 'friction'],
  N: ['force', 'normal', 'reaction', 'number'],
  n: ['index', 'refractive', 'number', 'amount', 'mole', 'harmonic'],
  p: ['momentum', 'pressure'],
  P: ['power', 'pressure', 'momentum'],
  U: ['energy', 'potential'],
  K: ['energy', 'kinetic'],
  Q: ['heat', 'charge', 'energy'],
  W: ['work', 'weight', 'energy', 'force', 'tension'],
  s: ['displacement', 'distance', 'length', 'path', 'position', 'height'],
  m: ['mass', 'magnification'],
  r: ['radius', 'distance', 'separation'],
  I: ['current', 'inertia', 'intensity'],
  k: ['stiffness', 'spring', 'boltzmann', 'coulomb', 'wavenumber'],
  M: ['mass', 'moment', 'magnification'],
  // Greek letters with one conventional kind of meaning: "τ₁ = m₁g·d₁" in a question with no
  // torque or time is a torque; "tanθ" in one with no angle is an angle of the student's own.
  tau: ['torque', 'moment', 'time', 'lifetime', 'constant', 'tension'],
  theta: ['angle', 'inclination', 'incline', 'slope', 'bank', 'banking', 'direction', 'temperature'],
};

/** Words for the greatest value of a quantity: a label with one names a variable described with one ("max emf" is the peak emf). */
const EXTREME = new Set(['max', 'maximum', 'peak', 'greatest', 'largest', 'biggest', 'highest', 'amplitude']);

/** A description of a time that is a duration ("contact time", "time taken to stop", "a time interval"). */
const DURATION = /\b(?:duration|interval|time\s+taken|contact\s+time|time\s+of\s+contact|time\s+for|how\s+long)\b/;

/** A description of a quantity that is itself an increase ("rise in temperature", "change in height"). */
const AN_INCREASE = /^(?:the\s+)?(?:increase|rise|change|gain)\s+(?:in|of)\b/;

/** How a foreign symbol's quantity is named where its first meaning alone would say too little. */
const SYMBOL_NAMES: Record<string, string> = { k: "constant (a spring's, Boltzmann's or Coulomb's)" };

/** Nouns that name the same kind of quantity: a label's head and a description's head match through them. */
const SAME_HEAD: Record<string, string> = { velocity: 'speed', duration: 'time' };
const headKind = (w: string | null): string | null => (w === null ? null : (SAME_HEAD[w] ?? w));

/** Participles that make a quantity a change of another ("energy lost", "heat gained"). */
const CHANGE_WORDS = new Set(['lost', 'gained']);

/** Prepositions of a motion's end (to the water) and of a place (in the water). */
const MOTION_PREPOSITIONS = new Set(['to', 'from', 'toward', 'towards', 'onto']);
const PLACE_PREPOSITIONS = new Set(['in', 'inside', 'within', 'at', 'on', 'under', 'below', 'above']);

/**
 * Whether a label's noun after a preposition of place ("time in water") stands in a description
 * only after one of a motion's end ("… fall from the platform to the water"), or the other way
 * round: the label places the quantity elsewhere. Two places ("at the surface", "just below the
 * surface") are a paraphrase, not another quantity.
 */
function placedElsewhere(label: string, seq: string[]): boolean {
  const lw = words(label);
  const skipBack = (j: number): number => {
    while (j >= 0 && DETERMINERS.has(seq[j])) j--;
    return j;
  };
  for (let i = 0; i < lw.length; i++) {
    const motion = MOTION_PREPOSITIONS.has(lw[i]);
    if (!motion && !PLACE_PREPOSITIONS.has(lw[i])) continue;
    let j = i + 1;
    while (j < lw.length && DETERMINERS.has(lw[j])) j++;
    const noun = lw[j];
    if (!noun || PREPOSITIONS.has(noun)) continue;
    const at = seq.flatMap((w, k) => (w === noun ? [k] : []));
    const elsewhere = (k: number): boolean => {
      const b = skipBack(k - 1);
      return b >= 0 && (motion ? PLACE_PREPOSITIONS : MOTION_PREPOSITIONS).has(seq[b]);
    };
    if (at.length > 0 && at.every(elsewhere)) return true;
  }
  return false;
}

/** Head noun: the last content word before the first preposition, participles after it skipped. */
function headOf(all: string[]): { head: string | null; content: string[] } {
  let ws = all;
  // "on the way out her speed over the ground is v + w": the leading phrase says when, not what.
  if (ws.length > 0 && PREPOSITIONS.has(ws[0])) {
    const k = ws.findIndex((w, i) => i >= 2 && DETERMINERS.has(w) && ws.slice(1, i).some((x) => !STOP_LABEL.has(x)));
    if (k > 0) ws = ws.slice(k);
  }
  const content = ws.filter((w) => !STOP_LABEL.has(w) && !PRONOUNS.has(w));
  // A clause word ends the noun phrase as a preposition does: the head of "force between the
  // charges" is force, of "time since release" time (not charges, release).
  // (Looked for before stop words are dropped: "that" in "charge that flows through the motor" is one.)
  const p = ws.findIndex((w, i) => PREPOSITIONS.has(w) || CLAUSE_WORDS.has(w) || (i > 0 && PRONOUNS.has(w)));
  const pre = (p < 0 ? ws : ws.slice(0, p)).filter((w) => !STOP_LABEL.has(w));
  let h = pre.length - 1;
  while (h > 0 && PARTICIPLE.test(pre[h])) h--;
  return { head: h >= 0 ? pre[h] : null, content: content.filter((w) => !PREPOSITIONS.has(w)) };
}

/** Whether the text in a description's brackets is a unit ("km/h", "J kg^-1 K^-1", "°C", "radians"). */
function unitInBrackets(inner: string): boolean {
  const t = inner.trim();
  return t.length > 0 && (parseUnit(t).ok || /^(?:°\s*[CF]|degrees?(?:\s+[CF])?|deg|radians?|rad|dimensionless|unitless|no\s+units?)$/i.test(t));
}

/** The function name of a "log" whose base the question doesn't settle (tokens.ts leaves it unread). */
export const LOG_UNSURE = 'log?';

/**
 * The base a bare "log" has in this question: 10 where its scheme's or answer's logs are to base
 * 10 (`log(x, 10)`, `log(x)/log(10)`: decibels, pH); otherwise unsure, even where the scheme's logs
 * are natural, since "W = 2.303 nRT log(V2/V1)" writes the log to base 10 there.
 */
function logBaseOf(q: Question): 10 | null {
  const sources = [...q.scheme.flatMap((it) => it.accept ?? []), q.answer ?? ''].join(' ');
  return /log\((?:[^()]|\([^()]*\))*,\s*10\s*\)|\/\s*log\(\s*10\s*\)/.test(sources) ? 10 : null;
}

export type Lexicon = {
  /** The question's prompt normalised as a response is, with no spaces: to tell a quoted expression of the question ("why is v less than √(2gh)"). */
  promptMaths: string;
  /** What a bare "log" is in this question (logBaseOf). */
  logBase: 10 | null;
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
  /**
   * The quantity a symbol the question lacks conventionally stands for ("F": a force), when none
   * of the quantities it may stand for is named in any variable's description: its equations are
   * about something the question has no variable for. Null when it may be one of the question's.
   */
  foreignQuantity(sym: string): string | null;
  /**
   * Bounds from resolve's rules, so a letter run splits in time linear in its length: no string
   * longer than `shortSymbol` resolves (without aliases) except a root of at most `longestName`
   * letters, perhaps '_', and a subscript whose lower case is one of `subscriptWords`.
   */
  shortSymbol: number;
  longestName: number;
  subscriptWords: ReadonlySet<string>;
  /** A variable's unit: the exam's, else the one its description implies (shared/units); null when neither. */
  unitOf(name: string): Unit | null;
};

/** Short spellings students and question writers use for Greek names. */
const GREEK_SHORT: Record<string, string[]> = { lambda: ['lam', 'lamda', 'lmbda'], epsilon: ['eps'] };

/** A Greek letter's Latin stand-in on a keyboard without it (one way: the Latin letter reads as the Greek). */
export const LOOKALIKE: Readonly<Record<string, string>> = { omega: 'w', mu: 'u' };

/** The other spellings of a variable's root: its Greek name if it is a short spelling, its short spellings if it is a Greek name. */
function greekSpellings(root: string): string[] {
  const r = root.toLowerCase();
  if (GREEK_SHORT[r]) return GREEK_SHORT[r];
  return Object.entries(GREEK_SHORT).flatMap(([name, shorts]) => (shorts.includes(r) ? [name, ...shorts.filter((x) => x !== r)] : []));
}

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
  // A Greek letter's other spelling: 'lambda' can't name a variable (a Python word), so a question
  // calls it `lam` while students type λ; students type eps0 for ε₀. Added only where nothing of
  // the question already goes by that spelling.
  for (const v of variables) {
    const [root, ...subs] = v.split('_');
    const rest = subs.join('').toLowerCase();
    for (const other of greekSpellings(root)) {
      const k = other + rest;
      if (!flat.has(k)) flat.set(k, [v]);
    }
  }
  // The Latin letter that stands in for a Greek one on a keyboard without it: w for ω ("w = v/r",
  // "½Iw²"), u for μ ("f = umg"), lower case and one way only, where nothing of the question goes
  // by that letter in either case (a question's W, work, keeps w from meaning ω; its u, a speed,
  // keeps u from meaning μ; "W" is never ω). A u that is the student's own speed ("v² = u² + 2as")
  // leaves its equation unbalanced, and the engine's check sends it to review (case-mapped.ts).
  const standIns = new Map<string, string>();
  for (const v of variables) {
    const [root, ...subs] = v.split('_');
    const stand = LOOKALIKE[root];
    const rest = subs.join('').toLowerCase();
    const lettersOwn = variables.some((x) => x.split('_')[0].toLowerCase() === stand);
    if (stand && !lettersOwn && !flat.has(stand + rest)) {
      standIns.set(stand + rest, v);
      if (subs.length) standIns.set(`${stand}_${subs.join('_')}`, v);
    }
  }
  // "u0", "uo" for μ₀ (the permeability, "uoI/2πr"): u for μ with the constant's zero, where no
  // variable of the question is written with a u (a speed u keeps u0 its own).
  if (variables.includes('mu_0') && !variables.some((v) => /^u(?:_|$|\d)/i.test(v)))
    for (const k of ['u0', 'u_0', 'uo', 'u_o']) if (!flat.has(k.replace('_', ''))) standIns.set(k, 'mu_0');
  // ε for an emf the question calls E ("ε = NBAω", "ε_rms"): the usual letter of an emf, where the
  // question has no ε of its own and its E (with that subscript) is described as an emf.
  if (!variables.some((v) => /^epsilon/i.test(v))) {
    for (const v of q.variables) {
      const m = /^E(_.+)?$/.exec(v.name);
      if (!m || !/\b(?:emf|e\.m\.f\.?|electromotive)/i.test(v.description)) continue;
      const sub = m[1] ?? '';
      for (const k of [`epsilon${sub}`, `epsilon${sub.replace(/_/g, '')}`]) if (!flat.has(k.toLowerCase())) standIns.set(k, v.name);
    }
  }
  // Greek letters a lost '?' could stand for: Greek-named variables, subscripted ones too (theta_0),
  // and pi when the question's answers use it ("T = 2?√(L/g)" lost a π, not the variable).
  const greekVars = variables.filter((v) => GREEK_VARIABLE_NAMES.has(v.replace(/_[A-Za-z0-9]+$/, '').toLowerCase()));
  const usesPi = [q.answer ?? '', ...q.scheme.flatMap((it) => it.accept ?? [])].some((f) => /\bpi\b/.test(f));
  const greekCandidates = greekVars.length + (usesPi ? 1 : 0);
  const promptWords = new Set(words(`${q.prompt} ${q.title}`));
  const capitalInitials = new Set((`${q.prompt} ${q.variables.map((v) => v.description).join(' ')}`.match(/\b[A-Z][a-z]+/g) ?? []).map((w) => w[0]));

  const descInfo = q.variables.map((v) => {
    // "magnitude of the normal force on the car" names the normal force.
    // A unit in brackets ("flight time (h)", "temperature (°C)") is no word of the description: read
    // as one, "h" was the head noun and "flight time" named no variable.
    const unitless = v.description.replace(/\(([^()]*)\)/g, (all, inner: string) => (unitInBrackets(inner) ? ' ' : all));
    const described = unitless.replace(/^\s*(?:the\s+)?(?:magnitude|size|value)\s+of\s+/i, '');
    const ws = words(described);
    // The noun phrase ends at a comma: "ground speed, due north" is a speed, "wind speed, blowing
    // from west to east" too (the words after the comma say which, as a preposition's do).
    // A name in brackets is another name, not the head: "upthrust (buoyant force) of the water" is
    // an upthrust (its bracket's words join the kind below).
    const phrase = words(described.split(/[,;]/)[0].replace(/\([^()]*\)/g, ' '));
    const p = phrase.findIndex((w) => PREPOSITIONS.has(w) || CLAUSE_WORDS.has(w));
    // The words before the first preposition (or clause: "time since the kettle ...") name the kind ("half-life" of the isotope); those after
    // it, and possessives, say whose ("of the group", "Mali's").
    const owners = new Set(words((v.description.match(/[A-Za-z]+'s\b/g) ?? []).join(' ')));
    const kind = (p < 0 ? phrase : phrase.slice(0, p)).filter((w) => !owners.has(w));
    // A short name in brackets is another name of the kind: "rate of heat flow … (waste power)";
    // a unit in brackets ("(kg/s)", "(N m)") is none.
    for (const m of v.description.matchAll(/\(([^()]*)\)/g)) {
      const inner = words(m[1]);
      const named = /^[A-Za-z\s-]+$/.test(m[1]) && !unitInBrackets(m[1]) && inner.every((w) => w.length >= 3);
      if (named && inner.length <= 3 && !inner.some((w) => PREPOSITIONS.has(w) || CLAUSE_WORDS.has(w))) kind.push(...inner);
    }
    // "combined resistance of R_2 and R_L": a whole made of parts the description names by symbol.
    const namesParts = q.variables.some((o) => o.name !== v.name && new RegExp(`(?<![A-Za-z0-9_])${o.name}(?![A-Za-z0-9_])`).test(v.description));
    const isWhole = ws.some((w) => WHOLE.has(w));
    // "work done by the pushers on the sled": one agent's share, never the whole a label says ("total work").
    const byAgent = !isWhole && ws.includes('by');
    // Whose quantity it is: the noun right after its "of" ("speed of the trolley just after …": the trolley's).
    const owner = p >= 0 && phrase[p] === 'of' ? (phrase.slice(p + 1).find((w) => !DETERMINERS.has(w)) ?? null) : null;
    // "speed of the ball relative to the trolley": a quantity in another frame than the ground's.
    const relative = phrase.includes('relative');
    return {
      name: v.name,
      head: headOf(phrase).head,
      words: new Set(ws),
      seq: ws,
      kind: new Set(kind),
      isWhole,
      byAgent,
      ofNamedParts: namesParts && isWhole,
      owner,
      relative,
    };
  });
  for (const d of descInfo) for (const w of d.words) promptWords.add(w);

  const flatOne = (sym: string): string | null => {
    const c = flat.get(sym.replace(/_/g, '').toLowerCase());
    // A case variant only when the other case isn't itself something else in the question.
    return c && c.length === 1 ? c[0] : null;
  };
  const base = (sym: string): string | null => {
    if (exact.has(sym)) return sym;
    const b = flatOne(sym) ?? standIns.get(sym) ?? null;
    if (b) return b;
    // "ε_o", "v_o": the letter o typed for a zero subscript, where the question has the zero and
    // nothing with an o.
    const m = /^([A-Za-z]+_)[oO]$/.exec(sym);
    return m ? flatOne(`${m[1]}0`) : null;
  };

  // "t_half" with T the half-life: a subscript word that names another variable's kind of quantity
  // (not this one's) names that other quantity, not this variable. A word saying whose quantity
  // it is ("t_group", with u the speed of the group) is a subscript like any other.
  const anotherVariablesWord = (root: string, sub: string): boolean => {
    // The description's words are stems already (words()).
    const w = stem(sub);
    return !descInfo.some((d) => d.name === root && d.words.has(w)) && descInfo.some((d) => d.name !== root && d.kind.has(w));
  };
  // The letters the question's own symbols are written with (T of Delta_T, V of V_1): glued on as a
  // capital ("nRT" where the question has Delta_T), such a letter is that quantity's, not a subscript.
  const lettersOfNames = new Set(variables.map((v) => v.replace(/^Delta_?/, '').replace(/_.*$/, '')).filter((l) => /^[A-Z]$/.test(l)));
  // "find the smallest angle theta": θ_min (θ_max for "the greatest …") is that variable, the
  // extreme the question asks for; elsewhere a min or max is another value of the quantity.
  const extremeAsked = (root: string, sub: string): boolean => {
    const words = /^min$/i.test(sub) ? 'smallest|least|minimum|lowest' : /^max$/i.test(sub) ? 'largest|greatest|maximum|highest|biggest' : null;
    return !!words && new RegExp(`\\b(?:${words})\\s+(?:[A-Za-z-]+\\s+){0,3}${root}\\b`, 'i').test(q.prompt);
  };
  // "T_top" where the question has no T but T_1 ("tension … at the top of the circle") and T_2
  // ("… at the bottom …"): a word subscript on a letter the question only writes with subscripts
  // names the one variable of that letter whose description has the word (convention 3); in none
  // or in several, nothing (a doubt, as before). Written with '_' only: glued, "Ttop" is no symbol.
  const describedVariant = (letter: string, sub: string): string | null => {
    if (sub.length < 3 || /\d/.test(sub) || STOPWORDS.has(sub.toLowerCase())) return null;
    const w = stem(sub);
    const named = descInfo.filter((d) => d.name.startsWith(`${letter}_`) && d.words.has(w));
    return named.length === 1 ? named[0].name : null;
  };
  // "Δp = mv − 0" where the question has no p but J, "the phone's change of momentum": the change
  // of a quantity the question doesn't name is the one variable described as that change (by
  // what the symbol conventionally stands for; an impulse is a change of momentum). Two such
  // variables, or none: unmapped.
  const changeOfForeign = (x: string): string | null => {
    const meanings = SYMBOL_MEANINGS[x];
    if (!meanings) return null;
    const said = new RegExp(String.raw`\b(?:change|increase|rise|gain)\s+(?:in|of)\s+(?:(?:the|its|their|[a-z]+'s)\s+)?(?:${meanings.join('|')})\b`);
    const impulse = meanings.includes('momentum') ? /\bimpulse\b/ : null;
    const found = q.variables.filter((v) => said.test(v.description.toLowerCase()) || impulse?.test(v.description.toLowerCase()));
    return found.length === 1 ? found[0].name : null;
  };
  const resolve = (sym: string, aliases: ReadonlyMap<string, string>): string | null => {
    // An alias '' marks a symbol the response uses for something that is not a variable.
    if (aliases.has(sym)) return aliases.get(sym) || null;
    const b = base(sym);
    if (b) return b;
    // "ṁ = Q/(cΔT)" (m_dot) for the question's m, "mass flow rate of the coolant": a dot marks a
    // rate, which that variable is already, where the question has no m_dot of its own.
    const dotted = /^([A-Za-z]+)_dot$/.exec(sym);
    if (dotted) {
      const x = base(dotted[1]);
      const d = x ? (q.variables.find((v) => v.name === x)?.description ?? '') : '';
      if (x && /\brate\b|\bper\s+(?:second|unit\s+time)\b|\/\s*s\b/i.test(d)) return x;
    }
    // "Q = m*c*dT" for the question's ΔT: a d before a capital is the change, where the question
    // has that change and no d of its own ("dT/dt", a rate, is a derivative: tokens.ts).
    const change = /^d([A-Z][A-Za-z0-9]*)$/.exec(sym);
    if (change && !flat.has('d')) {
      const x = base(`Delta${change[1]}`);
      if (x) return x;
    }
    // "ΔU" where the question's U is itself a change ("increase in internal energy"): the same
    // quantity, written as the change it is (where the question has no Delta_U of its own).
    const delta = /^[Dd]elta_?([A-Za-z].*)$/.exec(sym);
    if (delta) {
      const x = base(delta[1]);
      if (!x) return changeOfForeign(delta[1]);
      const d = (q.variables.find((v) => v.name === x)?.description ?? '').toLowerCase();
      // "F = Δp/Δt" where the question's t is "the contact time", "a time interval": a time the
      // question describes as a duration is already a change of time (the blind rounds' writers
      // all record Δt as t there).
      const duration = delta[1] === 't' && x === 't' && DURATION.test(d);
      return !x.startsWith('Delta') && (AN_INCREASE.test(d) || duration) ? x : null;
    }
    // Subscripted variant of a variable: t1, t_2, T_group, t_Mali, V_M. A word subscript must be the
    // question's own word: a generic one ("R_total", "v_final") says there is another quantity
    // but not that it is this variable (the total resistance may be R + r, not R), so it is left
    // unmapped rather than guessed.
    const m = /^([A-Za-z]+?)_?([A-Za-z0-9]+)$/.exec(sym);
    if (!m) return null;
    const [, stemSym, sub] = m;
    const root = aliases.get(stemSym) ?? base(stemSym);
    if (!root && sym.includes('_')) return describedVariant(stemSym, sub);
    if (!root || root.includes('_')) return null;
    // "200 GPa", "5 MPa": an SI prefix and a unit the prompt spells ("Pa") is that unit, not G
    // (read as g) with the word subscript "Pa".
    if (!sym.includes('_') && SI_PREFIX.test(stemSym) && sub.length > 1 && parseUnit(sub).ok) return null;
    // Nor is a glued English word or function name a subscript, though the prompt has it: "NBAt"
    // is N·B·A·t, not N·B_at, and "Lcosθ" is L·cos θ, not L_cos θ (both dropped maths silently).
    if (!sym.includes('_') && (STOPWORDS.has(sub.toLowerCase()) || Object.hasOwn(FUNCTION_WORDS, sub.toLowerCase()))) return null;
    // Nor a run of the question's own one-letter names, though the prompt spells it ("why v is less
    // than √(2gh)" makes 'gh' a prompt word): "mgh" is m·g·h, never m with the subscript gh.
    if (!sym.includes('_') && sub.length > 1 && [...sub].every((c) => exact.has(c))) return null;
    const subOk =
      extremeAsked(root, sub) ||
      /^\d{1,2}$/.test(sub) ||
      (sub.length > 1 && promptWords.has(stem(sub)) && !anotherVariablesWord(root, sub)) ||
      (/^[A-Z]$/.test(sub) && capitalInitials.has(sub) && (sym.includes('_') || (!base(sub) && !lettersOfNames.has(sub))));
    // "F_near" where the question has F (the net force) and F_1, F_2 (the forces on the near and
    // far sides): a word subscript on a letter the question also numbers names the one whose
    // description has that word; where it is in more than one of theirs (and not the letter's own),
    // it may be any of them. In none, it says whose quantity it is, as elsewhere ("D_kettle" is D).
    if (subOk && sub.length > 1 && !/^\d+$/.test(sub) && !extremeAsked(root, sub)) {
      const w = stem(sub);
      const named = descInfo.filter((d) => d.name !== root && d.name.replace(/_.*$/, '') === root && d.words.has(w));
      if (named.length > 0 && !descInfo.some((d) => d.name === root && d.words.has(w))) return named.length === 1 ? named[0].name : null;
    }
    // A capital letter glued on without '_' that is itself a variable ("RT" with T the temperature)
    // is a factor, not a subscript: "nRT" is n*R*T, never n*R_T.
    if (subOk) return root;
    // "t_half" with T the half-life: the letter in another case with a subscript naming that
    // variable's kind of quantity is that variable (convention 3, by meaning).
    if (sub.length > 1 && anotherVariablesWord(root, sub)) {
      const w = stem(sub);
      const named = descInfo.filter((d) => d.name !== root && d.kind.has(w) && d.name.toLowerCase() === stemSym.toLowerCase());
      if (named.length === 1) return named[0].name;
    }
    // "E_k" for the question's E, "kinetic energy of the protons": a one-letter subscript that is
    // the initial of a word qualifying the variable's own kind (not its owner, "v_i" is no "speed
    // of the ball at impact"), where no other variable is written with that letter.
    if (/^[a-z]$/.test(sub) && sym.includes('_') && !variables.some((v) => v !== root && v.split('_')[0] === root)) {
      const d = descInfo.find((x) => x.name === root);
      if (d && [...d.kind].some((w) => w !== d.head && w.startsWith(sub) && !STOP_LABEL.has(w) && !STOPWORDS.has(w))) return root;
    }
    return null;
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
  /**
   * Whether a qualifier of the label ("horizontal") is missing from the variable's description, or
   * the label says a whole ("total resistance") where the description names one part of it
   * ("resistance of one bulb"): "the total resistance is NR" is no value of R.
   */
  const qualifiedAway = (content: string[], d: { words: Set<string> }): boolean =>
    content.some((w) => QUALIFIERS.has(w) && !d.words.has(w)) || (content.some((w) => WHOLE.has(w)) && [...PART].some((w) => d.words.has(w)));
  const labelVariable = (label: string): string | null => {
    const { head, content } = headOf(words(label));
    if (!head || content.length === 0 || content.length > 6) return null;
    if (ANSWER_HEADS.has(head) && content.length <= 2 && q.target) return q.target;
    const cands = descInfo.filter((d) => headKind(d.head) === headKind(head));
    const saysWhole = content.some((w) => WHOLE.has(w));
    // Whose the label says it is: a noun before its head ("ball velocity"), or after its "of" ("speed of the ball").
    const lw = words(label);
    const of = lw.indexOf('of');
    const whose = [...lw.slice(0, Math.max(0, lw.indexOf(head))), ...(of >= 0 ? [lw.slice(of + 1).find((w) => !DETERMINERS.has(w)) ?? ''] : [])];
    const wholes = cands.some((d) => d.isWhole);
    let best: string | null = null;
    let bestScore = -1;
    let bestUnsaid = 0;
    let bestSaid = false;
    let passed = 0;
    let tie = false;
    for (const d of cands) {
      if (!content.every((w) => w === head || d.words.has(w) || promptWords.has(w) || MODIFIERS.has(w))) continue;
      // A variable described as one particular quantity ("reaction time") is not named by a label
      // that qualifies the kind with a word of the prompt its description lacks ("time to stop"):
      // that is another time. A generic description ("a journey time") takes the prompt's words.
      if (describesOne(d.name) && content.some((w) => w !== head && !d.words.has(w) && !MODIFIERS.has(w))) continue;
      // "time in water" is not t, "time taken to fall from the platform to the water": a noun the
      // description has only after another preposition places the quantity elsewhere.
      if (placedElsewhere(label, d.seq)) continue;
      // "total resistance" is not R_P, "combined resistance of R_2 and R_L": a whole of parts the
      // description names is not the whole a label says without them; nor is a variable that is
      // no whole at all (R_L, "load resistance").
      // Nor, where the question has two quantities of the kind or more ("resistance of the series
      // resistor", "resistance of the lamp"), is one of them the whole a label says ("Total
      // resistance R + R_L"), nor is one agent's share ("work done by the pushers" is no "total
      // work"), unless it is described as a whole itself.
      if (saysWhole && (d.ofNamedParts || ((wholes || cands.length > 1 || d.byAgent) && !d.isWhole)) && !/[A-Z0-9_]/.test(label.replace(/^[A-Z]/, '')))
        continue;
      // "the kinetic energy" is not K, "kinetic energy lost by the car": a change the description
      // names (lost, gained) and the label doesn't is another quantity than the label's.
      if ([...d.kind].some((w) => CHANGE_WORDS.has(w)) && !content.some((w) => CHANGE_WORDS.has(w))) continue;
      if (qualifiedAway(content, d)) continue;
      // "Ball velocity": a label that says whose quantity it is names no variable that is another's
      // ("speed of the trolley …", though the ball is in its description); nor, without saying
      // relative or a word of its own kind ("rowing speed" is "rowing speed relative to the
      // water"), one measured relative to something else ("speed of the ball relative to the trolley").
      if (d.owner && cands.some((o) => o.owner && whose.includes(o.owner)) && !whose.includes(d.owner)) continue;
      if (d.relative && !lw.includes('relative') && !content.some((w) => w !== head && d.kind.has(w))) continue;
      // "max emf" is the peak emf (E_0), never the emf at time t: a word for the greatest value
      // names only a variable described by one of them.
      const extreme = content.some((w) => EXTREME.has(w));
      if (extreme && ![...d.words].some((w) => EXTREME.has(w))) continue;
      // Between equals, the variable whose own kind the label says whole: "the speed of the mass" is
      // v ("speed of the mass …") rather than ω ("angular speed of the flywheel after the mass …").
      // ("emf" is E, "emf induced in the coil", before E_0, "peak emf": a participle says no kind.)
      const unsaid = [...d.kind].filter((w) => w !== head && !content.includes(w) && !STOP_LABEL.has(w) && !PARTICIPLE.test(w)).length;
      const score = 10 * content.filter((w) => d.words.has(w)).length - unsaid;
      passed++;
      if (score > bestScore) {
        best = d.name;
        bestScore = score;
        bestUnsaid = unsaid;
        bestSaid = content.some((w) => w !== head && d.words.has(w));
        tie = false;
      } else if (score === bestScore) tie = true;
    }
    // "distance" where the question has s, "braking distance", and D, "total stopping distance":
    // the label says nothing that tells them apart, and neither is named by the bare noun, so
    // fewer unsaid words are no evidence: none is named.
    if (passed > 1 && !bestSaid && bestUnsaid > 0) return null;
    return tie ? null : best;
  };

  const labelKind = (label: string): 'variable' | 'other' | 'unknown' => {
    if (labelVariable(label)) return 'variable';
    // "KE at bottom" names a variable described as a kinetic energy; where there is none, it is a
    // doubt, not another quantity left out: leaving maths out rests on knowing what the words say,
    // and an abbreviation is trusted only to match a description (round 36's "KE = qV" read alone
    // would have been left out, and the next line's V, meant as the question's U, read as V).
    if (abbreviated(label)) return 'unknown';
    const { head, content } = headOf(words(label));
    if (!head || content.length === 0 || content.length > 6) return 'unknown';
    const cands = descInfo.filter((d) => headKind(d.head) === headKind(head));
    // "its initial energy": a kind of quantity that no variable of the question is described as.
    if (cands.length === 0) return QUANTITY_NOUNS.has(headKind(head)!) && !descInfo.some((d) => d.words.has(head)) ? 'other' : 'unknown';
    // "horizontal velocity", "average speed": every variable of that kind is another quantity.
    if (cands.every((d) => qualifiedAway(content, d))) return 'other';
    // A word foreign to the question after the head ("speed at the bottom", "time to the top") may
    // name another quantity or be the student's paraphrase of a variable's own ("the bottom" for
    // "the lowest point"): which can't be told, so the maths is left unread, never dropped as
    // another quantity's (round 13 showed "the speed at the bottom is √(2gh)" dropped silently).
    return 'unknown';
  };

  // resolve's rules, in lengths: a variable written with '_' anywhere (at most one per letter),
  // or a root (a variable's name, or its name flattened) + '_' + a subscript that is two digits,
  // one capital, or a word of the question or a modifier with one letter more (stem drops an 's').
  // (A name flattened has at most one '_' per letter; a subscript of two characters or fewer is a
  // number or a capital or a short word; a longer one is a word whose stem is the question's.)
  const longestName = Math.max(0, ...variables.map((v) => v.length));
  const subscriptWords = new Set<string>(['max', 'min']);
  for (const w of [...promptWords, ...MODIFIERS]) if (/^[a-z]+$/.test(w)) subscriptWords.add(w).add(`${w}s`);
  const described = new Set(descInfo.flatMap((d) => [...d.words].map((w) => headKind(w)!)));
  const foreignQuantity = (sym: string): string | null => {
    // "dT/dt" (tokens.ts): a rate of change, which no variable of a question is.
    if (/^d[A-Za-z][A-Za-z0-9_]*\/d[A-Za-z][A-Za-z0-9_]?$/.test(sym)) return 'derivative';
    // "ΔU" (normalised DeltaU) is a change of U: foreign when U is.
    const root = sym
      .replace(/^[Dd]elta(?=[A-Za-z])/, '')
      .replace(/_.*$/, '')
      .replace(/\d+$/, '');
    if (variables.includes(root) || variables.some((v) => v.toLowerCase() === root.toLowerCase())) return null;
    // "N = m(g ± a)" where the question has N_1 and N_2: the letter of its own subscripted
    // variables names one of them (or both, in turn), never a quantity foreign to it.
    if (variables.some((v) => v.replace(/_.*$/, '').replace(/\d+$/, '').toLowerCase() === root.toLowerCase())) return null;
    const meanings = SYMBOL_MEANINGS[root];
    if (!meanings || meanings.some((m) => described.has(headKind(m)!))) return null;
    return SYMBOL_NAMES[root] ?? meanings[0];
  };
  const unitOf = (name: string): Unit | null => variableUnits(q).get(name) ?? null;
  const lex: Lexicon = {
    promptMaths: normalize(q.prompt).text.replace(/\s+/g, ''),
    logBase: logBaseOf(q),
    unitOf,
    shortSymbol: Math.max(2 * longestName + 1, longestName + 3, LONGEST_FUNCTION_WORD, 2),
    longestName,
    subscriptWords,
    labelKind,
    numberedRoot,
    describesOne,
    foreignQuantity,
    variables,
    target: q.target,
    greek: greekVars.length === 1 && greekCandidates === 1 ? greekVars[0] : undefined,
    resolve,
    labelVariable,
  };
  cache.set(q, lex);
  return lex;
}

const LONGEST_FUNCTION_WORD = Math.max(...Object.keys(FUNCTION_WORDS).map((w) => w.length));

/** The longest alias key of a map (cached while the map doesn't grow). */
const aliasLengths = new WeakMap<ReadonlyMap<string, string>, { size: number; longest: number }>();
function longestAlias(aliases: ReadonlyMap<string, string>): number {
  const hit = aliasLengths.get(aliases);
  if (hit && hit.size === aliases.size) return hit.longest;
  let longest = 0;
  for (const k of aliases.keys()) longest = Math.max(longest, k.length);
  aliasLengths.set(aliases, { size: aliases.size, longest });
  return longest;
}

export type Piece = { kind: 'sym'; name: string; text: string } | { kind: 'fn'; name: string; text: string };

/**
 * Split a letter run into symbols and functions (mgh -> m g h; v0cos -> v_0 cos; sintheta -> sin
 * theta), longest pieces first with backtracking. Null when it doesn't split: a word, or a symbol
 * the question doesn't know.
 */
export function splitRun(
  run: string,
  lex: Lexicon,
  aliases: ReadonlyMap<string, string>,
  why?: { caseChange?: boolean },
  /** The run is glued into maths ("me⁴"): an English word it spells is no reason to leave it a word. */
  inMaths = false,
): Piece[] | null {
  if (!inMaths && STOPWORDS.has(run.toLowerCase()) && !lex.variables.includes(run) && !aliases.has(run)) return null;
  if (!inMaths && ENGLISH_LETTERS.has(run) && !lex.variables.includes(run) && !aliases.has(run)) return null;
  // A plural of a function word is English ("the roots v = ..."), not root(s)*...
  if (/^(root|sine|cosine|log)s$/i.test(run)) return null;
  const pieces = splitPieces(run, lex, aliases);
  // A run of mixed case whose letters had to change case to become variables ("Ts" -> t*S, "Vu")
  // is more likely a name with a subscript (T_s) than a product: not read. A run in one case
  // ("UV" from a student who writes in capitals) is still a product.
  const syms = pieces?.filter((p) => p.kind === 'sym') ?? [];
  const mixedCase = /[A-Z]/.test(run) && /[a-z]/.test(run);
  // (A letter the student defined as the variable, "M = hanging mass", changes no case.)
  const caseChanged = syms.some((p) => p.text !== p.name && p.text.toLowerCase() === p.name.toLowerCase() && aliases.get(p.text) !== p.name);
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

/**
 * Ends of the subscript words starting at each position of a run (case folded): where a long
 * symbol (a root and a word subscript, "t_group") can end. Linear: each start walks a trie.
 */
function subscriptEnds(run: string, words: ReadonlySet<string>): { at: Int32Array; ends: number[] } {
  const trie = trieOf(words);
  const lower = run.toLowerCase();
  const at = new Int32Array(run.length + 1); // ends of position k: ends[at[k]] .. ends[at[k + 1] - 1]
  const ends: number[] = [];
  for (let k = 0; k < run.length; k++) {
    at[k] = ends.length;
    let node: Trie | undefined = trie;
    for (let j = k; j < run.length && node;) {
      node = node.next.get(lower[j++]);
      if (node?.word) ends.push(j);
    }
  }
  at[run.length] = ends.length;
  return { at, ends };
}

type Trie = { next: Map<string, Trie>; word: boolean };
const tries = new WeakMap<ReadonlySet<string>, Trie>();
function trieOf(words: ReadonlySet<string>): Trie {
  let root = tries.get(words);
  if (root) return root;
  root = { next: new Map(), word: false };
  for (const w of words) {
    let n = root;
    for (const c of w) {
      let m = n.next.get(c);
      if (!m) n.next.set(c, (m = { next: new Map(), word: false }));
      n = m;
    }
    n.word = true;
  }
  tries.set(words, root);
  return root;
}

/**
 * The split itself: longest pieces first with backtracking, worked from the end of the run so each
 * position is tried once, against the pieces that can resolve there (linear in the run).
 */
function splitPieces(run: string, lex: Lexicon, aliases: ReadonlyMap<string, string>): Piece[] | null {
  const n = run.length;
  const aliasLen = longestAlias(aliases);
  const short = Math.max(lex.shortSymbol, aliasLen + 3);
  const rootLen = Math.max(lex.longestName, aliasLen);
  const wordEnds = n > short && /[a-z]{3}/i.test(run) ? subscriptEnds(run, lex.subscriptWords) : null; // (a run no longer than `short` has no long piece)
  /** For each start, the end of its first piece in the split of the rest (-1: no split), and the piece. */
  const end = new Int32Array(n + 1).fill(-1);
  const piece: (Piece | null)[] = new Array(n).fill(null);
  end[n] = n;
  const seen = new Map<string, Piece | null>(); // pieces are never changed, so one object can be shared
  const tryPiece = (i: number, j: number): boolean => {
    if (j < n && run[j] === '_') return false; // never cut a name from its subscript
    // Nor keep the '_' and drop the subscript: "v_m" with no v_m is a name the question lacks, not v*m.
    if (run[j - 1] === '_') return false;
    if (end[j] < 0) return false;
    const part = run.slice(i, j);
    let p = seen.get(part);
    if (p === undefined) {
      let fn = FUNCTION_WORDS[part];
      if (part === 'log' || part === 'Log') fn = lex.logBase === 10 ? 'log10' : LOG_UNSURE;
      const v = fn ? null : (lex.resolve(part, aliases) ?? (/^(pi|Pi|PI)$/.test(part) ? 'pi' : null));
      p = fn ? { kind: 'fn', name: fn, text: part } : v ? { kind: 'sym', name: v, text: part } : null;
      seen.set(part, p);
    }
    if (!p) return false;
    end[i] = j;
    piece[i] = p;
    return true;
  };
  for (let i = n - 1; i >= 0; i--) {
    if (run[i] === '_' || /\d/.test(run[i])) continue;
    // Longer than `short`: a root, perhaps '_', and a word subscript; longest first.
    const long: number[] = [];
    if (wordEnds) {
      for (let k = i + 1; k <= Math.min(n - 1, i + rootLen + 1); k++) {
        for (let e = wordEnds.at[k]; e < wordEnds.at[k + 1]; e++) if (wordEnds.ends[e] > i + short) long.push(wordEnds.ends[e]);
      }
    }
    long.sort((x, y) => y - x);
    let found = false;
    for (let q = 0; q < long.length && !found; q++) if (q === 0 || long[q] !== long[q - 1]) found = tryPiece(i, long[q]);
    for (let j = Math.min(n, i + short); j > i && !found; j--) found = tryPiece(i, j);
  }
  if (end[0] < 0) return null;
  const out: Piece[] = [];
  for (let i = 0; i < n; i = end[i]) out.push(piece[i]!);
  return out;
}
