// Node client for the SymPy worker (resources/python/worker.py): a long-lived Python process
// driven over JSON lines. Equations travel as our AST, never as source text.
//
// Robustness:
//  - each request has a hard time limit (default 8 s). The worker is told a slightly shorter soft
//    limit and normally answers 'timeout' itself; if it doesn't (a C-level loop), the client kills
//    it (SIGKILL), fails that request with a clear reason and starts a fresh worker for the rest;
//  - a crash or a memory blow-up (RLIMIT_AS inside the worker, --memory-mb) fails only the request
//    being worked on; queued requests go to the restarted worker;
//  - several requests may be in flight: they queue here and are sent one at a time (the worker is
//    single-threaded), answers matched by id;
//  - no Python with SymPy: status() says so in plain words, every request fails with code
//    'unavailable', and proveEntailment answers 'unknown', so grading continues with Z3 and
//    numeric checks.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Equation, Expr } from '../../../../shared/equation/ast.ts';
import type { Domain } from '../../../../shared/exam.ts';
import type { AlgebraProver } from '../entail/types.ts';
import { pythonCandidates, workerScriptPath, type PythonCandidate } from './python.ts';

export { pythonCandidates, workerScriptPath, bundledPythonPath } from './python.ts';

export const SYMPY_NOT_FOUND =
  'SymPy not found: install python3-sympy or set the Python path in Settings; grading continues with Z3 and numeric checks';

export type SympyErrorCode =
  | 'unavailable' // no Python with SymPy
  | 'timeout' // the request ran past its time limit
  | 'crashed' // the worker died while working on the request
  | 'memory' // the worker hit its memory limit
  | 'refused' // the input is outside the whitelist or the limits
  | 'bad-request'
  | 'too-complex'
  | 'failed' // SymPy raised on an accepted input
  | 'closed'; // close() was called

export class SympyError extends Error {
  constructor(
    readonly code: SympyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SympyError';
  }
}

export type SympyOptions = {
  /** Configured Python interpreter (Settings); tried first. */
  pythonPath?: string;
  /** Electron's resources directory when packaged (bundled runtime + worker.py). */
  resourcesPath?: string;
  /** Environment for EQUIMARK_PYTHON lookup and the worker (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Look for system interpreters (/usr/bin/python3, then python3 on PATH) last (default true). */
  searchSystem?: boolean;
  /** The worker script (default: packaged resources/python/worker.py or this repository's). */
  workerPath?: string;
  /** Address-space limit of the worker in MiB (RLIMIT_AS; default 1024; 0 = none). */
  memoryMb?: number;
  /** Default per-request time limit in ms (default 8000). */
  timeoutMs?: number;
  /** How long a starting worker may take to say it is ready (default 30000). */
  startTimeoutMs?: number;
  /** Consecutive failed starts of a known-good interpreter before giving up (default 3). */
  maxStartFailures?: number;
  /** Enable the worker's debug operations (tests only). */
  debugOps?: boolean;
};

export type SympyState = 'idle' | 'starting' | 'ready' | 'unavailable' | 'closed';

export type SympyStatus = {
  state: SympyState;
  /** Plain words for the Settings page / CLI. */
  message: string;
  python?: string;
  source?: PythonCandidate['source'];
  sympyVersion?: string;
  pythonVersion?: string;
  pid?: number;
  /** Workers started after the first (timeouts, crashes, memory). */
  restarts: number;
  /** Requests answered (successfully or with an error). */
  requests: number;
  failures: number;
  /** Cold start of the most recent worker, ms (spawn → ready line). */
  startMs?: number;
  /** What was tried, where nothing worked. */
  tried?: string[];
  /** Interpreters tried before the one in use, with why each was passed over (e.g. a bad configured path). */
  skipped?: string[];
};

/** A value computed by SymPy: our AST where it fits the grammar (else null), and SymPy text for display only. */
export type SympyValue = { ast: Expr | null; text: string; latex: string };

export type ProveResult = {
  result: 'proved' | 'unknown';
  /** 'conclusion-is-identity' | 'solve-substitute-simplify' when proved. */
  method?: string;
  /** The premise variable solved for and substituted. */
  variable?: string;
  solutions?: string[];
  /** Why not proved (including timeouts and an unavailable SymPy). */
  note?: string;
};

export type SolveResult = {
  target: string;
  results: {
    /** Index of the student equation, or 'system' when solved together with `eliminate`. */
    equation: number | 'system';
    solutions: SympyValue[];
    /** true: every admissible solution is listed; false: SymPy's solve may have missed some; null: unknown. */
    complete: boolean | null;
  }[];
};

export type LimitsResult = {
  large: string;
  small: string;
  /** How the limit is taken, e.g. "w = eps*u, eps -> 0+". */
  substitution: string;
  results: {
    expr: SympyValue;
    /** The limit as eps -> 0+ (null where SymPy couldn't take it). */
    limit: SympyValue | null;
    /** Expansion to second order in small/large, substituted back. */
    series: SympyValue | null;
    limitNote?: string;
    seriesNote?: string;
  }[];
};

export type SimplifyResult = { expr: SympyValue } | { lhs: SympyValue; rhs: SympyValue };

export type RequestOptions = { timeoutMs?: number };

type Pending = {
  id: number;
  op: string;
  args: unknown;
  timeoutMs: number;
  resolve: (v: unknown) => void;
  reject: (e: SympyError) => void;
  timer?: NodeJS.Timeout;
};

type Worker = {
  proc: ChildProcess;
  candidate: PythonCandidate;
  pid: number;
  buffer: string;
  stderrTail: string;
  exited: boolean;
  /** Set when the client killed it on purpose (timeout, close). */
  killedFor?: 'timeout' | 'close' | 'protocol';
};

const MAX_STDOUT_BUFFER = 16 * 1024 * 1024;

export class SympyWorker implements AlgebraProver {
  private readonly opts: Required<Pick<SympyOptions, 'memoryMb' | 'timeoutMs' | 'startTimeoutMs' | 'maxStartFailures'>> & SympyOptions;
  private worker: Worker | null = null;
  private starting: Promise<boolean> | null = null;
  private chosen: PythonCandidate | null = null;
  private queue: Pending[] = [];
  private current: Pending | null = null;
  private nextId = 1;
  private state: SympyState = 'idle';
  private unavailableMessage = '';
  private tried: string[] = [];
  private skipped: string[] = [];
  private startFailures = 0;
  private started = 0;
  private counts = { requests: 0, failures: 0 };
  private info: { sympy?: string; python?: string; startMs?: number } = {};

  constructor(options: SympyOptions = {}) {
    this.opts = { memoryMb: 1024, timeoutMs: 8000, startTimeoutMs: 30000, maxStartFailures: 3, ...options };
  }

  // ------------------------------------------------------------------ public API

  /** AlgebraProver: never rejects; anything other than a proof (timeouts, no SymPy) is 'unknown'. */
  async proveEntailment(premise: Equation, conclusion: Equation, domain: Domain): Promise<'proved' | 'unknown'> {
    return (await this.proveEntailmentDetailed(premise, conclusion, domain)).result;
  }

  /** As proveEntailment, with how it was proved or why not. Never rejects. */
  async proveEntailmentDetailed(premise: Equation, conclusion: Equation, domain: Domain, options: RequestOptions = {}): Promise<ProveResult> {
    try {
      const r = (await this.request('prove_entailment', { premise, conclusion, domain }, options)) as ProveResult;
      return r.result === 'proved' ? r : { ...r, result: 'unknown' };
    } catch (e) {
      return { result: 'unknown', note: e instanceof Error ? e.message : String(e) };
    }
  }

  /**
   * Solve the student's equations for `target` under the domain's assumptions: each equation on its
   * own, or (with `eliminate`) the whole list, eliminating those variables. Evidence for the
   * instructor; rejects with SympyError.
   */
  solveFor(equations: Equation[], target: string, domain: Domain, options: RequestOptions & { eliminate?: string[] } = {}): Promise<SolveResult> {
    const { eliminate, ...rest } = options;
    return this.request('solve_for', { equations, target, domain, eliminate: eliminate ?? [] }, rest) as Promise<SolveResult>;
  }

  /**
   * Limiting behaviour when `large` dominates `small` (large >> small): substitutes
   * small = eps*large and takes eps -> 0+ (limit and a second-order series, substituted back).
   * `input` is an expression, or an equation with the target variable (solved for it first).
   */
  limits(input: { expr: Expr } | { equation: Equation; target: string }, large: string, small: string, domain: Domain, options: RequestOptions = {}): Promise<LimitsResult> {
    return this.request('limits', { ...input, large, small, domain }, options) as Promise<LimitsResult>;
  }

  /** A simplified display form: each side of an equation, or an expression. */
  simplify(input: Equation | Expr, domain: Domain, options: RequestOptions = {}): Promise<SimplifyResult> {
    const args = 'lhs' in input ? { equation: input, domain } : { expr: input, domain };
    return this.request('simplify', args, options) as Promise<SimplifyResult>;
  }

  async ping(options: RequestOptions = {}): Promise<void> {
    await this.request('ping', {}, options);
  }

  /** Start the worker now (otherwise it starts on the first request). Never rejects. */
  async start(): Promise<SympyStatus> {
    if (this.state !== 'closed' && this.state !== 'unavailable') await this.ensureWorker();
    return this.status();
  }

  status(): SympyStatus {
    const base = { restarts: Math.max(0, this.started - 1), requests: this.counts.requests, failures: this.counts.failures };
    const w = this.worker;
    const c = this.chosen;
    let message: string;
    switch (this.state) {
      case 'unavailable':
        message = this.unavailableMessage;
        break;
      case 'closed':
        message = 'SymPy worker closed';
        break;
      case 'ready':
        message = `SymPy ${this.info.sympy} on Python ${this.info.python} (${c?.path})`;
        if (this.skipped.length) message += `; passed over: ${this.skipped.join('; ')}`;
        break;
      case 'starting':
        message = 'SymPy worker starting';
        break;
      default:
        message = 'SymPy worker not started yet (starts on first use)';
    }
    return {
      state: this.state,
      message,
      ...base,
      ...(c ? { python: c.path, source: c.source } : {}),
      ...(this.info.sympy ? { sympyVersion: this.info.sympy, pythonVersion: this.info.python } : {}),
      ...(w && !w.exited ? { pid: w.pid } : {}),
      ...(this.info.startMs !== undefined ? { startMs: this.info.startMs } : {}),
      ...(this.state === 'unavailable' ? { tried: [...this.tried] } : {}),
      ...(this.state !== 'unavailable' && this.skipped.length ? { skipped: [...this.skipped] } : {}),
    };
  }

  /**
   * Low-level request (an operation of worker.py and its args). `args` is sent as JSON as is; the
   * worker validates it against its whitelist. Rejects with SympyError.
   */
  request(op: string, args: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.state === 'closed') return Promise.reject(new SympyError('closed', 'SymPy worker closed'));
    if (this.state === 'unavailable') return Promise.reject(new SympyError('unavailable', this.unavailableMessage));
    const timeoutMs = Math.max(1, options.timeoutMs ?? this.opts.timeoutMs);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, op, args, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  /** Stop the worker; pending requests fail with code 'closed'. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    const err = new SympyError('closed', 'SymPy worker closed');
    if (this.current) this.fail(this.current, err);
    this.current = null;
    for (const p of this.queue.splice(0)) this.fail(p, err);
    const w = this.worker;
    this.worker = null;
    if (w && !w.exited) {
      w.killedFor = 'close';
      await new Promise<void>((done) => {
        const t = setTimeout(() => {
          w.proc.kill('SIGKILL');
        }, 500);
        w.proc.once('exit', () => {
          clearTimeout(t);
          done();
        });
        w.proc.stdin?.end();
      });
    }
  }

  // ------------------------------------------------------------------ internals

  private pump(): void {
    if (this.state === 'closed' || this.current) return;
    if (this.queue.length === 0) {
      this.setRef(false);
      return;
    }
    if (this.state === 'unavailable') {
      const err = new SympyError('unavailable', this.unavailableMessage);
      for (const p of this.queue.splice(0)) this.fail(p, err);
      return;
    }
    const w = this.worker;
    if (!w || w.exited) {
      void this.ensureWorker().then(() => this.pump());
      return;
    }
    const p = this.queue.shift()!;
    // The worker's own limit is a little shorter, so it normally answers 'timeout' itself and
    // stays alive; the client's kill is the backstop.
    const soft = Math.max(1, Math.floor(p.timeoutMs - Math.min(1000, p.timeoutMs * 0.2)));
    let line: string;
    try {
      line = JSON.stringify({ id: p.id, op: p.op, timeout_ms: soft, args: p.args ?? {} }) + '\n';
    } catch (e) {
      const deep = e instanceof RangeError;
      this.fail(p, new SympyError(deep ? 'too-complex' : 'bad-request', deep ? 'expression nested too deeply to send to SymPy' : `request can't be sent as JSON: ${e instanceof Error ? e.message : e}`));
      this.pump();
      return;
    }
    this.current = p;
    this.setRef(true);
    p.timer = setTimeout(() => this.onTimeout(p), p.timeoutMs);
    w.proc.stdin!.write(line);
  }

  private onTimeout(p: Pending): void {
    if (this.current !== p) return;
    const w = this.worker;
    this.current = null;
    this.fail(p, new SympyError('timeout', `SymPy took longer than ${p.timeoutMs} ms on '${p.op}'; the worker was restarted`));
    if (w && !w.exited) {
      w.killedFor = 'timeout';
      w.proc.kill('SIGKILL');
    }
    this.worker = null;
    this.pump();
  }

  private fail(p: Pending, err: SympyError): void {
    if (p.timer) clearTimeout(p.timer);
    this.counts.requests++;
    this.counts.failures++;
    p.reject(err);
  }

  private onLine(w: Worker, line: string): void {
    if (w !== this.worker) return;
    let msg: { id?: unknown; ok?: unknown; result?: unknown; error?: { code?: string; message?: string } };
    try {
      msg = JSON.parse(line);
    } catch {
      this.protocolError(w, `unreadable line from the SymPy worker: ${line.slice(0, 200)}`);
      return;
    }
    const p = this.current;
    if (!p || (msg.id !== p.id && msg.id !== null)) return; // a late answer to a request already failed
    clearTimeout(p.timer);
    this.current = null;
    if (msg.ok === true) {
      this.counts.requests++;
      p.resolve(msg.result);
    } else {
      const code = (msg.error?.code ?? 'failed') as SympyErrorCode;
      this.fail(p, new SympyError(code, msg.error?.message ?? 'SymPy worker error'));
      if (code === 'memory') {
        // The worker exits after a MemoryError; send nothing more to it.
        w.killedFor = 'protocol';
        w.proc.kill('SIGKILL');
        this.worker = null;
      }
    }
    this.pump();
  }

  private protocolError(w: Worker, message: string): void {
    w.killedFor = 'protocol';
    w.proc.kill('SIGKILL');
    if (this.current) {
      const p = this.current;
      this.current = null;
      this.fail(p, new SympyError('crashed', message));
    }
    this.worker = null;
    this.pump();
  }

  private onExit(w: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    w.exited = true;
    if (w !== this.worker) return;
    this.worker = null;
    if (this.state === 'ready') this.state = 'idle';
    const p = this.current;
    if (p) {
      this.current = null;
      const tail = w.stderrTail.trim().split('\n').slice(-3).join(' | ');
      const memory = code === 4 || /MemoryError|Cannot allocate memory/.test(w.stderrTail);
      this.fail(
        p,
        memory
          ? new SympyError('memory', `SymPy ran out of memory (limit ${this.opts.memoryMb} MiB) on '${p.op}'; the worker was restarted`)
          : new SympyError('crashed', `SymPy worker stopped (${signal ? `signal ${signal}` : `exit code ${code}`}) while working on '${p.op}'; it was restarted${tail ? `: ${tail}` : ''}`),
      );
    }
    this.pump();
  }

  private setRef(on: boolean): void {
    const w = this.worker;
    if (!w || w.exited) return;
    const streams = [w.proc.stdout, w.proc.stderr, w.proc.stdin] as unknown as ({ ref?: () => void; unref?: () => void } | null)[];
    if (on) {
      w.proc.ref();
      for (const s of streams) s?.ref?.();
    } else {
      w.proc.unref();
      for (const s of streams) s?.unref?.();
    }
  }

  /** Ensure a ready worker (or mark SymPy unavailable). Resolves true when ready. */
  private ensureWorker(): Promise<boolean> {
    if (this.worker && !this.worker.exited) return Promise.resolve(true);
    if (!this.starting) {
      this.starting = this.startWorker().finally(() => {
        this.starting = null;
      });
    }
    return this.starting;
  }

  private async startWorker(): Promise<boolean> {
    this.state = 'starting';
    const candidates = this.chosen ? [this.chosen] : pythonCandidates(this.opts);
    const tried: string[] = [];
    for (const c of candidates) {
      const r = await this.spawnOne(c);
      if ((this.state as SympyState) === 'closed') {
        if (r.worker) r.worker.proc.kill('SIGKILL');
        return false;
      }
      if (r.worker) {
        this.worker = r.worker;
        if (!this.chosen) this.skipped = tried;
        this.chosen = c;
        this.started++;
        this.startFailures = 0;
        this.state = 'ready';
        return true;
      }
      tried.push(`${c.path} (${c.source}): ${r.reason}`);
    }
    if (this.chosen && ++this.startFailures < this.opts.maxStartFailures) {
      this.state = 'idle';
      return false; // pump() will try again for the next request
    }
    this.tried = tried;
    this.state = 'unavailable';
    this.unavailableMessage = this.chosen
      ? `SymPy worker keeps failing to start (${tried.join('; ')}); grading continues with Z3 and numeric checks`
      : SYMPY_NOT_FOUND;
    return false;
  }

  private spawnOne(c: PythonCandidate): Promise<{ worker?: Worker; reason: string }> {
    const script = this.opts.workerPath ?? workerScriptPath(this.opts.resourcesPath);
    const args = ['-I', '-B', script, '--memory-mb', String(this.opts.memoryMb)];
    if (this.opts.debugOps) args.push('--debug-ops');
    const t0 = performance.now();
    return new Promise((resolve) => {
      let proc: ChildProcess;
      try {
        proc = spawn(c.path, args, { stdio: ['pipe', 'pipe', 'pipe'], env: this.opts.env ?? process.env, windowsHide: true });
      } catch (e) {
        resolve({ reason: e instanceof Error ? e.message : String(e) });
        return;
      }
      const w: Worker = { proc, candidate: c, pid: proc.pid ?? -1, buffer: '', stderrTail: '', exited: false };
      let settled = false;
      const settle = (r: { worker?: Worker; reason: string }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!r.worker && !w.exited) proc.kill('SIGKILL');
        resolve(r);
      };
      const timer = setTimeout(() => settle({ reason: `not ready within ${this.opts.startTimeoutMs} ms` }), this.opts.startTimeoutMs);
      proc.on('error', (e) => {
        w.exited = true;
        settle({ reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : e.message });
      });
      proc.stdin!.on('error', () => {}); // EPIPE after a crash: handled through 'exit'
      proc.stderr!.setEncoding('utf8');
      proc.stderr!.on('data', (d: string) => {
        w.stderrTail = (w.stderrTail + d).slice(-4000);
      });
      proc.stdout!.setEncoding('utf8');
      proc.stdout!.on('data', (d: string) => {
        w.buffer += d;
        if (w.buffer.length > MAX_STDOUT_BUFFER) {
          if (!settled) settle({ reason: 'worker wrote too much output' });
          else this.protocolError(w, 'SymPy worker answer too large');
          return;
        }
        let nl: number;
        while ((nl = w.buffer.indexOf('\n')) >= 0) {
          const line = w.buffer.slice(0, nl);
          w.buffer = w.buffer.slice(nl + 1);
          if (!line.trim()) continue;
          if (!settled) {
            let hello: { ready?: boolean; sympy?: string; python?: string; message?: string };
            try {
              hello = JSON.parse(line);
            } catch {
              settle({ reason: `unexpected output: ${line.slice(0, 120)}` });
              return;
            }
            if (hello.ready === true) {
              this.info = { sympy: hello.sympy, python: hello.python, startMs: Math.round(performance.now() - t0) };
              settle({ worker: w, reason: '' });
            } else settle({ reason: hello.message ?? 'worker not ready' });
            continue;
          }
          this.onLine(w, line);
        }
      });
      proc.on('exit', (code, signal) => {
        if (!settled) {
          w.exited = true;
          const why = w.stderrTail.trim().split('\n').slice(-1)[0];
          settle({ reason: `exited (${signal ?? code})${why ? `: ${why}` : ''}` });
          return;
        }
        this.onExit(w, code, signal);
      });
    });
  }
}

/** Convenience: a SymPy-backed AlgebraProver for `Entailer.create({ prover })`. */
export function createSympyProver(options: SympyOptions = {}): SympyWorker {
  return new SympyWorker(options);
}
