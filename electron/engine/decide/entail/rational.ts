// Exact rationals for the engine: the arithmetic (shared/equation/rational.ts, which the parser
// uses too) re-exported, and the exact folding of constant sub-expressions such as exponents
// (`x**(1/2)`, `x**0.5`, `x**(-2)`).
import { type Expr, numberToRational } from '../../../../shared/equation/ast.ts';
import { babs, isInt, type Rat, rat, ratAdd, ratDiv, ratMul, ratSub } from '../../../../shared/equation/rational.ts';
export { doubleToRat, isInt, type Rat, rat, ratAdd, ratDiv, ratMul, ratSub, ratToDecimal, ratToNumber } from '../../../../shared/equation/rational.ts';

/** Largest exponent we expand exactly (keeps hostile `x**(10**9)` cheap to reject). */
export const MAX_INT_POWER = 64n;

/** Exact value of a constant rational expression (numbers, + - * /, integer powers), else null. */
export function constRational(e: Expr): Rat | null {
  try {
    return fold(e);
  } catch {
    return null; // division by zero, too large a power
  }
}

function fold(e: Expr): Rat | null {
  switch (e.kind) {
    case 'num': {
      const r = numberToRational(e.text);
      return rat(r.n, r.d);
    }
    case 'neg': {
      const a = fold(e.arg);
      return a && rat(-a.n, a.d);
    }
    case 'bin': {
      const l = fold(e.left);
      if (!l) return null;
      const r = fold(e.right);
      if (!r) return null;
      switch (e.op) {
        case '+':
          return ratAdd(l, r);
        case '-':
          return ratSub(l, r);
        case '*':
          return ratMul(l, r);
        case '/':
          return ratDiv(l, r);
        case '**': {
          if (!isInt(r) || babs(r.n) > MAX_INT_POWER) return null;
          if (babs(l.n) > 10n ** 40n || l.d > 10n ** 40n) return null;
          const k = babs(r.n);
          let p = rat(l.n ** k, l.d ** k);
          if (r.n < 0n) p = ratDiv(rat(1n), p);
          return p;
        }
      }
      return null;
    }
    default:
      return null;
  }
}
