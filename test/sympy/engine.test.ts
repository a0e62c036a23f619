// The SymPy worker inside the product's engine (electron/engine/engine-factory.ts): identities Z3
// can't prove are upgraded from sampling to a SymPy proof, false ones stay refuted, the worker is
// asked only where the verdict would otherwise be numeric, and without Python grading goes on
// with one plain notice.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseEquationOrThrow } from '../../shared/equation/parser.ts';
import { questionDomain } from '../../shared/exam.ts';
import { createEngine } from '../../electron/engine/decide/engine-factory.ts';
import { loadExamFile } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { SYMPY_NOT_FOUND } from '../../electron/engine/decide/sympy/index.ts';
import { PYTHON, devDomain, sympySkipReason } from './helpers.ts';

const skip = sympySkipReason() ?? false;
const eq = parseEquationOrThrow;
const DOUBLE = eq('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)');
const SIN2 = eq('Eq(R, v_0**2*sin(2*theta)/g)');
const BOGUS = '/nonexistent/equimark/python3';

describe('createEngine with the SymPy prover', { skip }, () => {
  test('the q2 double-angle identity is proved by SymPy both ways; false identities stay refuted; SymPy is asked only for would-be numeric verdicts', async () => {
    const notices: string[] = [];
    const engine = await createEngine({ sympy: { pythonPath: PYTHON }, onNotice: (m) => notices.push(m) });
    try {
      const q2 = devDomain('q2');
      const q1 = devDomain('q1');
      // Algebraic and refuted pairs never reach the worker (it is not even started).
      const alg = await engine.entails(eq('Eq(v, (u + sqrt(u**2 + 4*w**2))/2)'), eq('Eq(v**2 - u*v - w**2, 0)'), q1);
      assert.equal(alg.holds, true);
      assert.match(alg.method, /^z3-proved$/);
      const wrong = await engine.entails(DOUBLE, eq('Eq(R, v_0**2*sin(theta)/g)'), q2);
      assert.equal(wrong.holds, false);
      assert.equal(wrong.method, 'numeric-counterexample');
      const wrongExp = await engine.entails(eq('Eq(t, exp(2*g))'), eq('Eq(t, 2*exp(g))'), q2);
      assert.equal(wrongExp.holds, false);
      assert.equal(engine.sympyStatus()!.requests, 0, 'no proof asked for pairs decided without sampling agreement');
      assert.equal(engine.sympyStatus()!.state, 'idle', 'the worker starts lazily');

      const fwd = await engine.entails(DOUBLE, SIN2, q2);
      const back = await engine.entails(SIN2, DOUBLE, q2);
      for (const v of [fwd, back]) {
        assert.equal(v.holds, true);
        assert.equal(v.method, 'sympy-proved', JSON.stringify(v));
        assert.match(v.note ?? '', /SymPy proof/);
      }
      const log = await engine.entails(eq('Eq(t, log(g**2))'), eq('Eq(t, 2*log(g))'), q2);
      assert.equal(log.method, 'sympy-proved', JSON.stringify(log));
      const asked = engine.sympyStatus()!.requests;
      assert.equal(asked, 3);
      // The verdict cache answers repeats without asking again, with the same (upgraded) method.
      assert.equal((await engine.entails(DOUBLE, SIN2, q2)).method, 'sympy-proved');
      assert.equal(engine.sympyStatus()!.requests, asked);
      assert.deepEqual(notices, []);
      assert.equal(engine.sympyStatus()!.state, 'ready');
    } finally {
      await engine.close();
    }
    assert.equal(engine.sympyStatus()!.state, 'closed', 'closing the engine closes the worker');
  });

  test('marking a q2 answer written with sin*cos: same marks, evidence says sympy-proved', async () => {
    const exam = loadExamFile(new URL('../../../shared/data/exam.json', import.meta.url).pathname);
    const cq = exam.questions.get('q2')!;
    const engine = await createEngine({ sympy: { pythonPath: PYTHON } });
    const plain = await createEngine({ sympy: false });
    try {
      const withSympy = await markEquations(engine, cq, [DOUBLE]);
      const without = await markEquations(plain, cq, [DOUBLE]);
      assert.deepEqual(
        withSympy.items.map((i) => [i.itemId, i.awarded, i.outcome]),
        without.items.map((i) => [i.itemId, i.awarded, i.outcome]),
        'SymPy never changes marks',
      );
      const c = withSympy.items.find((i) => i.itemId === 'c')!;
      assert.equal(c.awarded, 2);
      assert.equal(c.evidence[0].forward.method, 'sympy-proved');
      assert.equal(without.items.find((i) => i.itemId === 'c')!.evidence[0].forward.method, 'numeric-agreement');
      assert.equal(plain.sympyStatus(), null);
    } finally {
      await engine.close();
      await plain.close();
    }
  });
});

describe('createEngine without a usable Python', () => {
  test('a bogus configured path and nothing else: grading works on Z3 and sampling, the status says why, one notice', async () => {
    const notices: string[] = [];
    const engine = await createEngine({ sympy: { pythonPath: BOGUS, searchSystem: false, env: {} }, onNotice: (m) => notices.push(m) });
    try {
      const q2 = devDomain('q2');
      const fwd = await engine.entails(DOUBLE, SIN2, q2);
      assert.equal(fwd.holds, true);
      assert.equal(fwd.method, 'numeric-agreement');
      assert.equal((await engine.entails(eq('Eq(t, log(g**2))'), eq('Eq(t, 2*log(g))'), q2)).method, 'numeric-agreement');
      const exam = loadExamFile(new URL('../../../shared/data/exam.json', import.meta.url).pathname);
      const marks = await markEquations(engine, exam.questions.get('q2')!, [SIN2, eq('Eq(t, 2*v_0*sin(theta)/g)')]);
      // Element-wise: neither equation alone implies R = v_0*cos(theta)*t (item b).
      assert.deepEqual(
        marks.items.map((i) => i.awarded),
        [1, 0, 2],
      );
      const s = engine.sympyStatus()!;
      assert.equal(s.state, 'unavailable');
      assert.equal(s.message, SYMPY_NOT_FOUND);
      assert.ok(
        s.tried?.some((t) => t.includes(BOGUS) && t.includes('configured') && /not found/.test(t)),
        JSON.stringify(s.tried),
      );
      assert.deepEqual(notices, [SYMPY_NOT_FOUND], 'said once, in plain words');
    } finally {
      await engine.close();
    }
  });

  test('a bogus configured path falls back to the system Python and the status says it was passed over', { skip }, async () => {
    const engine = await createEngine({ sympy: { pythonPath: BOGUS } });
    try {
      assert.equal(
        (
          await engine.entails(
            DOUBLE,
            SIN2,
            questionDomain(loadExamFile(new URL('../../../shared/data/exam.json', import.meta.url).pathname).questions.get('q2')!.question),
          )
        ).method,
        'sympy-proved',
      );
      const s = engine.sympyStatus()!;
      assert.equal(s.state, 'ready');
      assert.match(s.message, new RegExp(`passed over: ${BOGUS.replace(/\//g, '\\/')} \\(configured\\): not found`));
    } finally {
      await engine.close();
    }
  });
});

describe('changing the Python (Settings) on a running engine', { skip }, () => {
  test('sampling verdicts cached without SymPy are decided again with the new worker; other verdicts stay cached', async () => {
    const notices: string[] = [];
    const engine = await createEngine({ sympy: { pythonPath: BOGUS, searchSystem: false, env: {} }, onNotice: (m) => notices.push(m) });
    try {
      const q2 = devDomain('q2');
      assert.equal((await engine.entails(DOUBLE, SIN2, q2)).method, 'numeric-agreement');
      const wrong = eq('Eq(R, v_0**2*sin(theta)/g)');
      assert.equal((await engine.entails(DOUBLE, wrong, q2)).method, 'numeric-counterexample');
      assert.equal(notices.length, 1);
      const hits = engine.stats().cacheHits;
      await engine.setSympy({ pythonPath: PYTHON });
      assert.equal((await engine.entails(DOUBLE, SIN2, q2)).method, 'sympy-proved');
      assert.equal(engine.stats().cacheHits, hits, 'the sampling verdict was decided again');
      assert.equal((await engine.entails(DOUBLE, wrong, q2)).method, 'numeric-counterexample');
      assert.equal(engine.stats().cacheHits, hits + 1, 'the counterexample stayed cached');
      assert.equal(engine.sympyStatus()!.state, 'ready');
      // And back to a missing Python: said again, once.
      await engine.setSympy({ pythonPath: BOGUS, searchSystem: false, env: {} });
      assert.equal((await engine.entails(SIN2, DOUBLE, q2)).method, 'numeric-agreement');
      assert.equal(notices.length, 2);
    } finally {
      await engine.close();
    }
  });
});
