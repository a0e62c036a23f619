// Options of the SymPy client (where its Python comes from, the worker's limits) and their defaults.
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

/** Options of one request. */
export type RequestOptions = { timeoutMs?: number };

/** SympyOptions with the limits filled in. */
export type ResolvedOptions = Required<Pick<SympyOptions, 'memoryMb' | 'timeoutMs' | 'startTimeoutMs' | 'maxStartFailures'>> & SympyOptions;

export function resolveOptions(options: SympyOptions): ResolvedOptions {
  return { memoryMb: 1024, timeoutMs: 8000, startTimeoutMs: 30000, maxStartFailures: 3, ...options };
}
