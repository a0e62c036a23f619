// What every handler of the app service shares: the workspace, the symbolic engine (started on
// first use), the settings (the file beside the workspace), the grading job and the model
// downloads. The handlers (handlers/*.ts) are functions over this context; service.ts composes them.
import { join } from 'node:path';
import { ApiFailure, type Settings } from '../../shared/api.ts';
import { validateExam, type LoadedExam } from '../engine/io/exam.ts';
import type { Exam } from '../../shared/exam.ts';
import { createEngine, type Engine } from '../engine/decide/engine-factory.ts';
import { Workspace } from '../engine/store/workspace.ts';
import { DEFAULT_OLLAMA_URL, resolveOllamaUrl } from '../engine/read/ollama/settings.ts';
import { gpuPower } from '../engine/read/ollama/accounting.ts';
import { extraTechniques, type Technique as AppTechnique } from '../engine/read/registry.ts';
import { ModelDownloads } from './model-download.ts';
import { SympyDetails } from './sympy-detail.ts';
import { loadSettings } from './settings-file.ts';
import type { Job } from './job.ts';
import { ReviewIndexes, type ReviewIndex, type Slicing } from './review-index.ts';
import { GroupsThread, groupsWorkerFromSource, type ThreadEngineOptions } from '../engine/review/groups-thread.ts';

export type ServiceOptions = {
  workspacePath: string;
  mode: 'electron' | 'browser';
  /** Folder holding demo/ and python/ (resources/ in the repository, process.resourcesPath when packaged). */
  resourcesDir: string;
  version?: string;
  /** Where settings are kept (default: beside the workspace). */
  settingsPath?: string;
  /** Builds the symbolic engine (default: Z3 and the numeric checks, with Settings' SymPy). Tests give their own. */
  createEngine?: (options: { sympy: ReturnType<AppContext['sympyOptions']>; onNotice: (message: string) => void }) => Promise<Engine>;
  /**
   * Options of the default engine that can cross a thread (`sympy: false`, the entailer's): the
   * answer groups' worker thread builds its engine from the same ones. Ignored with createEngine.
   */
  engineOptions?: ThreadEngineOptions;
  /**
   * The answer groups' comparisons in a worker thread (engine/review/groups-thread.ts): on by
   * default for a workspace file and the default engine (an engine given by createEngine can't
   * cross a thread); false: on the main thread. `entry`: another worker file (tests).
   */
  groupsWorker?: false | { entry?: URL };
  /** How a long review list is read in slices (review-index.ts SLICING; tests give small ones). */
  reviewSlicing?: Slicing;
};

export const notFound = (what: string): never => {
  throw new ApiFailure({ code: 'not-found', message: what });
};
export const unavailable = (message: string): never => {
  throw new ApiFailure({ code: 'unavailable', message });
};
export const invalid = (message: string): never => {
  throw new ApiFailure({ code: 'invalid-request', message });
};

/** Energy estimate while a model runs when no GPU is named in Settings (a typical desktop GPU's board power). */
const ASSUMED_GPU_WATTS = 250;

/** Board power for the energy estimate: the GPU named in Settings, else the assumed one. */
export function gpuWatts(gpu: string | undefined): number {
  return (gpu?.trim() ? gpuPower(gpu) : null) ?? ASSUMED_GPU_WATTS;
}

/** Ollama's address the way Ollama's own tools read OLLAMA_HOST (host:port without a scheme too); a bad value is ignored. */
function defaultOllamaUrl(): string {
  try {
    return resolveOllamaUrl(null);
  } catch {
    return DEFAULT_OLLAMA_URL;
  }
}

export class AppContext {
  readonly ws: Workspace;
  readonly settingsPath: string;
  settings: Settings;
  /** What was wrong with the settings file when it was read (defaults used), or null. */
  settingsProblem: string | null;
  engineP: Promise<Engine> | null = null;
  /** What the engine said about SymPy (missing, wrong Python), in plain words. */
  engineNotice: string | null = null;
  job: Job | null = null;
  readonly downloads = new ModelDownloads();
  /** The models chosen for the current grading. */
  models: string[] = [];
  /** Seconds to mark one response, as last measured (Z3 and the numeric checks). */
  markSeconds = 0.05;
  /** SymPy's evidence (simplified, solved for the target, limits) for the detail's current equations; cached per list. */
  readonly sympyDetails = new SympyDetails();
  /** The review list of each exam, kept here and refreshed from the workspace's change log (review-index.ts). */
  readonly reviews: ReviewIndexes;
  /**
   * Answer groups per question (answer-groups.ts): `groups` kept while none of the question's rows
   * changes (review-index.ts `questionVersion`), `grouping` (the groups without their totals)
   * while none of its lists does (`listsVersion`); `by`: the engine, or the worker thread, that compared them.
   */
  readonly groupCache = new Map<string, { version: string; lists: string; by: object; grouping: unknown; groups: unknown }>();
  /** Set when the service closes: no background work starts after it. */
  closing = false;
  /** The answer groups' worker thread: undefined until first asked for, null where none is used. */
  #groupsThread: GroupsThread | null | undefined;

  constructor(readonly opts: ServiceOptions) {
    this.ws = Workspace.open(opts.workspacePath);
    this.reviews = new ReviewIndexes(this.ws, opts.reviewSlicing);
    this.settingsPath = opts.settingsPath ?? (opts.workspacePath === ':memory:' ? '' : `${opts.workspacePath}.settings.json`);
    const loaded = loadSettings(this.settingsPath, { ollamaUrl: defaultOllamaUrl(), models: [], pythonPath: '', gpu: '' });
    this.settings = loaded.settings;
    this.settingsProblem = loaded.problem;
    if (loaded.problem) console.warn(`equimark: ${loaded.problem}`);
    // Running from the sources, the answer groups' worker is bundled now (once per process),
    // so that it starts at once when an exam's list is first read.
    if (this.wantsGroupsThread()) groupsWorkerFromSource();
  }

  /** SymPy worker options: Settings' Python path first; the worker script from resourcesDir (right for dev and packaged). */
  sympyOptions(): { pythonPath?: string; resourcesPath: string; workerPath: string } {
    const pythonPath = this.settings.pythonPath.trim();
    return { ...(pythonPath ? { pythonPath } : {}), resourcesPath: this.opts.resourcesDir, workerPath: join(this.opts.resourcesDir, 'python', 'worker.py') };
  }

  engine(): Promise<Engine> {
    const create = this.opts.createEngine ?? ((o) => createEngine({ ...o, ...this.opts.engineOptions, onNotice: o.onNotice }));
    this.engineP ??= create({ sympy: this.sympyOptions(), onNotice: (m) => (this.engineNotice = m) }).catch((e) => {
      this.engineP = null;
      throw new ApiFailure({ code: 'unavailable', message: `the symbolic engine could not start: ${(e as Error).message}` });
    });
    return this.engineP;
  }

  /** The engine if it has started (or is starting), else null: never starts it. */
  async startedEngine(): Promise<Engine | null> {
    return this.engineP ? await this.engineP.catch(() => null) : null;
  }

  /**
   * The answer groups' worker thread, started on first use (see ServiceOptions.groupsWorker), or
   * null where the groups are compared on the main thread. A worker that failed stays here, with
   * its `failure` (said in app.info): its requests fail at once, and the caller compares here.
   */
  groupsThread(): GroupsThread | null {
    if (this.#groupsThread !== undefined) return this.#groupsThread;
    const o = this.opts;
    if (!this.wantsGroupsThread() || this.closing) return (this.#groupsThread = null);
    this.#groupsThread = new GroupsThread({
      workspacePath: o.workspacePath,
      engine: { sympy: this.sympyOptions(), ...o.engineOptions },
      ...(o.groupsWorker && o.groupsWorker.entry ? { entry: o.groupsWorker.entry } : {}),
      onNotice: (m) => (this.engineNotice ??= m),
      onFailure: (reason) => console.warn(`equimark: answer groups: ${reason}; their lists are compared on the main thread from now on`),
    });
    return this.#groupsThread;
  }

  /** Whether the answer groups are compared in a worker thread here (ServiceOptions.groupsWorker). */
  wantsGroupsThread(): boolean {
    const o = this.opts;
    return o.groupsWorker !== false && !o.createEngine && o.workspacePath !== ':memory:';
  }

  /** The worker thread if it was started, else null: never starts it. */
  startedGroupsThread(): GroupsThread | null {
    return this.#groupsThread ?? null;
  }

  /** The reading techniques this build offers, with the current models and settings. */
  async techniques(withEngine = false): Promise<Record<string, () => Promise<AppTechnique>>> {
    const engine = withEngine ? await this.engine() : undefined;
    return extraTechniques({
      ollamaUrl: this.settings.ollamaUrl,
      ...(this.settings.ollamaMoreUrls?.length ? { ollamaMoreUrls: this.settings.ollamaMoreUrls } : {}),
      ...(this.settings.modelTimeoutSeconds ? { timeoutMs: Math.round(this.settings.modelTimeoutSeconds * 1000) } : {}),
      models: this.models,
      // Model replies are kept beside the workspace, so grading the same responses again costs nothing.
      cachePath: this.opts.workspacePath === ':memory:' ? null : `${this.opts.workspacePath.replace(/\.sqlite$/, '')}.ollama-replies.jsonl`,
      ...(engine ? { engine } : {}),
      onRecord: (_text, _q, rec) => {
        const j = this.job;
        if (!j) return;
        let wall = 0;
        for (const c of rec.calls) {
          if (c.cached) continue;
          j.tokens += c.tokensIn + c.tokensOut;
          wall += c.wallMs;
        }
        j.energyJoules += (wall / 1000) * gpuWatts(this.settings.gpu);
      },
    });
  }

  exam(examId: string): Exam {
    return this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
  }

  /** The exam's review list, up to date with the workspace. */
  reviewIndex(examId: string): ReviewIndex {
    return this.reviews.of(this.exam(examId));
  }

  loaded(examId: string): LoadedExam {
    return validateExam(this.ws.getExam(examId) ?? notFound(`no exam '${examId}' in this workspace`));
  }

  responseId(id: string): number {
    const n = Number(id);
    if (!Number.isInteger(n) || n <= 0) invalid(`bad response id '${id}'`);
    return n;
  }

  /** Whether a grading job is running (or pausing). */
  grading(): boolean {
    return !!this.job && (this.job.state === 'running' || this.job.state === 'pausing');
  }
}
