// A small pool of worker threads, each running its own Z3 (./z3-worker.ts), with a hard
// wall-clock deadline per query enforced from here, outside Z3:
//  - a query goes to an idle worker (started on demand, up to `size`, default one per core, at
//    most 4); queries asked at once are decided in parallel;
//  - the deadline starts when the worker is handed the query (a worker's start-up, loading Z3's
//    WASM, never counts against it); a worker still busy at the deadline is terminated (its Z3
//    threads with it) and replaced on demand, and the query's answer is 'unknown' (time-out);
//  - a worker that crashes (an exception from Z3's WASM or its threads) answers 'unknown' with the
//    reason and is replaced; a Z3 that can't start at all rejects the queries waiting for it;
//  - a worker that starts with no query waiting (warm()) is given one of the pool's own first,
//    whose answer nobody waits for: Z3's first nonlinear check in a worker is the slow one;
//  - idle workers are unref'd, so a pool never keeps the process alive; close() finishes the
//    queries under way and terminates every worker.
// The worker file: under tsx (tests, CLI) ./z3-worker-boot.mjs registers tsx and loads
// ./z3-worker.ts; in the esbuild CJS bundle (scripts/build-electron.mjs) the worker is its own
// entry, z3-worker.cjs, beside the bundle that uses it.
import { close, fstatSync, openSync, read } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseEquationOrThrow } from '../../../../shared/equation/index.ts';
import type { CheckResult, Z3Query } from './z3.ts';

export type Z3PoolOptions = {
  /** Wall-clock limit per query in ms. */
  deadlineMs: number;
  /** Number of workers (default: EQUIMARK_Z3_WORKERS, else one per core, at most 4). */
  size?: number;
  /**
   * A worker idle this long (ms) is stopped, giving back its Z3 memory (about 130 MB each); the
   * next query starts one again (a fraction of a second: the WASM stays compiled). Default 10 s.
   */
  idleMs?: number;
  /**
   * A worker idle this long (ms) while another one lives is stopped (default 1 s): the extra
   * workers a burst of queries started go once it is over (a batch's Z3 checks come in bursts,
   * and each worker holds its Z3 memory), and one stays for idleMs for the next query.
   */
  spareIdleMs?: number;
  /**
   * Compile Z3's WASM and bundle the worker's code as the pool is made (default), so the first
   * query waits for neither; false: when a worker is first started. A command that may well ask
   * Z3 nothing (a re-grade whose pairs are all kept in the workspace) then pays for neither
   * (compiling the 35 MB WASM, and esbuild's process bundling the worker).
   */
  prepareAhead?: boolean;
};

const DEFAULT_IDLE_MS = 10_000;
const DEFAULT_SPARE_IDLE_MS = 1_000;

/** `warmedUp`: workers given the pool's own first query (warmUpQuery), having started with nothing to do. */
export type Z3PoolStats = { size: number; started: number; live: number; timedOut: number; crashed: number; warmedUp: number };

/** `warmUp`: the pool's own first query to a worker (see warmUpQuery): nobody waits for it, and it is in no count. */
type Job = { query: Z3Query; resolve: (r: CheckResult) => void; reject: (e: Error) => void; warmUp?: true };
/** `ahead`: started by warm(), ahead of need, not for a query. */
type Slot = { worker: Worker; ready: boolean; job?: Job; timer?: NodeJS.Timeout; idle?: NodeJS.Timeout; t0?: number; dead: boolean; ahead?: true };

let warmUp: Z3Query | undefined;
/**
 * The query a worker that starts with nothing to do is given first: Z3's first check of a
 * nonlinear entailment in a new worker costs about 180 ms more than the same check afterwards
 * (measured: 175 to 196 ms, then 15 ms), which the first query someone waits for (the first list
 * of answer groups needing a proof) paid; a worker started ahead of need (warm()) pays it now.
 */
function warmUpQuery(): Z3Query {
  if (!warmUp) {
    const variables = ['v', 'u', 'a', 't'];
    warmUp = {
      kind: 'entails',
      premise: parseEquationOrThrow('v = u + a*t', { variables }),
      conclusion: parseEquationOrThrow('v - u = a*t', { variables }),
      domain: { variables: variables.map((name) => ({ name, assumptions: ['positive' as const] })) },
    };
  }
  return warmUp;
}

type Reply = { type: 'ready' } | { type: 'fatal'; message: string } | { type: 'result'; result: CheckResult } | { type: 'error'; message: string };

/** The worker's entry point: the bundled z3-worker.cjs beside a CJS bundle, else the tsx bootstrap. */
export function workerUrl(base: string = import.meta.url): URL {
  return base.endsWith('.cjs') ? new URL('./z3-worker.cjs', base) : new URL('./z3-worker-boot.mjs', base);
}

let sourceBundle: Promise<string | null> | undefined;
/**
 * Running from the TypeScript sources (tsx): the worker bundled once per process with esbuild (which
 * tsx itself runs on), so each worker starts without loading tsx (about a second saved per worker
 * started or replaced). null when esbuild can't be used: the tsx bootstrap is used instead.
 */
function bundledFromSource(): Promise<string | null> {
  sourceBundle ??= (async () => {
    if (import.meta.url.endsWith('.cjs')) return null;
    try {
      const esbuild = await import('esbuild');
      const require = createRequire(import.meta.url);
      const r = await esbuild.build({
        entryPoints: [fileURLToPath(new URL('./z3-worker.ts', import.meta.url))],
        bundle: true,
        write: false,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        external: ['z3-solver'],
        logLevel: 'silent',
      });
      const code = r.outputFiles[0].text.replace(/require\("z3-solver"\)/g, `require(${JSON.stringify(require.resolve('z3-solver'))})`);
      return code;
    } catch {
      return null;
    }
  })();
  return sourceBundle;
}

/**
 * A file read whole in one request to libuv's thread pool, for Z3's 35 MB WASM. Not
 * fs/promises' readFile: it reads 512 KiB per request and needs a turn of the event loop between
 * two, so while the main thread is busy (a list read, the views, comparisons of lists) the read
 * took 70 turns and Z3 became ready 1.5 to 3 s after it was asked for. Not readFileSync either:
 * the read stays off the main thread (about 15 ms warm, far more from a cold disk, when the
 * engine starts), which is why the read was asynchronous. Opening and sizing the file are
 * synchronous (system calls of microseconds, no data read), so the whole read costs the main
 * thread one turn.
 */
export function readWhole(file: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    let fd: number;
    let size: number;
    try {
      fd = openSync(file, 'r');
    } catch (e) {
      reject(e as Error);
      return;
    }
    try {
      size = fstatSync(fd).size;
    } catch (e) {
      close(fd, () => undefined);
      reject(e as Error);
      return;
    }
    // Not zero-filled: every byte returned is read from the file.
    const buf = Buffer.allocUnsafe(size);
    const view = (n: number) => new Uint8Array(buf.buffer as ArrayBuffer, buf.byteOffset, n);
    const from = (at: number): void => {
      read(fd, buf, at, size - at, at, (err, n) => {
        // pread gives a regular file's whole request at once; a short read (or a file that
        // shrank) goes on from where it stopped, or ends at the file's end.
        if (err || n === 0 || at + n >= size) {
          close(fd, () => undefined);
          if (err) reject(err);
          else resolve(view(at + n));
        } else from(at + n);
      });
    };
    if (size === 0) {
      close(fd, () => undefined);
      resolve(view(0));
    } else from(0);
  });
}

let compiled: Promise<WebAssembly.Module | null> | undefined;
/**
 * Z3's WASM, compiled once per process and handed to every worker (a WebAssembly.Module crosses
 * to worker threads without copying or recompiling): a replacement worker starts in a fraction of
 * the time. null when it can't be found here: each worker then loads Z3 the usual way.
 */
export function compiledZ3(): Promise<WebAssembly.Module | null> {
  compiled ??= (async () => {
    try {
      const file = createRequire(import.meta.url).resolve('z3-solver/build/z3-built.wasm');
      return await WebAssembly.compile(await readWhole(file));
    } catch {
      return null;
    }
  })();
  return compiled;
}

/**
 * Z3's WASM compiled elsewhere in the process (the answer groups' worker thread compiles it as its
 * engine starts, before the app's engine starts): taken as this thread's, unless this thread has
 * begun compiling its own. A module crosses threads without being compiled again, so the app's
 * engine does not spend the CPU again (about 0.3 s, while the views and the worker compete for 2 cores).
 */
export function provideCompiledZ3(module: WebAssembly.Module): void {
  compiled ??= Promise.resolve(module);
}

export function defaultPoolSize(): number {
  const env = Number(process.env.EQUIMARK_Z3_WORKERS);
  if (Number.isInteger(env) && env >= 1) return Math.min(env, 16);
  return Math.max(1, Math.min(availableParallelism(), 4));
}

export class Z3Pool {
  readonly size: number;
  private readonly deadlineMs: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private closed = false;
  private readonly st = { started: 0, timedOut: 0, crashed: 0, warmedUp: 0 };
  /** Consecutive workers that died before becoming ready: Z3 can't start here. */
  private startFailures = 0;
  private idleWaiters: (() => void)[] = [];
  /** Queries someone is waiting for, and the handle that keeps the process alive meanwhile. */
  private waiting = 0;
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  private readonly idleMs: number;
  private readonly spareIdleMs: number;

  constructor(options: Z3PoolOptions) {
    this.deadlineMs = Math.max(1, Math.floor(options.deadlineMs));
    this.size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
    this.idleMs = Math.max(1, Math.floor(options.idleMs ?? DEFAULT_IDLE_MS));
    this.spareIdleMs = Math.max(1, Math.min(this.idleMs, Math.floor(options.spareIdleMs ?? DEFAULT_SPARE_IDLE_MS)));
    // Z3's WASM compiled (off the main thread) and the worker's code bundled as the engine starts,
    // once per process: a worker's first start then waits for neither (about 0.8 s of the first
    // query's 1.4 s on a loaded machine), and the engine seldom starts without asking Z3 soon.
    if (options.prepareAhead ?? true) {
      void compiledZ3();
      void bundledFromSource();
    }
  }

  /**
   * A worker with nothing to do: stopped after spareIdleMs while another worker lives, after
   * idleMs when it is the last, unless it gets work meanwhile (`since`: idle since then).
   */
  private restWhenIdle(slot: Slot, since = Date.now()): void {
    clearTimeout(slot.idle);
    const wait = this.slots.size > 1 ? this.spareIdleMs : this.idleMs - (Date.now() - since);
    slot.idle = setTimeout(
      () => {
        if (slot.job || slot.dead || this.queue.length > 0) return;
        if (this.slots.size > 1 || Date.now() - since >= this.idleMs) void this.kill(slot);
        else this.restWhenIdle(slot, since);
      },
      Math.max(1, wait),
    );
    slot.idle.unref();
  }

  stats(): Z3PoolStats {
    return { size: this.size, ...this.st, live: this.slots.size };
  }

  /**
   * Start a worker now if none is live, so a query asked soon after does not wait for Z3's start
   * (about a second; an idle worker is stopped after idleMs, so it may not be running).
   */
  warm(): void {
    if (!this.closed && this.slots.size === 0) this.spawn(true);
  }

  run(query: Z3Query): Promise<CheckResult> {
    if (this.closed) return Promise.reject(new Error('entailment engine is closed'));
    this.hold(+1);
    const answer = new Promise<CheckResult>((resolve, reject) => {
      this.queue.push({ query, resolve, reject });
      this.pump();
    });
    return answer.finally(() => this.hold(-1));
  }

  /**
   * Keeps the process alive while someone waits for an answer. Idle workers are unref'd, and a
   * worker's start (compiling the WASM, bundling the worker) holds no handle of its own: without
   * this, a query waiting for a worker to start could let the event loop run dry and the process
   * exit with code 13 (an unsettled top-level await), which is what happened under load.
   */
  private hold(delta: number): void {
    this.waiting += delta;
    if (this.waiting > 0 && !this.keepAlive) this.keepAlive = setInterval(() => undefined, 1 << 30);
    else if (this.waiting === 0 && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
  }

  /** Finish the queries under way (each bounded by its deadline), then terminate every worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Queries not yet handed to a worker are answered 'unknown' only if a worker is starting for
    // them; simplest and safe: let them run, as the old one-at-a-time queue did.
    await new Promise<void>((resolve) => {
      if (this.queue.length === 0 && !this.answering()) resolve();
      else this.idleWaiters.push(resolve);
    });
    await Promise.all([...this.slots].map((s) => this.kill(s)));
  }

  /** Whether a worker is deciding a query someone waits for (a warm-up is not waited for). */
  private answering(): boolean {
    return [...this.slots].some((s) => s.job && !s.job.warmUp);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const idle = [...this.slots].find((s) => s.ready && !s.job && !s.dead);
      if (idle) {
        this.assign(idle, this.queue.shift()!);
        continue;
      }
      const starting = [...this.slots].filter((s) => !s.ready && !s.dead).length;
      // Start a worker for each waiting query beyond those already starting, up to the pool's size.
      if (this.slots.size < this.size && starting < this.queue.length) {
        this.spawn();
        continue;
      }
      break;
    }
    if (this.queue.length === 0 && !this.answering()) {
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const f of w) f();
    }
  }

  private spawn(ahead = false): void {
    // A slot holds the place while the compiled WASM is fetched (at once after the first time).
    const slot: Slot = { worker: undefined as unknown as Worker, ready: false, dead: false, ...(ahead ? { ahead } : {}) };
    this.slots.add(slot);
    this.st.started++;
    void Promise.all([compiledZ3(), bundledFromSource()]).then(([wasm, code]) => {
      if (slot.dead) return;
      try {
        slot.worker = code
          ? new Worker(code, { eval: true, execArgv: [], workerData: { wasm } })
          : new Worker(workerUrl(), { execArgv: [], workerData: { wasm } });
      } catch (e) {
        this.onDeath(slot, `z3 worker could not start: ${(e as Error).message}`);
        return;
      }
      this.watch(slot);
    });
  }

  private watch(slot: Slot): void {
    const worker = slot.worker;
    worker.on('message', (m: Reply) => this.onMessage(slot, m));
    worker.on('error', (e: Error) => this.onDeath(slot, `z3 worker failed: ${e.message}`));
    worker.on('exit', (code) => this.onDeath(slot, `z3 worker exited (code ${code})`));
  }

  private assign(slot: Slot, job: Job): void {
    clearTimeout(slot.idle);
    slot.job = job;
    slot.t0 = Date.now();
    // A warm-up keeps no process alive: nobody waits for it.
    if (!job.warmUp) slot.worker.ref();
    slot.timer = setTimeout(() => {
      if (slot.job !== job) return;
      if (!job.warmUp) this.st.timedOut++;
      slot.job = undefined;
      job.resolve({
        result: 'unknown',
        ms: Date.now() - slot.t0!,
        note: `z3 gave no answer within ${this.deadlineMs} ms (${Date.now() - slot.t0!} ms; its worker was stopped)`,
      });
      void this.kill(slot).then(() => this.pump());
    }, this.deadlineMs);
    if (job.warmUp) slot.timer.unref();
    slot.worker.postMessage(job.query);
  }

  private finish(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    if (!slot.dead) slot.worker.unref();
    return job;
  }

  private onMessage(slot: Slot, m: Reply): void {
    if (slot.dead) return;
    switch (m.type) {
      case 'ready':
        slot.ready = true;
        this.startFailures = 0;
        slot.worker.unref();
        // Started ahead of need (warm()) with still nothing to do: its first, slower check now,
        // before one is asked. Not a worker a burst of queries started, whose query another took
        // meanwhile: busy with a warm-up, it would leave the next query to start a worker of its
        // own while the burst's spare is stopped (seen under load in the pool's burst test).
        if (slot.ahead && this.queue.length === 0 && !this.closed) {
          this.st.warmedUp++;
          this.assign(slot, { query: warmUpQuery(), resolve: () => undefined, reject: () => undefined, warmUp: true });
          return;
        }
        this.restWhenIdle(slot);
        break;
      case 'fatal':
        // Z3 could not start in this worker: it exits; onDeath handles the waiting queries.
        this.onDeath(slot, `z3 could not start: ${m.message}`);
        return;
      case 'result':
        this.finish(slot)?.resolve(m.result);
        this.restWhenIdle(slot);
        break;
      case 'error':
        this.finish(slot)?.resolve({ result: 'unknown', ms: Date.now() - (slot.t0 ?? Date.now()), note: `z3 failed: ${m.message}` });
        this.restWhenIdle(slot);
        break;
    }
    this.pump();
  }

  private onDeath(slot: Slot, why: string): void {
    if (slot.dead) return;
    const wasReady = slot.ready;
    slot.dead = true;
    this.slots.delete(slot);
    const job = slot.job;
    clearTimeout(slot.timer);
    clearTimeout(slot.idle);
    slot.job = undefined;
    void slot.worker?.terminate().catch(() => undefined);
    if (job) {
      if (!job.warmUp) this.st.crashed++;
      job.resolve({ result: 'unknown', ms: Date.now() - (slot.t0 ?? Date.now()), note: why });
    }
    if (!wasReady) {
      // Died while starting: after a few in a row, Z3 can't start here; fail what waits for it.
      if (++this.startFailures >= 3 || this.closed) {
        const waiting = this.queue.splice(0);
        for (const j of waiting) j.reject(new Error(why));
      }
    }
    this.pump();
  }

  private async kill(slot: Slot): Promise<void> {
    if (slot.dead) return;
    slot.dead = true;
    this.slots.delete(slot);
    clearTimeout(slot.timer);
    clearTimeout(slot.idle);
    // terminate() stops the thread even inside WASM, and with it the threads Z3 started. An idle
    // worker is unref'd: ref it while we wait, or nothing keeps the process alive until the
    // termination settles and a top-level `await close()` exits with code 13 (unsettled await).
    slot.worker?.ref();
    await slot.worker?.terminate().catch(() => undefined);
  }
}
