// The reading techniques, per response: direct, LLM-Modulo (repair loop with our parser's
// messages), consensus (two models, compared by the entailment engine, up to 3 rounds), per-line
// (pieces read one by one, merged) and hybrid (embedded extractor first).
import { equationToSympy, formatErrors, parseEquation, type Equation } from '../../../../shared/equation/index.ts';
import { realDomain, type Question } from '../../../../shared/exam.ts';
import { note, type ExtractedEquation, type Extraction, type ExtractionFlag, type ExtractionNote } from '../../../../shared/extraction.ts';
import type { ChatMessage, OllamaClient } from '../ollama/client.ts';
import { checkReply, consensusPrompt, EQUATIONS_SCHEMA, extractPrompt, repairPrompt, replyEquations, systemPrompt } from './prompts.ts';
import { findMarkerAddresses, groundList, mentionsAttachment } from './guards.ts';
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

export type ListReading = {
  /** Parsed, canonical, de-duplicated. */
  equations: { source: string; eq: Equation }[];
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
export function checkList(items: string[], variables: string[]): Omit<ListReading, 'rounds'> {
  const seen = new Set<string>();
  const equations: ListReading['equations'] = [];
  const problems: ListReading['problems'] = [];
  for (const item of items) {
    const r = parseEquation(item, { variables });
    if (!r.ok) {
      problems.push({ source: item, errors: formatErrors(r.errors) });
      continue;
    }
    const source = equationToSympy(r.value);
    if (!seen.has(source)) {
      seen.add(source);
      equations.push({ source, eq: r.value });
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
  let checked = checkList(replyEquations(reply), variables);
  let round = 0;
  while (checked.problems.length > 0 && round < maxRounds) {
    round++;
    messages = [...messages, { role: 'assistant', content: reply }, { role: 'user', content: repairPrompt(checked.problems, variables) }];
    reply = await ask(ctx, model, messages, { ...meta, purpose: 'repair' }, round);
    checked = checkList(replyEquations(reply), variables);
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

export type ConsensusReading = { agreed: boolean; a: ListReading; b: ListReading; rounds: number; equations: ListReading['equations'] };

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

/**
 * Consensus: both models read with LLM-Modulo; while their lists differ (by the entailment
 * engine), each gets both lists and the text again, up to `maxConsensusRounds`. Remaining
 * disagreement keeps both readings; only the equations both lists support go forward.
 */
export async function readConsensus(ctx: ReadContext, ma: ModelRef, mb: ModelRef): Promise<ConsensusReading> {
  let [a, b] = await Promise.all([readLlmModulo(ctx, ma), readLlmModulo(ctx, mb)]);
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
  return { agreed: cmp.equivalent, a, b, rounds: round, equations };
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

/** Turn a list into an Extraction with the guards applied (grounding, attachment, text addressed to the marker). */
export function finishExtraction(
  q: Question,
  text: string,
  reading: { equations: { source: string }[]; problems: { source: string; errors: string }[] },
  source: Extraction['source'],
  extra: { flags?: ExtractionFlag[]; notes?: ExtractionNote[]; review?: boolean } = {},
): { extraction: Extraction; ungrounded: { source: string; reasons: string[] }[] } {
  const flags = new Set<ExtractionFlag>(extra.flags ?? []);
  const notes = [...(extra.notes ?? [])];
  const { grounded, ungrounded } = groundList(
    reading.equations.map((e): ExtractedEquation => ({ source: e.source })),
    text,
    q,
  );
  if (ungrounded.length) {
    flags.add('invented');
    for (const u of ungrounded) notes.push(note('held-back', `possibly invented, held back until accepted: ${u.source} (${u.reasons.join('; ')})`));
  }
  if (mentionsAttachment(text)) {
    flags.add('attachment');
    notes.push(note('attachment', 'the response mentions an attachment: its working may not be in the text'));
  }
  const marker = findMarkerAddresses(text);
  if (marker.length) {
    // Never obeyed: the model's equations stand as read and are checked like any others; the flag
    // sends the response to review (REVIEW_FLAGS).
    flags.add('addresses-marker');
    for (const m of marker) notes.push(note('marker', `addressed to the marker (${m.why}), not obeyed: ${JSON.stringify(m.text.slice(0, 160))}`));
  }
  if (reading.problems.length) {
    flags.add('parse-error');
    for (const p of reading.problems) notes.push(note('unread', `model output that could not be read: ${JSON.stringify(p.source)}: ${p.errors}`));
  }
  const review = extra.review || flags.has('invented') || flags.has('attachment') || flags.has('models-disagree');
  const status: Extraction['status'] = review ? 'needs-review' : reading.problems.length ? 'partial' : 'read';
  return { extraction: { equations: grounded, status, source, flags: [...flags], unread: [], notes }, ungrounded };
}

export const readingOf = (reader: string, r: { equations: { source: string }[] }): Reading => ({ reader, equations: r.equations.map((e) => e.source) });
