// Regrade requests: a student's request recorded on a response, the queue of open ones, the
// instructor's reply (a changed mark is an audited override), and the CSV of them all.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import { regradesCsv } from '../../engine/io/csv/write.ts';
import { notFound, type AppContext } from '../context.ts';
import { regradeView } from '../detail.ts';

type Handlers = Pick<ApiHandlers, 'regrade.add' | 'regrade.list' | 'regrade.resolve' | 'export.regrades'>;

const asInvalid = (e: unknown): never => {
  if (e instanceof ApiFailure) throw e;
  throw new ApiFailure({ code: 'invalid-request', message: (e as Error).message });
};

export function regradeHandlers(ctx: AppContext): Handlers {
  return {
    'regrade.add': async ({ responseId, text, date }) => {
      const id = ctx.responseId(responseId);
      if (!ctx.ws.getResponseDetail(id)) notFound(`no response with id ${responseId}`);
      try {
        return regradeView(ctx.ws.regradeRequest(ctx.ws.addRegradeRequest(id, text, date))!);
      } catch (e) {
        return asInvalid(e);
      }
    },

    'regrade.list': async ({ examId }) => {
      ctx.exam(examId);
      return ctx.ws.regradeRequests({ examId }).map(regradeView);
    },

    'regrade.resolve': async ({ requestId, reply, marks }) => {
      if (!ctx.ws.regradeRequest(requestId)) notFound(`no regrade request with id ${requestId}`);
      try {
        ctx.ws.resolveRegradeRequest(requestId, reply, marks);
      } catch (e) {
        asInvalid(e);
      }
      return regradeView(ctx.ws.regradeRequest(requestId)!);
    },

    'export.regrades': async ({ examId }) => ({ fileName: `${examId}-regrade-requests.csv`, csv: regradesCsv(ctx.ws, ctx.exam(examId)) }),
  };
}
