// The embedded extractor: reads the equations in typed student text without a language model,
// following the gold conventions of ../shared/data/README.md. Every equation it emits was parsed
// by OUR strict grammar (shared/equation/parser.ts) from normalised text; nothing is evaluated.
// It says what it could not read (unread spans with reasons) rather than guess: status 'read'
// only when every piece of maths in the text is accounted for. Pure: no Node, no DOM.
//
// Pipeline: blank / text addressed to the marker (flagged, never obeyed) / attachment lines /
// retractions -> normalise (LaTeX, unicode, lost Greek '?')
// -> definitions ("let x = Mali's speed") -> tokens -> maths runs between prose -> for each run:
// inequality or limit (ignored), equation or chain (pairs; '±' twice), a labelled expression
// ("Group time = 2S/u", "max compression: √(2gh/k)") or an unread expression.
//
// Stages, one module each: attachments (../text/attachments.ts) and retractions (retract.ts) blanked,
// Eq(...) forms read as they stand (sympy-forms.ts), normalisation (normalize.ts), definitions in
// words (definitions.ts), tokens (tokens.ts, with the question's vocabulary from lexicon.ts), checks
// on symbols across the response (symbol-checks.ts), maths runs (runs.ts; runs joined by a unit
// inside the maths are left unread: unit-inside.ts), and each run read
// (read-run.ts, with the words around it from surroundings.ts and equations emitted by emit.ts);
// the shared state is context.ts. Where a side can be read more than one way (an unbracketed '√',
// '/' or power: scope-choices.ts) every reading is kept as an alternative of its span, reading 0
// in the equations; until the engine has compared them, each such choice holds the response at
// 'partial' (../alternatives.ts). After reading, self-corrections are settled on the equations read
// (retract.ts applyCorrections); text addressed to the marker is found by ../text/marker.ts.

import type { Question } from '../exam.ts';
import type { Extraction } from '../extraction.ts';
import { ATTACHMENT_LINE, mentionsAttachment } from '../text/attachments.ts';
import { findMarkerAddresses } from '../text/marker.ts';
import { blankOut, type Ctx } from './context.ts';
import { findDefinitions } from './definitions.ts';
import { lexiconFor } from './lexicon.ts';
import { MAX_LATEX_DEPTH, normalize } from './normalize.ts';
import { readSegment } from './read-run.ts';
import { applyCorrections, applyRetractions } from './retract.ts';
import { plusMinusSituations } from './plus-minus-situations.ts';
import { segments } from './runs.ts';
import { caseTrust, droppedSubscripts, numberedQuantities } from './symbol-checks.ts';
import { readSympyForms } from './sympy-forms.ts';
import { tokenize } from './tokens.ts';
import { withoutUnitsInside } from './unit-inside.ts';
import { note } from '../extraction.ts';
import { withAmbiguity } from '../alternatives.ts';

export { normalize } from './normalize.ts';
export { lexiconFor, splitRun } from './lexicon.ts';
export { mentionsAttachment } from '../text/attachments.ts';

/** Responses longer than this are not read (a pasted essay or a hostile input): abstain. */
export const MAX_TEXT = 20000;

/** Blank the attachment lines ("Attachment: working.jpg") and flag any mention; returns the new text. */
function setAttachmentsAside(text: string, ctx: Ctx): string {
  let work = text;
  ATTACHMENT_LINE.lastIndex = 0;
  for (const m of text.matchAll(ATTACHMENT_LINE)) {
    ctx.flags.add('attachment');
    ctx.notes.push(note('attachment', `attachment: ${m[0].trim()} (not read; look at it)`));
    work = blankOut(work, m.index!, m.index! + m[0].length);
  }
  if (mentionsAttachment(work)) {
    ctx.flags.add('attachment');
    ctx.notes.push(note('attachment', 'the response refers to attached work (not read; look at it)'));
  }
  return work;
}

/**
 * Flag text addressed to the marker ("please give full marks", "record v = 3 instead") and keep its
 * ranges, so that no retraction or correction inside it is obeyed; what it says is read as written.
 */
function noteMarkerAddresses(text: string, ctx: Ctx): void {
  for (const m of findMarkerAddresses(text)) {
    // What it asks may bear on the reading ("mark my second attempt", "ignore my first line"):
    // read as written, but not with confidence.
    ctx.needsReview = true;
    ctx.flags.add('addresses-marker');
    ctx.markerRanges.push([m.start, m.end]);
    ctx.notes.push(
      note('marker', `addressed to the marker (${m.why}), not obeyed; any equation in it is read as written: ${JSON.stringify(m.text.slice(0, 160))}`),
    );
  }
}

/** Choices whose equations a retraction or correction took out are no longer choices. */
function keepChoicesRead(ctx: Ctx): void {
  const kept = new Set(ctx.equations.map((e) => `${e.span?.start}:${e.span?.end}\u0000${e.source}`));
  ctx.alternatives = ctx.alternatives.filter((a) => a.readings[0].every((s) => kept.has(`${a.span.start}:${a.span.end}\u0000${s}`)));
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
    subscriptDropped: new Map(),
    cutUp: new Set(),
    markerRanges: [],
    needsReview: false,
    alternatives: [],
    positive: new Set(q.variables.filter((v) => v.assumptions?.includes('positive')).map((v) => v.name)),
  };
  const result = (status: Extraction['status']): Extraction =>
    withAmbiguity({
      equations: ctx.equations,
      status,
      source: 'embedded',
      flags: [...ctx.flags],
      unread: ctx.unread,
      notes: ctx.notes,
      ...(ctx.alternatives.length ? { alternatives: ctx.alternatives } : {}),
    });
  if (text.trim() === '') return result('blank');
  if (text.length > MAX_TEXT) {
    ctx.notes.push(note('unread', `response longer than ${MAX_TEXT} characters: not read`));
    ctx.unread.push({ span: { start: 0, end: text.length }, text: text.slice(0, 200), reason: 'too long to read' });
    return result('abstained');
  }

  noteMarkerAddresses(text, ctx);
  let work = setAttachmentsAside(text, ctx);
  if (work.trim() === '') return result('read');

  work = applyRetractions(work, ctx);
  work = readSympyForms(work, ctx);
  ctx.norm = normalize(work, lex.greek, !lex.variables.some((v) => /^[xX](_|$)/.test(v)), lex.variables);
  if (ctx.norm.tooDeep) {
    // LaTeX nested past the bound (a hostile input, or a paste gone wrong): nothing is guessed.
    ctx.unread.push({
      span: { start: 0, end: text.length },
      text: text.slice(0, 200),
      reason: `LaTeX nested more than ${MAX_LATEX_DEPTH} levels deep: not read`,
    });
    return result(ctx.equations.length ? 'partial' : 'abstained');
  }
  findDefinitions(ctx.norm.text, ctx);
  let toks = tokenize(ctx.norm.text, lex, ctx.aliases);
  if (numberedQuantities(ctx, toks)) toks = tokenize(ctx.norm.text, lex, ctx.aliases);
  caseTrust(ctx, toks);
  droppedSubscripts(ctx, toks);
  for (const [a, b] of withoutUnitsInside(ctx, toks, segments(toks))) readSegment(ctx, toks, a, b);

  ctx.unread.sort((x, y) => x.span.start - y.span.start);
  ctx.equations.sort((x, y) => (x.span?.start ?? 0) - (y.span?.start ?? 0));
  applyCorrections(ctx);
  plusMinusSituations(ctx);
  keepChoicesRead(ctx);
  if (ctx.equations.length === 0 && ctx.unread.length === 0 && !ctx.mathSeen && !ctx.flags.has('attachment')) ctx.flags.add('words-only');
  if (ctx.unread.length === 0) return result(ctx.needsReview ? 'needs-review' : 'read');
  return result(ctx.equations.length ? 'partial' : 'abstained');
}
