// Domains shared by the entailment tests (the development exam's questions, and plain reals).
import type { Domain } from '../../shared/exam.ts';

const positive = (...names: string[]): Domain['variables'] => names.map((name) => ({ name, assumptions: ['positive'] }));
const real = (...names: string[]): Domain['variables'] => names.map((name) => ({ name, assumptions: [] }));

export const DOMAINS: Record<string, Domain> = {
  /** q1: v, u, w, S, t all positive. */
  Q1: { variables: positive('v', 'u', 'w', 'S', 't') },
  /** q1's variables over the reals (the accuracy metric's domain). */
  R1: { variables: real('v', 'u', 'w', 'S', 't') },
  /** q2: theta in (0, pi/2). */
  Q2: {
    variables: [...positive('R', 'v_0'), { name: 'theta', assumptions: ['positive'], range: [0, 1.5707963267948966] }, ...positive('g', 't')],
  },
  Q3: { variables: positive('m', 'g', 'h', 'k', 'x', 'v') },
  R3: { variables: real('m', 'g', 'h', 'k', 'x', 'v') },
  /** Plain reals, and x, y not even declared (undeclared symbols are unconstrained reals). */
  X: { variables: real('x', 'y') },
  NONE: { variables: [] },
};
