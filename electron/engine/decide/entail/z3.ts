// Z3 back end: encodes equations of our AST as nonlinear real arithmetic with definedness side
// conditions, and runs one check at a time (Z3's JS API allows one check per context at a time).
//
// Encoding: numbers are exact rationals; integer powers expand into products; a root
// (sqrt(a), a**(p/q)) becomes a fresh variable r with (a >= 0) => (r >= 0 and r**q = a); division
// stays Z3 division, guarded by a non-zero condition; Abs(a) is If(a >= 0, a, -a). Trig, exp, log,
// pi, E and non-constant exponents are not encodable (NotEncodable): the caller goes numeric.
import { init, killThreads, type Arith, type Bool, type Context } from 'z3-solver';
import type { Domain } from '../../../../shared/exam.ts';
import { type Equation, type Expr, symbolsOf } from '../../../../shared/equation/ast.ts';
import { exprToSympy } from '../../../../shared/equation/print.ts';
import { constRational, doubleToRat, MAX_INT_POWER, type Rat, ratToDecimal } from './rational.ts';

export class NotEncodable extends Error {}

type Z3Api = Awaited<ReturnType<typeof init>>;
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
          e.name === 'pi' ? [a.gt(this.val({ n: 314159n, d: 100000n })), a.lt(this.val({ n: 31416n, d: 10000n }))] : [a.gt(this.val({ n: 2718n, d: 1000n })), a.lt(this.val({ n: 27183n, d: 10000n }))],
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
          if (p > MAX_INT_POWER || k.d > MAX_INT_POWER) throw new NotEncodable('exponent too large');
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

export class Z3Backend {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private solver: InstanceType<Ctx['Solver']> | undefined;
  calls = 0;

  private constructor(
    private readonly api: Z3Api,
    readonly ctx: Ctx,
    readonly timeoutMs: number,
  ) {}

  static async create(timeoutMs: number): Promise<Z3Backend> {
    // Emscripten reports each pthread that answers after being told to stop ('received
    // "cleanupThread" command from terminated worker: 1'): the expected end of a thread at close,
    // not an error, so it stays off the user's terminal. Everything else still goes to stderr.
    const api = await init({
      printErr: (s: string) => {
        if (!/command from terminated worker/.test(s)) console.error(s);
      },
    });
    return new Z3Backend(api, new api.Context('main'), timeoutMs);
  }

  /**
   * Check the conjunction built by `build` (run inside the queue, so encodings never interleave
   * with another check). `report` names the variables whose model values make the counterexample.
   */
  check(build: (enc: Encoder) => { assertions: B[]; report: string[] }, opts: { abstract?: boolean } = {}): Promise<CheckResult> {
    const run = async (): Promise<CheckResult> => {
      if (this.closed) throw new Error('entailment engine is closed');
      const enc = new Encoder(this.ctx, opts.abstract ?? false);
      const { assertions, report } = build(enc);
      // One solver, reset between checks: fresh solvers per check grow Z3's WASM heap until it aborts.
      this.solver ??= new this.ctx.Solver();
      const solver = this.solver;
      solver.reset();
      solver.set('timeout', this.timeoutMs);
      solver.add(...assertions);
      const t0 = Date.now();
      this.calls++;
      // Watchdog: Z3 honours its timeout, but interrupt it too if it overruns badly.
      let timer: NodeJS.Timeout | undefined;
      const watchdog = new Promise<'unknown'>((resolve) => {
        timer = setTimeout(() => {
          try {
            this.ctx.interrupt();
          } catch {}
          resolve('unknown');
        }, this.timeoutMs * 2 + 1000);
      });
      let result: 'sat' | 'unsat' | 'unknown';
      try {
        result = await Promise.race([solver.check(), watchdog]);
      } finally {
        clearTimeout(timer);
      }
      const ms = Date.now() - t0;
      if (result !== 'sat') {
        const note = result === 'unknown' ? `z3 gave no answer within ${this.timeoutMs} ms (${ms} ms)` : undefined;
        return { result, ms, note };
      }
      const m = solver.model();
      const model: Record<string, string> = {};
      for (const name of report) model[name] = this.numeral(m.eval(enc.variable(name), true));
      return { result, model, ms };
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    try {
      await killThreads(this.api.em);
    } catch {
      // Threads that didn't stop within killThreads' grace period: nothing more to do.
    }
  }
}

export const symbolsOfAll = (...eqs: Equation[]): string[] => [...new Set(eqs.flatMap((e) => symbolsOf(e)))];
