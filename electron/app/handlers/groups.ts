// Answer groups (engine/review/groups.ts) and changes applied to a whole group.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import { answerGroups } from '../../engine/review/groups.ts';
import { effectiveTotal } from '../../engine/review/state.ts';
import { notFound, type AppContext } from '../context.ts';
import { correct, override } from '../detail.ts';
import { equationToLatex, parseEquation } from '../../../shared/equation/index.ts';

type Handlers = Pick<ApiHandlers, 'groups.list' | 'groups.apply'>;

export function groupHandlers(ctx: AppContext): Handlers {
  return {
    'groups.list': async ({ examId, questionId }) => {
      const exam = ctx.exam(examId);
      const q = exam.questions.find((x) => x.id === questionId) ?? notFound(`no question '${questionId}'`);
      const variables = q.variables.map((v) => v.name);
      const groups = await answerGroups(await ctx.engine(), q, ctx.ws.listResponses(examId, { questionId }));
      return groups.map((g) => {
        const totals = new Set(g.members.map((m) => effectiveTotal(m)));
        return {
          key: g.key,
          // An equation the grammar can't parse is shown as it is written.
          equations: (JSON.parse(g.key) as string[]).map((s) => {
            const p = parseEquation(s, { variables });
            return { source: s, latex: p.ok ? equationToLatex(p.value) : s };
          }),
          responseIds: g.members.map((m) => String(m.id)),
          total: totals.size === 1 ? [...totals][0] : null,
        };
      });
    },

    'groups.apply': async ({ responseIds, action }) => {
      let changed = 0;
      for (const rid of responseIds) {
        const id = ctx.responseId(rid);
        if (action.kind === 'equations') await correct(ctx, id, action.equations, action.comment);
        else {
          try {
            override(ctx, id, action.itemId, action.marks, action.comment);
          } catch (e) {
            throw new ApiFailure({ code: 'invalid-request', message: `response ${rid}: ${(e as Error).message} (${changed} changed before this one)` });
          }
        }
        changed++;
      }
      return { changed };
    },
  };
}
