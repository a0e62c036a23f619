// The grading job: start, pause, resume, status.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import { checkModels, TECHNIQUE_INFO } from '../../../shared/techniques.ts';
import { invalid, unavailable, type AppContext } from '../context.ts';
import { REMARK, newJob, progress, remarkStretch, runStretch } from '../job.ts';

type Handlers = Pick<ApiHandlers, 'grade.start' | 'grade.pause' | 'grade.resume' | 'grade.status'>;

export function gradingHandlers(ctx: AppContext): Handlers {
  return {
    'grade.start': async ({ examId, technique, models }) => {
      if (ctx.grading()) throw new ApiFailure({ code: 'conflict', message: 'grading is already running' });
      const info = TECHNIQUE_INFO[technique];
      const problem = checkModels(technique, models[0], models[1]);
      if (problem) invalid(`${problem}: choose ${info.minModels === 2 ? 'two' : 'one'}`);
      if (models.length > info.maxModels && info.maxModels === 0) invalid(`'${technique}' uses no model`);
      ctx.models = models.slice(0, info.maxModels);
      ctx.loaded(examId);
      if (!(await ctx.techniques())[technique]) unavailable(`'${technique}' is not available in this build`);
      const j = newJob(examId, technique, null, 0);
      ctx.job = j;
      // Another reader than the one that read the stored responses reads them again (corrections kept); the job's message says what it did.
      await runStretch(ctx, j, { rereadOthers: true, label: `the '${technique}' reader` });
      return progress(ctx);
    },

    'grade.pause': async () => {
      const j = ctx.job;
      // Asked twice (or while the pause takes effect): the answer is where it stands, not an error.
      if (j && (j.state === 'pausing' || j.state === 'paused')) return progress(ctx);
      if (!j || j.state !== 'running') throw new ApiFailure({ code: 'conflict', message: 'nothing is being graded' });
      j.state = 'pausing';
      j.controller.abort();
      return progress(ctx);
    },

    'grade.resume': async () => {
      const j = ctx.job;
      if (!j || j.state !== 'paused') throw new ApiFailure({ code: 'conflict', message: 'grading is not paused' });
      j.controller = new AbortController();
      j.message = null;
      if (j.technique === REMARK) remarkStretch(ctx, j);
      else await runStretch(ctx, j);
      return progress(ctx);
    },

    'grade.status': async () => progress(ctx),
  };
}
