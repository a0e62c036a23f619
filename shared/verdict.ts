// How an entailment question was answered. Every verdict says how it was reached, so an
// instructor can see why a mark was or wasn't given. The zod schemas are the source of the
// types: the API contract (shared/api.ts) reuses them, so both say the same thing.
import { z } from 'zod';

export const VERDICT_METHODS = [
  /** Premise and conclusion are the same canonical equation. */
  'identical',
  /** Z3 showed premise ∧ ¬conclusion unsatisfiable. */
  'z3-proved',
  /** Z3 found a model of premise ∧ ¬conclusion (the counterexample). */
  'z3-refuted',
  /** A sampled admissible point satisfies the premise but not the conclusion. */
  'numeric-counterexample',
  /** The conclusion held at every sampled point of the premise (not a proof). */
  'numeric-agreement',
  /** SymPy simplified the difference to zero (upgrades numeric agreement). */
  'sympy-proved',
  /** No admissible assignment satisfies the premise: it entails nothing. */
  'vacuous-premise',
  /** Could not decide within the time limit. */
  'unknown',
  /** A numeric item: a number with its unit compared with the expected value within a tolerance (evidence `numeric`). */
  'numeric-value',
] as const;
export const VerdictMethodSchema = z.enum(VERDICT_METHODS);
export type VerdictMethod = z.infer<typeof VerdictMethodSchema>;

/** The methods that prove a verdict (not sampling, not a timeout): what a check that must be exact accepts. */
export const PROOF_METHODS: ReadonlySet<VerdictMethod> = new Set<VerdictMethod>(['identical', 'z3-proved', 'sympy-proved']);

/** Values (decimal text) of the variables, by name. */
const Assignment = z.record(z.string(), z.string());

export const VerdictSchema = z.object({
  /** true: entailment holds; false: it does not (or the premise is vacuous); null: undecided. */
  holds: z.boolean().nullable(),
  method: VerdictMethodSchema,
  /** Values (decimal text) of an admissible assignment satisfying the premise but not the conclusion. */
  counterexample: Assignment.optional(),
  /** Points checked, for numeric verdicts. */
  samples: z.number().int().nonnegative().optional(),
  /** Human-readable detail ("z3 timed out after 2000 ms", "sin/cos: Z3 can't decide"). */
  note: z.string().optional(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

export const ConsistencySchema = z.object({
  /** true: some admissible assignment satisfies the equation; false: none does; null: undecided. */
  satisfiable: z.boolean().nullable(),
  method: z.enum(['z3', 'numeric', 'unknown']),
  witness: Assignment.optional(),
  note: z.string().optional(),
});
export type Consistency = z.infer<typeof ConsistencySchema>;
