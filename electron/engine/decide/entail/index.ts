// The entailment engine (contract: ./types.ts; semantics: ../shared/data/README.md).
//
// entails(e1, e2, domain) decides whether every admissible assignment at which e1 is defined and
// true also makes e2 defined and true. How a pair is decided, in order:
//   1. cache: each (canonical premise, canonical conclusion, domain) is decided once;
//   1b. exact reductions (./reduce.ts): P**k = 0 -> P = 0, A**n = B**n -> A = B (n odd, or both
//      bases non-negative), so repeated roots and huge exponents never reach sampling or Z3;
//   2. premise consistency (cached per equation and domain): sampled points on the premise's
//      solution set show it is satisfiable; when none are found, Z3 decides; a premise with no
//      admissible solution entails nothing ('vacuous-premise', holds false);
//   3. identical canonical equations (or the same with sides swapped): 'identical';
//   4. numeric fast path: a sampled premise point that clearly violates the conclusion is only a
//      candidate; it is a counterexample ('numeric-counterexample') once ./exact-check.ts proves it
//      (exact rational values, or a root bracketed by interval arithmetic with outward rounding;
//      with a SymPy proof that the premise is an identity, any point where it is defined). An
//      unproven candidate is a doubt: it blocks agreement and leaves the verdict unknown. Points
//      where either equation is ill-conditioned (interval width: huge trig arguments, cancellation,
//      constants like sin(10**100)) are not counted as agreement;
//   5. Z3, refutationally, when both equations are algebraic: e1 ∧ defined(e1) ∧ assumptions ∧
//      ¬(defined(e2) ∧ e2) unsat => 'z3-proved'; sat => 'z3-refuted' with the model, re-derived
//      and checked exactly like a sampled point ('unknown' when it can't be);
//      On a Z3 time-out the verdict is 'numeric-agreement' (holds true, labelled as sampling, with
//      a note saying Z3 timed out) only if the conclusion held at every one of `samples` premise
//      points; otherwise 'unknown' (holds null).
//   6. trig, exp, log, pi, E (Z3 can't decide): 'numeric-agreement' at `samples` points, upgraded to
//      'sympy-proved' when an AlgebraProver says so; too few points => 'unknown'.
// A proof ('identical', 'z3-proved', 'sympy-proved') is always distinguishable from sampling
// ('numeric-agreement') in the verdict's method.
import { type Equation, equationToSympy, symbolsOf } from '../../../../shared/equation/index.ts';
import type { AlgebraProver, Consistency, Domain, EntailerStats, EntailmentEngine, ListComparison, Verdict } from './types.ts';
import { verifyCounterexample, verifyPremisePoint, verifyWithIdentityPremise } from './exact-check.ts';
import { checkAt, compileEquation, formatValue, samplePremise, sampleValue, solveFor, varSpecs, wellConditioned } from './numeric.ts';
import { algebraicEntails, sameConstant } from './poly.ts';
import { reduceEquation } from './reduce.ts';
import { isTrigIdentity } from './trig-identity.ts';
import { rngFor } from './rng.ts';
import { encodable, symbolsOfAll, Z3Backend } from './z3.ts';
import { canonicalEquation, leftGrouped, productForm } from './canonical.ts';
import { constRational } from './rational.ts';
import type { VerdictStore } from './types.ts';

export type { AlgebraProver, Consistency, Domain, EntailerStats, EntailmentEngine, ListComparison, Verdict, VerdictStore };

export type EntailerOptions = {
  prover?: AlgebraProver;
  /**
   * Z3 time limit per check (default 2000 ms): a hard wall-clock deadline, enforced by terminating
   * the Z3 worker thread that overruns (EQUIMARK_Z3_DEADLINE_MS in the environment caps it).
   */
  z3TimeoutMs?: number;
  /** Z3 worker threads deciding checks in parallel (default: EQUIMARK_Z3_WORKERS, else one per core, at most 4). */
  z3Workers?: number;
  /** A Z3 worker idle this long (ms) is stopped to give back its memory (default 10 s; z3-pool.ts). */
  z3IdleMs?: number;
  /** A Z3 worker idle this long (ms) while another one lives is stopped (default 1 s; z3-pool.ts). */
  z3SpareIdleMs?: number;
  /** Prepare Z3 as the engine is made (default), or false: at its first query (z3-pool.ts prepareAhead). */
  z3Ahead?: boolean;
  /** Premise points sampled for numeric verdicts (default 24). */
  samples?: number;
  /** PRNG seed (default 1): same seed, same verdicts. */
  seed?: number;
  /**
   * 'engine' (default): cache, identical shortcut, numeric fast path, then Z3.
   * 'pairwise-z3': the study's method, the baseline of the benchmark: no cache and no numeric fast
   * path; every algebraic pair goes to Z3 on its own (entailment check, then a consistency check
   * when the entailment is proved). Non-algebraic pairs are still decided numerically.
   */
  mode?: 'engine' | 'pairwise-z3';
  /**
   * Decide each equation as its representative (./canonical.ts), so `a - b = 0`, `k*a = k*b` and
   * `b = a` are decided once as `a = b` (default true; false: as written, the method before issue 14).
   */
  canonical?: boolean;
};

type Env = Record<string, number>;
type PremiseInfo = { consistency: Consistency; points: Env[] };

/** Minimum number of agreeing premise points for a numeric-agreement verdict. */
const MIN_AGREEMENT_POINTS = 8;

const domainKeys = new WeakMap<Domain, string>();

export function domainKey(domain: Domain): string {
  const hit = domainKeys.get(domain);
  if (hit !== undefined) return hit;
  const key = domainKeyOf(domain);
  domainKeys.set(domain, key);
  return key;
}

function domainKeyOf(domain: Domain): string {
  const vs = [...domain.variables]
    .map((v) => ({ n: v.name, a: [...new Set(v.assumptions ?? [])].filter((a) => a !== 'real').sort(), r: v.range ?? null }))
    .sort((x, y) => (x.n < y.n ? -1 : x.n > y.n ? 1 : 0));
  return JSON.stringify(vs);
}

const swapped = (eq: Equation): Equation => ({ lhs: eq.rhs, rhs: eq.lhs });

/** An equation's source with its associative chains grouped alike (leftGrouped), and the same with its sides swapped. */
const groupedKeys = new WeakMap<Equation, [string, string]>();
function groupedKey(eq: Equation): [string, string] {
  let k = groupedKeys.get(eq);
  if (!k) {
    const g = { lhs: leftGrouped(eq.lhs), rhs: leftGrouped(eq.rhs) };
    groupedKeys.set(eq, (k = [equationToSympy(g), equationToSympy(swapped(g))]));
  }
  return k;
}

/** The exact values of an equation's two sides when it is a statement about numbers only ("1.6e-19 × 1e4 / 9.11e-31 = 1.76e15"), else null. */
const sideValues = new WeakMap<Equation, [string, string] | null>();
function numbersOnly(eq: Equation): [string, string] | null {
  if (sideValues.has(eq)) return sideValues.get(eq)!;
  const l = constRational(eq.lhs);
  const r = l && constRational(eq.rhs);
  const v: [string, string] | null = l && r ? [`${l.n}/${l.d}`, `${r.n}/${r.d}`] : null;
  sideValues.set(eq, v);
  return v;
}

/**
 * The same equation as written, up to brackets that change nothing (leftGrouped) and the order
 * and grouping of products, quotients and sums (productForm), or the same with its sides swapped; for a statement about numbers only, the same two values ("1e4" written
 * 1*10**4 or 10**4; "2*pi*0.15" or "0.15*2*pi"), which makes it the same statement whether or not
 * it holds (a rounded result).
 */
export function identicalEquations(a: Equation, b: Equation): boolean {
  const [ka, ks] = groupedKey(a);
  const kb = groupedKey(b)[0];
  if (ka === kb || ks === kb) return true;
  // The same sides up to the order and grouping of products, quotients and sums ((1/(2π))·√x and √x/(2π)).
  const [la, ra, lb, rb] = [productForm(a.lhs), productForm(a.rhs), productForm(b.lhs), productForm(b.rhs)];
  if ((la === lb && ra === rb) || (la === rb && ra === lb)) return true;
  const va = numbersOnly(a);
  const vb = va && numbersOnly(b);
  if (va && vb) return (va[0] === vb[0] && va[1] === vb[1]) || (va[0] === vb[1] && va[1] === vb[0]);
  // With pi or a root in it ("½ × 4π × 0.15 = 0.94" written "4*pi*0.15/2"): the same two values, proved exactly.
  if (symbolSet(a).size > 0 || symbolSet(b).size > 0) return false;
  return (sameConstant(a.lhs, b.lhs) && sameConstant(a.rhs, b.rhs)) || (sameConstant(a.lhs, b.rhs) && sameConstant(a.rhs, b.lhs));
}

/** The symbols of an equation, as a set (kept per equation object: lists are compared many times). */
const symbolSets = new WeakMap<Equation, Set<string>>();
function symbolSet(eq: Equation): Set<string> {
  let s = symbolSets.get(eq);
  if (!s) symbolSets.set(eq, (s = new Set(symbolsOf(eq))));
  return s;
}

/** How many symbols one of the two has and the other lacks. */
function symbolDistance(a: Equation, b: Equation): number {
  const sa = symbolSet(a);
  const sb = symbolSet(b);
  let n = 0;
  for (const s of sa) if (!sb.has(s)) n++;
  for (const s of sb) if (!sa.has(s)) n++;
  return n;
}

/**
 * The order in which equivalentLists looks for an equation the other list does not cover (the
 * answer is the same in any order; only the pairs asked differ): those whose symbols no equation
 * of the other list has exactly first, since an equation is seldom entailed by one over other symbols.
 */
function byLikelyFailure<T extends { x: Equation; ys: Equation[] }>(tasks: T[]): T[] {
  const near = (t: T) => Math.min(...t.ys.map((y) => symbolDistance(y, t.x)));
  return tasks
    .map((t, i) => ({ t, i, d: near(t) }))
    .sort((p, q) => q.d - p.d || p.i - q.i)
    .map((p) => p.t);
}

/** The equations that may cover `x`, nearest in symbols first (an equation that covers it is found sooner). */
function byLikelyCover(x: Equation, ys: Equation[]): Equation[] {
  return ys
    .map((y, i) => ({ y, i, d: symbolDistance(y, x) }))
    .sort((p, q) => p.d - q.d || p.i - q.i)
    .map((p) => p.y);
}

export class Entailer implements EntailmentEngine {
  private readonly pairCache = new Map<string, Promise<Verdict>>();
  /** pairKey's keys, per premise and conclusion as written and domain key (nothing but the key: it is a function of the three). */
  private readonly pairKeys = new WeakMap<Equation, WeakMap<Equation, Map<string, string>>>();
  /** consistencyKeys' keys, per equation as written and domain key. */
  private readonly premiseKeys = new WeakMap<Equation, Map<string, { mkey: string; skey: string }>>();
  /** The verdicts of pairCache's pairs that are decided (screenPair reads them without waiting). */
  private readonly settled = new Map<string, Verdict>();
  /** Cached pairs whose verdict is 'numeric-agreement' (the only ones a prover can change). */
  private readonly numericKeys = new Set<string>();
  /** Bumped by forgetNumericVerdicts(): numeric verdicts decided before it are not kept. */
  private numericGeneration = 0;
  private readonly premiseCache = new Map<string, Promise<PremiseInfo>>();
  /** Premises' sampled points (computePremise's and the screen's: the screen asks no Z3 for a premise without points). */
  private readonly sampleCache = new Map<string, ReturnType<typeof samplePremise>>();
  /** Consistency verdicts read from the store (their premise points were not computed). */
  private readonly storedConsistency = new Map<string, Consistency>();
  private readonly st = { pairs: 0, cacheHits: 0, decidedWithoutZ3: 0, storeHits: 0 };
  /** Verdicts kept in the workspace across runs (see setVerdictStore), or none. */
  private store: VerdictStore | undefined;
  /** What a stored verdict depends on besides the pair: the sampling and the deciding rules' version. */
  private readonly storeSpace: string;
  private readonly canonical: boolean;
  private readonly samples: number;
  private readonly seed: number;
  private readonly pairwise: boolean;
  private prover?: AlgebraProver;

  private constructor(
    private readonly z3: Z3Backend,
    opts: EntailerOptions,
  ) {
    this.samples = Math.max(1, Math.floor(opts.samples ?? 24));
    this.seed = opts.seed ?? 1;
    this.pairwise = opts.mode === 'pairwise-z3';
    this.prover = opts.prover;
    this.canonical = opts.canonical ?? true;
    // v2: an equation is called satisfiable only on a proved point (v1 kept verdicts that could rest
    // on a sampled point that only nearly satisfied its premise), so v1 verdicts are decided again.
    this.storeSpace = `v2 samples=${this.samples} seed=${this.seed}${this.canonical ? '' : ' as-written'}`;
  }

  /**
   * Keep proved and refuted verdicts in `store` (the workspace's) and look there before deciding,
   * so a pair is decided once across runs. Kept: a verdict with holds true or false, except
   * 'numeric-agreement' where Z3 timed out or a prover could still prove it (those are decided
   * again); unknowns are never kept. Consistency of premises the same way.
   */
  setVerdictStore(store: VerdictStore | undefined): void {
    this.store = store;
  }

  static async create(opts: EntailerOptions = {}): Promise<Entailer> {
    const z3 = await Z3Backend.create(Math.max(1, Math.floor(opts.z3TimeoutMs ?? 2000)), {
      ...(opts.z3Workers ? { size: opts.z3Workers } : {}),
      ...(opts.z3IdleMs ? { idleMs: opts.z3IdleMs } : {}),
      ...(opts.z3SpareIdleMs ? { spareIdleMs: opts.z3SpareIdleMs } : {}),
      ...(opts.z3Ahead === false ? { prepareAhead: false } : {}),
    });
    return new Entailer(z3, opts);
  }

  stats(): EntailerStats {
    return { ...this.st, z3Calls: this.z3.calls };
  }

  warm(): void {
    this.z3.warm();
  }

  async close(): Promise<void> {
    await this.z3.close();
  }

  /**
   * Use another AlgebraProver from now on (e.g. a different Python) and forget the cached
   * 'numeric-agreement' verdicts, so a pair the new prover can prove is not left at sampling
   * (every other verdict is decided without the prover and stays cached).
   */
  setProver(prover: AlgebraProver | undefined): void {
    this.prover = prover;
    this.identityCache.clear();
    this.forgetNumericVerdicts();
  }

  /** Drop cached 'numeric-agreement' verdicts (they are decided again, asking the prover). Returns how many. */
  forgetNumericVerdicts(): number {
    this.numericGeneration++;
    let n = 0;
    for (const k of this.numericKeys) {
      this.settled.delete(k);
      if (this.pairCache.delete(k)) n++;
    }
    this.numericKeys.clear();
    return n;
  }

  async entails(premiseAsWritten: Equation, conclusionAsWritten: Equation, domain: Domain): Promise<Verdict> {
    this.st.pairs++;
    if (this.pairwise) return this.decidePairwise(premiseAsWritten, conclusionAsWritten, domain);
    // Decided on the representatives (./canonical.ts): same solutions, same definedness.
    const key = this.pairKey(premiseAsWritten, conclusionAsWritten, domain);
    const hit = this.pairCache.get(key);
    if (hit) {
      this.st.cacheHits++;
      return { ...(await hit) };
    }
    const stored = this.storedVerdict(key);
    if (stored) {
      this.st.cacheHits++;
      this.st.storeHits++;
      this.pairCache.set(key, Promise.resolve(stored));
      this.settled.set(key, stored);
      if (stored.method === 'numeric-agreement') this.numericKeys.add(key); // a prover set later asks again
      return { ...stored };
    }
    const premise = this.representative(premiseAsWritten).eq;
    const conclusion = this.representative(conclusionAsWritten).eq;
    const generation = this.numericGeneration;
    let self: Promise<Verdict> | undefined; // set below, before `decide` resumes
    const p = (async () => {
      const before = this.z3.calls;
      const v = await this.decide(premise, conclusion, domain);
      if (this.z3.calls === before && v.holds !== null) this.st.decidedWithoutZ3++;
      if (generation === this.numericGeneration) this.keepVerdict(key, v, premise, conclusion);
      // Verdicts a prover can change: sampling agreement, and unknowns left by unchecked counterexamples.
      if (v.method === 'numeric-agreement' || (v.method === 'unknown' && /could not be checked exactly/.test(v.note ?? ''))) {
        // Decided with a prover that has since been replaced: answer it, but don't keep it.
        if (generation !== this.numericGeneration) {
          if (this.pairCache.get(key) === self) this.pairCache.delete(key);
        } else this.numericKeys.add(key);
      }
      if (this.pairCache.get(key) === self) this.settled.set(key, v);
      return v;
    })();
    self = p;
    this.pairCache.set(key, p);
    try {
      return { ...(await p) };
    } catch (e) {
      this.pairCache.delete(key);
      throw e;
    }
  }

  entailsKnown(premiseAsWritten: Equation, conclusionAsWritten: Equation, domain: Domain): Verdict | undefined {
    if (this.pairwise) return undefined;
    const key = this.pairKey(premiseAsWritten, conclusionAsWritten, domain);
    if (this.pairCache.has(key)) {
      // Decided (its promise resolved to this verdict), or being decided: then entails() waits.
      const v = this.settled.get(key);
      if (!v) return undefined;
      this.st.pairs++;
      this.st.cacheHits++;
      return { ...v };
    }
    const stored = this.storedVerdict(key);
    if (!stored) return undefined;
    // As entails() takes a stored verdict.
    this.st.pairs++;
    this.st.cacheHits++;
    this.st.storeHits++;
    this.pairCache.set(key, Promise.resolve(stored));
    this.settled.set(key, stored);
    if (stored.method === 'numeric-agreement') this.numericKeys.add(key);
    return { ...stored };
  }

  consistentKnown(asWritten: Equation, domain: Domain): Consistency | undefined {
    const { mkey, skey } = this.consistencyKeys(asWritten, domain);
    const known = this.storedConsistency.get(mkey);
    if (known) return { ...known };
    const stored = this.premiseCache.has(mkey) ? undefined : (this.store?.get(skey) as Consistency | undefined);
    if (!stored) return undefined;
    this.st.storeHits++;
    this.storedConsistency.set(mkey, stored);
    return { ...stored };
  }

  /**
   * The pair's verdict where it is known or the steps before a prover or Z3 decide it (the
   * verdict entails() gives: those steps come first there, and are deterministic); undefined
   * where only a prover or Z3 could tell, or the pair is being decided now. What it decides is
   * kept as entails() keeps it.
   */
  private async screenPair(premiseAsWritten: Equation, conclusionAsWritten: Equation, domain: Domain): Promise<Verdict | undefined> {
    const cp = this.representative(premiseAsWritten);
    const cc = this.representative(conclusionAsWritten);
    const key = this.pairKey(premiseAsWritten, conclusionAsWritten, domain);
    if (this.pairCache.has(key)) return this.settled.get(key);
    const stored = this.storedVerdict(key);
    if (stored) return this.entails(premiseAsWritten, conclusionAsWritten, domain); // counted and cached as entails does
    const v = await this.decideOrScreen(cp.eq, cc.eq, domain, true);
    if (!v || this.pairCache.has(key)) return v;
    this.st.pairs++;
    this.st.decidedWithoutZ3++;
    this.pairCache.set(key, Promise.resolve(v));
    this.settled.set(key, v);
    this.keepVerdict(key, v, cp.eq, cc.eq);
    return { ...v };
  }

  async consistent(asWritten: Equation, domain: Domain): Promise<Consistency> {
    const { mkey, skey } = this.consistencyKeys(asWritten, domain);
    const known = this.storedConsistency.get(mkey);
    if (known) return { ...known };
    const c = this.representative(asWritten);
    const stored = this.premiseCache.has(mkey) ? undefined : (this.store?.get(skey) as Consistency | undefined);
    if (stored) {
      this.st.storeHits++;
      this.storedConsistency.set(mkey, stored);
      return { ...stored };
    }
    const got = (await this.premise(c.eq, domain)).consistency;
    if (got.satisfiable !== null) this.store?.put(skey, got);
    return { ...got };
  }

  /**
   * A pair's cache key (its representatives' sources and the domain's key), kept per pair of
   * equation objects and domain: a class's lists are made of the same parsed trees (grade.ts parses
   * a source once per question) checked against the same forms, and joining two long sources
   * into a new string for every check, to hash it again, was most of a cached check's cost. The
   * same string each time also keeps its hash.
   */
  private pairKey(premiseAsWritten: Equation, conclusionAsWritten: Equation, domain: Domain): string {
    const dk = domainKey(domain);
    let byConclusion = this.pairKeys.get(premiseAsWritten);
    if (!byConclusion) this.pairKeys.set(premiseAsWritten, (byConclusion = new WeakMap()));
    let byDomain = byConclusion.get(conclusionAsWritten);
    if (!byDomain) byConclusion.set(conclusionAsWritten, (byDomain = new Map()));
    let key = byDomain.get(dk);
    if (key === undefined) {
      key = `${this.representative(premiseAsWritten).key}\u0000${this.representative(conclusionAsWritten).key}\u0000${dk}`;
      byDomain.set(dk, key);
    }
    return key;
  }

  /** consistent()'s keys (in memory, in the store), kept per equation object and domain key as pairKey keeps a pair's. */
  private consistencyKeys(asWritten: Equation, domain: Domain): { mkey: string; skey: string } {
    const dk = domainKey(domain);
    let byDomain = this.premiseKeys.get(asWritten);
    if (!byDomain) this.premiseKeys.set(asWritten, (byDomain = new Map()));
    let keys = byDomain.get(dk);
    if (!keys) {
      const c = this.representative(asWritten);
      keys = { mkey: `${c.key}\u0000${dk}`, skey: `c\u0000${this.storeSpace}\u0000${c.key}\u0000${dk}` };
      byDomain.set(dk, keys);
    }
    return keys;
  }

  private representative(eq: Equation): { eq: Equation; key: string } {
    return this.canonical ? canonicalEquation(eq) : { eq, key: equationToSympy(eq) };
  }

  /** A verdict kept in the store for this pair, if it may be used now (see setVerdictStore). */
  private storedVerdict(key: string): Verdict | undefined {
    const s = this.store?.get(`p\u0000${this.storeSpace}\u0000${key}`) as { v: Verdict } | undefined;
    if (!s) return undefined;
    if (s.v.method === 'numeric-agreement' && this.prover) return undefined; // a prover may prove it now
    return s.v;
  }

  private keepVerdict(key: string, v: Verdict, premise: Equation, conclusion: Equation): void {
    if (this.store && this.keepable(v, premise, conclusion)) this.store.put(`p\u0000${this.storeSpace}\u0000${key}`, { v });
  }

  /** Whether a verdict is final (kept across runs): decided, and not a sampling agreement a prover or Z3 could still turn into a proof. */
  private keepable(v: Verdict, premise: Equation, conclusion: Equation): boolean {
    if (v.holds === null) return false;
    return !(v.method === 'numeric-agreement' && (this.prover || (encodable(premise) && encodable(conclusion))));
  }

  /**
   * compareLists(a, b, domain).equivalent, asking only the pairs the answer needs: the lists are
   * not equivalent as soon as one equation of either is entailed by no equation of the other, so
   * equations with no identical twin in the other list are tried first, and the rest stop there.
   * A pair's verdict is the same whichever comparison asks it first (each pair is decided once),
   * so the answer is compareLists's. An answer resting only on final verdicts (see keepable: no
   * unknown, no sampling agreement that could become a proof) is kept in the verdict store, so
   * after a restart the two lists cost one look-up; any other is decided again, as its pairs are.
   * `pause` (the caller's) is awaited before each pair is screened or decided: the pairs' own work
   * runs without a turn of the event loop (a premise sampled, counterexamples checked exactly: up
   * to about 100 ms each), and a comparison of two long lists screened dozens of them in one piece.
   */
  async equivalentLists(a: Equation[], b: Equation[], domain: Domain, pause?: () => Promise<void>): Promise<boolean> {
    if (a.length === 0 || b.length === 0) return a.length === b.length;
    const skey = `l\u0000${this.storeSpace}\u0000${domainKey(domain)}\u0000${JSON.stringify(a.map(equationToSympy))}\u0000${JSON.stringify(b.map(equationToSympy))}`;
    const stored = this.store?.get(skey) as { equivalent: boolean } | undefined;
    if (stored && !this.pairwise) {
      this.st.storeHits++;
      return stored.equivalent;
    }
    // Not kept: its pairs may need Z3, so its worker starts now, while the steps before it run.
    this.z3.warm();
    // Each equation, with the list that must cover it; those without an identical twin first (likeliest to fail).
    const tasks = [...a.map((x) => ({ x, ys: b })), ...b.map((x) => ({ x, ys: a }))]
      .map((t) => ({ ...t, twin: t.ys.some((y) => identicalEquations(y, t.x)) }))
      .sort((s, t) => Number(s.twin) - Number(t.twin));
    // First without a prover or Z3: an equation every equation of the other list is refuted for
    // without them answers at once (most pairs of lists are not equivalent, and proving the
    // equations that are covered is where Z3's time goes).
    for (const { x, ys, twin } of this.pairwise ? [] : byLikelyFailure(tasks)) {
      if (twin) continue;
      let refuted = 0;
      for (const y of byLikelyCover(x, ys)) {
        await pause?.();
        const v = await this.screenPair(y, x, domain);
        if (v?.holds !== false) break;
        refuted++;
      }
      if (refuted === ys.length) {
        this.store?.put(skey, { equivalent: false });
        return false;
      }
    }
    let failedFinal = false; // an equation no equation of the other list entails, on final verdicts only
    let failed = false;
    let allFinal = true;
    await Promise.all(
      tasks.map(async ({ x, ys, twin }) => {
        if (twin) return;
        const order = byLikelyCover(x, ys);
        // A cover found without Z3 (an algebraic proof, a verdict known) spares proving another pair with it.
        for (const y of this.pairwise ? [] : order) {
          await pause?.();
          if (failedFinal) return;
          const v = await this.screenPair(y, x, domain);
          if (v?.holds === true) {
            if (!this.keepable(v, this.representative(y).eq, this.representative(x).eq)) allFinal = false;
            return;
          }
        }
        let finalHere = true;
        for (const y of order) {
          await pause?.();
          if (failedFinal) return; // answered: not equivalent
          const v = await this.entails(y, x, domain);
          const final = this.pairwise || this.keepable(v, this.representative(y).eq, this.representative(x).eq);
          if (v.holds === true) {
            if (!final) allFinal = false;
            return;
          }
          if (!final) finalHere = false;
        }
        failed = true;
        if (finalHere) failedFinal = true;
        else allFinal = false;
      }),
    );
    const equivalent = !failed;
    if (this.store && !this.pairwise && (failedFinal || (equivalent && allFinal))) this.store.put(skey, { equivalent });
    return equivalent;
  }

  async compareLists(a: Equation[], b: Equation[], domain: Domain): Promise<ListComparison> {
    // An equation written identically in the other list counts as covered even when it has no
    // solution: the metric compares an extraction with what the student wrote, right or wrong.
    // The equations of both lists are looked at concurrently (the Z3 pool decides their pairs in
    // parallel); each one still tries the other list in order and stops at the first that entails
    // it, so the pairs decided and the answer are those of a sequential scan.
    const cover = (xs: Equation[], ys: Equation[]): Promise<number[]> =>
      Promise.all(
        xs.map(async (x) => {
          let found = ys.findIndex((y) => identicalEquations(y, x));
          for (let j = 0; found < 0 && j < ys.length; j++) {
            if ((await this.entails(ys[j], x, domain)).holds === true) found = j;
          }
          return found;
        }),
      );
    const [aCoveredBy, bCoveredBy] = await Promise.all([cover(a, b), cover(b, a)]);
    const equivalent = a.length === 0 || b.length === 0 ? a.length === b.length : aCoveredBy.every((i) => i >= 0) && bCoveredBy.every((i) => i >= 0);
    return { equivalent, aCoveredBy, bCoveredBy };
  }

  // ---------------------------------------------------------------------------------------------

  private premise(eq: Equation, domain: Domain): Promise<PremiseInfo> {
    const key = `${equationToSympy(eq)}\u0000${domainKey(domain)}`;
    let p = this.premiseCache.get(key);
    if (!p) {
      p = this.computePremise(eq, domain, key);
      this.premiseCache.set(key, p);
      p.catch(() => this.premiseCache.delete(key));
    }
    return p;
  }

  /** The premise's sampled points (deterministic per premise and domain; computePremise's first step, without Z3). */
  private premiseSample(eq: Equation, domain: Domain): ReturnType<typeof samplePremise> {
    const key = `${equationToSympy(eq)}\u0000${domainKey(domain)}`;
    return this.sampleOf(eq, domain, key);
  }

  private sampleOf(eq: Equation, domain: Domain, key: string): ReturnType<typeof samplePremise> {
    let sample = this.sampleCache.get(key);
    if (!sample) {
      sample = samplePremise(eq, varSpecs(domain, symbolsOf(eq)), this.samples, rngFor(key, this.seed));
      this.sampleCache.set(key, sample);
    }
    return sample;
  }

  private async computePremise(eq: Equation, domain: Domain, key: string): Promise<PremiseInfo> {
    const syms = symbolsOf(eq);
    const specs = varSpecs(domain, syms);
    const sample = this.sampleOf(eq, domain, key);
    // A sampled point satisfies the equation only to rounding: it says the equation has a solution
    // once one point is proved (exactly, or a root bracketed), never before.
    const rng = rngFor(`${key}\u0000verify`, this.seed);
    const solve = (fixed: Record<string, number>, name: string): number[] => solveFor(eq, fixed, name, specs.get(name)!, rng);
    for (const point of sample.points.slice(0, 3)) {
      const proved = verifyPremisePoint(eq, point, syms, specs, solve);
      if (proved)
        return {
          consistency: { satisfiable: true, method: 'numeric', witness: proved.values, note: `admissible solution found numerically, ${proved.note}` },
          points: sample.points,
        };
    }
    if (encodable(eq)) {
      const r = await this.z3.check({ kind: 'consistent', eq, domain });
      if (r.result === 'sat') return { consistency: { satisfiable: true, method: 'z3', witness: r.model }, points: [] };
      if (r.result === 'unsat')
        return { consistency: { satisfiable: false, method: 'z3', note: 'z3: no admissible assignment satisfies the equation' }, points: [] };
      return { consistency: { satisfiable: null, method: 'unknown', note: r.note }, points: [] };
    }
    // An identity (sin²θ + cos²θ = 1) has no root to bracket: every sampled point is a solution
    // once it is proved to hold wherever it is defined.
    if (sample.points.length > 0 && (await this.premiseIsIdentity(eq, domain))) {
      const witness: Record<string, string> = {};
      for (const s of syms) witness[s] = formatValue(sample.points[0][s]);
      return {
        consistency: { satisfiable: true, method: 'numeric', witness, note: 'an identity, defined at sampled admissible points' },
        points: sample.points,
      };
    }
    // Trig/exp/log premise with no sampled solution: Z3 with those terms abstracted (bounded
    // atoms) over-approximates it, so 'unsat' still proves it has no admissible solution.
    const r = await this.z3.check({ kind: 'consistent', eq, domain, abstract: true });
    if (r.result === 'unsat')
      return {
        consistency: { satisfiable: false, method: 'z3', note: 'z3: no admissible assignment, even with trig/exp/log terms treated as bounded unknowns' },
        points: [],
      };
    if (sample.constant === 'false')
      return { consistency: { satisfiable: false, method: 'numeric', note: 'an equation between constants that evaluates false' }, points: [] };
    const note = sample.points.length
      ? "the solutions found by sampling could not be checked exactly (no exact point, no bracketed root), and Z3 can't decide this equation"
      : "no admissible solution found by sampling, and Z3 can't decide this equation";
    return { consistency: { satisfiable: null, method: 'unknown', note }, points: [] };
  }

  private async decide(o1: Equation, o2: Equation, domain: Domain): Promise<Verdict> {
    return (await this.decideOrScreen(o1, o2, domain, false))!;
  }

  /** decide(), or with `screen` only its steps before a prover or Z3 on the pair (undefined where those would be needed). */
  private async decideOrScreen(o1: Equation, o2: Equation, domain: Domain, screen: boolean): Promise<Verdict | undefined> {
    // Repeated roots and equal powers reduced exactly first (same solutions, same definedness).
    const r1 = reduceEquation(o1, domain);
    const r2 = reduceEquation(o2, domain);
    const reduced = [r1.note && `premise: ${r1.note}`, r2.note && `conclusion: ${r2.note}`].filter(Boolean).join('; ');
    let v = await this.decideReduced(r1.eq, r2.eq, domain, screen);
    if (!v) return undefined;
    if (v.method === 'z3-refuted') v = this.checkZ3Counterexample(r1.eq, r2.eq, domain, v);
    return reduced ? { ...v, note: v.note ? `${v.note} (${reduced})` : reduced } : v;
  }

  /**
   * Z3's model is shown only once checked like a sampled one (./exact-check.ts): its values come
   * back as decimals (algebraic numbers rounded), so they are re-derived exactly from it. A model
   * that can't be checked leaves the verdict unknown, with Z3's rounded values in the note.
   */
  private checkZ3Counterexample(e1: Equation, e2: Equation, domain: Domain, v: Verdict): Verdict {
    const syms = symbolsOfAll(e1, e2);
    const env: Record<string, number> = {};
    for (const s of syms) env[s] = Number(v.counterexample?.[s] ?? NaN);
    const shown = Object.entries(v.counterexample ?? {})
      .map(([k, x]) => `${k}=${x}`)
      .join(', ');
    if (syms.every((s) => Number.isFinite(env[s]))) {
      const specs = varSpecs(domain, syms);
      const rng = rngFor(`${equationToSympy(e1)}\u0000${equationToSympy(e2)}\u0000z3`, this.seed);
      const solve = (fixed: Record<string, number>, name: string): number[] => solveFor(e1, fixed, name, specs.get(name)!, rng);
      const cx = verifyCounterexample(e1, e2, env, syms, specs, solve);
      if (cx) return { holds: false, method: 'z3-refuted', counterexample: cx.values, note: `z3 found an admissible counterexample near ${shown}; ${cx.note}` };
    }
    return { holds: null, method: 'unknown', note: `z3 found a model (${shown}), but it could not be checked exactly, so it is not shown as a counterexample` };
  }

  private readonly identityCache = new Map<string, Promise<boolean>>();
  /**
   * The equation holds wherever it is defined: by the angle formulas and sin² + cos² = 1
   * (./trig-identity.ts), else by SymPy (asked of the prover: 0 = 0 ⊨ eq).
   */
  private premiseIsIdentity(eq: Equation, domain: Domain): Promise<boolean> {
    if (isTrigIdentity(eq)) return Promise.resolve(true);
    const prover = this.prover;
    if (!prover) return Promise.resolve(false);
    const key = `${equationToSympy(eq)}\u0000${domainKey(domain)}`;
    let p = this.identityCache.get(key);
    if (!p) {
      const zero = { kind: 'num', text: '0' } as const;
      p = prover.proveEntailment({ lhs: zero, rhs: zero }, eq, domain).then(
        (r) => r === 'proved',
        () => false,
      );
      this.identityCache.set(key, p);
    }
    return p;
  }

  private async decideReduced(e1: Equation, e2: Equation, domain: Domain, screen = false): Promise<Verdict | undefined> {
    // A premise with no sampled point needs Z3 to tell whether it has solutions: a screen stops.
    if (screen && this.premiseSample(e1, domain).points.length === 0) return undefined;
    const info = await this.premise(e1, domain);
    const cons = info.consistency;
    if (cons.satisfiable === false) {
      return { holds: false, method: 'vacuous-premise', note: `the premise has no admissible solution (${cons.method}); it entails nothing` };
    }
    const algebraic = encodable(e1) && encodable(e2);
    if (cons.satisfiable === true && identicalEquations(e1, e2)) return { holds: true, method: 'identical' };

    // Numeric fast path over the premise's sampled points.
    const k1 = equationToSympy(e1);
    const k2 = equationToSympy(e2);
    const c2 = compileEquation(e2);
    const specs = varSpecs(domain, symbolsOfAll(e1, e2));
    const rng = rngFor(`${k1}\u0000${k2}`, this.seed);
    const extra = symbolsOf(e2).filter((s) => !(info.points[0] && s in info.points[0]));
    let agree = 0;
    let borderline = 0;
    /** Points where the premise or the conclusion is ill-conditioned: no evidence either way. */
    let illConditioned = 0;
    /** Apparent violations that could not be checked exactly. */
    let unproven = 0;
    const candidates: Record<string, number>[] = [];
    const allSyms = symbolsOfAll(e1, e2);
    for (const pt of info.points) {
      const env = { ...pt };
      for (const s of extra) {
        env[s] = sampleValue(specs.get(s)!, rng);
      }
      const r = checkAt(c2, env);
      if (r === 'violate') {
        // A sampled point is only a candidate: shown only once checked exactly (./exact-check.ts).
        const solve = (fixed: Record<string, number>, name: string): number[] => solveFor(e1, fixed, name, specs.get(name)!, rng);
        const cx = verifyCounterexample(e1, e2, env, allSyms, specs, solve);
        if (cx) return { holds: false, method: 'numeric-counterexample', counterexample: cx.values, note: cx.note };
        unproven++;
        borderline++;
        if (candidates.length < 4) candidates.push(env);
        // A screen stops at the first apparent counterexample it can't check exactly: such a pair
        // is seldom refuted at a later point (never in the app-scale bench's lists), and checking
        // every point of it was half the time answer groups took to rule lists out (about 100 ms
        // a pair). It is then decided in full (entails), as a pair the screen leaves open is.
        if (screen) break;
        continue;
      }
      if (r === 'agree') {
        if (wellConditioned(e2, env) && wellConditioned(e1, env)) agree++;
        else illConditioned++;
      } else borderline++;
    }
    const doubts = [
      illConditioned && `${illConditioned} ill-conditioned point${illConditioned > 1 ? 's' : ''} not counted`,
      unproven && `${unproven} apparent counterexample${unproven > 1 ? 's' : ''} that could not be checked exactly`,
    ]
      .filter(Boolean)
      .join(', ');
    const withDoubts = (note: string): string => (doubts ? `${note} (${doubts})` : note);
    // Apparent counterexamples on a premise that holds identically (no root to bracket): with a
    // SymPy proof that it is an identity, any point where it is defined is a premise point.
    if (screen && candidates.length && this.prover) return undefined; // the identity check below asks the prover
    if (candidates.length && (await this.premiseIsIdentity(e1, domain))) {
      for (const env of candidates) {
        const cx = verifyWithIdentityPremise(e1, e2, env, allSyms, specs);
        if (cx) return { holds: false, method: 'numeric-counterexample', counterexample: cx.values, note: cx.note };
      }
    }
    const numericAgreement = async (note: string): Promise<Verdict> => {
      if (this.prover && (await this.prover.proveEntailment(e1, e2, domain).catch(() => 'unknown' as const)) === 'proved') {
        return { holds: true, method: 'sympy-proved', samples: agree, note: `SymPy proof; the conclusion also held at ${agree} sampled points` };
      }
      return { holds: true, method: 'numeric-agreement', samples: agree, note };
    };

    if (algebraic && cons.satisfiable === true && algebraicEntails(e1, e2, domain)) {
      return {
        holds: true,
        method: 'z3-proved',
        note: 'proved algebraically (same numerator up to a non-zero factor; conclusion defined wherever the premise is), without calling z3',
      };
    }
    // A screen stops here: what follows asks Z3 or the prover.
    if (screen) return undefined;
    if (algebraic) {
      const r = await this.z3.check({ kind: 'entails', premise: e1, conclusion: e2, domain });
      if (r.result === 'sat') return { holds: false, method: 'z3-refuted', counterexample: r.model, note: 'z3 found an admissible counterexample' };
      if (r.result === 'unsat') {
        if (cons.satisfiable === true) return { holds: true, method: 'z3-proved' };
        return {
          holds: null,
          method: 'unknown',
          note: `z3 proved the implication, but whether the premise has admissible solutions is undecided (${cons.note ?? ''})`,
        };
      }
      if (cons.satisfiable === true && agree >= this.samples && borderline === 0) {
        return numericAgreement(`${r.note}; the conclusion held at all ${agree} sampled points of the premise (sampling, not a proof)`);
      }
      return { holds: null, method: 'unknown', note: withDoubts(`${r.note}; sampling: ${agree} agreeing points, ${borderline} inconclusive`) };
    }

    if (cons.satisfiable !== true) return { holds: null, method: 'unknown', note: cons.note };
    const what = "trig/exp/log or constants: Z3 can't decide";
    if (borderline === 0 && agree >= Math.min(this.samples, MIN_AGREEMENT_POINTS)) {
      return numericAgreement(`${what}; the conclusion held at all ${agree} sampled points of the premise (sampling, not a proof)`);
    }
    return { holds: null, method: 'unknown', note: withDoubts(`${what}; sampling inconclusive (${agree} agreeing points, ${borderline} inconclusive)`) };
  }

  /** The study's method: every algebraic pair to Z3 on its own, no cache, no numeric fast path. */
  private async decidePairwise(e1: Equation, e2: Equation, domain: Domain): Promise<Verdict> {
    if (!(encodable(e1) && encodable(e2))) {
      // Not Z3's business: decide numerically, uncached.
      this.premiseCache.clear();
      const v = await this.decide(e1, e2, domain);
      this.premiseCache.clear();
      this.st.decidedWithoutZ3++;
      return v;
    }
    const r = await this.z3.check({ kind: 'entails', premise: e1, conclusion: e2, domain });
    if (r.result === 'sat') return { holds: false, method: 'z3-refuted', counterexample: r.model };
    if (r.result === 'unknown') return { holds: null, method: 'unknown', note: r.note };
    const c = await this.z3.check({ kind: 'consistent', eq: e1, domain });
    if (c.result === 'sat') return { holds: true, method: 'z3-proved' };
    if (c.result === 'unsat') return { holds: false, method: 'vacuous-premise' };
    return { holds: null, method: 'unknown', note: c.note };
  }
}
