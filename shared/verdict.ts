// How an entailment question was answered. Every verdict says how it was reached, so an
// instructor can see why a mark was or wasn't given.

export type VerdictMethod =
  /** Premise and conclusion are the same canonical equation. */
  | 'identical'
  /** Z3 showed premise ∧ ¬conclusion unsatisfiable. */
  | 'z3-proved'
  /** Z3 found a model of premise ∧ ¬conclusion (the counterexample). */
  | 'z3-refuted'
  /** A sampled admissible point satisfies the premise but not the conclusion. */
  | 'numeric-counterexample'
  /** The conclusion held at every sampled point of the premise (not a proof). */
  | 'numeric-agreement'
  /** SymPy simplified the difference to zero (upgrades numeric agreement). */
  | 'sympy-proved'
  /** No admissible assignment satisfies the premise: it entails nothing. */
  | 'vacuous-premise'
  /** Could not decide within the time limit. */
  | 'unknown';

export type Verdict = {
  /** true: entailment holds; false: it does not (or the premise is vacuous); null: undecided. */
  holds: boolean | null;
  method: VerdictMethod;
  /** Values (decimal text) of an admissible assignment satisfying the premise but not the conclusion. */
  counterexample?: Record<string, string>;
  /** Points checked, for numeric verdicts. */
  samples?: number;
  /** Human-readable detail ("z3 timed out after 2000 ms", "sin/cos: Z3 can't decide"). */
  note?: string;
};

export type Consistency = {
  /** true: some admissible assignment satisfies the equation; false: none does; null: undecided. */
  satisfiable: boolean | null;
  method: 'z3' | 'numeric' | 'unknown';
  witness?: Record<string, string>;
  note?: string;
};
