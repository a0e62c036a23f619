// Strict parser for equations in SymPy syntax. It accepts exactly the grammar below and nothing
// else, so text from a student or a model can never reach an evaluator:
//
//   equation := 'Eq' '(' expr ',' expr ')' | expr '=' expr
//   expr     := term (('+' | '-') term)*
//   term     := unary (('*' | '/') unary)*
//   unary    := ('-' | '+') unary | power
//   power    := atom ('**' unary)?            (right-associative, binds tighter than unary minus, as in Python)
//   atom     := number | symbol | constant | function '(' expr ')' | '(' expr ')'
//
// Limits (hostile or runaway input is rejected here, with what and where, before any engine or
// solver sees it): the text's length (MAX_SOURCE_LENGTH), a number's digits (MAX_NUMBER_DIGITS),
// nesting of brackets, calls, unary signs and powers (MAX_DEPTH; the parser's recursion is bounded
// by it, so no input can overflow the stack), a constant exponent's size (|k| <= MAX_EXPONENT:
// `u**100000`, `10**10**10`, `2**(2**64)`, `u**(-10**20)` are refused) and the size of any constant
// the numbers make (MAX_CONSTANT_DIGITS: `(10**60)**100` is refused). Constants are folded exactly
// with bounded bigints while parsing, so checking them costs little.
//
// Error messages are specific and name the column (1-based), in the style the study found models
// can act on in a repair loop (LLM-Modulo).

import { GREEK_NAMES } from './greek.ts';
import { CONSTANTS, FUNCTIONS, type Equation, type Expr, type FunctionName, symbolsOf } from './ast.ts';
import { Fail, fail, tokenize, type ParseError, type Token } from './tokenize.ts';
import { babs, type Rat, rat, ratAdd, ratDiv, ratMul, ratSub, ratText } from './rational.ts';

export type { ParseError, ParseErrorCode } from './tokenize.ts';
export { MAX_NUMBER_DIGITS } from './tokenize.ts';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: ParseError[] };

export type ParseOptions = {
  /**
   * When given, every symbol must be one of these names (exact case). A question's variable
   * named like a constant (`E` for an energy) is that variable, not Euler's number, in its equations.
   */
  variables?: readonly string[];
};

/** Limits that keep hostile input cheap to reject. */
export const MAX_SOURCE_LENGTH = 4000;
export const MAX_DEPTH = 64;
/** Largest magnitude of a constant exponent (`x**100` is fine, `x**101` and `10**(10**10)` are not). */
export const MAX_EXPONENT = 100;
/** Largest number of digits of a constant sub-expression's exact value (numerator or denominator). */
export const MAX_CONSTANT_DIGITS = 400;

/** Exact value of a constant sub-expression; 'huge' past MAX_CONSTANT_DIGITS; null if not a rational constant. */
type ConstVal = Rat | 'huge' | null;
const MAX_CONSTANT_BITS = Math.ceil(MAX_CONSTANT_DIGITS * Math.log2(10));
const bits = (x: bigint): number => babs(x).toString(2).length;
/** r itself, or 'huge' past MAX_CONSTANT_DIGITS. */
const bounded = (r: Rat): ConstVal => (bits(r.n) > MAX_CONSTANT_BITS || bits(r.d) > MAX_CONSTANT_BITS ? 'huge' : r);
/** n/d in lowest terms, 'huge' past MAX_CONSTANT_DIGITS, null for a zero denominator. */
const mkRat = (n: bigint, d: bigint): ConstVal => (d === 0n ? null : bounded(rat(n, d)));
const RAT_OPS = { '+': ratAdd, '-': ratSub, '*': ratMul, '/': ratDiv } as const;
const shortText = (s: string): string => (s.length > 24 ? `${s.slice(0, 10)}...${s.slice(-10)} (${s.length} digits)` : s);

const PYTHON_KEYWORDS = new Set([
  'lambda',
  'import',
  'from',
  'def',
  'class',
  'return',
  'yield',
  'await',
  'async',
  'for',
  'while',
  'if',
  'else',
  'elif',
  'and',
  'or',
  'not',
  'in',
  'is',
  'None',
  'True',
  'False',
  'with',
  'as',
  'global',
  'nonlocal',
  'del',
  'pass',
  'raise',
  'try',
  'except',
  'finally',
  'assert',
  'break',
  'continue',
]);

class Parser {
  private pos = 0;
  private depth = 0;
  /** Exact values of the constant sub-expressions built so far (absent: not constant). */
  private readonly consts = new WeakMap<Expr, { n: bigint; d: bigint }>();
  constructor(
    private readonly toks: Token[],
    /** Variables that shadow a constant of the same name (E, pi). */
    private readonly shadowed: ReadonlySet<string> = new Set(),
  ) {}

  private peek(): Token {
    return this.toks[this.pos];
  }
  private next(): Token {
    return this.toks[this.pos++];
  }
  private isOp(text: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === text;
  }
  private describe(t: Token): string {
    return t.kind === 'eof' ? 'end of input' : `'${t.text}'`;
  }

  private constOf(e: Expr): ConstVal {
    return this.consts.get(e) ?? null;
  }

  /** Record the node's exact constant value (if any), refusing one too large to be sensible. */
  private fold(e: Expr, v: ConstVal, col: number, what: string): Expr {
    if (v === 'huge') return fail('too-complex', `${what} makes a constant with more than ${MAX_CONSTANT_DIGITS} digits`, col);
    if (v !== null) this.consts.set(e, v);
    return e;
  }

  private binary(op: '+' | '-' | '*' | '/', left: Expr, right: Expr, col: number): Expr {
    const e: Expr = { kind: 'bin', op, left, right };
    const a = this.constOf(left);
    const b = this.constOf(right);
    if (!a || !b || a === 'huge' || b === 'huge') return e;
    const v = op === '/' && b.n === 0n ? null : bounded(RAT_OPS[op](a, b));
    return this.fold(e, v, col, `'${op}'`);
  }

  private power(base: Expr, exponent: Expr, opCol: number, expCol: number): Expr {
    const e: Expr = { kind: 'bin', op: '**', left: base, right: exponent };
    const k = this.constOf(exponent);
    if (k && k !== 'huge' && babs(k.n) > BigInt(MAX_EXPONENT) * k.d) {
      fail('too-complex', `exponent ${shortText(ratText(k))} is too large (the limit is ${MAX_EXPONENT} in size)`, expCol);
    }
    const b = this.constOf(base);
    if (!k || k === 'huge' || k.d !== 1n || !b || b === 'huge') return e;
    // An integer power of a constant: exact, with |k| <= MAX_EXPONENT (checked above).
    const p = babs(k.n);
    if (Number(p) * Math.max(bits(b.n), bits(b.d)) > MAX_CONSTANT_BITS + 64) return this.fold(e, 'huge', opCol, "'**'");
    if (k.n < 0n && b.n === 0n) return e; // 0**(-k): undefined, not a constant
    const v = k.n < 0n ? mkRat(b.d ** p, b.n ** p) : mkRat(b.n ** p, b.d ** p);
    return this.fold(e, v, opCol, "'**'");
  }

  private enter(col: number): void {
    if (++this.depth > MAX_DEPTH) fail('too-complex', `expression nested more than ${MAX_DEPTH} levels deep`, col);
  }

  parseEquation(): Equation {
    const first = this.peek();
    const second = this.toks[this.pos + 1];
    if (first.kind === 'ident' && first.text === 'Eq' && second?.kind === 'op' && second.text === '(') {
      this.next();
      const open = this.next();
      const lhs = this.parseExpr();
      if (this.isOp(')')) fail('arity', "'Eq' takes 2 arguments, got 1", open.col);
      this.expectOp(',', open);
      const rhs = this.parseExpr();
      if (this.isOp(',')) {
        let n = 2;
        while (this.isOp(',')) {
          this.next();
          this.checkNoKeyword();
          this.parseExpr();
          n++;
        }
        fail('arity', `'Eq' takes 2 arguments, got ${n}`, open.col);
      }
      this.expectClose(open);
      this.expectEnd();
      return { lhs, rhs };
    }
    const lhs = this.parseExpr();
    if (this.isOp('=')) {
      this.next();
      const rhs = this.parseExpr();
      if (this.isOp('=')) fail('syntax', "a chain 'a = b = c' is two equations; give Eq(a, b) and Eq(b, c) separately", this.peek().col);
      this.expectEnd();
      return { lhs, rhs };
    }
    if (this.peek().kind === 'eof') fail('not-an-equation', 'expected Eq(left, right) but found an expression');
    return this.unexpected();
  }

  parseExpressionOnly(): Expr {
    const e = this.parseExpr();
    if (this.isOp('=')) fail('syntax', 'expected an expression but found an equation', this.peek().col);
    this.expectEnd();
    return e;
  }

  private expectEnd(): void {
    if (this.peek().kind !== 'eof') this.unexpected();
  }

  private unexpected(): never {
    const t = this.peek();
    if (t.kind === 'op' && t.text === ')') return fail('unbalanced', "unbalanced ')'", t.col);
    const prev = this.toks[this.pos - 1];
    if (prev && (t.kind === 'ident' || t.kind === 'num' || (t.kind === 'op' && t.text === '('))) {
      if (prev.kind === 'num' || prev.kind === 'ident' || (prev.kind === 'op' && prev.text === ')')) {
        return fail('missing-operator', `missing '*' between '${prev.text}' and '${t.text}'`, t.col);
      }
    }
    return fail('syntax', `unexpected ${this.describe(t)}`, t.col);
  }

  private expectOp(text: string, open: Token): void {
    if (this.isOp(text)) {
      this.next();
      return;
    }
    if (this.peek().kind === 'eof') fail('unbalanced', "unbalanced '('", open.col);
    this.unexpected();
  }

  private expectClose(open: Token): void {
    if (this.isOp(')')) {
      this.next();
      return;
    }
    if (this.peek().kind === 'eof') fail('unbalanced', "unbalanced '('", open.col);
    this.unexpected();
  }

  private checkNoKeyword(): void {
    const t = this.peek();
    const after = this.toks[this.pos + 1];
    if (t.kind === 'ident' && after?.kind === 'op' && after.text === '=') {
      // Inside a call `f(x=1)` reads as a keyword argument, which the grammar does not have.
      fail('forbidden', `keyword arguments ('${t.text}=') are not allowed`, t.col);
    }
  }

  private parseExpr(): Expr {
    let left = this.parseTerm();
    while (this.isOp('+') || this.isOp('-')) {
      const t = this.next();
      const right = this.parseTerm();
      left = this.binary(t.text as '+' | '-', left, right, t.col);
    }
    return left;
  }

  private parseTerm(): Expr {
    let left = this.parseUnary();
    while (this.isOp('*') || this.isOp('/')) {
      const t = this.next();
      const right = this.parseUnary();
      left = this.binary(t.text as '*' | '/', left, right, t.col);
    }
    return left;
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (this.isOp('-') || this.isOp('+')) {
      this.next();
      this.enter(t.col);
      const arg = this.parseUnary();
      this.depth--;
      if (t.text !== '-') return arg;
      const e: Expr = { kind: 'neg', arg };
      const a = this.constOf(arg);
      if (a && a !== 'huge') this.consts.set(e, { n: -a.n, d: a.d });
      return e;
    }
    return this.parsePower();
  }

  private parsePower(): Expr {
    const base = this.parseAtom();
    if (this.isOp('**')) {
      const t = this.next();
      this.enter(t.col);
      const expCol = this.peek().col;
      const exponent = this.parseUnary();
      this.depth--;
      return this.power(base, exponent, t.col, expCol);
    }
    return base;
  }

  private parseAtom(): Expr {
    const t = this.next();
    if (t.kind === 'num') {
      const e: Expr = { kind: 'num', text: t.text };
      const [int, frac = ''] = t.text.split('.');
      return this.fold(e, mkRat(BigInt(int + frac), 10n ** BigInt(frac.length)), t.col, 'number');
    }
    if (t.kind === 'op' && t.text === '(') {
      this.enter(t.col);
      if (this.isOp(')')) fail('syntax', "empty brackets '()'", t.col);
      const e = this.parseExpr();
      if (this.isOp(',')) fail('forbidden', 'tuples are not allowed', this.peek().col);
      this.expectClose(t);
      this.depth--;
      return e;
    }
    if (t.kind === 'ident') return this.parseName(t);
    if (t.kind === 'eof') return fail('syntax', 'unexpected end of input: an operand is missing');
    if (t.text === ')') return fail('unbalanced', "unbalanced ')'", t.col);
    if (t.text === '=') return fail('syntax', "unexpected '=': an operand is missing", t.col);
    return fail('syntax', `unexpected '${t.text}': an operand is missing`, t.col);
  }

  private parseName(t: Token): Expr {
    const name = t.text;
    if (PYTHON_KEYWORDS.has(name)) fail('forbidden', `'${name}' is not allowed`, t.col);
    if (name.startsWith('_')) fail('forbidden', `names starting with '_' are not allowed ('${name}')`, t.col);
    const isCall = this.isOp('(');
    if (name === 'Eq') fail('syntax', 'Eq(...) can only be the whole equation', t.col);
    if (Object.hasOwn(FUNCTIONS, name)) {
      const fn = name as FunctionName;
      if (!isCall) fail('syntax', `'${fn}' is a function: write ${fn}(...)`, t.col);
      const open = this.next();
      this.enter(open.col);
      const args: Expr[] = [];
      if (!this.isOp(')')) {
        this.checkNoKeyword();
        args.push(this.parseExpr());
        while (this.isOp(',')) {
          this.next();
          this.checkNoKeyword();
          args.push(this.parseExpr());
        }
      }
      this.expectClose(open);
      this.depth--;
      const arity = FUNCTIONS[fn];
      // SymPy's log(x, b), the log of x to base b ("log(I/I_0, 10)" for decibels), is log(x)/log(b):
      // the tree holds that quotient, so every engine sees only one-argument logs.
      if (fn === 'log' && args.length === 2) {
        return { kind: 'bin', op: '/', left: { kind: 'call', fn: 'log', args: [args[0]] }, right: { kind: 'call', fn: 'log', args: [args[1]] } };
      }
      if (args.length !== arity) {
        fail('arity', `'${fn}' takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}`, t.col);
      }
      return { kind: 'call', fn, args };
    }
    if ((CONSTANTS as readonly string[]).includes(name) && !isCall && !this.shadowed.has(name)) return { kind: 'const', name: name as 'pi' | 'E' };
    if (isCall) {
      // A lowercase word that isn't a Greek letter reads as a function name; anything else
      // (v, S, v_0, theta) is a variable written before a bracket, i.e. a missing '*'.
      if (name.length > 1 && /^[a-z]+$/.test(name) && !GREEK_NAMES.has(name)) {
        fail('unknown-function', `unknown function '${name}' (allowed: ${Object.keys(FUNCTIONS).join(', ')})`, t.col);
      }
      fail('not-a-function', `'${name}' is not a function; write '${name}*(...)' for a product`, t.col);
    }
    return { kind: 'sym', name };
  }
}

function run<T>(src: string, body: (p: Parser) => T, variables?: readonly string[]): ParseResult<T> {
  try {
    if (src.length > MAX_SOURCE_LENGTH) fail('too-complex', `input longer than ${MAX_SOURCE_LENGTH} characters`);
    if (src.trim() === '') fail('syntax', 'empty input');
    const shadowed = new Set((variables ?? []).filter((v) => (CONSTANTS as readonly string[]).includes(v)));
    return { ok: true, value: body(new Parser(tokenize(src), shadowed)) };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, errors: [e.error] };
    if (e instanceof RangeError) {
      // A stack overflow on pathological input: report it as input that is too complex.
      return { ok: false, errors: [{ code: 'too-complex', message: 'expression too complex' }] };
    }
    throw e;
  }
}

/** Error for each symbol that isn't a variable of the question, naming the close match if any. */
export function checkSymbols(node: Equation | Expr, variables: readonly string[]): ParseError[] {
  const allowed = new Set(variables);
  const list = variables.join(', ');
  return symbolsOf(node)
    .filter((s) => !allowed.has(s))
    .map((s) => {
      const close = variables.find((v) => v.toLowerCase() === s.toLowerCase() || v.replace(/_/g, '') === s.replace(/_/g, ''));
      return {
        code: 'unknown-symbol' as const,
        message: `symbol '${s}' is not a variable of this question (${list})${close ? `; did you mean '${close}'?` : ''}`,
      };
    });
}

export function parseEquation(src: string, options: ParseOptions = {}): ParseResult<Equation> {
  const r = run(src, (p) => p.parseEquation(), options.variables);
  if (!r.ok || !options.variables) return r;
  const errors = checkSymbols(r.value, options.variables);
  return errors.length ? { ok: false, errors } : r;
}

export function parseExpression(src: string, options: ParseOptions = {}): ParseResult<Expr> {
  const r = run(src, (p) => p.parseExpressionOnly(), options.variables);
  if (!r.ok || !options.variables) return r;
  const errors = checkSymbols(r.value, options.variables);
  return errors.length ? { ok: false, errors } : r;
}

/** Parse or throw an Error whose message is the first parse error (for trusted inputs: exams, tests). */
export function parseEquationOrThrow(src: string, options: ParseOptions = {}): Equation {
  const r = parseEquation(src, options);
  if (!r.ok) throw new Error(`${JSON.stringify(src)}: ${r.errors.map((e) => e.message).join('; ')}`);
  return r.value;
}

export function formatErrors(errors: ParseError[]): string {
  return errors.map((e) => e.message).join('; ');
}
