// The state of one reading (what the stages share) and how a run of tokens is reported: its span in
// the original response, and an unread entry with the reason. Pure.

import type { Alternative, ExtractedEquation, ExtractionFlag, ExtractionNote, Span, UnreadSpan } from '../extraction.ts';
import type { Lexicon } from './lexicon.ts';
import type { Mapped } from './normalize.ts';
import type { Tok } from './tokens.ts';

export type Ctx = {
  lex: Lexicon;
  aliases: Map<string, string>;
  norm: Mapped;
  original: string;
  equations: ExtractedEquation[];
  unread: UnreadSpan[];
  notes: ExtractionNote[];
  flags: Set<ExtractionFlag>;
  mathSeen: boolean;
  /** Ranges of the normalised text that define a symbol in words ("x = Mali's speed"). */
  definitions: [number, number][];
  /** Variables whose capitalisation this response can't be trusted to keep (m and M when it wrote g for G). */
  caseUntrusted: Set<string>;
  /** A letter as typed that reads as a variable in the other case but may be a subscripted variable with its subscript dropped ("v": V or v_t). */
  subscriptDropped: Map<string, string[]>;
  /** Variables the question says are positive. */
  positive: Set<string>;
  /** Expressions already reported as cut up by unreadable maths (token ranges "from:to"). */
  cutUp: Set<string>;
  /** Ranges of the original text addressed to the marker (never obeyed: no retraction or correction inside them). */
  markerRanges: [number, number][];
  /** Reading choices (spans the text allows to be read more than one way), reading 0 in `equations`. */
  alternatives: Alternative[];
  /** Something the response says makes the reading doubtful though all of it was read (an unclear self-correction). */
  needsReview: boolean;
};

export const blankOut = (s: string, a: number, b: number): string => s.slice(0, a) + s.slice(a, b).replace(/[^\n]/g, ' ') + s.slice(b);

export function spanOf(ctx: Ctx, toks: Tok[]): Span {
  const a = toks[0].start;
  const b = toks[toks.length - 1].end;
  const start = ctx.norm.from[a] ?? 0;
  const end = ctx.norm.to[b - 1] ?? start;
  return { start, end: Math.max(end, start) };
}

/**
 * The index in ctx.equations of the last equation read whose span ends at or before `at`
 * (original offset), or -1. Runs are read in the order of the text, so it is among the last
 * pushed: looked for from the end (constant time per look, whatever the response's length).
 */
export function lastEquationBefore(ctx: Ctx, at: number): number {
  let k = ctx.equations.length - 1;
  while (k >= 0 && !(ctx.equations[k].span && ctx.equations[k].span!.end <= at)) k--;
  return k;
}

export function unread(ctx: Ctx, toks: Tok[], reason: string): void {
  const span = spanOf(ctx, toks);
  ctx.unread.push({ span, text: ctx.original.slice(span.start, span.end), reason });
}

/** A token standing for a variable the words named ("Group time = ..." -> t). */
export const symTok = (name: string, at: Tok): Tok => ({
  kind: 'id',
  text: name,
  start: at.start,
  end: at.start,
  sp: true,
  pieces: [{ kind: 'sym', name, text: name }],
});
