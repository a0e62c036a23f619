// The review list and one response: its detail, a corrected equation list, an override.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import type { AppContext } from '../context.ts';
import { correct, detail, override, pick, resolveEarlier, withSympy } from '../detail.ts';
import { row } from '../views.ts';

type Handlers = Pick<
  ApiHandlers,
  'review.list' | 'response.get' | 'response.setEquations' | 'response.pickReading' | 'response.override' | 'response.resolveEarlier'
>;

export function reviewHandlers(ctx: AppContext): Handlers {
  return {
    'review.list': async ({ examId, questionId, offset, limit }) => {
      const exam = ctx.exam(examId);
      const avail = new Map(exam.questions.map((q) => [q.id, q.scheme.reduce((s, i) => s + i.marks, 0)]));
      // One page (or the whole list) read from the store, with the texts of its rows only.
      const list = ctx.ws.listResponses(examId, {
        ...(questionId ? { questionId } : {}),
        ...(offset !== undefined ? { offset } : {}),
        ...(limit ? { limit } : {}),
      });
      const texts = ctx.ws.textsOf(list.map((r) => r.id));
      return {
        rows: list.map((r) => row(r, exam, texts.get(r.id) ?? null, avail.get(r.questionId) ?? 0)),
        items: Object.fromEntries(exam.questions.map((q) => [q.id, q.scheme.map((s) => ({ id: s.id, marks: s.marks }))])),
        total: offset !== undefined || limit ? ctx.ws.countResponses(examId, questionId) : list.length,
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
