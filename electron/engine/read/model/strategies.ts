// The reading techniques, per response: direct, LLM-Modulo (repair loop with our parser's
// messages), consensus (two models, compared by the entailment engine, up to 3 rounds), per-line
// (pieces read one by one, merged) and hybrid (embedded extractor first).
import { equationToSympy, formatErrors, parseEquation, type Equation } from '../../../../shared/equation/index.ts';
import { realDomain, type Question } from '../../../../shared/exam.ts';
import { note, type ExtractedEquation, type Extraction, type ExtractionFlag, type ExtractionNote } from '../../../../shared/extraction.ts';
import type { ChatMessage, OllamaClient } from '../ollama/client.ts';
import {
  checkReply,
  consensusPrompt,
  EQUATIONS_SCHEMA,
  extractPrompt,
  repairPrompt,
  replyItems,
  systemPrompt,
  type ReplyItem,
  type SymbolMapping,
} from './prompts.ts';
import { findMarkerAddresses, groundEquation, indexText, mentionsAttachment } from './guards.ts';
import { anchorReading, type AnchoredInput, type AnchorResult } from './anchors.ts';
import { extractEmbedded } from '../../../../shared/extract/index.ts';
import type { CallRecord, ListComparer, ModelRef, Reading } from './types.ts';
import { ANY_RETRACTION } from '../../../../shared/text/retractions.ts';

export const MAX_REPAIR_ROUNDS = 3;
export const MAX_CONSENSUS_ROUNDS = 3;

export type ReadContext = {
  client: OllamaClient;
  question: Question;
  text: string;
  calls: CallRecord[];
  options: { temperature: 0; seed: number };
  maxRepairRounds: number;
  maxConsensusRounds: number;
  compare: ListComparer;
};

/** An equation of a model's list: canonical source, parsed, with the span it quotes and the mappings it used. */
export type ReadEquation = { source: string; eq: Equation; quote?: string; mappings?: SymbolMapping[] };

export type ListReading = {
  /** Parsed, canonical, de-duplicated. */
  equations: ReadEquation[];
  /** Items that still don't parse after the repair rounds. */
  problems: { source: string; errors: string }[];
  rounds: number;
};

type CallMeta = { purpose: CallRecord['purpose']; piece?: number; consensusRound?: number };

async function ask(ctx: ReadContext, model: ModelRef, messages: ChatMessage[], meta: CallMeta, round: number): Promise<string> {
  const { purpose, piece, consensusRound } = meta;
  const r = await ctx.client.chat({ model: model.name, digest: model.digest, messages, format: EQUATIONS_SCHEMA, options: ctx.options, validate: checkReply });
  ctx.calls.push({
    model: model.name,
    digest: model.digest,
    purpose,
    round,
    piece,
    consensusRound,
    messages,
    options: ctx.options,
    reply: r.content,
    tokensIn: r.tokensIn,
    tokensOut: r.tokensOut,
    wallMs: r.wallMs,
    startedAt: r.startedAt,
    cached: r.cached,
    attempts: r.attempts,
    retried: r.retried,
  });
  return r.content;
}

/** Parse every item with the question's variables: canonical equations and the items that fail. */
export function checkList(items: (string | ReplyItem)[], variables: string[]): Omit<ListReading, 'rounds'> {
  const seen = new Set<string>();
  const equations: ListReading['equations'] = [];
  const problems: ListReading['problems'] = [];
  for (const raw of items) {
    const item: ReplyItem = typeof raw === 'string' ? { equation: raw, mappings: [] } : raw;
    const r = parseEquation(item.equation, { variables });
    if (!r.ok) {
      problems.push({ source: item.equation, errors: formatErrors(r.errors) });
      continue;
    }
    const source = equationToSympy(r.value);
    if (!seen.has(source)) {
      seen.add(source);
      equations.push({
        source,
        eq: r.value,
        ...(item.span !== undefined ? { quote: item.span } : {}),
        ...(item.mappings.length ? { mappings: item.mappings } : {}),
      });
    }
  }
  return { equations, problems };
}

/**
 * Ask, parse, and while items fail give the model its list back with the parser's messages
 * (LLM-Modulo); `maxRounds` 0 is the direct technique.
 */
export async function readWithRepair(ctx: ReadContext, model: ModelRef, first: ChatMessage[], maxRounds: number, meta: CallMeta): Promise<ListReading> {
  const variables = ctx.question.variables.map((v) => v.name);
  let messages = first;
  let reply = await ask(ctx, model, messages, meta, 0);
  let checked = checkList(replyItems(reply), variables);
  let round = 0;
  while (checked.problems.length > 0 && round < maxRounds) {
    round++;
    messages = [...messages, { role: 'assistant', content: reply }, { role: 'user', content: repairPrompt(checked.problems, variables) }];
    reply = await ask(ctx, model, messages, { ...meta, purpose: 'repair' }, round);
    checked = checkList(replyItems(reply), variables);
  }
  return { ...checked, rounds: round };
}

const firstMessages = (q: Question, text: string, piece?: { index: number; of: number }): ChatMessage[] => [
  { role: 'system', content: systemPrompt() },
  { role: 'user', content: extractPrompt(q, text, piece) },
];

export function readDirect(ctx: ReadContext, model: ModelRef): Promise<ListReading> {
  return readWithRepair(ctx, model, firstMessages(ctx.question, ctx.text), 0, { purpose: 'extract' });
}

export function readLlmModulo(ctx: ReadContext, model: ModelRef): Promise<ListReading> {
  return readWithRepair(ctx, model, firstMessages(ctx.question, ctx.text), ctx.maxRepairRounds, { purpose: 'extract' });
}

/** Pieces for per-line reading: lines, and long lines cut into sentences. */
export function splitPieces(text: string, maxChars = 240): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const l = line.trim();
    if (l === '') continue;
    if (l.length <= maxChars) {
      out.push(l);
      continue;
    }
    let cur = '';
    for (const s of l.split(/(?<=[.!?;])\s+(?=[A-Z(])/)) {
      if (cur && cur.length + s.length + 1 > maxChars) {
        out.push(cur);
        cur = s;
      } else cur = cur ? `${cur} ${s}` : s;
    }
    if (cur) out.push(cur);
  }
  return out;
}

/**
 * Per-line: short responses (up to `minChars` and 3 lines) are read whole; longer ones piece by
 * piece with LLM-Modulo, then merged. A retraction ("scratch that") refers to other lines, so a
 * response containing one is read whole.
 */
export async function readPerLine(
  ctx: ReadContext,
  model: ModelRef,
  opts: { minChars?: number; maxPieceChars?: number } = {},
): Promise<ListReading & { pieces: number; note?: string }> {
  const pieces = splitPieces(ctx.text, opts.maxPieceChars ?? 240);
  const short = ctx.text.length <= (opts.minChars ?? 200) && pieces.length <= 3;
  if (short || pieces.length <= 1) return { ...(await readLlmModulo(ctx, model)), pieces: 1 };
  if (ANY_RETRACTION.test(ctx.text)) {
    return { ...(await readLlmModulo(ctx, model)), pieces: 1, note: 'read whole: the response retracts something, which depends on the other lines' };
  }
  const parts: ListReading[] = [];
  for (let i = 0; i < pieces.length; i++) {
    parts.push(
      await readWithRepair(ctx, model, firstMessages(ctx.question, pieces[i], { index: i, of: pieces.length }), ctx.maxRepairRounds, {
        purpose: 'extract',
        piece: i,
      }),
    );
  }
  const seen = new Set<string>();
  const equations: ListReading['equations'] = [];
  for (const p of parts) {
    for (const e of p.equations) {
      if (seen.has(e.source)) continue;
      seen.add(e.source);
      equations.push(e);
    }
  }
  return { equations, problems: parts.flatMap((p) => p.problems), rounds: Math.max(0, ...parts.map((p) => p.rounds)), pieces: pieces.length };
}

/** An equation of the agreed list that one model took up only after seeing the other model's list. */
export type Adopted = { source: string; model: string };

export type ConsensusReading = {
  agreed: boolean;
  a: ListReading;
  b: ListReading;
  /** Each model's blind reading (round 0: neither saw the other's). */
  a0: ListReading;
  b0: ListReading;
  rounds: number;
  equations: ListReading['equations'];
  /** Equations of `equations` that one of the blind readings lacks: agreement only after the exchange (weak). */
  adopted: Adopted[];
};

const emptyEquivalent = (a: unknown[], b: unknown[]) => a.length === 0 && b.length === 0;

async function sameList(ctx: ReadContext, a: ListReading, b: ListReading) {
  if (a.equations.length === 0 || b.equations.length === 0) {
    const eq = emptyEquivalent(a.equations, b.equations);
    return { equivalent: eq, aCoveredBy: a.equations.map(() => -1), bCoveredBy: b.equations.map(() => -1) };
  }
  return ctx.compare(
    a.equations.map((e) => e.eq),
    b.equations.map((e) => e.eq),
    realDomain(ctx.question),
  );
}

/** Which of `list` a blind reading lacks (by the comparer). */
async function missingFrom(ctx: ReadContext, list: ListReading['equations'], blind: ListReading): Promise<string[]> {
  if (list.length === 0) return [];
  if (blind.equations.length === 0) return list.map((e) => e.source);
  const cmp = await ctx.compare(
    list.map((e) => e.eq),
    blind.equations.map((e) => e.eq),
    realDomain(ctx.question),
  );
  return list.filter((_, i) => cmp.aCoveredBy[i] < 0).map((e) => e.source);
}

/**
 * Consensus: both models read blind with LLM-Modulo (neither sees the other's reading); while
 * their lists differ (by the entailment engine), each gets both lists and the text again, up to
 * `maxConsensusRounds`. Remaining disagreement keeps both readings; only the equations both lists
 * support go forward. An agreed equation missing from either blind reading was adopted after the
 * exchange: weak agreement, which the guard accepts only with a verified span (finishExtraction).
 */
export async function readConsensus(ctx: ReadContext, ma: ModelRef, mb: ModelRef): Promise<ConsensusReading> {
  const [a0, b0] = await Promise.all([readLlmModulo(ctx, ma), readLlmModulo(ctx, mb)]);
  let [a, b] = [a0, b0];
  let cmp = await sameList(ctx, a, b);
  let round = 0;
  while (!cmp.equivalent && round < ctx.maxConsensusRounds) {
    round++;
    const la = a.equations.map((e) => e.source);
    const lb = b.equations.map((e) => e.source);
    const msgs = (mine: string[], other: string[]): ChatMessage[] => [
      { role: 'system', content: systemPrompt() },
      { role: 'user', content: consensusPrompt(ctx.question, ctx.text, mine, other) },
    ];
    [a, b] = await Promise.all([
      readWithRepair(ctx, ma, msgs(la, lb), ctx.maxRepairRounds, { purpose: 'consensus', consensusRound: round }),
      readWithRepair(ctx, mb, msgs(lb, la), ctx.maxRepairRounds, { purpose: 'consensus', consensusRound: round }),
    ]);
    const unchanged = (x: ListReading, before: string[]) => x.equations.map((e) => e.source).join('\n') === before.join('\n');
    cmp = await sameList(ctx, a, b);
    // Neither model moved: the same prompts would get the same replies (temperature 0, fixed seed).
    if (!cmp.equivalent && unchanged(a, la) && unchanged(b, lb)) break;
  }
  const equations = cmp.equivalent ? a.equations : a.equations.filter((_, i) => cmp.aCoveredBy[i] >= 0);
  // Keep the span and mappings a model quoted: from its own reading, else from the other's.
  const withEvidence = equations.map((e) => (e.quote !== undefined ? e : (b.equations.find((x) => x.source === e.source && x.quote !== undefined) ?? e)));
  const adopted: Adopted[] = [];
  if (round > 0) {
    for (const s of await missingFrom(ctx, withEvidence, a0)) adopted.push({ source: s, model: ma.name });
    for (const s of await missingFrom(ctx, withEvidence, b0)) adopted.push({ source: s, model: mb.name });
  }
  return { agreed: cmp.equivalent, a, b, a0, b0, rounds: round, equations: withEvidence, adopted };
}

/** Syntactic comparer (canonical source equality): only for when no entailment engine is given. */
export const syntacticComparer: ListComparer = async (a, b) => {
  const sa = a.map(equationToSympy);
  const sb = b.map(equationToSympy);
  const aCoveredBy = sa.map((s) => sb.indexOf(s));
  const bCoveredBy = sb.map((s) => sa.indexOf(s));
  const equivalent =
    a.length === 0 && b.length === 0 ? true : a.length > 0 && b.length > 0 && aCoveredBy.every((i) => i >= 0) && bCoveredBy.every((i) => i >= 0);
  return { equivalent, aCoveredBy, bCoveredBy };
};

/** Extras for finishExtraction. */
export type FinishExtras = {
  flags?: ExtractionFlag[];
  notes?: ExtractionNote[];
  review?: boolean;
  /** Compares the model's equations with the embedded extractor's (syntactic when absent). */
  compare?: ListComparer;
  /** The embedded extractor's reading of the text (read here when absent). */
  embedded?: Extraction;
  /** Consensus: equations agreed only after the exchange, and the blind readings to show when one can't be verified. */
  weak?: { adopted: Adopted[]; blind: Reading[] };
};

export type Finished = {
  extraction: Extraction;
  /** Held back: no verifiable span (unsupported), with why. */
  ungrounded: { source: string; reasons: string[] }[];
  anchors: AnchorResult[];
};

/**
 * Turn a list into an Extraction with the guards applied: every equation anchored to a span of the
 * text (anchors.ts; unsupported ones held back), weak consensus agreement checked, attachments,
 * text addressed to the marker.
 */
export async function finishExtraction(
  q: Question,
  text: string,
  reading: { equations: { source: string; eq?: Equation; quote?: string; mappings?: SymbolMapping[] }[]; problems: { source: string; errors: string }[] },
  source: Extraction['source'],
  extra: FinishExtras = {},
): Promise<Finished> {
  const flags = new Set<ExtractionFlag>(extra.flags ?? []);
  const notes = [...(extra.notes ?? [])];
  let review = extra.review ?? false;
  const variables = q.variables.map((v) => v.name);
  const items: AnchoredInput[] = [];
  const ungrounded: Finished['ungrounded'] = [];
  for (const e of reading.equations) {
    const eq =
      e.eq ??
      (() => {
        const p = parseEquation(e.source, { variables });
        return p.ok ? p.value : null;
      })();
    if (!eq) {
      const p = parseEquation(e.source, { variables });
      ungrounded.push({ source: e.source, reasons: [p.ok ? 'unreadable' : formatErrors(p.errors)] });
      continue;
    }
    items.push({ source: e.source, eq, ...(e.quote !== undefined ? { quote: e.quote } : {}), ...(e.mappings ? { mappings: e.mappings } : {}) });
  }
  const embedded = extra.embedded ?? extractEmbedded(text, q);
  const { anchors, missed } = await anchorReading(items, text, q, embedded, extra.compare ?? syntacticComparer);
  if (missed.length) {
    flags.add('models-disagree');
    review = true;
    const said = missed.map((m) => `${m.source}${m.span ? ` (at ${JSON.stringify(text.slice(m.span.start, m.span.end).slice(0, 60))})` : ''}`);
    notes.push(note('disagreement', `the embedded extractor also reads ${said.join(', ')}, which the model left out`));
  }
  const idx = indexText(text, q);
  const grounded: ExtractedEquation[] = [];
  for (const [i, a] of anchors.entries()) {
    if (!a.verified) {
      // The text-wide reasons too (a symbol or number nowhere in the text), so the instructor sees the worst first.
      const wide = groundEquation(items[i].eq, idx, q).reasons;
      ungrounded.push({ source: a.source, reasons: [...wide, ...a.reasons] });
      continue;
    }
    grounded.push(a.span ? { source: a.source, span: a.span } : { source: a.source });
    const where = a.span ? JSON.stringify(text.slice(a.span.start, a.span.end).slice(0, 80)) : '';
    if (a.mapped.length) notes.push(note('unmapped-symbol', `${a.source} from ${where}: ${a.mapped.join('; ')}`));
    if (a.embeddedReads) {
      flags.add('models-disagree');
      review = true;
      notes.push(note('disagreement', `the embedded extractor reads ${where} as ${JSON.stringify(a.embeddedReads)}; the model as ${a.source}`));
    }
    if (a.inMarker) notes.push(note('marker', `${a.source} is typed inside text addressed to the marker: read as written, not obeyed`));
  }
  if (ungrounded.length) {
    flags.add('invented');
    for (const u of ungrounded)
      notes.push(note('held-back', `possibly invented, held back until accepted: ${u.source} (unsupported: ${u.reasons.join('; ')})`));
  }
  if (extra.weak && extra.weak.adopted.length) {
    // Agreement reached only after one model saw the other's list: it stands only where the span checks out.
    const byId = new Map(anchors.map((a) => [a.source, a]));
    const unverified = extra.weak.adopted.filter((w) => {
      const a = byId.get(w.source);
      return !a || !a.verified || a.embeddedReads !== undefined;
    });
    const said = extra.weak.adopted.map((w) => `${w.source} (taken up by ${w.model})`).join('; ');
    if (unverified.length) {
      flags.add('models-disagree');
      review = true;
      notes.push(
        note(
          'disagreement',
          `agreement only after the models saw each other's lists, and the span of ${unverified.map((w) => w.source).join(', ')} could not be verified; ` +
            `their blind readings: ${extra.weak.blind.map((r) => `${r.reader.replace(/^model:/, '')}: ${JSON.stringify(r.equations)}`).join('; ')}`,
        ),
      );
    } else notes.push(note('model', `weak agreement, accepted on verified spans: ${said}`));
  }
  if (mentionsAttachment(text)) {
    flags.add('attachment');
    notes.push(note('attachment', 'the response mentions an attachment: its working may not be in the text'));
  }
  const marker = findMarkerAddresses(text);
  if (marker.length) {
    // Never obeyed: the model's equations stand as read and are checked like any others. What
    // such text asks may bear on the reading itself ("mark my second attempt", "record v = 3
    // instead"), so the reading is not confident: needs-review, as the embedded extractor says.
    flags.add('addresses-marker');
    for (const m of marker) notes.push(note('marker', `addressed to the marker (${m.why}), not obeyed: ${JSON.stringify(m.text.slice(0, 160))}`));
  }
  if (reading.problems.length) {
    flags.add('parse-error');
    for (const p of reading.problems) notes.push(note('unread', `model output that could not be read: ${JSON.stringify(p.source)}: ${p.errors}`));
  }
  review = review || flags.has('invented') || flags.has('attachment') || flags.has('models-disagree') || flags.has('addresses-marker');
  const status: Extraction['status'] = review ? 'needs-review' : reading.problems.length ? 'partial' : 'read';
  return { extraction: { equations: grounded, status, source, flags: [...flags], unread: [], notes }, ungrounded, anchors };
}

export const readingOf = (reader: string, r: { equations: { source: string }[] }): Reading => ({ reader, equations: r.equations.map((e) => e.source) });
