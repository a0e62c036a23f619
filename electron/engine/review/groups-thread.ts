// The answer groups' worker thread (./groups-worker.ts), seen from the thread that starts it: a
// question's rows' lists go in, its groups (keys and member ids) come back, and the comparisons'
// CPU is spent off this thread; `prepare` has it read and compare an exam's lists before any are
// posted (while this thread reads its review list), so that the rows posted later find their
// groups formed. Requests are posted at once, not when the worker says it is ready: this thread
// may not take a turn of its event loop for seconds (the list's first read). A worker that can't
// start, or dies, fails every request under way and every later one with GroupsThreadFailed (its
// reason in `failure`, and told once to `onFailure`): the caller then compares on its own
// thread. Nothing here is retried.
// The worker's code: from the sources (tests, the browser mode, the bench), groups-worker.ts
// bundled once per process (../worker-bundle.ts), else ./groups-worker-boot.mjs, which registers
// tsx and loads it; in the esbuild CJS bundle (scripts/build-electron.mjs)
// the worker is its own entry, groups-worker.cjs, beside the bundle that starts it.
import { Worker } from 'node:worker_threads';
import type { Question } from '../../../shared/exam.ts';
import { GroupsStopped } from './groups.ts';
import { bundleFromSource } from '../worker-bundle.ts';
import { provideCompiledZ3 } from '../decide/entail/z3-pool.ts';
import type { EntailerStats } from '../decide/entail/types.ts';
import type { ThreadEngineOptions, ThreadReply, ThreadRequest, ThreadStart } from './groups-thread-messages.ts';

export type { ThreadEngineOptions } from './groups-thread-messages.ts';

/** A group as the worker gives it: its list's key and its members' response ids, largest group first. */
export type ThreadGroup = { key: string; responseIds: string[] };

/** The worker could not start, or died: its requests are answered by none. */
export class GroupsThreadFailed extends Error {}

let sourceCode: string | null | undefined;
/**
 * Running from the TypeScript sources: the worker's code bundled once per process
 * (../worker-bundle.ts; the service asks for it as it opens), null from the app's bundle or where
 * esbuild can't be used (the tsx bootstrap is started then). Every module of it sees Z3's pool's
 * import.meta.url, as all of the app's bundle sees its own: the pool finds Z3's worker beside
 * itself, and SymPy's default script (decide/sympy/python.ts, four folders below the
 * repository's root, as the pool is) is found from there too.
 */
export function groupsWorkerFromSource(): string | null {
  sourceCode ??= import.meta.url.endsWith('.cjs')
    ? null
    : bundleFromSource(new URL('./groups-worker.ts', import.meta.url), new URL('../decide/entail/z3-pool.ts', import.meta.url), [
        'better-sqlite3',
        'z3-solver',
        'esbuild',
      ]);
  return sourceCode;
}

/** The worker's entry point: the bundled groups-worker.cjs beside a CJS bundle, else the tsx bootstrap. */
export function groupsWorkerUrl(base: string = import.meta.url): URL {
  return base.endsWith('.cjs') ? new URL('./groups-worker.cjs', base) : new URL('./groups-worker-boot.mjs', base);
}

export type GroupsThreadOptions = {
  /** The workspace file (the worker opens its own connection to it). */
  workspacePath: string;
  engine: ThreadEngineOptions;
  /** The worker's entry (default groupsWorkerUrl()). */
  entry?: URL;
  /** What the worker's engine says about SymPy, as createEngine's onNotice. */
  onNotice?: (message: string) => void;
  /** Told once, when the worker can't start or dies. */
  onFailure?: (reason: string) => void;
};

/**
 * A question's groups from the worker's own reading of its lists (groupsAsRead): the rows it read
 * (`ids[i]`'s list is `lists[i]`, in import order) and `seen`, the workspace's change number read
 * before them.
 */
export type GroupsAsRead = { groups: ThreadGroup[]; ids: string[]; lists: string[]; seen: number };

/** What a request is answered with: a question's groups, a prepare's count of questions compared, groups as the worker read the lists. */
type Answer = ThreadGroup[] | number | GroupsAsRead;

/** A request posted and not answered. */
type Pending = { resolve: (v: Answer) => void; reject: (e: Error) => void };

export class GroupsThread {
  /** Null until started. */
  #worker: Worker | null = null;
  readonly #pending = new Map<number, Pending>();
  readonly #opts: GroupsThreadOptions;
  #next = 1;
  #answered = 0;
  #prepared = 0;
  #answeredAsRead = 0;
  #reread = 0;
  #stats: EntailerStats | null = null;
  #failure: string | null = null;
  #closed = false;
  #exited: Promise<void>;

  constructor(opts: GroupsThreadOptions) {
    this.#opts = opts;
    this.#exited = this.#start(opts.entry ? null : groupsWorkerFromSource());
  }

  /** Starts the worker (`code`: its bundle from the sources, else its file); resolves when it has exited. */
  #start(code: string | null): Promise<void> {
    const opts = this.#opts;
    // One Z3 thread unless the caller says otherwise: a question's comparisons ask Z3 a few dozen
    // checks (18 for 22,000 responses), and a second thread's start and first check (about 1 s of
    // CPU) came while the app's thread read the review list beside it, on a 2-core machine.
    const engine = { ...opts.engine, entailer: { z3Workers: 1, ...opts.engine.entailer } };
    const workerData: ThreadStart = { workspacePath: opts.workspacePath, engine };
    if (this.#closed) return Promise.resolve();
    let worker: Worker;
    try {
      worker = code ? new Worker(code, { eval: true, execArgv: [], workerData }) : new Worker(opts.entry ?? groupsWorkerUrl(), { execArgv: [], workerData });
    } catch (e) {
      this.#fail(`the worker could not start: ${(e as Error).message}`);
      return Promise.resolve();
    }
    this.#worker = worker;
    if (this.#pending.size === 0) worker.unref();
    worker.on('message', (m: ThreadReply) => this.#onMessage(m));
    worker.on('error', (e: Error) => this.#fail(`the worker failed: ${e.message}`));
    return new Promise<void>((resolve) =>
      worker.once('exit', (code) => {
        this.#fail(`the worker stopped (exit code ${code})`);
        resolve();
      }),
    );
  }

  /** How many requests the worker answered with groups (tests, the bench). */
  get answered(): number {
    return this.#answered;
  }

  /** How many questions the worker prepared before their rows were posted (prepare), in all (tests, the bench). */
  get prepared(): number {
    return this.#prepared;
  }

  /** How many requests the worker answered with groups of its own reading of the lists (groupsAsRead), in all (tests, the bench). */
  get answeredAsRead(): number {
    return this.#answeredAsRead;
  }

  /** Of those, how many the worker read the lists again for (the others were a prepare's read, nothing changed since). */
  get reread(): number {
    return this.#reread;
  }

  /** The worker's engine's counts as of its last answer (null before one): what it decided, what it found kept. */
  get stats(): EntailerStats | null {
    return this.#stats;
  }

  /** Why the worker can't be used (it failed to start, or died), or null. */
  get failure(): string | null {
    return this.#failure;
  }

  /**
   * The groups of `question`'s rows: `ids[i]`'s list is `lists[i]` (its sources, sorted, as JSON),
   * in the order of the ids. `background`: compared at low priority, stopped by `signal`
   * (GroupsStopped). Rejects with GroupsThreadFailed when the worker can't answer.
   */
  group(question: Question, ids: string[], lists: string[], run: { background: boolean; signal?: AbortSignal }): Promise<ThreadGroup[]> {
    if (this.#failure !== null || this.#closed) return Promise.reject(new GroupsThreadFailed(this.#failure ?? 'the worker is closed'));
    if (run.signal?.aborted) return Promise.reject(new GroupsStopped());
    return this.#request((id) => ({ type: 'group', id, question, ids, lists, background: run.background }), run.signal) as Promise<ThreadGroup[]>;
  }

  /**
   * Prepare the groups of `questions` of the exam before their rows are posted: the worker reads
   * each question's lists through its own connection and compares them in the background, so
   * that the rows posted later (group()) find their groups formed, or their pairs decided.
   * Resolves with the number of questions prepared; `signal` stops it (GroupsStopped), as a
   * grade, a scheme preview or closing stops the background. Rejects with GroupsThreadFailed
   * when the worker can't answer.
   */
  prepare(examId: string, questions: Question[], signal?: AbortSignal): Promise<number> {
    if (this.#failure !== null || this.#closed) return Promise.reject(new GroupsThreadFailed(this.#failure ?? 'the worker is closed'));
    if (signal?.aborted) return Promise.reject(new GroupsStopped());
    return this.#request((id) => ({ type: 'prepare', id, examId, questions }), signal) as Promise<number>;
  }

  /**
   * The groups of `question` as the worker reads its lists now through its own connection (the
   * rows a prepare reads), with those rows and the change number before them, so the caller can
   * tell whether they are still the rows it would post (app/early-groups.ts). Asked for: runs at
   * once, or waits for the prepare comparing this question. Rejects with GroupsThreadFailed when
   * the worker can't answer.
   */
  groupsAsRead(examId: string, question: Question): Promise<GroupsAsRead> {
    if (this.#failure !== null || this.#closed) return Promise.reject(new GroupsThreadFailed(this.#failure ?? 'the worker is closed'));
    return this.#request((id) => ({ type: 'groupsAsRead', id, examId, question })) as Promise<GroupsAsRead>;
  }

  /** Posts a request (`make` given its id) and waits for its answer; `signal` stops it. */
  #request(make: (id: number) => ThreadRequest & { id: number }, signal?: AbortSignal): Promise<Answer> {
    const id = this.#next++;
    return new Promise<Answer>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) this.#worker?.ref();
      this.#post(make(id));
      signal?.addEventListener('abort', () => this.#stop(id), { once: true });
    });
  }

  /** Stops a request (the worker answers it 'stopped' at its next check, or with its answer if it came first). */
  #stop(id: number): void {
    if (this.#pending.has(id)) this.#post({ type: 'stop', id });
  }

  /** The worker's engine takes another SymPy (Settings' Python path changed), as the app's does. */
  setSympy(options: ThreadEngineOptions['sympy']): void {
    if (this.#failure === null && !this.#closed) this.#post({ type: 'setSympy', options });
  }

  /** Stops the worker once the requests under way are answered (the background's are stopped); its engine is closed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#failure !== null) return;
    this.#worker?.ref();
    this.#post({ type: 'close' });
    const late = setTimeout(() => void this.#worker?.terminate(), 10_000);
    await this.#exited;
    clearTimeout(late);
  }

  #post(m: ThreadRequest): void {
    // Posted at once, even before the worker is ready: its port keeps messages until it listens.
    // (Kept here until its 'ready' came, they were posted only when this thread next took a turn
    // of its event loop: after the review list's first read, 2 to 3.5 s at 67,500 responses, so
    // the worker prepared nothing meanwhile.)
    this.#worker?.postMessage(m);
  }

  #onMessage(m: ThreadReply): void {
    if (m.type === 'ready') {
      /* started: nothing waits for it (requests were posted as they came) */
    } else if (m.type === 'fatal') this.#fail(`the worker could not start: ${m.message}`);
    else if (m.type === 'notice') this.#opts.onNotice?.(m.message);
    else if (m.type === 'z3') provideCompiledZ3(m.wasm);
    else if (m.type === 'closed') void this.#worker?.terminate();
    else {
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (this.#pending.size === 0) this.#worker?.unref();
      if (m.type === 'groups') {
        this.#answered++;
        this.#stats = m.stats;
        p.resolve(m.groups);
      } else if (m.type === 'groupsAsRead') {
        this.#answeredAsRead++;
        if (m.reread) this.#reread++;
        this.#stats = m.stats;
        p.resolve({ groups: m.groups, ids: m.ids, lists: m.lists, seen: m.seen });
      } else if (m.type === 'prepared') {
        this.#prepared += m.questions;
        this.#stats = m.stats;
        p.resolve(m.questions);
      } else if (m.type === 'stopped') p.reject(new GroupsStopped());
      else p.reject(new Error(m.message));
    }
  }

  #fail(reason: string): void {
    if (this.#failure !== null) return;
    if (this.#closed && this.#pending.size === 0) {
      // Closed as asked: no failure to tell.
      this.#failure = 'the worker is closed';
      return;
    }
    this.#failure = reason;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(new GroupsThreadFailed(reason));
    void this.#worker?.terminate();
    try {
      this.#opts.onFailure?.(reason);
    } catch {
      /* telling must never break the caller */
    }
  }
}
