// The equation language's abstract syntax tree. Plain JSON-serialisable data, so the same tree
// travels unchanged to Z3 (electron/), the SymPy worker (resources/, over JSON lines) and the
// renderer. Nothing here is ever turned back into source and evaluated.

/** Functions of the grammar, with their arity. */
export const FUNCTIONS = {
  sqrt: 1,
  sin: 1,
  cos: 1,
  tan: 1,
  asin: 1,
  acos: 1,
  atan: 1,
  exp: 1,
  log: 1,
  Abs: 1,
} as const;
export type FunctionName = keyof typeof FUNCTIONS;

export const CONSTANTS = ['pi', 'E'] as const;
export type ConstantName = (typeof CONSTANTS)[number];

export type BinaryOp = '+' | '-' | '*' | '/' | '**';

/**
 * A number is kept as its decimal source text ("2", "1.36"): consumers turn it into an exact
 * rational (see `numberToRational`), never into a float on the way in.
 */
export type NumNode = { kind: 'num'; text: string };
export type SymNode = { kind: 'sym'; name: string };
export type ConstNode = { kind: 'const'; name: ConstantName };
export type NegNode = { kind: 'neg'; arg: Expr };
export type BinNode = { kind: 'bin'; op: BinaryOp; left: Expr; right: Expr };
export type CallNode = { kind: 'call'; fn: FunctionName; args: Expr[] };

export type Expr = NumNode | SymNode | ConstNode | NegNode | BinNode | CallNode;

/** `Eq(lhs, rhs)`. */
export type Equation = { lhs: Expr; rhs: Expr };

export const num = (text: string): NumNode => ({ kind: 'num', text });
export const sym = (name: string): SymNode => ({ kind: 'sym', name });
export const bin = (op: BinaryOp, left: Expr, right: Expr): BinNode => ({ kind: 'bin', op, left, right });
export const neg = (arg: Expr): NegNode => ({ kind: 'neg', arg });
export const call = (fn: FunctionName, ...args: Expr[]): CallNode => ({ kind: 'call', fn, args });

/** Exact value of a number node as numerator/denominator (bigint), e.g. "1.36" -> 136/100. */
export function numberToRational(text: string): { n: bigint; d: bigint } {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw new Error(`not a decimal number: ${text}`);
  const int = m[1] || '0';
  const frac = m[2] ?? '';
  return { n: BigInt(int + frac), d: 10n ** BigInt(frac.length) };
}

/** Symbols of an expression or equation, in first-seen order. */
export function symbolsOf(node: Expr | Equation): string[] {
  const out = new Set<string>();
  const walk = (e: Expr): void => {
    switch (e.kind) {
      case 'sym':
        out.add(e.name);
        return;
      case 'neg':
        walk(e.arg);
        return;
      case 'bin':
        walk(e.left);
        walk(e.right);
        return;
      case 'call':
        e.args.forEach(walk);
        return;
      default:
        return;
    }
  };
  if ('lhs' in node) {
    walk(node.lhs);
    walk(node.rhs);
  } else walk(node);
  return [...out];
}
