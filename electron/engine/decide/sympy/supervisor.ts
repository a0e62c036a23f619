// Keeps one SymPy worker process running and feeds it requests one at a time (the worker is
// single-threaded): requests queue here, answers are matched by id. A request past its time limit
// gets the worker killed and a fresh one started for the rest; a crash or a memory blow-up fails
// only the request being worked on. Without a Python with SymPy every request fails with
// 'unavailable'.
import { SYMPY_NOT_FOUND, SympyError } from './errors.ts';
import { resolveOptions, type RequestOptions, type ResolvedOptions, type SympyOptions } from './options.ts';
import { killWorker, setRef, spawnWorker, stopWorker, type SpawnResult, type WorkerEvents, type WorkerProcess } from './process.ts';
import { answerError, encodeRequest, parseLine, type WorkerAnswer } from './protocol.ts';
import { pythonCandidates, workerScriptPath, type PythonCandidate } from './python.ts';
import { describeStatus, type SympyState, type SympyStatus, type WorkerInfo } from './status.ts';

type Pending = {
  id: number;
  op: string;
  args: unknown;
  timeoutMs: number;
  resolve: (v: unknown) => void;
  reject: (e: SympyError) => void;
  timer?: NodeJS.Timeout;
};

export class WorkerSupervisor {
  private readonly opts: ResolvedOptions;
  private worker: WorkerProcess | null = null;
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
  private info: WorkerInfo = {};
  private readonly events: WorkerEvents = {
    onReady: (info) => {
      this.info = info;
    },
    onLine: (w, line) => this.onLine(w, line),
    onProtocolError: (w, message) => this.protocolError(w, message),
    onExit: (w, code, signal) => this.onExit(w, code, signal),
  };

  constructor(options: SympyOptions = {}) {
    this.opts = resolveOptions(options);
  }

  status(): SympyStatus {
    const w = this.worker;
    return describeStatus({
      state: this.state,
      unavailableMessage: this.unavailableMessage,
      chosen: this.chosen,
      pid: w && !w.exited ? w.pid : undefined,
      info: this.info,
      tried: this.tried,
      skipped: this.skipped,
      started: this.started,
      ...this.counts,
    });
  }

  /** Start the worker now unless closed or unavailable. Never rejects. */
  async start(): Promise<void> {
    if (this.state !== 'closed' && this.state !== 'unavailable') await this.ensureWorker();
  }

  /** Queue a request (an operation of worker.py and its args, sent as JSON as is). Rejects with SympyError. */
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
    if (w && !w.exited) await stopWorker(w);
  }

  /** Send the next queued request, starting a worker first where none is running. */
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
    const line = encodeRequest(p.id, p.op, p.args, p.timeoutMs);
    if (line instanceof SympyError) {
      this.fail(p, line);
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
    if (w && !w.exited) killWorker(w, 'timeout');
    this.worker = null;
    this.pump();
  }

  private fail(p: Pending, err: SympyError): void {
    if (p.timer) clearTimeout(p.timer);
    this.counts.requests++;
    this.counts.failures++;
    p.reject(err);
  }

  private onLine(w: WorkerProcess, line: string): void {
    if (w !== this.worker) return;
    const msg = parseLine<WorkerAnswer>(line);
    if (msg === undefined) {
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
      const err = answerError(msg);
      this.fail(p, err);
      if (err.code === 'memory') {
        // The worker exits after a MemoryError; send nothing more to it.
        killWorker(w, 'protocol');
        this.worker = null;
      }
    }
    this.pump();
  }

  private protocolError(w: WorkerProcess, message: string): void {
    killWorker(w, 'protocol');
    if (this.current) {
      const p = this.current;
      this.current = null;
      this.fail(p, new SympyError('crashed', message));
    }
    this.worker = null;
    this.pump();
  }

  private onExit(w: WorkerProcess, code: number | null, signal: NodeJS.Signals | null): void {
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
          : new SympyError(
              'crashed',
              `SymPy worker stopped (${signal ? `signal ${signal}` : `exit code ${code}`}) while working on '${p.op}'; it was restarted${tail ? `: ${tail}` : ''}`,
            ),
      );
    }
    this.pump();
  }

  private setRef(on: boolean): void {
    const w = this.worker;
    if (!w || w.exited) return;
    setRef(w, on);
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

  /** Try the interpreter in use, or (first start) each candidate in order, until one is ready. */
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

  private spawnOne(c: PythonCandidate): Promise<SpawnResult> {
    const o = this.opts;
    const script = o.workerPath ?? workerScriptPath(o.resourcesPath);
    return spawnWorker(c, { script, memoryMb: o.memoryMb, debugOps: o.debugOps, env: o.env, startTimeoutMs: o.startTimeoutMs }, this.events);
  }
}
