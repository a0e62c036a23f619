// The application service: implements every method of shared/api.ts on top of the engine. Shared
// by the Electron shell (IPC) and the browser mode (HTTP); it never imports `electron`. Requests
// reach it already validated by `dispatch` (shared/api.ts). It only composes the per-area handlers
// (handlers/*.ts) over one context (context.ts: workspace, engine, settings, grading job).
import type { ApiHandlers } from '../../shared/api.ts';
import type { Workspace } from '../engine/store/workspace.ts';
import type { EntailerStats } from '../engine/decide/entail/types.ts';
import { AppContext, type ServiceOptions } from './context.ts';
import { importHandlers } from './handlers/imports.ts';
import { gradingHandlers } from './handlers/grading.ts';
import { reviewHandlers } from './handlers/review.ts';
import { groupHandlers } from './handlers/groups.ts';
import { groupMarkHandlers } from './handlers/group-marks.ts';
import { exportHandlers } from './handlers/export.ts';
import { settingsHandlers } from './handlers/settings.ts';
import { regradeHandlers } from './handlers/regrades.ts';
import { modelHandlers } from './handlers/models.ts';
import { schemePreviewHandlers, stopPreview } from './handlers/scheme-preview.ts';
import { groupPrepDone, stopGroupPrep } from './answer-groups.ts';
import { groupsAnsweredEarly, groupsAnsweredKept } from './early-groups.ts';

export { gpuWatts, type ServiceOptions } from './context.ts';

export class AppService {
  readonly #ctx: AppContext;
  readonly #handlers: ApiHandlers;

  constructor(readonly opts: ServiceOptions) {
    this.#ctx = new AppContext(opts);
    const ctx = this.#ctx;
    this.#handlers = {
      ...modelHandlers(ctx),
      ...importHandlers(ctx),
      ...gradingHandlers(ctx),
      ...reviewHandlers(ctx),
      ...groupHandlers(ctx),
      ...groupMarkHandlers(ctx),
      ...exportHandlers(ctx),
      ...settingsHandlers(ctx),
      ...regradeHandlers(ctx),
      ...schemePreviewHandlers(ctx),
    };
  }

  /** The workspace (for the shell, the server and tests). */
  get ws(): Workspace {
    return this.#ctx.ws;
  }

  /** The end of the answer groups' background preparation (now if none runs): for tests and the bench. */
  async groupsPrepared(): Promise<void> {
    // A long list still read in slices prepares its groups once read (handlers/review.ts).
    await this.#ctx.reviews.reading();
    await groupPrepDone(this.#ctx);
  }

  /**
   * The answer groups' worker thread as it stands (null: none was started, or none is used):
   * whether it failed, and why; how many requests it answered; how many questions it prepared
   * before their rows were posted; how many it answered from its own reading of the lists
   * (`answeredAsRead`; `reread`: of those, the lists read again for the request, not a prepare's
   * read), and how many of those the app gave as the groups (`answeredEarly`: the
   * others were declined, early-groups.ts; `answeredKept`: of those, the groups a grade's end
   * kept, not the worker's); its engine's counts. For tests and the bench.
   */
  groupsWorker(): {
    failure: string | null;
    answered: number;
    prepared: number;
    answeredAsRead: number;
    reread: number;
    answeredEarly: number;
    answeredKept: number;
    stats: EntailerStats | null;
  } | null {
    const t = this.#ctx.startedGroupsThread();
    return (
      t && {
        failure: t.failure,
        answered: t.answered,
        prepared: t.prepared,
        answeredAsRead: t.answeredAsRead,
        reread: t.reread,
        answeredEarly: groupsAnsweredEarly(this.#ctx),
        answeredKept: groupsAnsweredKept(this.#ctx),
        stats: t.stats,
      }
    );
  }

  handlers(): ApiHandlers {
    return this.#handlers;
  }

  async close(): Promise<void> {
    const ctx = this.#ctx;
    ctx.closing = true;
    ctx.job?.controller.abort();
    await stopGroupPrep(ctx);
    await ctx.startedGroupsThread()?.close();
    await ctx.job?.run?.catch(() => {});
    await stopPreview(ctx);
    await ctx.downloads.close();
    await (await ctx.startedEngine())?.close();
    ctx.ws.close();
  }
}
