// A right side revised in words (issue 11, item 3): "I = ε/(R − r), I mean ε/(R + r)", "v_max =
// A/Ω, I mean AΩ", "v = √(eV/m) … it should be √(2eV/m)". The expression after the cue is the
// student's new right side for the equation just before it, so it is read as that equation's left
// side = the expression; the correction stage (retract.ts applyCorrections) then sees a revision
// restating the same left side and drops the earlier equation, with a note.
//
// Only when the target is plain: the equation just before the cue is a single equation (not a
// chain: which link was wrong is not said) whose left side is one variable, and the expression
// keeps the old right side's symbols (all of them, or all but one swapped for another: "K/h, I
// mean K/e"). "T₁ = m₁(g − a) <- no, it's g + a" names a piece of the right side, not all of it:
// the expression lacks m₁, so it is left unread with the reason, and the correction stays unclear
// (needs review). Pure.

import { note } from '../extraction.ts';
import { parseEquation, symbolsOf, exprToSympy } from '../equation/index.ts';
import { lastEquationBefore, spanOf, symTok, unread, type Ctx } from './context.ts';
import { emitChain } from './emit.ts';
import type { Tok } from './tokens.ts';

/** Cue words ending right before the expression: what follows them replaces what came before. */
const REVISION_LEAD =
  /(?:\b(?:the\s+)?(?:other|wrong)\s+way\s+(?:up|round|around)|\bi\s+meant?|\bmake\s+that|\bor\s+rather|\b(?:it|that|this)\s+should\s+(?:be|have\s+been|read)|(?:^|[,;]\s*)(?:sorry,?\s+)?should\s+(?:be|have\s+been|read))\s*[,:]?\s*$/i;

/** How far back (characters) the revised equation may end before the expression starts. */
const REACH = 120;

/**
 * The maths tokens `t` (no '=') after a revision cue: read as the revised right side of the
 * equation just before. Returns whether it was such a revision (false: the caller goes on).
 */
export function readRevisedSide(ctx: Ctx, t: Tok[]): boolean {
  const where = spanOf(ctx, t);
  const lead = ctx.original.slice(Math.max(0, where.start - 40), where.start);
  if (!REVISION_LEAD.test(lead)) return false;
  // The equation just before: the last one read whose span ends before the expression, near it.
  const k = lastEquationBefore(ctx, where.start);
  if (k < 0) return false;
  const target = ctx.equations[k];
  const span = target.span!;
  if (where.start - span.end > REACH) return false;
  const shown = JSON.stringify(ctx.original.slice(where.start, where.end));
  const was = JSON.stringify(ctx.original.slice(span.start, span.end).trim());
  const sameSpan = ctx.equations.filter((e) => e.span && e.span.start === span.start && e.span.end === span.end);
  const old = parseEquation(target.source, { variables: ctx.lex.variables });
  const lhs = old.ok && old.value.lhs.kind === 'sym' ? old.value.lhs.name : null;
  if (sameSpan.length !== 1 || !old.ok || !lhs) {
    unread(ctx, t, `a revision in words of ${was}, but which part of it the expression replaces is unclear`);
    return true;
  }
  const n = ctx.equations.length;
  emitChain(ctx, [[symTok(lhs, t[0])], t], t);
  if (ctx.equations.length !== n + 1) return true; // left unread by the emitter, with its reason
  const revised = parseEquation(ctx.equations[n].source, { variables: ctx.lex.variables });
  const before = new Set(symbolsOf(old.value.rhs));
  const after = new Set(revised.ok ? symbolsOf(revised.value.rhs) : []);
  const lost = [...before].filter((x) => !after.has(x));
  const gained = [...after].filter((x) => !before.has(x));
  const keeps = revised.ok && (lost.length === 0 || (lost.length === 1 && gained.length === 1));
  if (!keeps) {
    ctx.equations.length = n;
    unread(ctx, t, `a revision in words of ${was}, but it may replace only a part of its right side (${lost.join(', ')} not in it)`);
    return true;
  }
  ctx.notes.push(note('other', `read ${shown} as the revised right side of ${was}: ${lhs} = ${exprToSympy(revised.value.rhs)}`));
  return true;
}
