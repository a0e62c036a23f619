// One worker process: spawn resources/python/worker.py with a given interpreter, wait for its ready
// line, then hand each answer line (and its exit) to the client. Also stopping it and letting it
// keep Node alive only while a request is in flight.
import { spawn, type ChildProcess } from 'node:child_process';
import type { PythonCandidate } from './python.ts';
import { MAX_STDOUT_BUFFER, parseLine, takeLines, type WorkerHello } from './protocol.ts';
import type { WorkerInfo } from './status.ts';

export type WorkerProcess = {
  proc: ChildProcess;
  candidate: PythonCandidate;
  pid: number;
  buffer: string;
  stderrTail: string;
  exited: boolean;
  /** Set when the client killed it on purpose (timeout, close). */
  killedFor?: 'timeout' | 'close' | 'protocol';
};

export type SpawnOptions = {
  script: string;
  /** Address-space limit in MiB (0 = none). */
  memoryMb: number;
  debugOps?: boolean;
  env?: NodeJS.ProcessEnv;
  /** How long it may take to say it is ready. */
  startTimeoutMs: number;
};

/** What happens to a worker once it is ready. */
export type WorkerEvents = {
  /** It said it is ready (before the spawn resolves). */
  onReady(info: WorkerInfo): void;
  /** An answer line. */
  onLine(w: WorkerProcess, line: string): void;
  /** It broke the protocol (an answer too large). */
  onProtocolError(w: WorkerProcess, message: string): void;
  onExit(w: WorkerProcess, code: number | null, signal: NodeJS.Signals | null): void;
};

/** A ready worker, or why this interpreter didn't give one. */
export type SpawnResult = { worker?: WorkerProcess; reason: string };

export function spawnWorker(c: PythonCandidate, o: SpawnOptions, events: WorkerEvents): Promise<SpawnResult> {
  const args = ['-I', '-B', o.script, '--memory-mb', String(o.memoryMb)];
  if (o.debugOps) args.push('--debug-ops');
  const t0 = performance.now();
  return new Promise((resolve) => {
    let proc: ChildProcess;
    try {
      proc = spawn(c.path, args, { stdio: ['pipe', 'pipe', 'pipe'], env: o.env ?? process.env, windowsHide: true });
    } catch (e) {
      resolve({ reason: e instanceof Error ? e.message : String(e) });
      return;
    }
    const w: WorkerProcess = { proc, candidate: c, pid: proc.pid ?? -1, buffer: '', stderrTail: '', exited: false };
    let settled = false;
    const settle = (r: SpawnResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!r.worker && !w.exited) proc.kill('SIGKILL');
      resolve(r);
    };
    const timer = setTimeout(() => settle({ reason: `not ready within ${o.startTimeoutMs} ms` }), o.startTimeoutMs);
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
        else events.onProtocolError(w, 'SymPy worker answer too large');
        return;
      }
      const { lines, rest } = takeLines(w.buffer);
      w.buffer = rest;
      for (const line of lines) {
        if (!settled) {
          const hello = parseLine<WorkerHello>(line);
          if (hello === undefined) {
            settle({ reason: `unexpected output: ${line.slice(0, 120)}` });
            return;
          }
          if (hello.ready === true) {
            events.onReady({ sympy: hello.sympy, python: hello.python, startMs: Math.round(performance.now() - t0) });
            settle({ worker: w, reason: '' });
          } else settle({ reason: hello.message ?? 'worker not ready' });
          continue;
        }
        events.onLine(w, line);
      }
    });
    proc.on('exit', (code, signal) => {
      if (!settled) {
        w.exited = true;
        const why = w.stderrTail.trim().split('\n').slice(-1)[0];
        settle({ reason: `exited (${signal ?? code})${why ? `: ${why}` : ''}` });
        return;
      }
      events.onExit(w, code, signal);
    });
  });
}

/** Kill it now (a timeout, a broken protocol, a memory error). */
export function killWorker(w: WorkerProcess, why: NonNullable<WorkerProcess['killedFor']>): void {
  w.killedFor = why;
  w.proc.kill('SIGKILL');
}

/** Close its input so it exits; kill it if it hasn't within half a second. */
export function stopWorker(w: WorkerProcess): Promise<void> {
  w.killedFor = 'close';
  // An idle worker is unref'd; while we wait for its exit it must hold the event loop, or a slow
  // exit (a loaded machine, past the SIGKILL timer) lets the loop run dry and a top-level
  // `await close()` ends the process with code 13 before the exit arrives.
  setRef(w, true);
  return new Promise<void>((done) => {
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

/** Let the worker keep Node's event loop alive (a request in flight) or not (idle). */
export function setRef(w: WorkerProcess, on: boolean): void {
  const streams = [w.proc.stdout, w.proc.stderr, w.proc.stdin] as unknown as ({ ref?: () => void; unref?: () => void } | null)[];
  if (on) {
    w.proc.ref();
    for (const s of streams) s?.ref?.();
  } else {
    w.proc.unref();
    for (const s of streams) s?.unref?.();
  }
}
