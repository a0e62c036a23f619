// Creates the entailment engine (decide/entail/index.ts, `Entailer.create()`) with the SymPy
// worker (decide/sympy/) as its AlgebraProver:
//  - the worker starts on first use: only a pair the engine would otherwise call
//    'numeric-agreement' (trig/exp/log, a Z3 time-out) reaches it; a proof upgrades the verdict to
//    'sympy-proved'. Every other verdict is decided exactly as without SymPy, at the same speed;
//  - each proof attempt has a time limit (`proveTimeoutMs`); a time-out leaves the verdict numeric;
//  - no Python with SymPy: grading goes on with Z3 and numeric checks, and `onNotice` is told so
//    in plain words once (default: one line on stderr, for the CLI);
//  - setSympy() swaps the worker (Settings' Python path changed): cached sampling verdicts are
//    forgotten so they are decided again with the new one; every other cached verdict stays;
//  - close() closes the worker with the engine.
import type { AlgebraProver, Domain, EntailmentEngine } from './entail/types.ts';
import type { Equation } from '../../../shared/equation/ast.ts';
import { SympyWorker, type SympyOptions, type SympyStatus } from './sympy/index.ts';
import { Entailer } from './entail/index.ts';

export type EngineOptions = {
  /**
   * The SymPy prover: options for the worker (Settings' Python path goes in `pythonPath`, tried
   * first), or false for none (Z3 and numeric checks only). Default: look for Python as usual.
   */
  sympy?: SympyOptions | false;
  /** Time limit of one proof attempt in ms (default 5000). */
  proveTimeoutMs?: number;
  /** Told once, in plain words, when SymPy can't be used. Default: a line on stderr. */
  onNotice?: (message: string) => void;
  /**
   * Passed to Entailer.create (seed, samples, Z3 time limit, Z3 worker threads). Z3 runs in a pool
   * of worker threads under a hard deadline; close() terminates them (idle ones never keep the
   * process alive), so a CLI command exits as soon as it is done.
   */
  entailer?: { z3TimeoutMs?: number; z3Workers?: number; samples?: number; seed?: number; canonical?: boolean; z3Ahead?: boolean };
};

/** The engine with its SymPy worker (null when disabled) for the other computer algebra (solve, limits, simplify). */
export type Engine = EntailmentEngine & {
  readonly sympy: SympyWorker | null;
  /** The worker's status in plain words (null when SymPy was disabled). */
  sympyStatus(): SympyStatus | null;
  /** Replace the SymPy worker (closing the old one); false disables SymPy. */
  setSympy(options: SympyOptions | false): Promise<void>;
};

type Inner = EntailmentEngine & { setProver?(prover: AlgebraProver | undefined): void };

const defaultNotice = (message: string): void => {
  process.stderr.write(`note: ${message}\n`);
};

export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  let worker = options.sympy === false ? null : new SympyWorker(options.sympy ?? {});
  const notice = options.onNotice ?? defaultNotice;
  const proveTimeoutMs = Math.max(1, options.proveTimeoutMs ?? 5000);
  let told = false;
  const tellIfUnavailable = (w: SympyWorker): void => {
    if (told || w !== worker) return;
    const s = w.status();
    if (s.state !== 'unavailable') return;
    told = true;
    try {
      notice(s.message);
    } catch {
      /* a notice must never break grading */
    }
  };
  const proverFor = (w: SympyWorker | null): AlgebraProver | undefined =>
    w
      ? {
          async proveEntailment(premise: Equation, conclusion: Equation, domain: Domain) {
            const r = await w.proveEntailmentDetailed(premise, conclusion, domain, { timeoutMs: proveTimeoutMs });
            tellIfUnavailable(w);
            return r.result;
          },
        }
      : undefined;
  const prover = proverFor(worker);

  let inner: Inner;
  try {
    inner = await Entailer.create({ ...options.entailer, ...(prover ? { prover } : {}) });
  } catch (e) {
    await worker?.close();
    throw e;
  }
  return {
    get sympy() {
      return worker;
    },
    sympyStatus: () => (worker ? worker.status() : null),
    async setSympy(next: SympyOptions | false) {
      if (!inner.setProver) throw new Error('this entailment engine cannot change its prover');
      const old = worker;
      worker = next === false ? null : new SympyWorker(next);
      told = false;
      inner.setProver(proverFor(worker));
      await old?.close();
    },
    entails: (p, c, d) => inner.entails(p, c, d),
    consistent: (e, d) => inner.consistent(e, d),
    entailsKnown: (p, c, d) => inner.entailsKnown?.(p, c, d),
    consistentKnown: (e, d) => inner.consistentKnown?.(e, d),
    compareLists: (a, b, d) => inner.compareLists(a, b, d),
    equivalentLists: (a, b, d, pause) =>
      inner.equivalentLists ? inner.equivalentLists(a, b, d, pause) : inner.compareLists(a, b, d).then((c) => c.equivalent),
    stats: () => inner.stats(),
    warm: () => inner.warm?.(),
    setVerdictStore: (store) => inner.setVerdictStore?.(store),
    async close() {
      try {
        await inner.close();
      } finally {
        await worker?.close();
      }
    },
  };
}
