// The review list and one response: its detail, a corrected equation list, an override.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import type { AppContext } from '../context.ts';
import { prepareGroups } from '../answer-groups.ts';
import { correct, detail, override, pick, resolveEarlier, withSympy } from '../detail.ts';
import { earlyPage, forgetEarly } from '../review-early-page.ts';

type Handlers = Pick<
  ApiHandlers,
  'review.list' | 'review.ready' | 'response.get' | 'response.setEquations' | 'response.pickReading' | 'response.override' | 'response.resolveEarlier'
>;

export function reviewHandlers(ctx: AppContext): Handlers {
  return {
    'review.list': async ({ examId, questionId, offset, limit, locate, ...rest }) => {
      const exam = ctx.exam(examId);
      const items = Object.fromEntries(exam.questions.map((q) => [q.id, q.scheme.map((s) => ({ id: s.id, marks: s.marks }))]));
      const query = {
        ...rest,
        ...(questionId ? { question: questionId } : {}),
        ...(offset !== undefined ? { offset } : {}),
        ...(limit ? { limit } : {}),
        ...(locate !== undefined ? { locate } : {}),
      };
      const held = ctx.reviews.held(examId);
      // A long list not read yet (or read again: a scheme change, most rows changed) is read in
      // slices, the event loop turning between them (review-index.ts `complete`); meanwhile a page
      // that needs no row but its own comes from the workspace (review-early-page.ts), its
      // counts said to be still counting, and any other request waits for the read.
      if (!held.current(exam) && ctx.ws.countResponses(examId) > held.slicing.atOnceUpTo) {
        const read = held.complete();
        read.then(
          () => forgetEarly(ctx.ws, examId),
          () => undefined,
        );
        // The exam's answer groups are prepared in the background (answer-groups.ts): the worker
        // thread's from its own reading of the lists at once, this thread's once the rows are read.
        prepareGroups(ctx, examId, 'loaded', read);
        const early = earlyPage(ctx.ws, exam, query);
        if (early)
          return {
            rows: early.rows,
            items,
            total: early.total,
            counting: { all: early.all },
            ...(locate !== undefined ? { located: early.located } : {}),
          };
        await read;
      } else {
        // The exam's list is loaded: its answer groups are prepared in the background (answer-groups.ts),
        // once this reply is sent; asked first, so the engine starts while the list is read.
        prepareGroups(ctx, examId, 'loaded');
      }
      // The exam's review index (review-index.ts): filtered, searched, sorted and paged here; only the page goes back.
      const page = ctx.reviewIndex(examId).query(query);
      return {
        rows: page.rows,
        items,
        total: page.total,
        counts: page.counts,
        ...(locate !== undefined ? { located: page.located } : {}),
      };
    },

    'review.ready': async ({ examId }) => {
      ctx.exam(examId);
      await ctx.reviews.held(examId).complete();
      return {};
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
