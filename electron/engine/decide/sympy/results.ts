// What the worker's operations answer (prove_entailment, solve_for, limits, simplify).
import type { Expr } from '../../../../shared/equation/ast.ts';

/** A value computed by SymPy: our AST where it fits the grammar (else null), and SymPy text for display only. */
export type SympyValue = { ast: Expr | null; text: string; latex: string };

export type ProveResult = {
  result: 'proved' | 'unknown';
  /** 'conclusion-is-identity' | 'solve-substitute-simplify' when proved. */
  method?: string;
  /** The premise variable solved for and substituted. */
  variable?: string;
  solutions?: string[];
  /** Why not proved (including timeouts and an unavailable SymPy). */
  note?: string;
};

export type SolveResult = {
  target: string;
  results: {
    /** Index of the student equation, or 'system' when solved together with `eliminate`. */
    equation: number | 'system';
    solutions: SympyValue[];
    /** true: every admissible solution is listed; false: SymPy's solve may have missed some; null: unknown. */
    complete: boolean | null;
  }[];
};

export type LimitsResult = {
  large: string;
  small: string;
  /** How the limit is taken, e.g. "w = eps*u, eps -> 0+". */
  substitution: string;
  results: {
    expr: SympyValue;
    /** The limit as eps -> 0+ (null where SymPy couldn't take it). */
    limit: SympyValue | null;
    /** Expansion to second order in small/large, substituted back. */
    series: SympyValue | null;
    limitNote?: string;
    seriesNote?: string;
  }[];
};

export type SimplifyResult = { expr: SympyValue } | { lhs: SympyValue; rhs: SympyValue };
