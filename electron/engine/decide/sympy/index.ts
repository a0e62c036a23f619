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
//
// Modules: sympy-worker.ts (SympyWorker, the public client), supervisor.ts (the request queue,
// time limits and restarts), process.ts (spawning one worker and its ready line), protocol.ts (the
// JSON-lines wire format), status.ts (state in plain words), python.ts (finding the interpreter),
// errors.ts, options.ts, results.ts.
export { SympyWorker } from './sympy-worker.ts';
export { SYMPY_NOT_FOUND, SympyError, type SympyErrorCode } from './errors.ts';
export type { RequestOptions, SympyOptions } from './options.ts';
export type { LimitsResult, ProveResult, SimplifyResult, SolveResult, SympyValue } from './results.ts';
export type { SympyState, SympyStatus } from './status.ts';
export { pythonCandidates, workerScriptPath, bundledPythonPath } from './python.ts';
