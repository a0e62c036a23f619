// The entailment engine's contract. Implementation: ./index.ts (Entailer).
import type { Equation } from '../../../../shared/equation/ast.ts';
import type { Domain } from '../../../../shared/exam.ts';
import type { Consistency, Verdict } from '../../../../shared/verdict.ts';

export type { Consistency, Verdict, Domain };

/**
 * Optional computer-algebra back end (the SymPy worker, issue 5). Asked only when the engine
 * would otherwise answer 'numeric-agreement'; it may upgrade the verdict to 'sympy-proved'.
 */
export interface AlgebraProver {
  /** 'proved' if SymPy shows every admissible solution of premise satisfies conclusion; else 'unknown'. */
  proveEntailment(premise: Equation, conclusion: Equation, domain: Domain): Promise<'proved' | 'unknown'>;
}

export type ListComparison = {
  equivalent: boolean;
  /** For each equation of a (by index), the index in b that entails it, or -1. */
  aCoveredBy: number[];
  /** For each equation of b, the index in a that entails it, or -1. */
  bCoveredBy: number[];
};

export type EntailerStats = {
  /** entails() calls answered. */
  pairs: number;
  /** answered from the cache. */
  cacheHits: number;
  /** solver.check() calls made on Z3. */
  z3Calls: number;
  /** decided without Z3 (identical, numeric counterexample). */
  decidedWithoutZ3: number;
  /** answered from the verdict store (kept from an earlier run; included in cacheHits for pairs). */
  storeHits?: number;
};

/**
 * Where verdicts are kept across runs (the workspace's decided pairs): values are JSON data.
 * `put` may buffer; the owner writes the buffer out.
 */
export interface VerdictStore {
  get(key: string): unknown;
  put(key: string, value: unknown): void;
}

export interface EntailmentEngine {
  /** Does every admissible assignment satisfying `premise` satisfy `conclusion`? Vacuous premises entail nothing (holds: false, method 'vacuous-premise'). */
  entails(premise: Equation, conclusion: Equation, domain: Domain): Promise<Verdict>;
  /** Does some admissible assignment satisfy the equation? */
  consistent(eq: Equation, domain: Domain): Promise<Consistency>;
  /**
   * What entails() would answer, given at once where the pair is decided already (this run, or
   * kept in the store) and counted as entails() counts it; undefined where entails() must be
   * awaited. A class's marking asks hundreds of thousands of decided pairs: a turn of the
   * microtask queue and a promise for each was a good part of a re-grade's time.
   */
  entailsKnown?(premise: Equation, conclusion: Equation, domain: Domain): Verdict | undefined;
  /** consistent()'s answer at once where it is known already, as entailsKnown. */
  consistentKnown?(eq: Equation, domain: Domain): Consistency | undefined;
  /** The list equivalence of ../shared/data/README.md (each equation of either list entailed by one of the other; empty ≡ empty only). */
  compareLists(a: Equation[], b: Equation[], domain: Domain): Promise<ListComparison>;
  /**
   * compareLists(a, b, domain).equivalent, asking only the pairs the answer needs (and, where kept,
   * the answer from the store). `pause`, where given, is awaited before each pair of equations the
   * comparison decides (the caller's turn of the event loop: a comparison in the background gives
   * way between two pairs, not only between two comparisons); it changes no answer.
   */
  equivalentLists?(a: Equation[], b: Equation[], domain: Domain, pause?: () => Promise<void>): Promise<boolean>;
  stats(): EntailerStats;
  /** Start the solver now (where it starts lazily), so decisions asked soon after don't wait for it. */
  warm?(): void;
  /** Keep verdicts in `store` and look there before deciding (undefined: in memory only). */
  setVerdictStore?(store: VerdictStore | undefined): void;
  close(): Promise<void>;
}
