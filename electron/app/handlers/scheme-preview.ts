// Scheme changes previewed before they are saved (the engine's preview-scheme.ts, run in the
// background with its progress polled, like grading), and the overrides the automatic marks
// disagree with (review/override-cases.ts). Applying is exam.save, which stops a preview still
// running.
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import type { SchemePreviewStatus } from '../../../shared/scheme-preview.ts';
import { ExamError, validateExam } from '../../engine/io/exam.ts';
import { previewScheme, PreviewStopped } from '../../engine/preview-scheme.ts';
import { overrideCases } from '../../engine/review/override-cases.ts';
import { notFound, type AppContext } from '../context.ts';
import { stopGroupPrep } from '../answer-groups.ts';

type Handlers = Pick<ApiHandlers, 'scheme.preview' | 'scheme.previewStatus' | 'scheme.previewDiscard' | 'overrides.cases'>;

/** Changes a preview's answer carries at most (the CLI's diff CSV has every one). */
export const MAX_PREVIEW_CHANGES = 2000;
/** A preview that finishes within this is answered at once (no progress to show). */
const ANSWER_AT_ONCE_MS = 150;

type PreviewRun = { status: SchemePreviewStatus; controller: AbortController; run: Promise<void> };
/** The preview of each app (one at a time), kept beside its context. */
const runs = new WeakMap<AppContext, PreviewRun>();

const IDLE: SchemePreviewStatus = { state: 'idle', examId: null, done: 0, total: 0, etaSeconds: null, message: null, result: null };

/** Stop the preview still running, if any, and forget it (the exam is being saved, or the preview discarded). */
export async function stopPreview(ctx: AppContext): Promise<void> {
  const r = runs.get(ctx);
  runs.delete(ctx);
  if (!r) return;
  r.controller.abort();
  await r.run;
}

/** Whether a scheme preview is running (the answer groups' background work waits for it). */
export const previewRunning = (ctx: AppContext): boolean => runs.get(ctx)?.status.state === 'running';

const statusOf = (ctx: AppContext): SchemePreviewStatus => {
  const r = runs.get(ctx);
  return r ? { ...r.status } : IDLE;
};

export function schemePreviewHandlers(ctx: AppContext): Handlers {
  return {
    'scheme.preview': async ({ exam }) => {
      if (ctx.grading())
        throw new ApiFailure({ code: 'conflict', message: 'grading or re-marking is running: preview the change when it is done (or pause it)' });
      await stopPreview(ctx);
      // The answer groups prepared in the background give way to the preview (its pairs go to the same Z3 workers).
      await stopGroupPrep(ctx);
      let lx: ReturnType<typeof validateExam>;
      try {
        lx = validateExam(exam);
      } catch (e) {
        if (!(e instanceof ExamError)) throw e;
        return { ...IDLE, state: 'invalid' as const, examId: exam.id, issues: e.problems.map((p) => ({ path: p.path || '(exam)', message: p.message })) };
      }
      if (!ctx.ws.getExam(exam.id)) notFound(`no exam '${exam.id}' in this workspace: save it first (there are no marks to compare with)`);
      const engine = await ctx.engine();
      const controller = new AbortController();
      const status: SchemePreviewStatus = { ...IDLE, state: 'running', examId: exam.id };
      const run = (async () => {
        try {
          const result = await previewScheme({
            workspace: ctx.ws,
            edited: lx,
            engine,
            // Applying right after decides nothing twice: the verdicts are kept (they change no mark).
            keepVerdicts: true,
            signal: controller.signal,
            onProgress: (p) => {
              status.done = p.done;
              status.total = p.total;
              status.etaSeconds = p.etaSeconds === null ? null : Math.round(p.etaSeconds);
            },
          });
          status.result = {
            ...result,
            changes: result.changes.slice(0, MAX_PREVIEW_CHANGES),
            changesOmitted: Math.max(0, result.changes.length - MAX_PREVIEW_CHANGES),
          };
          status.state = 'done';
        } catch (e) {
          if (e instanceof PreviewStopped) return;
          status.state = 'failed';
          status.message = (e as Error).message;
        }
      })();
      runs.set(ctx, { status, controller, run });
      await Promise.race([run, new Promise((ok) => setTimeout(ok, ANSWER_AT_ONCE_MS))]);
      return statusOf(ctx);
    },

    'scheme.previewStatus': async () => statusOf(ctx),

    'scheme.previewDiscard': async () => {
      await stopPreview(ctx);
      return IDLE;
    },

    'overrides.cases': async ({ examId }) => {
      ctx.exam(examId); // not found: said so
      return overrideCases(ctx.ws, examId);
    },
  };
}
