// The embedded extractor: reads the equations in typed student text without a language model,
// following the gold conventions of ../shared/data/README.md. Every equation it emits was parsed
// by OUR strict grammar (shared/equation/parser.ts) from normalised text; nothing is evaluated.
// It says what it could not read (unread spans with reasons) rather than guess: status 'read'
// only when every piece of maths in the text is accounted for. Pure: no Node, no DOM.
//
// Pipeline: blank / attachment lines / retractions -> normalise (LaTeX, unicode, lost Greek '?')
// -> definitions ("let x = Mali's speed") -> tokens -> maths runs between prose -> for each run:
// inequality or limit (ignored), equation or chain (pairs; '±' twice), a labelled expression
// ("Group time = 2S/u", "max compression: √(2gh/k)") or an unread expression.

import { equationToSympy, parseEquation, formatErrors } from '../equation/index.ts';
import type { Question } from '../exam.ts';
import type { ExtractedEquation, Extraction, ExtractionFlag, Span, UnreadSpan } from '../extraction.ts';
import { lexiconFor, STOPWORDS, UNIT_WORDS, type Lexicon } from './lexicon.ts';
import { normalize, type Mapped } from './normalize.ts';
import { mentionsAttachment } from './attachment.ts';
import { render, tokenize, type Tok } from './tokens.ts';

export { normalize } from './normalize.ts';
export { lexiconFor, splitRun } from './lexicon.ts';
export { mentionsAttachment } from './attachment.ts';

/** Responses longer than this are not read (a pasted essay or a hostile input): abstain. */
export const MAX_TEXT = 20000;

const ATTACHMENT_LINE = /^[ \t]*attachments?[ \t]*:.*$/gim;

const RETRACTION =
  /\b(scratch that|ignore (?:all of )?(?:the|everything) above|(?:ignore|disregard) (?:it|that|this|the above)(?=\s*(?:[.,;!)]|$))|cross that out|strike that)/gi;

/**
 * Retractions of one line ("ignore that line", "(that line is wrong)", "disregard the previous
 * step", "cross out the line above"). Group 1 is set when the phrase points back ("previous",
 * "last", "above", "preceding"): the line before is retracted. Otherwise ("that line", "this
 * step") the line holding the phrase when maths is on it, else the line before.
 */
const LINE_WORD = String.raw`(?:line|step|equation|working|bit|part)`;
const BACK_WORD = String.raw`(?:previous|last|preceding|above|prior)`;
const LINE_RETRACTION = new RegExp(
  [
    String.raw`\b(?:ignore|disregard|delete|scratch|forget|cross\s+out|strike(?:\s+out)?|remove|skip)\s+(?:(?:the|my)\s+(${BACK_WORD})\s+${LINE_WORD}|(?:that|this)\s+(?:(${BACK_WORD})\s+)?${LINE_WORD}|(?:the\s+)?${LINE_WORD}\s+(above|before\s+this|before))\b`,
    String.raw`\b(?:(?:the|my)\s+(${BACK_WORD})|that|this)\s+${LINE_WORD}\s+(?:is|was|'s)\s+(?:wrong|incorrect|a\s+mistake|an\s+error|nonsense|rubbish)\b`,
    String.raw`\b(?:that|this)\s+${LINE_WORD}'s\s+(?:wrong|incorrect|a\s+mistake)\b`,
  ].join('|'),
  'gi',
);

type Ctx = {
  lex: Lexicon;
  aliases: Map<string, string>;
  norm: Mapped;
  original: string;
  equations: ExtractedEquation[];
  unread: UnreadSpan[];
  notes: string[];
  flags: Set<ExtractionFlag>;
  mathSeen: boolean;
  /** Ranges of the normalised text that define a symbol in words ("x = Mali's speed"). */
  definitions: [number, number][];
  /** Variables whose capitalisation this response can't be trusted to keep (m and M when it wrote g for G). */
  caseUntrusted: Set<string>;
  /** Variables the question says are positive. */
  positive: Set<string>;
  /** Expressions already reported as cut up by unreadable maths (token ranges "from:to"). */
  cutUp: Set<string>;
};

const blankOut = (s: string, a: number, b: number): string => s.slice(0, a) + s.slice(a, b).replace(/[^\n]/g, ' ') + s.slice(b);

/** Sentence starts: line starts and after . ! ? followed by whitespace (not decimal points). */
function sentenceStarts(s: string): number[] {
  const out = [0];
  const re = /\n|[.!?](?=\s)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m.index + 1);
  return out;
}

const looksMath = (s: string): boolean => /=|[+\-*/^√²]\s*\w|\d/.test(s);

/** The [start, end) of the line holding offset at (end before the newline). */
function lineAt(s: string, at: number): [number, number] {
  const a = s.lastIndexOf('\n', at - 1) + 1;
  const e = s.indexOf('\n', at);
  return [a, e < 0 ? s.length : e];
}

/** Blank the lines the student retracted in words ("ignore that line"); returns the new text. */
function applyLineRetractions(text: string, ctx: Ctx): string {
  let s = text;
  for (const h of text.matchAll(LINE_RETRACTION)) {
    const at = h.index!;
    const end = at + h[0].length;
    const back = h.slice(1).some((g) => g !== undefined);
    const [a, e] = lineAt(s, at);
    let range: [number, number] | null = null;
    const mathAfter = looksMath(s.slice(end, e));
    if (!back && looksMath(s.slice(a, at))) {
      // The line holding the phrase: all of it, unless maths follows the phrase on it.
      range = mathAfter ? [a, end] : [a, e];
    } else if (!back && mathAfter) {
      range = [end, e]; // "Ignore this line: v = 2": the maths after it on its line
    } else {
      // The line before (the phrase's own words before it are prose, blanked with it below).
      for (let j = a - 1; j > 0; ) {
        const [pa, pe] = lineAt(s, j);
        if (s.slice(pa, pe).trim() !== '') {
          range = [pa, pe];
          break;
        }
        j = pa - 1;
      }
    }
    if (range && s.slice(range[0], range[1]).trim() !== '') {
      ctx.notes.push(`retracted by the student ("${h[0]}"), not recorded: ${JSON.stringify(s.slice(range[0], range[1]).trim().slice(0, 120))}`);
      s = blankOut(s, range[0], range[1]);
    }
    s = blankOut(s, at, end);
  }
  return s;
}

/** Blank what the student retracted in words; returns the new text. */
function applyRetractions(text: string, ctx: Ctx): string {
  let s = applyLineRetractions(text, ctx);
  const hits = [...s.matchAll(RETRACTION)];
  for (const h of hits) {
    const at = h.index!;
    const starts = sentenceStarts(s);
    let k = 0;
    while (k + 1 < starts.length && starts[k + 1] <= at) k++;
    const sStart = starts[k];
    let range: [number, number] | null = null;
    if (/above/i.test(h[0])) range = [0, sStart];
    else if (looksMath(s.slice(sStart, at))) range = [sStart, at];
    else {
      // The previous non-empty sentence.
      for (let j = k - 1; j >= 0; j--) {
        const seg = s.slice(starts[j], starts[j + 1]);
        if (seg.trim() !== '') {
          range = [starts[j], starts[j + 1]];
          break;
        }
      }
    }
    if (range && range[1] > range[0] && s.slice(range[0], range[1]).trim() !== '') {
      ctx.notes.push(`retracted by the student ("${h[0]}"), not recorded: ${JSON.stringify(s.slice(range[0], range[1]).trim().slice(0, 120))}`);
      s = blankOut(s, range[0], range[1]);
    }
  }
  return s;
}

const DEF_LET = /\blet[\s$]+([A-Za-z][A-Za-z0-9_]*)[\s$]+(?:be|denote|denotes|represent|represents|stand\s+for|=)\s+([^.,;:\n()=]+)/gi;
const DEF_EQ = /(?:^|[\n,;:(]|\band\b|\bwhere\b)[ \t$]*([A-Za-z][A-Za-z0-9_]*)[ \t$]*(?:=|\bdenotes\b|\brepresents\b)[ \t]*((?:the\s+|a\s+|an\s+)?[A-Za-z][A-Za-z' ]*?)[ \t]*(?=$|[\n,;.)])/gm;

const DEF_AND = /\s+and\s+([A-Za-z][A-Za-z0-9_]*)\s+(?:be\s+|is\s+)?(?=(?:the|a|an)\s)/i;
const DEF_DENOTE = /\bdenote\s+((?:the|a|an)\s+[A-Za-z' ]+?)\s+by\s+\$?\s*([A-Za-z][A-Za-z0-9_]*)\b/gi;

/** Symbols the student defined in words ("let x = Mali's speed", "u = launch speed"). */
function findDefinitions(s: string, ctx: Ctx): void {
  const seen = new Set<string>();
  const found: { sym: string; phrase: string; at: number; end: number }[] = [];
  for (const re of [DEF_LET, DEF_EQ]) {
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      // "let x be the current and y the equivalent resistance": two definitions.
      const [first, ...more] = m[2].split(DEF_AND);
      found.push({ sym: m[1], phrase: first, at: m.index, end: m.index + m[0].length });
      for (let k = 0; k + 1 < more.length; k += 2) found.push({ sym: more[k], phrase: more[k + 1], at: m.index, end: m.index + m[0].length });
    }
  }
  // "denote the angular frequency by w"
  DEF_DENOTE.lastIndex = 0;
  for (let m = DEF_DENOTE.exec(s); m; m = DEF_DENOTE.exec(s)) found.push({ sym: m[2], phrase: m[1], at: m.index, end: m.index + m[0].length });
  {
    for (const { sym, phrase, at, end } of found) {
      if (!/[A-Za-z]{3,}/.test(phrase)) continue;
      ctx.definitions.push([at, end]);
      if (seen.has(sym)) continue;
      const v = ctx.lex.labelVariable(phrase);
      if (!v) continue;
      seen.add(sym);
      const already = ctx.lex.resolve(sym, ctx.aliases);
      if (already === v) continue;
      if (ctx.lex.variables.includes(sym)) {
        ctx.notes.push(`'${sym}' is a variable of the question but was defined as "${phrase.trim()}" (${v}): not remapped`);
        ctx.flags.add('inconsistent');
        continue;
      }
      ctx.aliases.set(sym, v);
      ctx.notes.push(`read '${sym}' as ${v} (the student defined it as "${phrase.trim()}")`);
    }
  }
}

const MATH_NEIGHBOUR = new Set(['eq', 'op', 'lp', 'rp', 'pm', 'rel', 'id', 'num']);

/**
 * Numbered symbols (I1, I_2, T1) are read as the variable they number (t1, t2 -> t) only when
 * that can be one quantity: when the variable's description names one particular quantity ("total
 * current", not "a journey time") and the response writes two numbered forms (I1 and I2) or a
 * numbered form beside the plain symbol in its maths (I = I1 + I2, T1 ... T), they are other
 * quantities (branch currents, another orbit's period): marked as not variables, so the equations
 * with them are left unread. Returns whether anything was marked.
 */
function numberedQuantities(ctx: Ctx, toks: Tok[]): boolean {
  const numbered = new Map<string, Set<string>>(); // variable -> written forms
  const plain = new Set<string>();
  toks.forEach((t, k) => {
    if (t.kind !== 'id') return;
    for (const p of t.pieces!) {
      if (p.kind !== 'sym') continue;
      if (ctx.lex.numberedRoot(p.text, ctx.aliases) === p.name) {
        numbered.set(p.name, (numbered.get(p.name) ?? new Set()).add(p.text));
      } else if (!/\d/.test(p.text) && (t.pieces!.length > 1 || MATH_NEIGHBOUR.has(toks[k - 1]?.kind) || MATH_NEIGHBOUR.has(toks[k + 1]?.kind))) {
        plain.add(p.name);
      }
    }
  });
  let marked = false;
  for (const [v, forms] of numbered) {
    const distinct = new Set([...forms].map((f) => f.replace(/_/g, '')));
    if (!ctx.lex.describesOne(v) || (distinct.size < 2 && !plain.has(v))) continue;
    for (const f of forms) ctx.aliases.set(f, '');
    ctx.notes.push(`${[...forms].map((f) => `'${f}'`).join(', ')}${plain.has(v) ? ` beside '${v}'` : ''} name quantities other than ${v}, which is one particular quantity in this question: not read as ${v}`);
    marked = true;
  }
  return marked;
}

const isMathTok = (t: Tok): boolean => ['num', 'id', 'usym', 'op', 'eq', 'lp', 'rp', 'pm', 'rel'].includes(t.kind);

/** Runs of maths tokens, as [start, end) indices into toks. */
function segments(toks: Tok[]): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let depth = 0;
  const close = (end: number): void => {
    if (start >= 0) out.push([start, end]);
    start = -1;
    depth = 0;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    // A bullet: '-' or '*' first on its line, followed by a space.
    if (t.kind === 'op' && (t.text === '-' || t.text === '*') && (i === 0 || toks[i - 1].kind === 'nl') && toks[i + 1]?.sp) {
      close(i);
      continue;
    }
    if (t.kind === 'nl') {
      if (start >= 0) {
        const last = toks[i - 1];
        let j = i;
        while (toks[j]?.kind === 'nl') j++;
        const cont = last.kind === 'op' || last.kind === 'eq' || last.kind === 'pm' || depth > 0 || toks[j]?.kind === 'eq';
        if (cont && j < toks.length && isMathTok(toks[j])) continue;
      }
      close(i);
      continue;
    }
    if (isMathTok(t)) {
      if (start < 0) start = i;
      if (t.kind === 'lp') depth++;
      if (t.kind === 'rp') depth--;
      continue;
    }
    close(i);
  }
  close(toks.length);
  return out;
}

/**
 * Drop unmatched brackets at the edges and a trailing unit. `ambiguous` is set when the last token
 * could be a unit or a variable and nothing tells which ("x = √(2mgh/k) m": metres, or times m?).
 */
function trim(ts: Tok[], lex: Lexicon, ambiguous?: { unit?: string }): Tok[] {
  let t = ts.filter((x) => x.kind !== 'nl');
  let changed = true;
  while (changed && t.length) {
    changed = false;
    let depth = 0;
    let minDepth = 0;
    for (const x of t) {
      if (x.kind === 'lp') depth++;
      if (x.kind === 'rp') depth--;
      minDepth = Math.min(minDepth, depth);
    }
    if (t.length > 1 && t[0].kind === 'num' && t[1].kind === 'rp' && minDepth < 0) {
      t = t.slice(2); // a numbered list: "1) v = ..."
      changed = true;
    } else if (t[0].kind === 'rp' && minDepth < 0) {
      t = t.slice(1);
      changed = true;
    } else if (t[t.length - 1].kind === 'lp') {
      t = t.slice(0, -1);
      changed = true;
    } else if (depth > 0 && t[0].kind === 'lp') {
      t = t.slice(1);
      changed = true;
    } else if (depth < 0 && t[t.length - 1].kind === 'rp') {
      t = t.slice(0, -1);
      changed = true;
    }
  }
  // A trailing equation number: "... = 2S/u   (1)".
  if (t.length > 3 && t[t.length - 1].kind === 'rp' && t[t.length - 2].kind === 'num' && t[t.length - 3].kind === 'lp' && t[t.length - 3].sp && /^\d+$/.test(t[t.length - 2].text)) {
    t = t.slice(0, -3);
  }
  // Trailing units: `100 m`, `2 m/s`, `9.8 m/s^2`, `400 N/m`, `2S/u s`.
  const unitAt = (k: number): boolean => !!t[k] && (t[k].kind === 'id' || t[k].kind === 'usym' || t[k].kind === 'word') && UNIT_WORDS.has(t[k].text);
  const n = t.length;
  const operandBefore = (k: number): boolean => !!t[k - 1] && ['num', 'rp', 'id', 'usym'].includes(t[k - 1].kind) && t[k].sp;
  const numericSide = (k: number): boolean => {
    for (let j = k - 1; j >= 0 && t[j].kind !== 'eq'; j--) {
      if (t[j].kind === 'usym' || (t[j].kind === 'id' && t[j].pieces!.some((p) => p.kind === 'sym'))) return false;
    }
    return true;
  };
  let cut = -1;
  if (n >= 5 && unitAt(n - 5) && t[n - 4].text === '/' && unitAt(n - 3) && t[n - 2].text === '^' && t[n - 1].kind === 'num' && operandBefore(n - 5)) cut = n - 5;
  else if (n >= 3 && unitAt(n - 3) && t[n - 2].text === '/' && unitAt(n - 1) && operandBefore(n - 3) && ['s', 'm', 'h', 'hr', 'min', 'kg'].includes(t[n - 1].text)) cut = n - 3;
  else if (n >= 3 && unitAt(n - 3) && t[n - 2].text === '^' && t[n - 1].kind === 'num' && operandBefore(n - 3) && (!lex.variables.includes(t[n - 3].text) || numericSide(n - 3))) cut = n - 3; // `0.01 m^3`
  else if (n >= 1 && unitAt(n - 1) && operandBefore(n - 1)) {
    const u = t[n - 1].text;
    if (!lex.variables.includes(u) || numericSide(n - 1)) cut = n - 1;
    else if (t[n - 2].kind === 'rp' && ambiguous) ambiguous.unit = u;
  }
  return cut > 0 ? t.slice(0, cut) : t;
}

function spanOf(ctx: Ctx, toks: Tok[]): Span {
  const a = toks[0].start;
  const b = toks[toks.length - 1].end;
  const start = ctx.norm.from[a] ?? 0;
  const end = ctx.norm.to[b - 1] ?? start;
  return { start, end: Math.max(end, start) };
}

function unread(ctx: Ctx, toks: Tok[], reason: string): void {
  const span = spanOf(ctx, toks);
  ctx.unread.push({ span, text: ctx.original.slice(span.start, span.end), reason });
}

const CLAUSE_JOIN = /^(and|so|then|thus|hence|therefore|but|while|whereas)$/i;

/** Words right before token index i, as a label, if they start a clause. */
function labelBefore(toks: Tok[], i: number): string | null {
  const ws: string[] = [];
  let j = i - 1;
  while (j >= 0 && toks[j].kind === 'word' && !CLAUSE_JOIN.test(toks[j].text)) ws.unshift(toks[j--].text);
  if (ws.length === 0) return null;
  // "…, and its period is 2π√(r³/GM)": a joining word starts a clause as a line start does.
  if (j >= 0 && toks[j].kind === 'word') return ws.join(' ');
  if (j >= 0 && !['nl', 'punct', 'arrow'].includes(toks[j].kind)) return null;
  if (j >= 0 && toks[j].kind === 'punct' && ["'", '"'].includes(toks[j].text)) return null;
  return ws.join(' ');
}

/**
 * The label of a fragment or '= expr' (the words before it: "Group time = 2S/u", "max
 * compression: √(2gh/k)", "Mali's time is 2S/v", "time S/(v + w)") and what it names.
 */
function labelOf(ctx: Ctx, toks: Tok[], i0: number, startsWithEq: boolean): { kind: 'variable' | 'other' | 'unknown'; v: string | null; label: string } | null {
  let label: string | null = null;
  if (startsWithEq) label = labelBefore(toks, i0);
  else {
    const p = toks[i0 - 1];
    if (p && p.kind === 'punct' && p.text === ':') label = labelBefore(toks, i0 - 1);
    else if (p && p.kind === 'word' && /^(is|equals)$/i.test(p.text)) label = labelBefore(toks, i0 - 1);
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
const OPERATION_WORDS = /^(by|cancel|cancels|cancelling|canceling|cancelled|multiply|multiplying|divide|dividing|factor|factorise|factorize|expand|expanding)$/i;

const symTok = (name: string, at: Tok): Tok => ({ kind: 'id', text: name, start: at.start, end: at.start, sp: true, pieces: [{ kind: 'sym', name, text: name }] });

/**
 * A question with both cases of a letter as variables (m and M, t and T) relies on capitalisation.
 * A response that changed the case of another variable (g for G, V for v, P1 for p_1) doesn't keep
 * it, so its m could be the question's M: equations with either are left unread.
 */
function caseTrust(ctx: Ctx, toks: Tok[]): void {
  const vars = ctx.lex.variables;
  const pairs = vars.filter((v) => /^[A-Za-z]$/.test(v) && v !== v.toLowerCase() && vars.includes(v.toLowerCase()));
  if (pairs.length === 0) return;
  const flat = (x: string): string => x.replace(/_/g, '');
  const folded = toks
    .flatMap((t) => (t.kind === 'id' ? t.pieces! : []))
    .filter((p) => p.kind === 'sym' && flat(p.text) !== flat(p.name) && flat(p.text).toLowerCase() === flat(p.name).toLowerCase());
  // Lowering a capital (g for G) makes its lowercase letters doubtful (m could be M); raising a
  // small letter (R for r) makes its capitals doubtful.
  for (const p of folded) {
    const lowered = /[a-z]/.test(p.text) && p.text.toLowerCase() === p.text && /[A-Z]/.test(p.name);
    const raised = /[A-Z]/.test(p.text) && p.text.toUpperCase() === p.text && /[a-z]/.test(p.name);
    for (const v of pairs) {
      const doubtful = lowered ? v.toLowerCase() : raised ? v : null;
      if (!doubtful || ctx.caseUntrusted.has(doubtful)) continue;
      ctx.caseUntrusted.add(doubtful);
      ctx.notes.push(`the response wrote '${p.text}' for ${p.name}, so its '${doubtful}' could be ${doubtful === v ? v.toLowerCase() : v} too`);
    }
  }
}

function emitChain(ctx: Ctx, parts: Tok[][], all: Tok[]): void {
  const untrusted = [...all, ...parts.flat()].flatMap((t) => t.pieces ?? []).find((p) => p.kind === 'sym' && ctx.caseUntrusted.has(p.name));
  if (untrusted) {
    unread(ctx, all, `'${untrusted.text}' could be ${untrusted.name.toLowerCase()} or ${untrusted.name.toUpperCase()}: this response changes the question's capitals`);
    return;
  }
  const pmCount = all.filter((t) => t.kind === 'pm').length;
  const signs = pmCount ? ['+', '-'] : [''];
  const found: ExtractedEquation[] = [];
  const span = spanOf(ctx, all);
  for (const sign of signs) {
    const fix = (ts: Tok[]): Tok[] =>
      ts.map((t) => (t.kind === 'pm' ? { ...t, kind: 'op' as const, text: t.text === '∓' ? (sign === '+' ? '-' : '+') : sign } : t));
    const rendered = parts.map((p) => render(fix(p)));
    for (const r of rendered) {
      if (!r.ok) {
        if (r.unmapped) {
          ctx.flags.add('unmapped-symbol');
          for (const u of r.unmapped) {
            const note = `symbol '${u}' could not be mapped to a variable (${ctx.lex.variables.join(', ')})`;
            if (!ctx.notes.includes(note)) ctx.notes.push(note);
          }
        }
        unread(ctx, all, r.reason);
        return;
      }
    }
    for (let k = 0; k + 1 < rendered.length; k++) {
      const l = rendered[k] as { src: string };
      const r = rendered[k + 1] as { src: string };
      const p = parseEquation(`${l.src} = ${r.src}`, { variables: ctx.lex.variables });
      if (!p.ok) {
        ctx.flags.add('parse-error');
        unread(ctx, all, formatErrors(p.errors));
        return;
      }
      found.push({ source: equationToSympy(p.value), span });
    }
  }
  ctx.equations.push(...found);
}

/**
 * 'v1' read as v (convention: t1, t2 journey times -> t) is only safe when the plain symbol isn't
 * in the same equation ("v1 = v + w" is about another quantity).
 */
function numberedClash(t: Tok[]): string | null {
  const pieces = t.flatMap((x) => x.pieces ?? []).filter((p) => p.kind === 'sym');
  for (const p of pieces) {
    if (!/^[A-Za-z]+_?\d+$/.test(p.text) || p.text.replace(/_/g, '').toLowerCase() === p.name.replace(/_/g, '').toLowerCase()) continue;
    const plain = pieces.find((o) => o.name === p.name && !/\d/.test(o.text));
    if (plain) return `'${p.text}' and '${plain.text}' in one equation: can't tell whether they are the same quantity`;
  }
  return null;
}

/**
 * "w = 0" for a positive w, in a conditional ("if w = 0", "w = 0 gives v = u"): the student is
 * taking a limit, not stating a value. ("so t = 0 or t = 2v_0 sinθ/g" is a root, and is recorded.)
 */
function positiveSetToZero(ctx: Ctx, parts: Tok[][]): string | null {
  const lone = (p: Tok[]): string | null => (p.length === 1 && p[0].kind === 'id' && p[0].pieces?.length === 1 && p[0].pieces[0].kind === 'sym' ? p[0].pieces[0].name : null);
  const zero = (p: Tok[]): boolean => p.length === 1 && p[0].kind === 'num' && Number(p[0].text) === 0;
  const [a, b] = parts;
  const v = zero(b) ? lone(a) : zero(a) ? lone(b) : null;
  return v && ctx.positive.has(v) ? v : null;
}

/**
 * Equations already written in the grammar's own form, `Eq(left, right)` (students who copy the
 * scheme's notation, or a list pasted from elsewhere): parsed by the strict grammar as they stand
 * and blanked out of the text. One that doesn't parse is left for the ordinary reading, which
 * reports it unread.
 */
function readSympyForms(text: string, ctx: Ctx): string {
  let s = text;
  for (const m of text.matchAll(/\bEq\s*\(/g)) {
    let depth = 0;
    let end = -1;
    for (let k = m.index! + m[0].length - 1; k < text.length; k++) {
      if (text[k] === '(') depth++;
      else if (text[k] === ')' && --depth === 0) {
        end = k + 1;
        break;
      } else if (text[k] === '\n') break;
    }
    if (end < 0) continue;
    const p = parseEquation(text.slice(m.index!, end), { variables: ctx.lex.variables });
    if (!p.ok) continue;
    ctx.mathSeen = true;
    ctx.equations.push({ source: equationToSympy(p.value), span: { start: m.index!, end } });
    s = blankOut(s, m.index!, end);
  }
  return s;
}

const MODIFIER_WORD = /^(rooted|squared|cubed|halved|doubled|inverted|reciprocal|reciprocated|negated|times|plus|minus|divided|multiplied)$/i;

/** "x = 2mgh/k all square rooted", "x = 2mgh/k (squared)": words right after change what was written. */
function modifiedAfter(toks: Tok[], i1: number): string | null {
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

const CONDITION_WORD = /^(when|as|if|for)$/i;
const LIMIT_WORD = /^(small|smaller|large|larger|big|bigger|tiny|huge|negligible|negligibly|zero|infinity|infinite|dominates|dominant|much|tends|tending|approaches|approaching|vanishes)$/i;

/**
 * An equation followed in the same sentence by a limiting condition ("v = u when w is small",
 * "v = w if w >> u", "v = u for w -> 0") is a statement about a limit, which gold does not record
 * (convention 1). Returns the condition's text, or null.
 */
function limitingCondition(toks: Tok[], i1: number): string | null {
  if (toks[i1]?.kind !== 'word' || !CONDITION_WORD.test(toks[i1].text)) return null;
  const words: string[] = [];
  for (let k = i1; k < toks.length && toks[k].kind !== 'nl' && !(toks[k].kind === 'punct' && /^[.;!?]$/.test(toks[k].text)); k++) {
    const x = toks[k];
    words.push(x.text);
    if (x.kind === 'rel' || x.kind === 'arrow' || (x.kind === 'word' && LIMIT_WORD.test(x.text)) || (x.kind === 'num' && Number(x.text) === 0)) {
      return words.join(' ');
    }
  }
  return null;
}

/**
 * The same read backwards: an equation after a limiting condition earlier in its sentence ("when
 * R2 >> R1, R ≈ R1 so I = V/R1", "If R2 is huge the term vanishes and I = V/R1", "As r → ∞, v = 0")
 * is the limiting value, not recorded (convention 1). The condition needs a condition word and then
 * a limit on a symbol: '>>', '<<', '≈', an arrow '→', or a word such as small, large, huge, vanishes.
 */
function limitingConditionBefore(toks: Tok[], i0: number): string | null {
  let k = i0 - 1;
  while (k >= 0 && toks[k].kind !== 'nl' && !(toks[k].kind === 'punct' && /^[.;!?]$/.test(toks[k].text))) k--;
  let cond = -1;
  for (let j = k + 1; j < i0; j++) {
    const x = toks[j];
    if (cond < 0) {
      if (x.kind === 'word' && CONDITION_WORD.test(x.text)) cond = j;
      continue;
    }
    const limit =
      (x.kind === 'rel' && ['>>', '<<', '~'].includes(x.text)) ||
      (x.kind === 'arrow' && (x.text === '->' || x.text === '→')) ||
      (x.kind === 'word' && (LIMIT_WORD.test(x.text) || /^(infinity|huge|tiny|vanish|vanishing|disappears)$/i.test(x.text)));
    // The condition is on a symbol ("when R2 >> R1", "as r → ∞", "if R2 is huge"); "for small
    // angles" is the question's own regime, not a limit taken by the student.
    const onSymbol = toks.slice(cond, i0).some((y) => y.kind === 'usym' || (y.kind === 'id' && y.pieces!.some((p) => p.kind === 'sym')));
    if (limit && onSymbol) return toks.slice(cond, j + 1).map((t) => t.text).join(' ');
  }
  return null;
}

/**
 * "x(t) = A cos(ωt)", "q(0) = C V_0": a symbol glued to a bracket holding one lone symbol or number
 * is function notation (x as a function of t, q at time 0), not a product: the equation can't be
 * written in the question's variables. ("u(v + w)", "m(g + a)", "2S(v - w)" hold more than one
 * term and stay products.) Returns the reason, or null.
 */
function functionNotation(t: Tok[]): string | null {
  for (let k = 0; k + 3 < t.length; k++) {
    const f = t[k];
    const [lp, arg, rp] = [t[k + 1], t[k + 2], t[k + 3]];
    if (lp.kind !== 'lp' || lp.sp || rp.kind !== 'rp') continue;
    const name = f.kind === 'usym' ? f.text : f.kind === 'id' && f.pieces!.at(-1)!.kind === 'sym' ? f.pieces!.at(-1)!.text : null;
    if (!name) continue;
    const lone = arg.kind === 'usym' || arg.kind === 'num' || (arg.kind === 'id' && arg.pieces!.length === 1 && arg.pieces![0].kind === 'sym');
    if (!lone) continue;
    return `'${name}(${arg.text})' looks like ${name} as a function of ${arg.text}, not a product`;
  }
  return null;
}

/** A letter run that is neither English nor a unit nor the question's ('dq', 'dt' in "R dq/dt + q/C"). */
const unreadableRun = (t: Tok | undefined): boolean =>
  !!t && t.kind === 'word' && /^[A-Za-z][A-Za-z0-9_]*$/.test(t.text) && t.text.length <= 6 && !STOPWORDS.has(t.text.toLowerCase()) && !UNIT_WORDS.has(t.text) && !CLAUSE_JOIN.test(t.text);

/**
 * "R dq/dt + q/C = V_0": maths the reader can't read ('dq', 'dt') splits the run, and what is left
 * ("+ q/C = V_0") is a side with a part silently dropped. The cut shows by an operator dangling at
 * it, or by an operator on the far side of the unreadable run. Returns [reason, token range of
 * the whole cut-up expression] or null.
 */
function cutByUnreadable(toks: Tok[], i0: number, i1: number): [string, number, number] | null {
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
  let to = i1;
  while (from > 0 && (isMathTok(toks[from - 1]) || unreadableRun(toks[from - 1]))) from--;
  while (to < toks.length && (isMathTok(toks[to]) || unreadableRun(toks[to]))) to++;
  return [`'${run.text}' is written into it and can't be read: the equation would be recorded with a part missing`, from, to];
}

function readSegment(ctx: Ctx, toks: Tok[], i0: number, i1: number): void {
  // An unmatched '(' after a space opens a parenthetical: "t = 100 s (200 m at 2 m/s)".
  const open: number[] = [];
  for (let k = i0; k < i1; k++) {
    if (toks[k].kind === 'lp') open.push(k);
    else if (toks[k].kind === 'rp') open.pop();
  }
  const cut = open.find((k) => k > i0 && toks[k].sp);
  if (cut !== undefined) {
    readSegment(ctx, toks, i0, cut);
    readSegment(ctx, toks, cut, i1);
    return;
  }
  const raw = toks.slice(i0, i1);
  const ambiguous: { unit?: string } = {};
  let t = trim(raw, ctx.lex, ambiguous);
  if (t.length === 0) return;
  // "T = 2π√(1.0/9.8) ≈ 2.0 s": a numerical approximation at the end of an equation is dropped
  // (approximations aren't recorded); the equation before it is read.
  const rels = t.filter((x) => x.kind === 'rel');
  if (rels.length === 1 && rels[0].text === '~') {
    const r = t.indexOf(rels[0]);
    const tail = t.slice(r + 1);
    const eqBefore = t.slice(0, r).some((x) => x.kind === 'eq');
    if (eqBefore && tail.length > 0 && tail.every((x) => x.kind === 'num' || x.kind === 'op' || x.kind === 'lp' || x.kind === 'rp') && tail.some((x) => x.kind === 'num')) {
      ctx.notes.push(`left out an approximate value after '≈'`);
      t = t.slice(0, r);
    }
  }
  const hasSym = t.some((x) => x.kind === 'usym' || (x.kind === 'id' && x.pieces!.some((p) => p.kind === 'sym')));
  const hasEq = t.some((x) => x.kind === 'eq');
  const hasRel = t.some((x) => x.kind === 'rel');
  const hasNum = t.some((x) => x.kind === 'num');
  if (!hasSym && (!hasEq || !hasNum)) return; // numbers, "take the + sign", "the square root", words = words
  const prev = toks[i0 - 1];
  const next = toks[i1];
  // "v = 2gh" with h no variable, "mgL(1 − cos θ) = ½mv²" with m none: a letter run glued to the maths
  // (no space) that isn't the question's is part of the expression, so the run is only a fragment.
  const gluedWord = prev?.kind === 'word' && !raw[0].sp && !UNIT_WORDS.has(prev.text) ? prev : next?.kind === 'word' && !next.sp && !UNIT_WORDS.has(next.text) ? next : null;
  if (gluedWord && (hasEq || hasSym)) {
    ctx.mathSeen = true;
    unread(ctx, t, `'${gluedWord.text}' is written into it and is not a variable of the question (${ctx.lex.variables.join(', ')})`);
    return;
  }
  const cutUp = cutByUnreadable(toks, i0, i1);
  if (cutUp && (hasEq || hasSym)) {
    ctx.mathSeen = true;
    const key = `${cutUp[1]}:${cutUp[2]}`;
    if (ctx.cutUp.has(key)) return; // another piece of the same expression, already reported
    ctx.cutUp.add(key);
    const whole = trim(toks.slice(cutUp[1], cutUp[2]), ctx.lex);
    unread(ctx, whole.length ? whole : t, cutUp[0]);
    return;
  }
  // "T = 2?√(L/g)", "cos?": a '?' glued to a number, '(' or a function is a Greek letter lost in
  // typing that could not be restored (see normalize): the maths around it is not what was meant.
  const last = t[t.length - 1];
  if (next?.kind === 'punct' && next.text === '?' && !next.sp && last === toks[i1 - 1] && (last.kind === 'num' || last.kind === 'lp' || (last.kind === 'id' && last.pieces!.at(-1)!.kind === 'fn'))) {
    ctx.mathSeen = true;
    unread(ctx, t, "a '?' where a symbol was lost in typing");
    return;
  }
  const fnNotation = functionNotation(t);
  if (fnNotation) {
    ctx.mathSeen = true;
    unread(ctx, t, fnNotation);
    return;
  }
  if (hasRel) {
    ctx.mathSeen = true;
    if (hasEq) unread(ctx, t, 'an equation mixed with an inequality or approximation');
    return; // inequalities, limits, approximations are not recorded
  }
  const realStart = toks.indexOf(t[0]);
  if (!hasEq) {
    const operands = t.filter((x) => x.kind === 'id' || x.kind === 'usym' || x.kind === 'num').length;
    const pieces = t.reduce((n, x) => n + (x.pieces?.length ?? 1), 0);
    const mathy = t.some((x) => x.kind === 'op' || x.kind === 'pm' || x.pieces?.some((p) => p.kind === 'fn')) || operands >= 2 || pieces >= 2;
    if (!mathy) return; // a variable named in prose
    ctx.mathSeen = true;
    if (prev?.kind === 'arrow' || next?.kind === 'arrow') return; // a limit: "u/w -> infinity"
    const before = toks[realStart - 1];
    if (before?.kind === 'word' && OPERATION_WORDS.test(before.text)) return;
    const lab = labelOf(ctx, toks, realStart, false);
    const where = spanOf(ctx, t);
    const changedBy = modifiedAfter(toks, i1);
    if (lab?.v && changedBy) {
      unread(ctx, t, `the words after it ("${changedBy}") change the expression`);
      return;
    }
    const shown = JSON.stringify(ctx.original.slice(where.start, where.end));
    if (lab?.v) {
      const n = ctx.equations.length;
      emitChain(ctx, [[symTok(lab.v, t[0])], t], t);
      if (ctx.equations.length > n) ctx.notes.push(`read ${shown} as the value of ${lab.v} ("${lab.label}")`);
      return;
    }
    if (lab?.kind === 'other') {
      ctx.notes.push(`left out ${shown}: "${lab.label}" is not a variable of the question`);
      return;
    }
    // The whole response is one expression: the answer (convention 4, "a bare expression given as
    // the answer is target = expression").
    const alone = (k: number): boolean => !toks[k] || toks[k].kind === 'nl' || (toks[k].kind === 'punct' && toks[k].text === '.');
    if (ctx.lex.target && toks.slice(0, i0).every((_, k) => alone(k)) && toks.slice(i1).every((_, k) => alone(i1 + k)) && t[0] === raw[0]) {
      const n = ctx.equations.length;
      emitChain(ctx, [[symTok(ctx.lex.target, t[0])], t], t);
      if (ctx.equations.length > n) ctx.notes.push(`read ${shown}, the whole response, as the answer (${ctx.lex.target})`);
      return;
    }
    unread(ctx, t, 'an expression in prose, not written as an equation');
    return;
  }
  ctx.mathSeen = true;
  const clash = numberedClash(t);
  if (clash) {
    unread(ctx, t, clash);
    return;
  }
  const timesX = t.findIndex((x, k) => k > 0 && x.kind === 'id' && /^[xX]$/.test(x.text) && x.sp && t[k - 1].kind === 'num' && t[k + 1]?.kind === 'num' && t[k + 1].sp);
  if (timesX >= 0) {
    unread(ctx, t, `'${t[timesX].text}' between two numbers could be a times sign or the variable ${t[timesX].text}`);
    return;
  }
  const modifier = modifiedAfter(toks, i1);
  if (modifier) {
    unread(ctx, t, `the words after it ("${modifier}") change the expression`);
    return;
  }
  if (ambiguous.unit) {
    unread(ctx, t, `'${ambiguous.unit}' after the bracket could be a unit or the variable ${ambiguous.unit}`);
    return;
  }
  const condition = limitingCondition(toks, i1) ?? limitingConditionBefore(toks, i0);
  if (condition) {
    unread(ctx, t, `holds only in a limiting case ("${condition}"): limits are not recorded`);
    return;
  }
  const parts: Tok[][] = [[]];
  for (const x of t) {
    if (x.kind === 'eq') parts.push([]);
    else parts[parts.length - 1].push(x);
  }
  if (parts[0].length === 0) {
    const lab = parts.length > 1 ? labelOf(ctx, toks, realStart, true) : null;
    if (lab?.kind === 'other') {
      ctx.notes.push(`left out an equation about "${lab.label}", not a variable of the question`);
      return;
    }
    if (!lab?.v) {
      unread(ctx, t, 'the left side is in words');
      return;
    }
    parts[0] = [symTok(lab.v, t[0])];
  }
  if (parts[parts.length - 1].length === 0) {
    const lhs = parts[0];
    const eqTok = t.find((x) => x.kind === 'eq')!;
    const isDefinition = ctx.definitions.some(([a, b]) => a <= eqTok.start && eqTok.end <= b);
    if (parts.length === 2 && lhs.length === 1 && (lhs[0].kind === 'id' || lhs[0].kind === 'usym') && next?.kind === 'word' && isDefinition) return; // a definition in words
    unread(ctx, t, 'the right side is missing or in words');
    return;
  }
  if (parts.some((p) => p.length === 0)) {
    unread(ctx, t, "an empty side between '=' signs");
    return;
  }
  // "t = 50s", "x = 0.63m": a value with a unit glued on, or a number times the variable S or m?
  const glued = parts.find((p) => p.length === 2 && p[0].kind === 'num' && p[1].kind === 'id' && !p[1].sp && UNIT_WORDS.has(p[1].text));
  if (glued) {
    unread(ctx, t, `'${glued[0].text}${glued[1].text}' could be a value in ${glued[1].text} or ${glued[0].text} times a variable`);
    return;
  }
  const limitContext = (prev?.kind === 'word' && /^(if|when|at|for|as|with|setting|putting|put)$/i.test(prev.text)) || (next?.kind === 'word' && /^(gives|then|yields)$/i.test(next.text));
  const zeroed = parts.length === 2 && limitContext ? positiveSetToZero(ctx, parts) : null;
  if (zeroed) {
    unread(ctx, t, `${zeroed} is positive in this question: setting it to 0 is a limiting case, not recorded`);
    return;
  }
  emitChain(ctx, parts, t);
}

export function extractEmbedded(text: string, q: Question): Extraction {
  const lex = lexiconFor(q);
  const ctx: Ctx = {
    lex,
    aliases: new Map(),
    norm: { text: '', from: [], to: [] },
    original: text,
    equations: [],
    unread: [],
    notes: [],
    flags: new Set(),
    mathSeen: false,
    definitions: [],
    caseUntrusted: new Set(),
    cutUp: new Set(),
    positive: new Set(q.variables.filter((v) => v.assumptions?.includes('positive')).map((v) => v.name)),
  };
  const result = (status: Extraction['status']): Extraction => ({
    equations: ctx.equations,
    status,
    source: 'embedded',
    flags: [...ctx.flags],
    unread: ctx.unread,
    notes: ctx.notes,
  });
  if (text.trim() === '') return result('blank');
  if (text.length > MAX_TEXT) {
    ctx.notes.push(`response longer than ${MAX_TEXT} characters: not read`);
    ctx.unread.push({ span: { start: 0, end: text.length }, text: text.slice(0, 200), reason: 'too long to read' });
    return result('abstained');
  }

  let work = text;
  ATTACHMENT_LINE.lastIndex = 0;
  for (const m of text.matchAll(ATTACHMENT_LINE)) {
    ctx.flags.add('attachment');
    ctx.notes.push(`attachment: ${m[0].trim()} (not read; look at it)`);
    work = blankOut(work, m.index!, m.index! + m[0].length);
  }
  if (mentionsAttachment(work)) {
    ctx.flags.add('attachment');
    ctx.notes.push('the response refers to attached work (not read; look at it)');
  }
  if (work.trim() === '') return result('read');

  work = applyRetractions(work, ctx);
  work = readSympyForms(work, ctx);
  ctx.norm = normalize(work, lex.greek);
  findDefinitions(ctx.norm.text, ctx);
  let toks = tokenize(ctx.norm.text, lex, ctx.aliases);
  if (numberedQuantities(ctx, toks)) toks = tokenize(ctx.norm.text, lex, ctx.aliases);
  caseTrust(ctx, toks);
  for (const [a, b] of segments(toks)) readSegment(ctx, toks, a, b);

  ctx.unread.sort((x, y) => x.span.start - y.span.start);
  ctx.equations.sort((x, y) => (x.span?.start ?? 0) - (y.span?.start ?? 0));
  if (ctx.equations.length === 0 && ctx.unread.length === 0 && !ctx.mathSeen && !ctx.flags.has('attachment')) ctx.flags.add('words-only');
  if (ctx.unread.length === 0) return result('read');
  return result(ctx.equations.length ? 'partial' : 'abstained');
}
