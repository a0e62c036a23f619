// The SymPy client's state in plain words, for the Settings page and the CLI.
import type { PythonCandidate } from './python.ts';

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

/** What the most recent worker said when it started. */
export type WorkerInfo = { sympy?: string; python?: string; startMs?: number };

/** The client's state that the status is made from. */
export type StatusFacts = {
  state: SympyState;
  unavailableMessage: string;
  /** The interpreter in use (or last used). */
  chosen: PythonCandidate | null;
  /** The running worker's pid, if one is running. */
  pid?: number;
  info: WorkerInfo;
  tried: string[];
  skipped: string[];
  /** Workers started so far. */
  started: number;
  requests: number;
  failures: number;
};

export function describeStatus(f: StatusFacts): SympyStatus {
  const base = { restarts: Math.max(0, f.started - 1), requests: f.requests, failures: f.failures };
  const c = f.chosen;
  let message: string;
  switch (f.state) {
    case 'unavailable':
      message = f.unavailableMessage;
      break;
    case 'closed':
      message = 'SymPy worker closed';
      break;
    case 'ready':
      message = `SymPy ${f.info.sympy} on Python ${f.info.python} (${c?.path})`;
      if (f.skipped.length) message += `; passed over: ${f.skipped.join('; ')}`;
      break;
    case 'starting':
      message = 'SymPy worker starting';
      break;
    default:
      message = 'SymPy worker not started yet (starts on first use)';
  }
  return {
    state: f.state,
    message,
    ...base,
    ...(c ? { python: c.path, source: c.source } : {}),
    ...(f.info.sympy ? { sympyVersion: f.info.sympy, pythonVersion: f.info.python } : {}),
    ...(f.pid !== undefined ? { pid: f.pid } : {}),
    ...(f.info.startMs !== undefined ? { startMs: f.info.startMs } : {}),
    ...(f.state === 'unavailable' ? { tried: [...f.tried] } : {}),
    ...(f.state !== 'unavailable' && f.skipped.length ? { skipped: [...f.skipped] } : {}),
  };
}
