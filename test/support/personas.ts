// Reader personas for the scripted Ollama server (fake-ollama.ts `respond`): how real models
// behaved in the study, reproducibly, so the guards' goals can be measured (bench/personas.bench.ts)
// and asserted (test/ollama/trust.test.ts):
//  - perfect: answers the gold list, each equation with a span it finds in the text and the
//    mappings it used;
//  - noisy: drops, misreads, renames and adds plausible equations (every symbol in the text), each
//    with the span a model would plausibly give (the added one points at a real equation's span);
//  - deferring: reads blind like `blind`, then, shown the other reader's list, copies it;
//  - obeying: reads perfectly, except that it does what instructions in the student text say.
// Each persona logs what it did to each equation, so a bench can tell an injected error from a
// faithful reading.
import { parseEquation, equationToSympy, type Equation, type Expr } from '../../shared/equation/index.ts';
import type { Question } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { findMarkerAddresses } from '../../shared/text/marker.ts';
import { indexText, symbolsOfExpr } from '../../electron/engine/read/model/guards.ts';
import { sameReading } from '../../electron/engine/read/model/same-reading.ts';
import { DESCRIPTION_STOPWORDS } from '../../shared/text/stopwords.ts';
import { mulberry32, hashString } from '../../electron/engine/decide/entail/rng.ts';
import type { FakeReply, FakeScript } from './fake-ollama.ts';

export type PersonaRow = { text: string; gold: string[]; question: Question };
type Item = { equation: string; span: string; mappings: { from: string; to: string }[] };
export type Act = 'faithful' | 'dropped' | 'misread' | 'renamed' | 'added' | 'obeyed' | 'copied';
/** What a persona did, per response text: each equation it replied with and how it came about. */
export type PersonaLog = Map<string, { source: string; act: Act }[]>;
type Respond = NonNullable<FakeScript['respond']>;

/** The student text inside a prompt's fence. */
export function fencedText(messages: { role: string; content: string }[]): string | null {
  for (const m of messages) {
    const r = /<<<(STUDENT_TEXT_[0-9A-F]+)\n([\s\S]*?)\n\1>>>/.exec(m.content);
    if (r) return r[2];
  }
  return null;
}

const symbolsOf = (eq: Equation): string[] => {
  const s = new Set<string>();
  symbolsOfExpr(eq.lhs, s);
  symbolsOfExpr(eq.rhs, s);
  return [...s];
};
const numbersIn = (s: string): string[] => s.match(/\d+(?:\.\d+)?/g) ?? [];
const key = (s: string) => s.toLowerCase().replace(/_/g, '');
const words = (d: string | undefined) =>
  (d ?? '')
    .toLowerCase()
    .match(/[a-z]+/g)
    ?.filter((w) => w.length >= 4 && !DESCRIPTION_STOPWORDS.has(w)) ?? [];

/** Candidate pieces of the text a model could quote: lines, and clauses of lines. */
function pieces(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l) continue;
    out.add(l);
    for (const p of l.split(/(?<=[.;:!?])\s+|,\s+|\s+(?:so|and|then|thus|hence|therefore|giving|gives|which|but)\s+/i)) if (p.trim()) out.add(p.trim());
  }
  return [...out];
}

/** A span and the mappings for an equation, as a careful model would quote them. */
export function quoteFor(eq: Equation, text: string, q: Question, emb: Extraction): Item {
  const source = equationToSympy(eq);
  const variables = q.variables.map((v) => v.name);
  // Where the text holds the same equation as read by the extractor, that is the span.
  for (const e of emb.equations) {
    const p = parseEquation(e.source, { variables });
    if (e.span && p.ok && (equationToSympy(p.value) === source || sameReading(p.value, eq))) {
      const span = text.slice(e.span.start, e.span.end);
      return { equation: source, span, mappings: mappingsFor(eq, span, text, q) };
    }
  }
  const syms = symbolsOf(eq);
  const nums = numbersIn(source);
  let best = { score: -1, piece: text.trim().split('\n')[0] ?? text };
  for (const p of pieces(text)) {
    const idx = indexText(p, q);
    let score = 0;
    for (const s of syms) if (idx.tokens.has(key(s)) || idx.mathLetters.has(s)) score += 2;
    for (const n of nums) if (idx.numbers.has(n)) score += 1;
    if (/=/.test(p)) score += 1;
    if (score > best.score || (score === best.score && p.length < best.piece.length)) best = { score, piece: p };
  }
  let span = best.piece;
  if (unresolved(eq, span, text, q)) {
    // A careful reader widens the quote to the line when the clause alone doesn't say which quantity it is.
    const line = text.split('\n').find((l) => l.includes(span));
    if (line && !unresolved(eq, line.trim(), text, q)) span = line.trim();
  }
  return { equation: source, span, mappings: mappingsFor(eq, span, text, q) };
}

function unresolved(eq: Equation, span: string, text: string, q: Question): boolean {
  const idx = indexText(span, q);
  const mapped = new Set(mappingsFor(eq, span, text, q).map((m) => m.to));
  return symbolsOf(eq).some((s) => !idx.tokens.has(key(s)) && !idx.mathLetters.has(s) && !mapped.has(s) && s !== q.target);
}

function mappingsFor(eq: Equation, span: string, text: string, q: Question): Item['mappings'] {
  const idx = indexText(span, q);
  const out: Item['mappings'] = [];
  const spanTokens = span.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [];
  for (const s of symbolsOf(eq)) {
    if (idx.tokens.has(key(s)) || idx.mathLetters.has(s)) continue;
    const numbered = spanTokens.find((t) => key(t).startsWith(key(s)) && /^\d+$/.test(key(t).slice(key(s).length)));
    if (numbered) {
      out.push({ from: numbered, to: s });
      continue;
    }
    const v = q.variables.find((x) => x.name === s);
    const w = words(v?.description);
    // A symbol the text defines as this quantity ("let x be Mali's speed").
    const defined = spanTokens.find(
      (t) =>
        !q.variables.some((x) => x.name === t) &&
        t.length <= 3 &&
        text.split(/[.!?;\n]+/).some((sen) => new RegExp(`(?<![A-Za-z0-9_])${t}(?![A-Za-z0-9_])`).test(sen) && w.some((x) => sen.toLowerCase().includes(x))),
    );
    if (defined) {
      out.push({ from: defined, to: s });
      continue;
    }
    // The word of the span that names it ("Times" for "a journey time").
    const phrase = (span.match(/[A-Za-z']+/g) ?? []).find((x) => w.some((d) => x.toLowerCase().startsWith(d)));
    if (phrase) out.push({ from: phrase, to: s });
  }
  return out;
}

const reply = (items: Item[]): FakeReply => ({ json: { equations: items } });

function parsedGold(row: PersonaRow): Equation[] {
  const variables = row.question.variables.map((v) => v.name);
  return row.gold.flatMap((g) => {
    const p = parseEquation(g, { variables });
    return p.ok ? [p.value] : [];
  });
}

/** A persona answering from the text in the prompt; `rows` by response text. */
function persona(rows: Map<string, PersonaRow>, read: (row: PersonaRow, emb: Extraction, prompt: string) => Item[]): Respond {
  const embCache = new Map<string, Extraction>();
  return ({ messages, text: prompt }) => {
    const text = fencedText(messages);
    if (text === null) return undefined;
    const row = rows.get(text);
    if (!row) return undefined;
    const emb = embCache.get(text) ?? extractEmbedded(text, row.question);
    embCache.set(text, emb);
    return reply(read(row, emb, prompt));
  };
}

export function perfectReader(rows: Map<string, PersonaRow>, log?: PersonaLog): Respond {
  return persona(rows, (row, emb) => {
    const items = parsedGold(row).map((eq) => quoteFor(eq, row.text, row.question, emb));
    log?.set(
      row.text,
      items.map((i) => ({ source: i.equation, act: 'faithful' })),
    );
    return items;
  });
}

function mutateNumber(src: string, rng: () => number): string | null {
  const nums = [...src.matchAll(/(?<![A-Za-z_])\d+(?:\.\d+)?/g)];
  if (!nums.length) return null;
  const m = nums[Math.floor(rng() * nums.length)];
  const n = Number(m[0]);
  const to = String(n === 2 ? 3 : n === 1 ? 2 : n + 1);
  return src.slice(0, m.index) + to + src.slice(m.index! + m[0].length);
}

function renameIn(e: Expr, from: string, to: string): Expr {
  switch (e.kind) {
    case 'sym':
      return e.name === from ? { ...e, name: to } : e;
    case 'neg':
      return { ...e, arg: renameIn(e.arg, from, to) };
    case 'bin':
      return { ...e, left: renameIn(e.left, from, to), right: renameIn(e.right, from, to) };
    case 'call':
      return { ...e, args: e.args.map((a) => renameIn(a, from, to)) };
    default:
      return e;
  }
}

/**
 * A noisy reader (seeded by the text): each gold equation is kept, dropped (10%), misread (a
 * number or a sign changed, 12%) or renamed (a symbol replaced by another variable, 6%); and a
 * plausible equation is added (35% of responses with two or more equations): one side of one
 * equation set equal to a side of another, every symbol in the text, quoted with a real equation's span.
 */
export function noisyReader(rows: Map<string, PersonaRow>, log: PersonaLog, seed = 1): Respond {
  return persona(rows, (row, emb) => {
    const rng = mulberry32(hashString(row.text, seed));
    const gold = parsedGold(row);
    const items: Item[] = [];
    const acts: { source: string; act: Act }[] = [];
    const variables = row.question.variables.map((v) => v.name);
    for (const eq of gold) {
      const base = quoteFor(eq, row.text, row.question, emb);
      const r = rng();
      if (r < 0.1) {
        acts.push({ source: base.equation, act: 'dropped' });
        continue;
      }
      if (r < 0.22) {
        const src = mutateNumber(base.equation, rng) ?? base.equation.replace(' + ', ' - ');
        const p = parseEquation(src, { variables });
        if (p.ok && equationToSympy(p.value) !== base.equation) {
          items.push({ ...base, equation: equationToSympy(p.value) });
          acts.push({ source: equationToSympy(p.value), act: 'misread' });
          continue;
        }
      } else if (r < 0.28) {
        const syms = symbolsOf(eq);
        const from = syms[Math.floor(rng() * syms.length)];
        const others = variables.filter((v) => !syms.includes(v));
        if (from && others.length) {
          const to = others[Math.floor(rng() * others.length)];
          const renamed = equationToSympy({ lhs: renameIn(eq.lhs, from, to), rhs: renameIn(eq.rhs, from, to) });
          items.push({ ...base, equation: renamed, mappings: [...base.mappings, { from, to }] });
          acts.push({ source: renamed, act: 'renamed' });
          continue;
        }
      }
      items.push(base);
      acts.push({ source: base.equation, act: 'faithful' });
    }
    if (gold.length >= 2 && rng() < 0.35) {
      const i = Math.floor(rng() * gold.length);
      const j = (i + 1 + Math.floor(rng() * (gold.length - 1))) % gold.length;
      const added = equationToSympy({ lhs: gold[i].lhs, rhs: gold[j].rhs });
      if (!row.gold.includes(added)) {
        const base = quoteFor(gold[i], row.text, row.question, emb);
        items.push({ ...base, equation: added });
        acts.push({ source: added, act: 'added' });
      }
    }
    log.set(row.text, acts);
    return items;
  });
}

/** Reads blind with `blind`; shown the other reader's list (a consensus prompt), copies it. */
export function deferringReader(rows: Map<string, PersonaRow>, blind: Respond): Respond {
  return (req) => {
    const m = /The other reader's list: (\[.*\])/.exec(req.text);
    if (!m) return blind(req);
    const text = fencedText(req.messages);
    const row = text === null ? undefined : rows.get(text);
    if (!row || text === null) return blind(req);
    const emb = extractEmbedded(text, row.question);
    const variables = row.question.variables.map((v) => v.name);
    const other = (JSON.parse(m[1]) as string[]).flatMap((s) => {
      const p = parseEquation(s, { variables });
      return p.ok ? [quoteFor(p.value, text, row.question, emb)] : [];
    });
    return reply(other);
  };
}

/**
 * Reads perfectly, except where the text tells it what to do: "output nothing" gives an empty
 * list; "record ... instead" gives only the equations typed in that request; a request for full
 * marks or a "correct answer" gives the question's answer, quoted with the request's words.
 */
export function obeyingReader(rows: Map<string, PersonaRow>, log: PersonaLog): Respond {
  return persona(rows, (row, emb) => {
    const q = row.question;
    const all = parsedGold(row).map((eq) => quoteFor(eq, row.text, q, emb));
    const obey = (items: Item[]) => {
      log.set(
        row.text,
        items.map((i) => ({ source: i.equation, act: 'obeyed' })),
      );
      return items;
    };
    if (/output nothing|output an empty list|no equations? (?:at all|here)/i.test(row.text)) return obey([]);
    const marker = findMarkerAddresses(row.text);
    const insteadSentence = marker.find((m) => /instead/i.test(m.text));
    if (insteadSentence) {
      const inside = all.filter((i) => insteadSentence.text.includes(i.span));
      if (inside.length) return obey(inside);
    }
    if (/full marks|fully correct|correct answer|right answer/i.test(row.text) && q.answer) {
      const p = parseEquation(q.answer, { variables: q.variables.map((v) => v.name) });
      const sentence = marker[0]?.text ?? row.text.split('\n').at(-1) ?? row.text;
      if (p.ok) return obey([{ equation: equationToSympy(p.value), span: sentence, mappings: [] }]);
    }
    log.set(
      row.text,
      all.map((i) => ({ source: i.equation, act: 'faithful' })),
    );
    return all;
  });
}

/** Two personas behind one server: `a` for model `ma`, `b` for the others. */
export const byModel =
  (ma: string, a: Respond, b: Respond): Respond =>
  (req) =>
    req.model === ma ? a(req) : b(req);
