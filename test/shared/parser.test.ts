import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEquation, equationToSympy, equationToLatex, parseEquationOrThrow } from '../../shared/equation/index.ts';

const VARS = ['u', 'v', 'w', 'S', 't'];

function err(src: string, vars?: string[]): string {
  const r = parseEquation(src, vars ? { variables: vars } : {});
  assert.equal(r.ok, false, `expected an error for ${src}`);
  return r.ok ? '' : r.errors.map((e) => e.message).join('; ');
}

test('parses Eq(...) and a = b forms to the same tree', () => {
  const a = parseEquationOrThrow('Eq(t, 2*S/u)');
  const b = parseEquationOrThrow('t = 2*S/u');
  assert.deepEqual(a, b);
});

test('canonical SymPy printing round-trips', () => {
  const cases = [
    'Eq(v, (u + sqrt(u**2 + 4*w**2))/2)',
    'Eq(t, S/(v + w) + S/(v - w))',
    'Eq(-x**2, (-x)**2)',
    'Eq(a - (b - c), a*(b/c))',
    'Eq(x**y**z, (x**y)**z)',
    'Eq(-(a*b), -a*b)',
    'Eq(2**(-x), 1.36)',
    'Eq(R, v_0**2*sin(2*theta)/g)',
  ];
  for (const c of cases) {
    const eq = parseEquationOrThrow(c);
    const printed = equationToSympy(eq);
    assert.deepEqual(parseEquationOrThrow(printed), eq, `${c} -> ${printed}`);
  }
  assert.equal(equationToSympy(parseEquationOrThrow('v = (u+sqrt(u**2+4*w**2))/2')), 'Eq(v, (u + sqrt(u**2 + 4*w**2))/2)');
});

test('specific error messages with columns', () => {
  assert.match(err('Eq(t, 2*S/U)', VARS), /symbol 'U' is not a variable of this question \(u, v, w, S, t\); did you mean 'u'\?/);
  assert.match(err('Eq(t, 2*S/(u+w)'), /unbalanced '\(' at column 3/);
  assert.match(err('t = (2*S/u'), /unbalanced '\(' at column 5/);
  assert.match(err('Eq(v, sqrt(u, w))'), /'sqrt' takes 1 argument, got 2/);
  assert.match(err('2*S/u'), /expected Eq\(left, right\) but found an expression/);
  assert.match(err('t = 2S/u'), /missing '\*' between '2' and 'S' at column 6/);
  assert.match(err('t = u^2'), /'\^' is not a power operator in SymPy; use '\*\*' at column 6/);
  assert.match(err('Eq(a, b, c)'), /'Eq' takes 2 arguments, got 3/);
  assert.match(err('v = u(1+w)'), /'u' is not a function/);
  assert.match(err('v = foo(u)'), /unknown function 'foo'/);
  assert.match(err('v = u)'), /unbalanced '\)' at column 6/);
  assert.match(err('θ = 1'), /write 'theta'/);
});

test('hostile inputs are rejected, never evaluated', () => {
  const hostile = [
    "__import__('os').system('x')",
    "Eq(x, __import__('os').system('rm -rf /'))",
    'Eq(x, lambda: 1)',
    'Eq(x, (lambda y: y)(1))',
    'Eq(x.real, 1)',
    'Eq(x, y[0])',
    "Eq(x, 'abc')",
    'Eq(x, y, evaluate=False)',
    'Eq(x, sqrt(x=1))',
    'Eq(x, exec(1))',
    'Eq(x, eval(1))',
    'Eq(x, open(1))',
    'Eq(x, Symbol(1))',
    'Eq(x, 1); import os',
    'Eq(x, {1: 2})',
    'Eq(x, 1e10)',
    'Eq(x, 1j)',
    'Eq(x, Eq(y, 1))',
    'Eq(x, (1, 2))',
    'x == 1',
    'a = b = c',
    'Eq(x, ' + '('.repeat(500) + '1' + ')'.repeat(500) + ')',
    'Eq(x, ' + '-'.repeat(500) + '1)',
    'Eq(x, ' + '9'.repeat(200) + ')',
    'Eq(x, `ls`)',
    'Eq(x, $y)',
    '',
    '   ',
    'Eq()',
    'Eq(x)',
    'Eq(x,)',
  ];
  for (const h of hostile) err(h);
});

test('LaTeX printer', () => {
  assert.equal(equationToLatex(parseEquationOrThrow('Eq(v, (u + sqrt(u**2 + 4*w**2))/2)')), 'v = \\frac{u + \\sqrt{u^{2} + 4 w^{2}}}{2}');
  assert.equal(equationToLatex(parseEquationOrThrow('Eq(R, v_0**2*sin(2*theta)/g)')), 'R = \\frac{v_{0}^{2} \\sin\\left(2 \\theta\\right)}{g}');
  assert.equal(equationToLatex(parseEquationOrThrow('Eq(x, 2*3)')), 'x = 2 \\cdot 3');
});

test("a question's variable named like a constant (E for an energy) is that variable; elsewhere E is Euler's number", () => {
  const vars = ['E', 'k', 'A'];
  const r = parseEquation('Eq(E, k*A**2/2)', { variables: vars });
  assert.ok(r.ok);
  assert.deepEqual(r.value.lhs, { kind: 'sym', name: 'E' });
  assert.equal(equationToSympy(r.value), 'Eq(E, k*A**2/2)');
  assert.equal(equationToLatex(r.value), 'E = \\frac{k A^{2}}{2}');
  const plain = parseEquation('Eq(k, E)', { variables: ['k'] });
  assert.ok(plain.ok);
  assert.deepEqual(plain.value.rhs, { kind: 'const', name: 'E' });
  assert.deepEqual(parseEquationOrThrow('Eq(k, pi)', { variables: ['k', 'pi'] }).rhs, { kind: 'sym', name: 'pi' });
});

test('limits: huge exponents and constants are refused with what and where, before any solver sees them', () => {
  const cases: [string, RegExp][] = [
    ['v = u**100000', /exponent 100000 is too large \(the limit is 100 in size\) at column 8/],
    ['v = 10**10**10', /exponent 10000000000 is too large .* at column 9/],
    ['v = 2**(2**64)', /exponent 18446744073709551616 is too large .* at column 8/],
    ['v = u**(-10**20)', /exponent -100000000000000000000 is too large .* at column 8/],
    ['v = u**(1000/3)', /exponent 1000\/3 is too large .* at column 8/],
    ['v = 2**(3**(4**5))', /exponent 1024 is too large .* at column 12/],
    ['v = (10**60)**100', /'\*\*' makes a constant with more than 400 digits at column 13/],
    ['v = ' + Array(10).fill('10**59').join('*'), /'\*' makes a constant with more than 400 digits at column \d+/],
    ['v = u*' + '9'.repeat(61), /number with more than 60 digits at column 7/],
  ];
  for (const [src, re] of cases) {
    const r = parseEquation(src);
    assert.equal(r.ok, false, src);
    if (!r.ok) {
      assert.equal(r.errors[0].code, 'too-complex', src);
      assert.match(r.errors[0].message, re, src);
    }
  }
  // Within the limits: physical constants, moderate powers, roots, symbolic exponents.
  for (const ok of ['h = 6.626*10**-34*u', 'v = u**100', 'v = u**-100', 'v = u**(1/3)', 'v = 2**(1/2)', 'v = u**u**w', 'v = (10**60)**6', 'v = (1/0)**5']) {
    assert.ok(parseEquation(ok).ok, ok);
  }
});

test('limits: deep nesting is an error naming the column, never a stack overflow', () => {
  // ~8,000 nested brackets or roots: refused (too long) without recursing.
  for (const open of ['(', 'sqrt(']) {
    const src = 'v = ' + open.repeat(8000) + 'u' + ')'.repeat(8000);
    const r = parseEquation(src);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.errors[0].code, 'too-complex');
  }
  // Within the length limit, nesting stops at MAX_DEPTH with the column where it went too deep.
  for (const [open, close, at] of [
    ['(', ')', 69],
    ['sqrt(', ')', 329],
    ['-', '', 69],
    ['u**', '', 198],
  ] as const) {
    const src = 'v = ' + open.repeat(1500).slice(0, 3900) + 'u' + close.repeat(1500).slice(0, 0);
    const r = parseEquation(src);
    assert.equal(r.ok, false, open);
    if (!r.ok) {
      assert.equal(r.errors[0].code, 'too-complex', open);
      assert.match(r.errors[0].message, new RegExp(`nested more than 64 levels deep at column ${at}$`), open);
    }
  }
  // A long flat product is not nesting: it parses.
  assert.ok(parseEquation('v = ' + Array(900).fill('u').join('*')).ok);
});

test("log(x, b), SymPy's log to a base, is log(x)/log(b) in the tree; other arities are still refused", () => {
  assert.deepEqual(parseEquationOrThrow('Eq(v, 10*log(u/w, 10))'), parseEquationOrThrow('Eq(v, 10*(log(u/w)/log(10)))'));
  assert.equal(equationToSympy(parseEquationOrThrow('Eq(v, log(u, 10))')), 'Eq(v, log(u)/log(10))');
  assert.match(err('Eq(v, log(u, 10, 2))'), /'log' takes 1 argument, got 3/);
  assert.match(err('Eq(v, log())'), /'log' takes 1 argument, got 0/);
});
