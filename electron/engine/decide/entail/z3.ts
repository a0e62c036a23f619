// Z3 back end: encodes equations of our AST as nonlinear real arithmetic with definedness side
// conditions.
//
// Where Z3 runs (issue 10): never on the calling thread. Each query (plain JSON: equations and the
// domain) goes to a pool of worker threads (./z3-pool.ts; one per core), each with its own Z3
// (./z3-worker.ts runs a Z3Session). The time limit is a wall-clock deadline enforced from outside:
// a worker that overruns is terminated and replaced, and the answer is 'unknown' (time-out). Z3's
// own timer (an emscripten thread that its maintainers call fragile, and that once threw
// `getWasmTableEntry(...) is not a function` under load) is not used.
//
// Encoding: numbers are exact rationals; integer powers expand into products; a root
// (sqrt(a), a**(p/q)) becomes a fresh variable r with (a >= 0) => (r >= 0 and r**q = a); division
// stays Z3 division, guarded by a non-zero condition; Abs(a) is If(a >= 0, a, -a). Trig, exp, log,
// pi, E and non-constant exponents are not encodable (NotEncodable): the caller goes numeric.
import { init, type Arith, type Bool, type Context } from 'z3-solver';
import type { Domain } from '../../../../shared/exam.ts';
import { type Equation, type Expr, symbolsOf } from '../../../../shared/equation/ast.ts';
import { exprToSympy } from '../../../../shared/equation/print.ts';
import { constRational, doubleToRat, MAX_INT_POWER, type Rat, ratToDecimal } from './rational.ts';
import { Z3Pool, type Z3PoolOptions } from './z3-pool.ts';

export class NotEncodable extends Error {}

type Ctx = Context<'main'>;
type A = Arith<'main'>;
type B = Bool<'main'>;

export type EncodedEq = { holds: B; defined: B; defs: B[] };

/** Encoder shared by the equations of one query (same variables, distinct fresh names). */
export class Encoder {
  private readonly vars = new Map<string, A>();
  private fresh = 0;
  private readonly atoms = new Map<string, A>();
  /**
   * abstract: encode trig/exp/log/pi/E and symbolic powers as opaque real atoms (one per distinct
   * canonical term) with true bounds (|sin| <= 1, exp > 0, 3.14159 < pi < 3.1416, ...). This
   * over-approximates the equation, so 'unsat' is still a proof; 'sat' proves nothing.
   */
  constructor(
    private readonly ctx: Ctx,
    private readonly abstract = false,
  ) {}

  private ranges = new Map<string, [number, number]>();
  /** Variables' ranges, used to bound trig atoms (sin(theta) > 0 for theta in (0, pi/2)). */
  useDomain(domain: Domain): this {
    for (const v of domain.variables) {
      let lo = v.range ? v.range[0] : -Infinity;
      const hi = v.range ? v.range[1] : Infinity;
      // Open bounds only ('nonnegative' allows 0 itself, where sin is 0, so it doesn't count).
      if ((v.assumptions ?? []).includes('positive')) lo = Math.max(lo, 0);
      this.ranges.set(v.name, [lo, hi]);
    }
    return this;
  }

  private atom(key: string, defs: B[], bounds: (a: A) => B[]): A {
    let a = this.atoms.get(key);
    if (!a) {
      a = this.ctx.Real.const(`atom!${this.atoms.size}`);
      this.atoms.set(key, a);
      defs.push(...bounds(a));
    }
    return a;
  }

  variable(name: string): A {
    let v = this.vars.get(name);
    if (!v) {
      v = this.ctx.Real.const(name);
      this.vars.set(name, v);
    }
    return v;
  }

  variables(): Map<string, A> {
    return this.vars;
  }

  private val(r: Rat): A {
    return this.ctx.Real.val({ numerator: r.n, denominator: r.d });
  }

  /** Assumptions of the domain for every variable seen so far and the names given. */
  assumptions(domain: Domain, names: string[]): B[] {
    const out: B[] = [];
    for (const v of domain.variables) {
      if (!names.includes(v.name)) continue;
      const x = this.variable(v.name);
      for (const a of v.assumptions ?? []) {
        if (a === 'positive') out.push(x.gt(0));
        else if (a === 'nonnegative') out.push(x.ge(0));
        else if (a === 'nonzero') out.push(x.neq(0));
      }
      if (v.range) {
        out.push(x.gt(this.val(doubleToRat(v.range[0]))));
        out.push(x.lt(this.val(doubleToRat(v.range[1]))));
      }
    }
    return out;
  }

  equation(eq: Equation): EncodedEq {
    const conds: B[] = [];
    const defs: B[] = [];
    const l = this.expr(eq.lhs, conds, defs);
    const r = this.expr(eq.rhs, conds, defs);
    return { holds: l.eq(r), defined: conds.length ? this.ctx.And(...conds) : this.ctx.Bool.val(true), defs };
  }

  private power(base: A, k: bigint): A {
    // Square-and-multiply keeps the term small.
    let result: A | null = null;
    let b = base;
    let e = k;
    while (e > 0n) {
      if (e & 1n) result = result ? result.mul(b) : b;
      e >>= 1n;
      if (e) b = b.mul(b);
    }
    return result ?? this.ctx.Real.val(1);
  }

  private root(a: A, q: bigint, conds: B[], defs: B[]): A {
    const r = this.ctx.Real.const(`root!${this.fresh++}`);
    conds.push(a.ge(0));
    defs.push(this.ctx.Implies(a.ge(0), this.ctx.And(r.ge(0), this.power(r, q).eq(a))));
    return r;
  }

  private expr(e: Expr, conds: B[], defs: B[]): A {
    switch (e.kind) {
      case 'num':
        return this.val(constRational(e)!);
      case 'sym':
        return this.variable(e.name);
      case 'const':
        if (!this.abstract) throw new NotEncodable(`${e.name} is transcendental`);
        return this.atom(e.name, defs, (a) =>
          e.name === 'pi'
            ? [a.gt(this.val({ n: 314159n, d: 100000n })), a.lt(this.val({ n: 31416n, d: 10000n }))]
            : [a.gt(this.val({ n: 2718n, d: 1000n })), a.lt(this.val({ n: 27183n, d: 10000n }))],
        );
      case 'neg':
        return this.expr(e.arg, conds, defs).neg();
      case 'call': {
        if (e.fn === 'sqrt') return this.root(this.expr(e.args[0], conds, defs), 2n, conds, defs);
        if (e.fn === 'Abs') {
          const a = this.expr(e.args[0], conds, defs);
          return this.ctx.If(a.ge(0), a, a.neg()) as A;
        }
        if (!this.abstract) throw new NotEncodable(`${e.fn}: Z3 can't decide`);
        const arg = this.expr(e.args[0], conds, defs);
        if (e.fn === 'log') conds.push(arg.gt(0));
        if (e.fn === 'asin' || e.fn === 'acos') conds.push(arg.ge(-1), arg.le(1));
        const half = this.val({ n: 15708n, d: 10000n });
        return this.atom(`${e.fn}(${exprToSympy(e.args[0])})`, defs, (a) => {
          const arg0 = e.args[0];
          const [lo, hi] = arg0.kind === 'sym' ? (this.ranges.get(arg0.name) ?? [-Infinity, Infinity]) : [-Infinity, Infinity];
          switch (e.fn) {
            case 'sin':
              // Open range within [0, pi] (Math.PI < pi): sin > 0.
              return lo >= 0 && hi <= Math.PI ? [a.gt(0), a.le(1)] : [a.ge(-1), a.le(1)];
            case 'cos':
              // Open range within [0, pi/2] (Math.PI / 2 < pi/2): cos > 0.
              return lo >= 0 && hi <= Math.PI / 2 ? [a.gt(0), a.le(1)] : [a.ge(-1), a.le(1)];
            case 'exp':
              return [a.gt(0)];
            case 'atan':
            case 'asin':
              return [a.gt(half.neg()), a.lt(half)];
            case 'acos':
              return [a.ge(0), a.lt(half.mul(2))];
            default:
              return [];
          }
        });
      }
      case 'bin': {
        if (e.op === '**') {
          const k = constRational(e.right);
          if (!k && this.abstract) {
            this.expr(e.left, conds, defs);
            this.expr(e.right, conds, defs);
            return this.atom(exprToSympy(e), defs, () => []);
          }
          if (!k) throw new NotEncodable('non-constant exponent');
          const base = this.expr(e.left, conds, defs);
          let p = k.n;
          const neg = p < 0n;
          if (neg) p = -p;
          if (p > MAX_INT_POWER || k.d > MAX_INT_POWER) {
            // Too large to expand: an opaque atom when abstracting (still sound), else not encodable.
            if (this.abstract) return this.atom(exprToSympy(e), defs, () => []);
            throw new NotEncodable('exponent too large');
          }
          const r = k.d === 1n ? base : this.root(base, k.d, conds, defs);
          if (p === 0n) return this.ctx.Real.val(1); // SymPy: x**0 = 1
          const pw = this.power(r, p);
          if (!neg) return pw;
          conds.push(r.neq(0));
          return this.ctx.Real.val(1).div(pw);
        }
        const l = this.expr(e.left, conds, defs);
        const r = this.expr(e.right, conds, defs);
        switch (e.op) {
          case '+':
            return l.add(r);
          case '-':
            return l.sub(r);
          case '*':
            return l.mul(r);
          case '/': {
            const k = constRational(e.right);
            if (k) {
              if (k.n === 0n) conds.push(this.ctx.Bool.val(false));
              return l.div(r);
            }
            conds.push(r.neq(0));
            return l.div(r);
          }
        }
      }
    }
    throw new NotEncodable('unsupported expression');
  }
}

/** Whether the equation can be encoded for Z3 (no trig, exp, log, constants, symbolic exponents). */
export function encodable(eq: Equation): boolean {
  const ok = (e: Expr): boolean => {
    switch (e.kind) {
      case 'num':
      case 'sym':
        return true;
      case 'const':
        return false;
      case 'neg':
        return ok(e.arg);
      case 'call':
        return (e.fn === 'sqrt' || e.fn === 'Abs') && ok(e.args[0]);
      case 'bin':
        if (e.op === '**') {
          const k = constRational(e.right);
          if (!k) return false;
          const p = k.n < 0n ? -k.n : k.n;
          return p <= MAX_INT_POWER && k.d <= MAX_INT_POWER && ok(e.left);
        }
        return ok(e.left) && ok(e.right);
    }
  };
  return ok(eq.lhs) && ok(eq.rhs);
}

export type CheckResult = { result: 'sat' | 'unsat' | 'unknown'; model?: Record<string, string>; ms: number; note?: string };

/**
 * A question for Z3, as plain data (it crosses to a worker thread):
 *  - 'consistent': does some admissible assignment satisfy `eq`? (`abstract`: trig/exp/log terms
 *    as bounded opaque atoms, so only 'unsat' is conclusive);
 *  - 'entails': is premise ∧ defined(premise) ∧ assumptions ∧ ¬(defined(conclusion) ∧ conclusion)
 *    satisfiable? ('unsat': the entailment is proved; 'sat': the model is a counterexample).
 * The model reports the equations' symbols.
 */
export type Z3Query =
  { kind: 'consistent'; eq: Equation; domain: Domain; abstract?: boolean } | { kind: 'entails'; premise: Equation; conclusion: Equation; domain: Domain };

type Z3Api = Awaited<ReturnType<typeof init>>;

/** One Z3 instance answering queries one at a time (inside a worker thread: ./z3-worker.ts). */
export class Z3Session {
  private solver: InstanceType<Ctx['Solver']> | undefined;

  private constructor(
    private readonly api: Z3Api,
    private readonly ctx: Ctx,
  ) {}

  /** `wasm`: Z3's WASM already compiled (by the pool, shared by its workers); else loaded here. */
  static async create(wasm?: WebAssembly.Module | null): Promise<Z3Session> {
    // Emscripten reports each pthread that answers after being told to stop ('received
    // "cleanupThread" command from terminated worker: 1'): the expected end of a thread at close,
    // not an error, so it stays off the user's terminal. Everything else still goes to stderr.
    const api = await init({
      printErr: (s: string) => {
        if (!/command from terminated worker/.test(s)) console.error(s);
      },
      ...(wasm
        ? {
            instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
              void WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm));
              return {};
            },
          }
        : {}),
    });
    const session = new Z3Session(api, new api.Context('main'));
    // Warm up: the first check is slow (WASM code paths still cold, hundreds of ms); do it now,
    // before any deadline runs, so a fresh worker's first real query gets its whole time limit.
    await session.run({ kind: 'consistent', eq: { lhs: { kind: 'sym', name: 'x' }, rhs: { kind: 'num', text: '1' } }, domain: { variables: [] } });
    return session;
  }

  async run(q: Z3Query): Promise<CheckResult> {
    const t0 = Date.now();
    const enc = new Encoder(this.ctx, q.kind === 'consistent' && q.abstract === true);
    let assertions: B[];
    let report: string[];
    try {
      if (q.kind === 'consistent') {
        report = symbolsOf(q.eq);
        if (q.abstract) enc.useDomain(q.domain);
        const e = enc.equation(q.eq);
        assertions = [...enc.assumptions(q.domain, report), ...e.defs, e.defined, e.holds];
      } else {
        report = symbolsOfAll(q.premise, q.conclusion);
        const p = enc.equation(q.premise);
        const c = enc.equation(q.conclusion);
        const ctx = this.ctx;
        assertions = [...enc.assumptions(q.domain, report), ...p.defs, ...c.defs, p.defined, p.holds, ctx.Not(ctx.And(c.defined, c.holds))];
      }
    } catch (e) {
      if (e instanceof NotEncodable) return { result: 'unknown', ms: Date.now() - t0, note: `z3 can't encode this (${e.message})` };
      throw e;
    }
    // One solver, reset between checks: fresh solvers per check grow Z3's WASM heap until it aborts.
    // No 'timeout' parameter: the deadline is enforced from outside (the pool terminates the worker).
    this.solver ??= new this.ctx.Solver();
    const solver = this.solver;
    solver.reset();
    solver.add(...assertions);
    const result = this.checkHere(solver);
    const ms = Date.now() - t0;
    if (result !== 'sat') return { result, ms, ...(result === 'unknown' ? { note: `z3 answered unknown (${ms} ms)` } : {}) };
    const m = solver.model();
    const model: Record<string, string> = {};
    for (const name of report) model[name] = this.numeral(m.eval(enc.variable(name), true));
    return { result, model, ms };
  }

  /**
   * solver.check(), synchronously on this thread: z3-solver's async check would hand it to one
   * more emscripten thread (and wait for it), but this thread is already a worker that may block,
   * and the pool's deadline terminates it, WASM and all, if it overruns.
   */
  private checkHere(solver: InstanceType<Ctx['Solver']>): 'sat' | 'unsat' | 'unknown' {
    const em = this.api.em as { _Z3_solver_check?: (c: unknown, s: unknown) => number };
    const r = em._Z3_solver_check!(this.ctx.ptr, solver.ptr);
    return r === 1 ? 'sat' : r === -1 ? 'unsat' : 'unknown';
  }

  private numeral(x: A): string {
    const v = x as unknown as { value?: () => { numerator: bigint; denominator: bigint } };
    try {
      if (this.ctx.isRealVal(x) || this.ctx.isIntVal(x)) {
        const r = v.value!();
        return ratToDecimal({ n: r.numerator, d: r.denominator });
      }
    } catch {}
    try {
      // Algebraic numbers (root-obj): Z3 prints a decimal approximation ending in '?'.
      const s = this.api.Z3.get_numeral_decimal_string(this.ctx.ptr, x.ast, 12);
      return s.replace(/\?$/, '');
    } catch {
      return x.toString();
    }
  }
}

/**
 * The engine's handle on Z3: queries go to a pool of worker threads (./z3-pool.ts), decided in
 * parallel when several are asked at once, each under a hard wall-clock deadline.
 *
 * EQUIMARK_Z3_DEADLINE_MS (environment): caps the deadline of every check, in ms (the soak test,
 * scripts/soak.mjs, sets it very short to drive the time-out path under load). Unset: the deadline
 * is the engine's Z3 time limit (`z3TimeoutMs`, default 2000 ms).
 * EQUIMARK_Z3_WORKERS (environment): the pool's size (default: one per core, at most 4).
 */
export class Z3Backend {
  private readonly pool: Z3Pool;
  calls = 0;
  /** The deadline applied to each check, in ms. */
  readonly timeoutMs: number;

  private constructor(timeoutMs: number, options: Omit<Z3PoolOptions, 'deadlineMs'>) {
    const cap = Number(process.env.EQUIMARK_Z3_DEADLINE_MS);
    this.timeoutMs = Number.isFinite(cap) && cap >= 1 ? Math.min(timeoutMs, Math.floor(cap)) : timeoutMs;
    this.pool = new Z3Pool({ ...options, deadlineMs: this.timeoutMs });
  }

  static async create(timeoutMs: number, options: Omit<Z3PoolOptions, 'deadlineMs'> = {}): Promise<Z3Backend> {
    return new Z3Backend(timeoutMs, options);
  }

  /** Checks under way; `crowded` once another ran beside it (they shared the cores). */
  private readonly running = new Set<{ crowded: boolean }>();
  private drainedWaiters: (() => void)[] = [];
  /** Set while a check runs alone (a retry): new checks wait for it. */
  private alone: Promise<void> | null = null;
  private retries: Promise<unknown> = Promise.resolve();

  /**
   * Decide one query; a time-out (deadline passed, worker terminated) or a worker crash is
   * 'unknown' with a note. A check that timed out while others ran beside it (checks asked
   * concurrently share the cores) is asked once more alone, with nothing else running, under the
   * same deadline: as it would have run one check at a time, so asking many at once never turns
   * a verdict the sequential method would reach into 'unknown'.
   */
  /** Start a worker now if none runs (Z3Pool.warm). */
  warm(): void {
    this.pool.warm();
  }

  async check(query: Z3Query): Promise<CheckResult> {
    this.calls++;
    while (this.alone) await this.alone;
    const me = { crowded: this.running.size > 0 };
    for (const o of this.running) o.crowded = true;
    this.running.add(me);
    let r: CheckResult;
    try {
      r = await this.pool.run(query);
    } finally {
      this.running.delete(me);
      if (this.running.size === 0) for (const w of this.drainedWaiters.splice(0)) w();
    }
    if (r.result !== 'unknown' || !me.crowded || !/no answer within/.test(r.note ?? '')) return r;
    const retry = this.retries.then(async () => {
      let release!: () => void;
      this.alone = new Promise((res) => (release = res));
      try {
        while (this.running.size > 0) await new Promise<void>((res) => this.drainedWaiters.push(res));
        this.calls++;
        return await this.pool.run(query);
      } finally {
        this.alone = null;
        release();
      }
    });
    this.retries = retry.catch(() => undefined);
    return retry;
  }

  /** Pool statistics (workers started, terminated on a deadline, crashed). */
  poolStats(): ReturnType<Z3Pool['stats']> {
    return this.pool.stats();
  }

  /** Finish the checks under way (each bounded by its deadline), then terminate every worker. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

export const symbolsOfAll = (...eqs: Equation[]): string[] => [...new Set(eqs.flatMap((e) => symbolsOf(e)))];
