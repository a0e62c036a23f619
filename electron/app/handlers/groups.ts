// Answer groups (engine/review/groups.ts) and changes applied to a whole group. A correction of
// a group's equations reaches only the members whose own list is the one edited (the engine's
// correctionReach); groups.preview shows each member, its marks now and after, before anything
// is saved.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import { correctionReach, NOT_REACHED } from '../../engine/review/groups.ts';
import { questionGroups } from '../answer-groups.ts';
import { effectiveTotal } from '../../engine/review/state.ts';
import { marksFor } from '../../engine/grade.ts';
import type { ResponseSummary } from '../../engine/store/workspace.ts';
import { invalid, notFound, type AppContext } from '../context.ts';
import { correct, override } from '../detail.ts';
import { equationToSympy, parseEquation } from '../../../shared/equation/index.ts';

type Handlers = Pick<ApiHandlers, 'groups.list' | 'groups.preview' | 'groups.apply'>;

/** The members named by id, all of one question; a member that is not a response of it is an error. */
function members(ctx: AppContext, responseIds: string[]): { rows: ResponseSummary[]; examId: string; questionId: string } {
  const rows: ResponseSummary[] = [];
  for (const rid of responseIds) {
    const d = ctx.ws.getResponseDetail(ctx.responseId(rid)) ?? notFound(`no response with id ${rid}`);
    rows.push(d);
  }
  const { examId, questionId } = rows[0];
  const other = rows.find((r) => r.examId !== examId || r.questionId !== questionId);
  if (other) invalid(`a group holds answers to one question: student ${other.studentId}'s answer is to ${other.questionId}, not ${questionId}`);
  return { rows, examId, questionId };
}

/** The corrected list in canonical form; an equation the grammar rejects is an error naming it. */
function canonical(ctx: AppContext, examId: string, questionId: string, sources: string[]): string[] {
  const variables = ctx.loaded(examId).questions.get(questionId)!.variables;
  return sources.map((s, i) => {
    const p = parseEquation(s, { variables });
    if (!p.ok) return invalid(`equation ${i + 1} ${JSON.stringify(s)}: ${p.errors.map((e) => e.message).join('; ')}`);
    return equationToSympy(p.value);
  });
}

export function groupHandlers(ctx: AppContext): Handlers {
  return {
    // Prepared in the background when the exam's marks came (answer-groups.ts); else compared now.
    'groups.list': ({ examId, questionId }) => questionGroups(ctx, examId, questionId),

    'groups.preview': async ({ responseIds, from, equations }) => {
      const { rows, examId, questionId } = members(ctx, responseIds);
      const cq = ctx.loaded(examId).questions.get(questionId)!;
      const { reached } = correctionReach(rows, from);
      const reach = new Set(reached.map((r) => r.id));
      const engine = await ctx.engine();
      let after: Awaited<ReturnType<typeof marksFor>>;
      const sources = canonical(ctx, examId, questionId, equations);
      try {
        after = await marksFor(engine, cq, sources);
      } catch (e) {
        return invalid((e as Error).message);
      }
      const texts = ctx.ws.responseTexts(examId);
      // A numeric item reads each member's own text (its numbers with units): the same list can earn differently.
      const own = new Map<number, typeof after>();
      if (cq.question.scheme.some((s) => s.match === 'numeric'))
        for (const r of reached) own.set(r.id, await marksFor(engine, cq, sources, texts.get(r.id) ?? null));
      return {
        members: rows.map((r) => {
          const d = ctx.ws.getResponseDetail(r.id)!;
          const afterMarks: Record<string, number | null> = {};
          for (const it of (own.get(r.id) ?? after).items) afterMarks[it.itemId] = it.awarded;
          for (const o of d.overridesList) afterMarks[o.itemId] = o.awarded;
          return {
            responseId: String(r.id),
            studentId: r.studentId,
            excerpt: (texts.get(r.id) ?? '').replace(/\s+/g, ' ').trim().slice(0, 200),
            reached: reach.has(r.id),
            reason: reach.has(r.id) ? null : NOT_REACHED,
            before: { total: effectiveTotal(r), marks: r.effective },
            after: reach.has(r.id) ? { total: Object.values(afterMarks).reduce<number>((s, v) => s + (v ?? 0), 0), marks: afterMarks } : null,
          };
        }),
      };
    },

    'groups.apply': async ({ responseIds, action }) => {
      const { rows, examId, questionId } = members(ctx, responseIds);
      let changed = 0;
      if (action.kind === 'equations') {
        // `from` is the group's list as groups.list gave it: the stored sources, compared as they are.
        const { reached, kept } = correctionReach(rows, action.from);
        for (const r of reached) {
          await correct(ctx, r.id, action.equations, action.comment);
          changed++;
        }
        return { changed, skipped: kept.map((r) => ({ responseId: String(r.id), studentId: r.studentId, reason: NOT_REACHED })) };
      }
      // An override: checked against the item's worth for every member before any is changed,
      // so a mark the item can't take changes nobody; the error names the student.
      const item = ctx
        .exam(examId)
        .questions.find((q) => q.id === questionId)
        ?.scheme.find((s) => s.id === action.itemId);
      for (const r of rows) {
        if (!item) invalid(`student ${r.studentId} (question ${questionId}): the question has no item '${action.itemId}'; nothing was changed`);
        else if (action.marks !== null && action.marks > item.marks)
          invalid(
            `student ${r.studentId} (question ${questionId}): item ${action.itemId} is worth ${item.marks}, so ${action.marks} can't be awarded; nothing was changed`,
          );
      }
      for (const r of rows) {
        try {
          override(ctx, r.id, action.itemId, action.marks, action.comment);
        } catch (e) {
          throw new ApiFailure({
            code: 'invalid-request',
            message: `student ${r.studentId} (question ${questionId}): ${(e as Error).message} (${changed} of ${rows.length} changed before this one)`,
          });
        }
        changed++;
      }
      return { changed };
    },
  };
}
