// The review list and one response: its detail, a corrected equation list, an override.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import type { AppContext } from '../context.ts';
import { prepareGroups } from '../answer-groups.ts';
import { correct, detail, override, pick, resolveEarlier, withSympy } from '../detail.ts';

type Handlers = Pick<
  ApiHandlers,
  'review.list' | 'response.get' | 'response.setEquations' | 'response.pickReading' | 'response.override' | 'response.resolveEarlier'
>;

export function reviewHandlers(ctx: AppContext): Handlers {
  return {
    'review.list': async ({ examId, questionId, offset, limit, locate, ...rest }) => {
      const exam = ctx.exam(examId);
      // The exam's list is loaded: its answer groups are prepared in the background (answer-groups.ts),
      // once this reply is sent; asked first, so the engine starts while the list is read.
      prepareGroups(ctx, examId, 'loaded');
      // The exam's review index (review-index.ts): filtered, searched, sorted and paged here; only the page goes back.
      const page = ctx.reviewIndex(examId).query({
        ...rest,
        ...(questionId ? { question: questionId } : {}),
        ...(offset !== undefined ? { offset } : {}),
        ...(limit ? { limit } : {}),
        ...(locate !== undefined ? { locate } : {}),
      });
      return {
        rows: page.rows,
        items: Object.fromEntries(exam.questions.map((q) => [q.id, q.scheme.map((s) => ({ id: s.id, marks: s.marks }))])),
        total: page.total,
        counts: page.counts,
        ...(locate !== undefined ? { located: page.located } : {}),
      };
    },

    'response.get': async ({ responseId }) => withSympy(ctx, detail(ctx, ctx.responseId(responseId))),

    'response.setEquations': async ({ responseId, equations, comment }) => {
      const id = ctx.responseId(responseId);
      await correct(ctx, id, equations, comment);
      return withSympy(ctx, detail(ctx, id));
    },

    'response.pickReading': async ({ responseId, choice, reading }) => {
      const id = ctx.responseId(responseId);
      await pick(ctx, id, choice, reading);
      return withSympy(ctx, detail(ctx, id));
    },

    'response.override': async ({ responseId, itemId, marks, comment }) => {
      const id = ctx.responseId(responseId);
      try {
        override(ctx, id, itemId, marks, comment);
      } catch (e) {
        throw new ApiFailure({ code: 'invalid-request', message: (e as Error).message });
      }
      return withSympy(ctx, detail(ctx, id));
    },

    'response.resolveEarlier': async ({ responseId, earlierId, action, comment }) => {
      const id = ctx.responseId(responseId);
      try {
        await resolveEarlier(ctx, id, earlierId, action, comment);
      } catch (e) {
        if (e instanceof ApiFailure) throw e;
        throw new ApiFailure({ code: 'invalid-request', message: (e as Error).message });
      }
      return withSympy(ctx, detail(ctx, id));
    },
  };
}
