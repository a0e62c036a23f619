// Span anchoring: every equation a model reports must point at the piece of the student's text it
// was read from (the `span` of its reply, quoted verbatim), with the symbol mappings it used
// ("t1 -> t", "Mali's speed -> v"). Here that evidence is checked against the text, never trusted:
//  - the quoted span occurs in the text (exactly, or after our normalisation: unicode, LaTeX,
//    spacing), is short, holds some maths, and is not an attachment mention;
//  - every symbol of the equation is written in the span (case, v0 -> v_0, t1 -> t, Greek names,
//    juxtaposed "mgh"), or is the target of a bare answer (rule 4 of the prompt), or comes from a
//    verified mapping: its source occurs in the span, and it maps conventionally (T -> t, t1 -> t),
//    by the variable's description ("impact speed" -> v), or as the text defines it ("let x be the
//    speed"); a symbol that is itself another variable of the question never stands for one;
//  - every number of the equation is written in the span;
//  - where the embedded extractor read an equation overlapping the span, the two readings agree.
// An equation the model gave no span for is anchored when the embedded extractor read the same
// equation (its span is then used). An equation with no verifiable span is unsupported: held back
// until the instructor accepts it. A disagreement with the embedded reading keeps the equation and
// sends the response to review with both readings. An equation typed inside text addressed to the
// marker is read as written (gold convention 10) and named in a note; the response is flagged.
import { parseEquation, equationToSympy, type Equation } from '../../../../shared/equation/index.ts';
import { realDomain, type Question } from '../../../../shared/exam.ts';
import type { Extraction, Span } from '../../../../shared/extraction.ts';
import { normalize, type Mapped } from '../../../../shared/extract/normalize.ts';
import { mentionsAttachment } from '../../../../shared/text/attachments.ts';
import { findMarkerAddresses, type MarkerAddress } from '../../../../shared/text/marker.ts';
import { DESCRIPTION_STOPWORDS } from '../../../../shared/text/stopwords.ts';
import { GREEK_CHARS } from '../../../../shared/text/greek.ts';
import { indexText, normaliseText, numbersOf, symbolGrounding, symbolsOfExpr, type TextIndex } from './guards.ts';
import type { SymbolMapping } from './prompts.ts';
import type { ListComparer } from './types.ts';
import { sameReading } from './same-reading.ts';

/** A span longer than this anchors nothing (a whole response quoted as the span proves nothing). */
export const MAX_SPAN_CHARS = 300;

/** Why an equation with no span is unsupported. */
export const NO_SPAN = "the model gave no span of the student's text for it (nor did the embedded extractor read it)";

/** An equation of a model's reading, with the evidence it gave. */
export type AnchoredInput = { source: string; eq: Equation; quote?: string; mappings?: SymbolMapping[] };

export type AnchorResult = {
  source: string;
  /** Where it came from in the response, when located. */
  span?: Span;
  /** How the span was found: quoted by the model, or the embedded extractor read the same equation there. */
  via?: 'quote' | 'embedded';
  /** Span, symbols, numbers and mappings check out. */
  verified: boolean;
  /** Why it is unsupported (empty when verified). */
  reasons: string[];
  /** Mappings accepted, in words ("t1 read as t"), for a note. */
  mapped: string[];
  /** The sentence addressed to the marker the span lies in. */
  inMarker?: MarkerAddress;
  /** The embedded extractor's reading of the same span, when it differs from the model's. */
  embeddedReads?: string[];
};

/** A text without whitespace (spacing never matters to a quote), keeping each character's range in the original. */
function collapse(m: Mapped, lower: boolean): Mapped {
  const text: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < m.text.length; i++) {
    const c = m.text[i];
    if (/\s/.test(c)) continue;
    text.push(lower ? c.toLowerCase() : c);
    from.push(m.from[i]);
    to.push(m.to[i]);
  }
  return { text: text.join(''), from, to };
}

const tidyQuote = (s: string) =>
  s
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .trim()
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim();

/** Every place a quote occurs in the text: exactly, else after normalisation (unicode, LaTeX, spaces), else ignoring case. */
export function locateQuote(text: string, quote: string): Span[] {
  const q = tidyQuote(quote);
  if (q === '') return [];
  const exact: Span[] = [];
  for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + 1)) exact.push({ start: i, end: i + q.length });
  if (exact.length) return exact;
  const tidied = text.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, '"');
  for (const lower of [false, true]) {
    const hay = collapse(normalize(tidied), lower);
    const needle = collapse(normalize(q), lower).text;
    if (needle === '') return [];
    const out: Span[] = [];
    for (let i = hay.text.indexOf(needle); i >= 0; i = hay.text.indexOf(needle, i + 1)) {
      out.push({ start: hay.from[i], end: hay.to[i + needle.length - 1] });
    }
    if (out.length) return out;
  }
  return [];
}

/** Some maths in a span: an operator, a digit, a root or power sign, LaTeX, or a run of the question's single-letter variables ("gh"). */
function holdsMaths(span: string, q: Question): boolean {
  if (/[=+\-*/^√²³±×÷·\d\\]|\b(?:sqrt|sin|cos|tan)\b/.test(span)) return true;
  const singles = new Set(q.variables.filter((v) => v.name.length === 1).map((v) => v.name.toLowerCase()));
  return (span.match(/[A-Za-z]+/g) ?? []).some((w) => w.length >= 2 && w.length <= 6 && [...w].every((c) => singles.has(c.toLowerCase())));
}

const key = (s: string) =>
  normaliseText(s)
    .toLowerCase()
    .replace(/[\s_']/g, '');
const contentWords = (description: string | undefined) =>
  (description ?? '')
    .toLowerCase()
    .match(/[a-z]+/g)
    ?.filter((w) => w.length >= 4 && !DESCRIPTION_STOPWORDS.has(w)) ?? [];
const GREEK_BY_NAME = new Map(Object.entries(GREEK_CHARS).map(([c, n]) => [n, c]));

/** Whether a mapping's source is written in the span: a symbol as a token, a phrase as words. */
function sourceInSpan(from: string, span: string, idx: TextIndex): boolean {
  const f = tidyQuote(from);
  if (f === '') return false;
  if (/^[A-Za-z][A-Za-z0-9_']*$/.test(f) || [...f].length <= 3) {
    const k = key(f);
    return idx.tokens.has(k) || (k.length === 1 && idx.mathLetters.has(k)) || (GREEK_BY_NAME.has(k) && idx.tokens.has(k));
  }
  const norm = (s: string) =>
    normaliseText(s)
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\s+/g, ' ');
  return norm(span).includes(norm(f));
}

/** Why a mapping may be used, or why not. */
function mappingBasis(m: SymbolMapping, q: Question, text: string): { ok: true; how: string } | { ok: false; why: string } {
  const v = q.variables.find((x) => x.name === m.to);
  if (!v) return { ok: false, why: `'${m.to}' is not a variable of the question` };
  const f = tidyQuote(m.from);
  const other = q.variables.find((x) => x.name === f && x.name !== m.to);
  if (other) return { ok: false, why: `'${f}' is itself a variable of the question (${other.description || other.name}): it can't stand for ${m.to}` };
  const fk = key(f);
  const tk = key(m.to);
  // Conventional: case (s -> S), subscript spelling (v0 -> v_0), a numbered copy (t1, t_2 -> t), a Greek glyph.
  if (fk === tk || (fk.startsWith(tk) && /^\d+$/.test(fk.slice(tk.length))) || GREEK_CHARS[f] === m.to) return { ok: true, how: 'conventional' };
  const words = contentWords(v.description);
  const fw = f.toLowerCase();
  if (words.some((w) => fw.includes(w))) return { ok: true, how: 'by its description' };
  // Defined in the text: a sentence holds the symbol as a token and a word of the variable's description.
  const tokRe = new RegExp(`(?<![A-Za-z0-9_])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`);
  for (const sentence of text.split(/[.!?;\n]+/)) {
    if (tokRe.test(sentence) && words.some((w) => sentence.toLowerCase().includes(w))) return { ok: true, how: 'as the text defines it' };
  }
  return { ok: false, why: `nothing in the text says that '${f}' is ${m.to}${v.description ? ` (${v.description})` : ''}` };
}

const within = (inner: Span, outer: { start: number; end: number }) => inner.start >= outer.start && inner.end <= outer.end;
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** Check one equation's span, symbols, numbers and mappings against the text (no embedded comparison). */
export function checkAnchor(item: AnchoredInput, span: Span, text: string, q: Question, markers: MarkerAddress[]): AnchorResult {
  const reasons: string[] = [];
  const mapped: string[] = [];
  const piece = text.slice(span.start, span.end);
  const res: AnchorResult = { source: item.source, span, verified: false, reasons, mapped };
  if (piece.length > MAX_SPAN_CHARS) reasons.push(`its span is ${piece.length} characters long: too long to show where the equation is`);
  if (!holdsMaths(piece, q)) reasons.push(`its span ${JSON.stringify(piece.slice(0, 80))} holds no maths`);
  if (mentionsAttachment(piece)) reasons.push(`its span ${JSON.stringify(piece.slice(0, 80))} mentions an attachment`);
  res.inMarker = markers.find((m) => within(span, m) || overlaps(span, m));
  const idx = indexText(piece, q);
  const syms = new Set<string>();
  symbolsOfExpr(item.eq.lhs, syms);
  symbolsOfExpr(item.eq.rhs, syms);
  const fromMapping = new Map<string, string>();
  for (const m of item.mappings ?? []) {
    if (!syms.has(m.to)) continue; // a mapping for a symbol the equation doesn't use changes nothing
    if (!sourceInSpan(m.from, piece, idx)) {
      reasons.push(`mapping '${m.from} → ${m.to}': '${m.from}' is not in its span ${JSON.stringify(piece.slice(0, 80))}`);
      continue;
    }
    const basis = mappingBasis(m, q, text);
    if (!basis.ok) reasons.push(`mapping '${m.from} → ${m.to}': ${basis.why}`);
    else if (key(m.from) !== key(m.to)) fromMapping.set(m.to, `'${tidyQuote(m.from)}' read as ${m.to}${basis.how === 'conventional' ? '' : ` (${basis.how})`}`);
    else fromMapping.set(m.to, '');
  }
  const target = q.target;
  const bareAnswer =
    target !== undefined && item.eq.lhs.kind === 'sym' && item.eq.lhs.name === target && !/[=]/.test(piece) && !symbolsIn(item.eq.rhs).has(target);
  for (const s of syms) {
    if (fromMapping.has(s)) {
      const m = fromMapping.get(s);
      if (m) mapped.push(m);
      continue;
    }
    const g = symbolGrounding(s, idx, q);
    if (g) {
      const written = [...idx.tokens].find((t) => t !== key(s) && t.startsWith(key(s)) && /^\d+$/.test(t.slice(key(s).length)));
      if (g === 'written' && written) mapped.push(`'${written}' read as ${s}`);
      if (g === 'described') mapped.push(`${s} named in words`);
      continue;
    }
    if (s === target && bareAnswer) {
      mapped.push(`a bare answer read as Eq(${target}, …)`);
      continue;
    }
    reasons.push(
      `'${s}' is not written in its span ${JSON.stringify(piece.slice(0, 80))}${(item.mappings ?? []).some((m) => m.to === s) ? '' : ' and no mapping gives it'}`,
    );
  }
  for (const n of new Set([...numbersOf(item.eq.lhs), ...numbersOf(item.eq.rhs)])) {
    if (!idx.numbers.has(n)) reasons.push(`the number ${n} is not in its span ${JSON.stringify(piece.slice(0, 80))}`);
  }
  res.verified = reasons.length === 0;
  return res;
}

function symbolsIn(e: Equation['lhs']): Set<string> {
  const out = new Set<string>();
  symbolsOfExpr(e, out);
  return out;
}

/**
 * Anchor every equation of a model's reading: locate its span (quoted, or where the embedded
 * extractor read the same equation), check it, and compare with the embedded reading of the span.
 */
export async function anchorReading(
  items: AnchoredInput[],
  text: string,
  q: Question,
  embedded: Extraction,
  compare: ListComparer,
): Promise<{ anchors: AnchorResult[]; missed: { source: string; span?: Span }[] }> {
  const markers = findMarkerAddresses(text);
  const variables = q.variables.map((v) => v.name);
  const emb = embedded.equations.flatMap((e) => {
    const p = parseEquation(e.source, { variables });
    return p.ok ? [{ source: equationToSympy(p.value), eq: p.value, span: e.span }] : [];
  });
  const domain = realDomain(q);
  // The same reading: the same symbols, and the same equation (canonically, proportional
  // residuals, or equivalent by the comparer: mutual entailment, never one-way, since an equation
  // the span's equation merely implies is not what the student wrote).
  const sameAs = async (eq: Equation, among: typeof emb): Promise<number> => {
    const s = equationToSympy(eq);
    const symKey = (x: Equation) => [...new Set([...symbolsIn(x.lhs), ...symbolsIn(x.rhs)])].sort().join(',');
    const syms = symKey(eq);
    for (const [i, e] of among.entries()) {
      if (symKey(e.eq) !== syms) continue;
      if (e.source === s || sameReading(eq, e.eq)) return i;
      try {
        if ((await compare([eq], [e.eq], domain)).equivalent) return i;
      } catch {
        // no verdict: not the same
      }
    }
    return -1;
  };
  const out: AnchorResult[] = [];
  for (const item of items) {
    let best: AnchorResult | null = null;
    if (item.quote !== undefined) {
      const spans = locateQuote(text, item.quote);
      if (spans.length === 0) {
        best = {
          source: item.source,
          verified: false,
          mapped: [],
          reasons: [`the span it quotes, ${JSON.stringify(item.quote.slice(0, 80))}, is not in the student's text`],
        };
      }
      // The first occurrence that checks out (the same words may stand twice; one is enough).
      for (const span of spans) {
        const r = { ...checkAnchor(item, span, text, q, markers), via: 'quote' as const };
        if (!best || (r.verified && !best.verified) || (r.verified === best.verified && !r.inMarker && best.inMarker)) best = r;
        if (r.verified && !r.inMarker) break;
      }
    }
    if (!best || !best.verified) {
      // The embedded extractor read the same equation somewhere: its span anchors it.
      const j = await sameAs(item.eq, emb);
      if (j >= 0) {
        // (An embedded reading always has spans; a stand-in extractor's may not: the agreement is the evidence.)
        const span = emb[j].span;
        const inMarker = span ? markers.find((m) => overlaps(span, m)) : undefined;
        best = { source: item.source, ...(span ? { span } : {}), via: 'embedded', verified: true, reasons: [], mapped: [], ...(inMarker ? { inMarker } : {}) };
      } else if (!best) {
        best = { source: item.source, verified: false, mapped: [], reasons: [NO_SPAN] };
      }
    }
    if (best.verified && best.span && best.via === 'quote') {
      // Where the embedded extractor read an equation in the same span, the readings must agree.
      const there = emb.filter((e) => e.span && overlaps(e.span, best!.span!));
      if (there.length && (await sameAs(item.eq, there)) < 0) best.embeddedReads = there.map((e) => e.source);
    }
    out.push(best);
  }
  // What the embedded extractor read with confidence (the whole response 'read') and the model left
  // out: a dropped equation is a disagreement too.
  const missed: { source: string; span?: Span }[] = [];
  if (embedded.status === 'read') {
    for (const e of emb) {
      let found = false;
      for (const it of items) if ((await sameAs(it.eq, [e])) >= 0) found = true;
      if (!found) missed.push(e.span ? { source: e.source, span: e.span } : { source: e.source });
    }
  }
  return { anchors: out, missed };
}
