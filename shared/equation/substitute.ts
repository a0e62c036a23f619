// Putting an expression for a symbol in a tree (trees are never changed: a new tree is built).
// Used where the engine reasons about a student's own value: follow-through puts the student's
// result into a relation, contradictions put one equation's value into another.
import type { Equation, Expr } from './ast.ts';

/** `e` with `by` put for every symbol `name`. */
export function substitute(e: Expr, name: string, by: Expr): Expr {
  switch (e.kind) {
    case 'sym':
      return e.name === name ? by : e;
    case 'neg':
      return { kind: 'neg', arg: substitute(e.arg, name, by) };
    case 'bin':
      return { kind: 'bin', op: e.op, left: substitute(e.left, name, by), right: substitute(e.right, name, by) };
    case 'call':
      return { kind: 'call', fn: e.fn, args: e.args.map((a) => substitute(a, name, by)) };
    default:
      return e;
  }
}

/** `eq` with `by` put for every symbol `name`. */
export function substituteEquation(eq: Equation, name: string, by: Expr): Equation {
  return { lhs: substitute(eq.lhs, name, by), rhs: substitute(eq.rhs, name, by) };
}
