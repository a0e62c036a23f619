// The SymPy worker through its Node client: proofs, solving, limits, display, hostile inputs,
// time and memory limits, restarts, concurrency and the no-Python path.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Equation, Expr } from '../../shared/equation/ast.ts';
import { parseEquationOrThrow, parseExpression } from '../../shared/equation/parser.ts';
import type { Domain } from '../../shared/exam.ts';
import { SYMPY_NOT_FOUND, SympyError, SympyWorker, pythonCandidates } from '../../electron/engine/decide/sympy/index.ts';
import { PYTHON, devDomain, sympySkipReason } from './helpers.ts';

const skip = sympySkipReason() ?? false;
const eq = (s: string): Equation => parseEquationOrThrow(s);
const ex = (s: string): Expr => {
  const r = parseExpression(s);
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value;
};
const positive = (...names: string[]): Domain => ({ variables: names.map((name) => ({ name, assumptions: ['positive'] })) });
const real = (...names: string[]): Domain => ({ variables: names.map((name) => ({ name, assumptions: [] })) });

async function rejects(p: Promise<unknown>, code: string, message: RegExp): Promise<SympyError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof SympyError, `expected SympyError, got ${e}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, message);
    return e;
  }
  assert.fail(`expected a '${code}' error`);
}

describe('SymPy worker', { skip }, () => {
  let w: SympyWorker;
  before(async () => {
    w = new SympyWorker({ pythonPath: PYTHON, debugOps: true, timeoutMs: 6000 });
    const s = await w.start();
    assert.equal(s.state, 'ready', s.message);
  });
  after(() => w.close());

  test('q2: the trig identity proved both ways by SymPy', async () => {
    const d = devDomain('q2');
    const a = eq('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)');
    const b = eq('Eq(R, v_0**2*sin(2*theta)/g)');
    assert.equal(await w.proveEntailment(a, b, d), 'proved');
    assert.equal(await w.proveEntailment(b, a, d), 'proved');
    const detail = await w.proveEntailmentDetailed(b, a, d);
    assert.equal(detail.method, 'solve-substitute-simplify');
  });

  test('other identities Z3 cannot do are proved', async () => {
    assert.equal(await w.proveEntailment(eq('Eq(y, log(x**2))'), eq('Eq(y, 2*log(x))'), positive('x', 'y')), 'proved');
    assert.equal(await w.proveEntailment(eq('Eq(y, exp(2*x))'), eq('Eq(y, exp(x)**2)'), real('x', 'y')), 'proved');
    assert.equal(await w.proveEntailment(eq('Eq(v**2, u**2)'), eq('Eq(v, u)'), positive('u', 'v')), 'proved');
    // An identity conclusion holds whatever the premise.
    assert.equal(await w.proveEntailment(eq('Eq(x, 1)'), eq('Eq(sin(y)**2 + cos(y)**2, 1)'), real('x', 'y')), 'proved');
  });

  test('a false identity is never proved', async () => {
    const cases: [string, string, Domain][] = [
      ['Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)', 'Eq(R, v_0**2*sin(theta)/g)', devDomain('q2')],
      ['Eq(t, 2*v_0*sin(theta)/g)', 'Eq(t, 2*v_0*cos(theta)/g)', devDomain('q2')],
      ['Eq(y, log(x**2))', 'Eq(y, 2*log(x))', real('x', 'y')], // false for x < 0
      ['Eq(y, sqrt(x**2))', 'Eq(y, x)', real('x', 'y')],
      ['Eq(v**2, u**2)', 'Eq(v, u)', real('u', 'v')], // v = -u
      ['Eq(sin(x), sin(y))', 'Eq(x, y)', real('x', 'y')],
      ['Eq(a*x, a*y)', 'Eq(x, y)', real('a', 'x', 'y')], // a = 0
      ['Eq(2*S/u, S/(v + w) + S/(v - w))', 'Eq(v, (u - sqrt(u**2 + 4*w**2))/2)', devDomain('q1')],
      ['Eq(v, (u + sqrt(u**2 + 4*w**2))/2)', 'Eq(v, (u + sqrt(u**2 + w**2))/2)', devDomain('q1')],
    ];
    for (const [p, c, d] of cases) {
      const r = await w.proveEntailmentDetailed(eq(p), eq(c), d);
      assert.equal(r.result, 'unknown', `${p} => ${c} must not be proved (${JSON.stringify(r)})`);
    }
  });

  test('solveFor: the student quadratic solved for v under the assumptions', async () => {
    const r = await w.solveFor([eq('Eq(2*S/u, S/(v + w) + S/(v - w))'), eq('Eq(t, 2*S/u)')], 'v', devDomain('q1'));
    assert.equal(r.results.length, 1); // only the first equation has v
    const texts = r.results[0].solutions.map((s) => s.text);
    assert.ok(texts.includes('u/2 + sqrt(u**2 + 4*w**2)/2'), texts.join(' | '));
    assert.equal(r.results[0].complete, true);
    const sys = await w.solveFor([eq('Eq(t, 2*S/u)'), eq('Eq(t, S/(v + w) + S/(v - w))')], 'v', devDomain('q1'), { eliminate: ['t'] });
    assert.ok(
      sys.results[0].solutions.some((s) => s.text === 'u/2 + sqrt(u**2 + 4*w**2)/2'),
      JSON.stringify(sys),
    );
  });

  test('limits: q1 answer gives v -> u when u >> w and v -> w when w >> u', async () => {
    const d = devDomain('q1');
    const answer = eq('Eq(v, (u + sqrt(u**2 + 4*w**2))/2)');
    const uw = await w.limits({ equation: answer, target: 'v' }, 'u', 'w', d);
    assert.equal(uw.results[0].limit?.text, 'u');
    assert.deepEqual(uw.results[0].limit?.ast, { kind: 'sym', name: 'u' });
    assert.equal(uw.results[0].series?.text, 'u + w**2/u');
    const wu = await w.limits({ expr: answer.rhs }, 'w', 'u', d);
    assert.equal(wu.results[0].limit?.text, 'w');
  });

  test('simplify: display form as our AST and SymPy text', async () => {
    const r = await w.simplify(eq('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)'), devDomain('q2'));
    assert.ok('rhs' in r);
    assert.equal(r.rhs.text, 'v_0**2*sin(2*theta)/g');
    assert.ok(r.rhs.ast);
    const e = await w.simplify(ex('sqrt(x**2)'), positive('x'));
    assert.ok('expr' in e && e.expr.text === 'x');
  });

  test('hostile: nodes outside the whitelist are refused, and the next request succeeds', async () => {
    const d = real('x');
    const bad: [unknown, RegExp][] = [
      [{ kind: 'attr', name: '__class__' }, /node kind 'attr' is not allowed/],
      [{ kind: 'call', fn: '__import__', args: [{ kind: 'sym', name: 'x' }] }, /function '__import__' is not allowed/],
      [{ kind: 'call', fn: 'sin', args: [] }, /'sin' takes 1 argument/],
      [{ kind: 'bin', op: '%', left: { kind: 'sym', name: 'x' }, right: { kind: 'num', text: '2' } }, /unknown operator '%'/],
      [{ kind: 'num', text: '1e400' }, /decimal digits/],
      [{ kind: 'sym', name: 'x; import os' }, /symbol name/],
      [{ kind: 'sym', name: 'x', code: 'print(1)' }, /unexpected field\(s\) code/],
      [{ kind: 'const', name: 'oo' }, /unknown constant/],
      ['x**2', /expected an expression node/],
    ];
    for (const [node, message] of bad) {
      await rejects(w.request('simplify', { expr: node, domain: d }), 'refused', message);
    }
    await rejects(w.request('eval', { source: '1+1' }), 'refused', /unknown operation 'eval'/);
    await w.ping();
  });

  test('hostile: x**(10**10) and huge powers are refused before building', async () => {
    // Our grammar refuses these before any solver sees them; the worker must refuse them too when
    // handed the tree directly (its own defence, whoever calls it).
    const pow = (left: Expr, right: Expr): Expr => ({ kind: 'bin', op: '**', left, right });
    const num = (text: string): Expr => ({ kind: 'num', text });
    const x: Expr = { kind: 'sym', name: 'x' };
    const xHuge = pow(x, pow(num('10'), num('10')));
    const t0 = performance.now();
    await rejects(w.simplify(xHuge, real('x')), 'refused', /exponent 10000000000 is too large/);
    await rejects(w.simplify(pow(pow(num('10'), num('1000')), num('1000')), real('x')), 'refused', /too large to compute/);
    const premise: Equation = { lhs: { kind: 'sym', name: 'y' }, rhs: xHuge };
    await rejects(
      w.proveEntailment(premise, eq('Eq(y, x)'), real('x', 'y')).then((r) => {
        if (r === 'unknown') throw new SympyError('refused', 'unknown: exponent too large');
      }),
      'refused',
      /too large/,
    );
    assert.ok(performance.now() - t0 < 2000);
    await w.ping();
  });

  test('hostile: deep nesting is refused clearly', async () => {
    let deep: unknown = { kind: 'sym', name: 'x' };
    for (let i = 0; i < 300; i++) deep = { kind: 'neg', arg: deep };
    await rejects(w.request('simplify', { expr: deep, domain: {} }), 'refused', /nested more than 100 levels/);
    let deeper: unknown = { kind: 'sym', name: 'x' };
    for (let i = 0; i < 5000; i++) deeper = { kind: 'call', fn: 'sin', args: [deeper] };
    await rejects(w.request('simplify', { expr: deeper, domain: {} }), 'too-complex', /nested too deeply/);
    await w.ping();
  });

  test('hostile: a simplify that would run for minutes ends within its limit, and the next succeeds', async () => {
    const t0 = performance.now();
    // The worker's own time limit normally answers first; on a loaded machine the client's hard
    // limit may kill it first (and restart it). Either way the request ends within its limit.
    await rejects(
      w.simplify(ex('(sin(x) + cos(y) + tan(z) + exp(x) + log(y))**20'), positive('x', 'y', 'z'), { timeoutMs: 2000 }),
      'timeout',
      /time limit|longer than 2000 ms.*restarted/,
    );
    const took = performance.now() - t0;
    assert.ok(took < 2500, `took ${took} ms`);
    assert.equal(await w.proveEntailment(eq('Eq(y, exp(2*x))'), eq('Eq(y, exp(x)**2)'), real('x', 'y')), 'proved');
  });

  test('a request stuck where the worker cannot interrupt it is killed; the worker restarts; queued requests still succeed', async () => {
    const restartsBefore = w.status().restarts;
    const t0 = performance.now();
    const stuck = w.request('debug_block', { ms: 60000 }, { timeoutMs: 1500 });
    const queued = [w.simplify(ex('2*x + 3*x'), real('x')), w.simplify(ex('y*y'), real('y'))];
    await rejects(stuck, 'timeout', /longer than 1500 ms.*restarted/);
    assert.ok(performance.now() - t0 < 2500);
    const [a, b] = await Promise.all(queued);
    assert.ok('expr' in a && a.expr.text === '5*x');
    assert.ok('expr' in b && b.expr.text === 'y**2');
    // At least the one restart (a loaded machine may need another for the new worker to start).
    assert.ok(w.status().restarts >= restartsBefore + 1, `restarts ${w.status().restarts}, before ${restartsBefore}`);
  });

  test('a crash fails only that request; several in flight get their own answers', async () => {
    const inputs = ['x + x', 'x*x*x', 'sin(x)**2 + cos(x)**2', 'exp(log(x))', 'sqrt(4*x**2)', 'x/x'];
    const expected = ['2*x', 'x**3', '1', 'x', '2*x', '1'];
    const all = [
      ...inputs.slice(0, 3).map((s) => w.simplify(ex(s), positive('x'))),
      w.request('debug_exit', { code: 9 }),
      ...inputs.slice(3).map((s) => w.simplify(ex(s), positive('x'))),
    ];
    const settled = await Promise.allSettled(all);
    const crash = settled[3];
    assert.equal(crash.status, 'rejected');
    assert.equal((crash as PromiseRejectedResult).reason.code, 'crashed');
    assert.match((crash as PromiseRejectedResult).reason.message, /stopped \(exit code 9\).*restarted/);
    const texts = settled
      .filter((_, i) => i !== 3)
      .map((s) =>
        s.status === 'fulfilled' && 'expr' in (s.value as object)
          ? (s.value as { expr: { text: string } }).expr.text
          : `failed: ${(s as PromiseRejectedResult).reason}`,
      );
    assert.deepEqual(texts, expected);
  });
});

test('a memory blow-up fails that request with a clear reason and the worker restarts', { skip }, async () => {
  const w = new SympyWorker({ pythonPath: PYTHON, debugOps: true, memoryMb: 400, timeoutMs: 10000 });
  try {
    await rejects(w.request('debug_alloc', { mb: 2000 }), 'memory', /ran out of memory/);
    await w.ping();
    assert.equal(w.status().state, 'ready');
  } finally {
    await w.close();
  }
});

test('no Python with SymPy: plain-words status, proofs answer unknown, other calls fail clearly', async () => {
  const w = new SympyWorker({ pythonPath: '/nonexistent/python3', env: { EQUIMARK_PYTHON: '/bin/false' }, resourcesPath: '/nonexistent', searchSystem: false });
  try {
    const s = await w.start();
    assert.equal(s.state, 'unavailable');
    assert.equal(s.message, SYMPY_NOT_FOUND);
    assert.equal(s.tried?.length, 2);
    assert.match(s.tried![0], /\/nonexistent\/python3 \(configured\): not found/);
    assert.equal(await w.proveEntailment(eq('Eq(x, 1)'), eq('Eq(x, 1)'), real('x')), 'unknown');
    await rejects(w.solveFor([eq('Eq(x, 1)')], 'x', real('x')), 'unavailable', /SymPy not found/);
  } finally {
    await w.close();
  }
});

test('Python lookup order: configured, EQUIMARK_PYTHON, bundled, system', () => {
  const c = pythonCandidates({ pythonPath: '/opt/p/python3', env: { EQUIMARK_PYTHON: '/env/python3' }, resourcesPath: '/nonexistent' });
  assert.deepEqual(c.slice(0, 2), [
    { path: '/opt/p/python3', source: 'configured' },
    { path: '/env/python3', source: 'env' },
  ]);
  assert.equal(c.at(-1)?.source, 'path');
});
