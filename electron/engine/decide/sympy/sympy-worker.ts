// SympyWorker: the engine's handle on SymPy. The AlgebraProver used for entailment (never rejects:
// anything but a proof is 'unknown'), and the operations that give the instructor evidence (solve,
// limits, simplify), each a request to the supervised worker process.
import type { Equation, Expr } from '../../../../shared/equation/ast.ts';
import type { Domain } from '../../../../shared/exam.ts';
import type { AlgebraProver } from '../entail/types.ts';
import type { RequestOptions, SympyOptions } from './options.ts';
import type { LimitsResult, ProveResult, SimplifyResult, SolveResult } from './results.ts';
import type { SympyStatus } from './status.ts';
import { WorkerSupervisor } from './supervisor.ts';

export class SympyWorker implements AlgebraProver {
  private readonly supervisor: WorkerSupervisor;

  constructor(options: SympyOptions = {}) {
    this.supervisor = new WorkerSupervisor(options);
  }

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
  limits(
    input: { expr: Expr } | { equation: Equation; target: string },
    large: string,
    small: string,
    domain: Domain,
    options: RequestOptions = {},
  ): Promise<LimitsResult> {
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
    await this.supervisor.start();
    return this.status();
  }

  status(): SympyStatus {
    return this.supervisor.status();
  }

  /**
   * Low-level request (an operation of worker.py and its args). `args` is sent as JSON as is; the
   * worker validates it against its whitelist. Rejects with SympyError.
   */
  request(op: string, args: unknown, options: RequestOptions = {}): Promise<unknown> {
    return this.supervisor.request(op, args, options);
  }

  /** Stop the worker; pending requests fail with code 'closed'. */
  close(): Promise<void> {
    return this.supervisor.close();
  }
}
