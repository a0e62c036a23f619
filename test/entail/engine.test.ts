// Engine behaviour beyond single verdicts: list comparison, consistency, caching and statistics,
// time-outs, reproducibility and the optional algebra prover.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import type { AlgebraProver } from '../../electron/engine/decide/entail/types.ts';
import type { Z3Backend } from '../../electron/engine/decide/entail/z3.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import { DOMAINS } from './domains.ts';

const P = (s: string) => parseEquationOrThrow(s);
const L = (...s: string[]) => s.map(P);

let engine: Entailer;
before(async () => {
  engine = await Entailer.create({ seed: 3 });
});
after(async () => {
  await engine.close();
});

describe('compareLists (the accuracy metric)', () => {
  it("the study's example: [v=u+w, v=u+w] and [v-u=w, v=u-w] are not equivalent", async () => {
    const r = await engine.compareLists(L('Eq(v, u + w)', 'Eq(v, u + w)'), L('Eq(v - u, w)', 'Eq(v, u - w)'), DOMAINS.R1);
    assert.equal(r.equivalent, false);
    assert.deepEqual(r.aCoveredBy, [0, 0]);
    assert.deepEqual(r.bCoveredBy, [0, -1]); // v = u - w follows from no equation of the first list
  });
  it('order and repeats do not matter', async () => {
    const r = await engine.compareLists(L('Eq(t, 2*S/u)', 'Eq(v, u + w)', 'Eq(v, u + w)'), L('Eq(v - u, w)', 'Eq(2*S/u, t)'), DOMAINS.R1);
    assert.equal(r.equivalent, true);
    assert.deepEqual(r.aCoveredBy, [1, 0, 0]);
    assert.deepEqual(r.bCoveredBy, [1, 0]);
  });
  it('empty lists are equivalent only to empty lists', async () => {
    assert.equal((await engine.compareLists([], [], DOMAINS.R1)).equivalent, true);
    assert.equal((await engine.compareLists([], L('Eq(v, u)'), DOMAINS.R1)).equivalent, false);
    assert.equal((await engine.compareLists(L('Eq(v, u)'), [], DOMAINS.R1)).equivalent, false);
  });
  it('uses the domain given: over the reals v = sqrt(v**2) is not v = v', async () => {
    assert.equal((await engine.compareLists(L('Eq(v, sqrt(v**2))'), L('Eq(v, v)'), DOMAINS.R1)).equivalent, false);
    assert.equal((await engine.compareLists(L('Eq(v, sqrt(v**2))'), L('Eq(v, v)'), DOMAINS.Q1)).equivalent, true);
  });
  it('an equation written alike but for brackets that change nothing covers itself, also with no solution (a rounded value)', async () => {
    // 12 × 3×10⁸: one reader groups it 12*(3*10**8), another 12*3*10**8; the rounded result makes it false.
    const a = L('Eq(2*1360/(12*(3*10**8)), 7.6*10**(-7))', 'Eq(u + (v + w), t)');
    const b = L('Eq(2*1360/(12*3*10**8), 7.6*10**(-7))', 'Eq(u + v + w, t)');
    assert.equal((await engine.compareLists(a, b, DOMAINS.R1)).equivalent, true);
    // A statement about numbers only is the same statement when its sides have the same values
    // ("1e4" read as 1*10**4 by one reader and 10**4 by another), whether or not it holds.
    assert.equal(
      (
        await engine.compareLists(
          L('Eq(1.6*10**(-19)*(1*10**4), 1.6*10**(-15))', 'Eq(2/3, 0.67)'),
          L('Eq(1.6*10**(-19)*10**4, 1.6*10**(-15))', 'Eq(0.67, 4/6)'),
          DOMAINS.R1,
        )
      ).equivalent,
      true,
    );
    assert.equal((await engine.compareLists(L('Eq(2/3, 0.67)'), L('Eq(2/3, 0.667)'), DOMAINS.R1)).equivalent, false);
    // With pi or a root in it, the values are compared exactly (pi and the root as unknowns):
    // "½ × 4π × 8.85×10⁻¹² × 0.15 × 20000² = 3.34×10⁻³" read with the half first or last.
    const half = (first: boolean) =>
      L(first ? 'Eq(1/2*4*pi*(8.85*10**(-12))*0.15*20000**2, 3.34*10**(-3))' : 'Eq(4*pi*8.85*10**(-12)*0.15*20000**2/2, 3.34*10**(-3))');
    assert.equal((await engine.compareLists(half(true), half(false), DOMAINS.R1)).equivalent, true);
    assert.equal((await engine.compareLists(L('Eq(0.15*sqrt(2), 0.21)'), L('Eq(0.21, sqrt(2)*0.15)'), DOMAINS.R1)).equivalent, true);
    assert.equal((await engine.compareLists(L('Eq(2*pi*0.15, 0.94)'), L('Eq(2*pi*0.15, 0.95)'), DOMAINS.R1)).equivalent, false);
    assert.equal((await engine.compareLists(L('Eq(2*pi*0.15, 0.94)'), L('Eq(2*pi*0.16, 0.94)'), DOMAINS.R1)).equivalent, false);
    // A bracket that changes the meaning is not one of them.
    assert.equal((await engine.compareLists(L('Eq(2*1360/(12*3), 7.6)'), L('Eq(2*1360/12*3, 7.6)'), DOMAINS.R1)).equivalent, false);
  });
  it('an equation copied exactly covers itself even when it has no solution', async () => {
    const r = await engine.compareLists(L('Eq(0, 1)', 'Eq(v, u)'), L('Eq(v, u)', 'Eq(1, 0)'), DOMAINS.R1);
    assert.equal(r.equivalent, true);
  });
});

describe('consistency', () => {
  it('finds a witness for a satisfiable premise and checks it', async () => {
    const c = await engine.consistent(P('Eq(v, (u + sqrt(u**2 + 4*w**2))/2)'), DOMAINS.Q1);
    assert.equal(c.satisfiable, true);
    const { v, u, w } = Object.fromEntries(Object.entries(c.witness!).map(([k, x]) => [k, Number(x)]));
    assert.ok(v > 0 && u > 0 && w > 0);
    assert.ok(Math.abs(v - (u + Math.sqrt(u * u + 4 * w * w)) / 2) < 1e-9 * v);
  });
  it('a sign error with no positive solution is inconsistent (z3)', async () => {
    const c = await engine.consistent(P('Eq(v, -(u + w)/2)'), DOMAINS.Q1);
    assert.deepEqual([c.satisfiable, c.method], [false, 'z3']);
  });
  it("a variable named E is a variable (an energy), not Euler's number", async () => {
    const vars = ['E', 'k', 'A'];
    const domain = { variables: vars.map((name) => ({ name, assumptions: ['positive' as const] })) };
    const E = (s: string) => parseEquationOrThrow(s, { variables: vars });
    assert.equal((await engine.consistent(E('Eq(E, 1)'), domain)).satisfiable, true);
    const f = await engine.entails(E('Eq(E, k*A**2/2)'), E('Eq(2*E, k*A**2)'), domain);
    assert.deepEqual([f.holds, f.method], [true, 'z3-proved']);
    assert.equal((await engine.entails(E('Eq(E, k*A**2/2)'), E('Eq(E, k*A**2)'), domain)).holds, false);
  });
  it('ranges are open intervals', async () => {
    assert.equal((await engine.consistent(P('Eq(theta, 0)'), DOMAINS.Q2)).satisfiable, false);
    assert.equal((await engine.consistent(P('Eq(theta, 1)'), DOMAINS.Q2)).satisfiable, true);
    assert.equal((await engine.consistent(P('Eq(theta, 2)'), DOMAINS.Q2)).satisfiable, false);
  });
  it('symbols outside the domain are unconstrained reals', async () => {
    assert.equal((await engine.consistent(P('Eq(z, -1)'), DOMAINS.Q1)).satisfiable, true);
  });
});

describe('cache and statistics', () => {
  it('decides each canonical pair once and counts cache hits', async () => {
    const e = await Entailer.create();
    try {
      const d = DOMAINS.Q1;
      const a = 'Eq(2*S/u, S/(v + w) + S/(v - w))';
      const b = 'Eq(v**2 - u*v - w**2, 0)';
      const first = await e.entails(P(a), P(b), d);
      const s1 = e.stats();
      assert.equal(first.method, 'z3-proved');
      assert.deepEqual([s1.pairs, s1.cacheHits], [1, 0]);
      // The same pair, re-parsed from text with different spacing: answered from the cache.
      const again = await e.entails(P('Eq(2*S/u,S/(v+w)+S/(v-w))'), P('Eq(v**2-u*v-w**2,0)'), d);
      const s2 = e.stats();
      assert.deepEqual(again, first);
      assert.deepEqual([s2.pairs, s2.cacheHits, s2.z3Calls], [2, 1, s1.z3Calls]);
      // A different domain is a different question.
      const real = await e.entails(P(a), P(b), DOMAINS.R1);
      assert.equal(real.holds, false);
      assert.equal(e.stats().cacheHits, 1);
      // A refutation by sampling needs no Z3 at all.
      const before = e.stats();
      const r = await e.entails(P(a), P('Eq(v, u + w)'), d);
      assert.equal(r.method, 'numeric-counterexample');
      assert.equal(e.stats().z3Calls, before.z3Calls);
      assert.equal(e.stats().decidedWithoutZ3, before.decidedWithoutZ3 + 1);
      // Concurrent identical questions are decided once.
      const vs = await Promise.all([1, 2, 3].map(() => e.entails(P('Eq(v, u)'), P('Eq(v**2, u**2)'), d)));
      assert.ok(vs.every((v) => v.holds === true));
      assert.equal(e.stats().cacheHits, 1 + 2);
    } finally {
      await e.close();
    }
  });
  it('the consistency of a premise is decided once per domain', async () => {
    const e = await Entailer.create();
    try {
      const vac = P('Eq(v, -u - w)');
      assert.equal((await e.entails(vac, P('Eq(v, u)'), DOMAINS.Q1)).method, 'vacuous-premise');
      const calls = e.stats().z3Calls;
      assert.equal((await e.entails(vac, P('Eq(t, 2*S/u)'), DOMAINS.Q1)).method, 'vacuous-premise');
      assert.equal(e.stats().z3Calls, calls);
    } finally {
      await e.close();
    }
  });
  it('entailsKnown and consistentKnown answer at once only what entails and consistent would, counted as they count it', async () => {
    const e = await Entailer.create();
    try {
      const kept = new Map<string, unknown>();
      e.setVerdictStore({ get: (k) => kept.get(k), put: (k, v) => void kept.set(k, v) });
      const d = DOMAINS.Q1;
      const a = P('Eq(v, u)');
      const b = P('Eq(v**2, u**2)');
      assert.equal(e.entailsKnown(a, b, d), undefined, 'not decided yet: to be awaited');
      assert.deepEqual(e.stats().pairs, 0, 'and not counted');
      const decided = await e.entails(a, b, d);
      const s = e.stats();
      const known = e.entailsKnown(P('Eq(v,u)'), P('Eq(v**2,u**2)'), d);
      assert.deepEqual(known, decided, 'the same pair parsed again: the verdict entails gave');
      assert.deepEqual([e.stats().pairs, e.stats().cacheHits], [s.pairs + 1, s.cacheHits + 1], 'counted as a cache hit');
      known!.holds = false;
      assert.equal((await e.entails(a, b, d)).holds, true, 'a copy');
      assert.equal(e.entailsKnown(a, b, DOMAINS.R1), undefined, 'another domain is another pair');
      // Being decided: entails waits for it, and so must the caller.
      const pending = e.entails(b, a, d);
      assert.equal(e.entailsKnown(b, a, d), undefined);
      await pending;
      assert.deepEqual(e.entailsKnown(b, a, d), await e.entails(b, a, d));
      // Consistency comes at once only from the store (or what was read from it).
      const c = P('Eq(v, u + w)');
      assert.equal(e.consistentKnown(c, d), undefined);
      const got = await e.consistent(c, d);
      assert.ok(kept.size > 0, 'kept in the store');
      const fresh = await Entailer.create();
      try {
        fresh.setVerdictStore({ get: (k) => kept.get(k), put: () => {} });
        assert.deepEqual(fresh.consistentKnown(c, d), got);
        assert.deepEqual(fresh.entailsKnown(a, b, d), decided, 'a pair kept in the store, in a new engine');
        assert.deepEqual([fresh.stats().pairs, fresh.stats().storeHits], [1, 2]);
      } finally {
        await fresh.close();
      }
    } finally {
      await e.close();
    }
  });
  it('verdicts returned are copies: mutating one does not change the cache', async () => {
    const v = await engine.entails(P('Eq(v, u)'), P('Eq(u, v)'), DOMAINS.Q1);
    v.holds = false;
    assert.equal((await engine.entails(P('Eq(v, u)'), P('Eq(u, v)'), DOMAINS.Q1)).holds, true);
  });
});

describe('time-outs and reproducibility', () => {
  it('a Z3 time-out gives unknown with a note, and never hangs', async () => {
    const e = await Entailer.create({ z3TimeoutMs: 1 });
    try {
      const t0 = Date.now();
      // No sampled point (its solutions are isolated), and too hard for Z3 in 1 ms.
      const v = await e.entails(P('Eq((x - y)**2 + (x*y - 1)**2, 0)'), P('Eq(x, y)'), DOMAINS.X);
      assert.equal(v.holds, null);
      assert.equal(v.method, 'unknown');
      assert.match(v.note ?? '', /z3 gave no answer within 1 ms/);
      const c = await e.consistent(P('Eq((x**2 - 2)**2 + (y**3 - x*y - 5)**2 + (z**5 - x*z + y)**2, 0)'), DOMAINS.X);
      assert.deepEqual([c.satisfiable, c.method], [null, 'unknown']);
      assert.ok(Date.now() - t0 < 15000, 'bounded time');
    } finally {
      await e.close();
    }
  });
  it('a Z3 worker that overruns its deadline is terminated and replaced, and the engine answers the next pair', async () => {
    const e = await Entailer.create({ z3TimeoutMs: 200, z3Workers: 1 });
    const pool = () => (e as unknown as { z3: Z3Backend }).z3.poolStats();
    try {
      // v = u**1996 (as a product) against v = u: far too hard for Z3 in 200 ms.
      const product = P(`Eq(v, ${Array(1996).fill('u').join('*')})`);
      const t0 = Date.now();
      const v = await e.entails(product, P('Eq(v, u)'), DOMAINS.Q1);
      assert.equal(v.holds, null);
      assert.match(v.note ?? '', /z3 gave no answer within 200 ms .*its worker was stopped/);
      assert.ok(pool().timedOut >= 1, 'the overrunning worker was stopped');
      assert.ok(Date.now() - t0 < 30000, 'bounded time');
      // The next pair needs Z3 (no sampled solution): a fresh worker decides it.
      const c = await e.consistent(P('Eq(v, -(u + w)/2)'), DOMAINS.Q1);
      assert.deepEqual([c.satisfiable, c.method], [false, 'z3']);
      const s = pool();
      assert.ok(s.started >= 2 && s.live <= 1, JSON.stringify(s));
    } finally {
      await e.close();
    }
    assert.equal(pool().live, 0, 'close() terminates every worker');
  });
  it('an idle Z3 worker is stopped (its memory given back) and a later pair starts one again', async () => {
    const e = await Entailer.create({ z3Workers: 1, z3IdleMs: 50 });
    const pool = () => (e as unknown as { z3: Z3Backend }).z3.poolStats();
    try {
      const first = await e.consistent(P('Eq(v, -(u + w)/2)'), DOMAINS.Q1);
      assert.deepEqual([first.satisfiable, first.method], [false, 'z3']);
      for (let i = 0; i < 200 && pool().live > 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(pool().live, 0, 'the idle worker was stopped');
      const again = await e.consistent(P('Eq(w, -(u + v)/3)'), DOMAINS.Q1);
      assert.deepEqual([again.satisfiable, again.method], [false, 'z3']);
      assert.equal(pool().started, 2, 'a worker started again for the later pair');
    } finally {
      await e.close();
    }
  });
  it('the extra Z3 workers of a burst are stopped soon after it; one stays for the next pair', async () => {
    const e = await Entailer.create({ z3Workers: 2, z3IdleMs: 60_000, z3SpareIdleMs: 50 });
    const pool = () => (e as unknown as { z3: Z3Backend }).z3.poolStats();
    try {
      // Two pairs asked at once: a worker each.
      const burst = await Promise.all([e.consistent(P('Eq(v, -(u + w)/2)'), DOMAINS.Q1), e.consistent(P('Eq(w, -(u + v)/3)'), DOMAINS.Q1)]);
      assert.deepEqual(
        burst.map((c) => [c.satisfiable, c.method]),
        [
          [false, 'z3'],
          [false, 'z3'],
        ],
      );
      assert.equal(pool().started, 2);
      // A worker the burst started gets no warm-up of the pool's own, even when the other worker
      // took its query first (under load): busy with one, it made the next pair start a third.
      assert.equal(pool().warmedUp, 0);
      for (let i = 0; i < 300 && pool().live > 1; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(pool().live, 1, 'the spare worker was stopped, the last one kept');
      const next = await e.consistent(P('Eq(u, -(v + w)/4)'), DOMAINS.Q1);
      assert.deepEqual([next.satisfiable, next.method], [false, 'z3']);
      assert.equal(pool().started, 2, 'the worker kept decided the next pair');
    } finally {
      await e.close();
    }
  });
  it('powers too large to expand never throw from the Z3 encoder (issue 10)', async () => {
    // The grammar refuses exponents above 100; 100 is still beyond what Z3 is given expanded.
    const c = await engine.consistent(P('Eq(u**100, -1)'), DOMAINS.Q1);
    assert.notEqual(c.satisfiable, true);
    const v = await engine.entails(P('Eq(v, u**100)'), P('Eq(v, u**99*u)'), DOMAINS.Q1);
    assert.notEqual(v.holds, false);
  });
  it('the CLI exits as soon as check has printed its verdict, even after a Z3 time-out (no thread left alive)', () => {
    const product = `u = ${Array(1996).fill('t').join('*')}`;
    const r = spawnSync(process.execPath, ['bin/equimark.mjs', 'check', '--exam', 'resources/demo/exam.json', '--question', 'q1', product, 'u = t'], {
      encoding: 'utf8',
      timeout: 90000,
      env: { ...process.env, EQUIMARK_Z3_DEADLINE_MS: '500' },
    });
    assert.equal(r.signal, null, `killed after 90 s: the process did not exit (${r.stderr})`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /equivalent: (no|undecided)/);
  });
  it('when Z3 times out on an algebraic pair, agreement at every sampled point is labelled as sampling', async () => {
    const e = await Entailer.create({ z3TimeoutMs: 1 });
    try {
      const v = await e.entails(P('Eq(2*S/u, S/(v + w) + S/(v - w))'), P('Eq(v**2 - u*v - w**2, 0)'), DOMAINS.Q1);
      assert.equal(v.holds, true);
      if (v.method !== 'z3-proved') {
        assert.equal(v.method, 'numeric-agreement');
        assert.match(v.note ?? '', /z3 gave no answer/);
        assert.match(v.note ?? '', /not a proof/);
        assert.equal(v.samples, 24);
      }
    } finally {
      await e.close();
    }
  });
  it('the same seed gives the same verdicts, counterexamples included', async () => {
    const run = async () => {
      const e = await Entailer.create({ seed: 11 });
      try {
        return [
          await e.entails(P('Eq(v**2, u**2)'), P('Eq(v, u)'), DOMAINS.R1),
          await e.entails(P('Eq(R, 2*v_0**2*sin(theta)/g)'), P('Eq(R, v_0**2*sin(2*theta)/g)'), DOMAINS.Q2),
        ];
      } finally {
        await e.close();
      }
    };
    assert.deepEqual(await run(), await run());
  });
});

describe('algebra prover', () => {
  it('is asked only instead of numeric agreement, and upgrades it to sympy-proved', async () => {
    const asked: string[] = [];
    const prover: AlgebraProver = {
      proveEntailment: async (p) => {
        asked.push(JSON.stringify(p));
        return 'proved';
      },
    };
    const e = await Entailer.create({ prover });
    try {
      const trig = await e.entails(P('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)'), P('Eq(R, v_0**2*sin(2*theta)/g)'), DOMAINS.Q2);
      assert.equal(trig.method, 'sympy-proved');
      assert.equal(trig.holds, true);
      const wrong = await e.entails(P('Eq(R, 2*v_0**2*sin(theta)/g)'), P('Eq(R, v_0**2*sin(2*theta)/g)'), DOMAINS.Q2);
      assert.equal(wrong.method, 'numeric-counterexample'); // a counterexample is never overruled
      const alg = await e.entails(P('Eq(v, u + w)'), P('Eq(v - w, u)'), DOMAINS.Q1);
      assert.equal(alg.method, 'z3-proved');
      assert.equal(asked.length, 1);
    } finally {
      await e.close();
    }
  });
  it('a prover that fails or says unknown leaves numeric agreement', async () => {
    // As written: canonically, 2x = 2π is x = π itself ('identical'), and the prover is never asked.
    const e = await Entailer.create({ canonical: false, prover: { proveEntailment: async () => Promise.reject(new Error('worker died')) } });
    try {
      const v = await e.entails(P('Eq(x, pi)'), P('Eq(2*x, 2*pi)'), DOMAINS.X);
      assert.equal(v.method, 'numeric-agreement');
    } finally {
      await e.close();
    }
  });
});

describe('numeric safety', () => {
  it('a difference below the sampling threshold is never called agreement', async () => {
    const v = await engine.entails(P('Eq(x, pi)'), P('Eq(x, 3.14159)'), DOMAINS.X);
    assert.notEqual(v.holds, true);
  });
  it('a transcendental premise with no sampled solution is not called vacuous or entailing', async () => {
    const v = await engine.entails(P('Eq(sin(theta), 2)'), P('Eq(theta, 1)'), DOMAINS.Q2);
    assert.notEqual(v.holds, true);
  });
});
