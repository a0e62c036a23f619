// The one verdict formatter: the command line, the student's report and the app word a verdict
// from the same function, so these lines are what all three show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterexampleText, verdictLine, verdictWords } from '../../shared/format/verdict.ts';

test('verdictLine gives the method, samples, exact counterexample and note', () => {
  assert.equal(verdictLine({ holds: true, method: 'z3-proved' }), 'holds (z3-proved)');
  assert.equal(
    verdictLine({ holds: false, method: 'z3-refuted', counterexample: { u: '1', v: '3/2' } }),
    'does not hold (z3-refuted; counterexample u=1, v=3/2)',
  );
  assert.equal(verdictLine({ holds: null, method: 'unknown', note: 'z3 timed out after 2000 ms' }), 'undecided (unknown; z3 timed out after 2000 ms)');
  assert.equal(verdictLine({ holds: true, method: 'numeric-agreement', samples: 24 }), 'holds (numeric-agreement; 24 samples)');
});

test('verdictWords says what an instructor needs: proof or not, a rounded example', () => {
  assert.equal(verdictWords({ holds: true, method: 'z3-proved' }), 'proved (Z3)');
  assert.equal(verdictWords({ holds: true, method: 'numeric-agreement', samples: 24 }), 'agrees numerically at 24 points (not a proof)');
  assert.equal(verdictWords({ holds: false, method: 'numeric-counterexample', counterexample: { u: '2.3333333333' } }), 'refuted: for example u = 2.333');
  assert.match(verdictWords({ holds: null, method: 'unknown', note: 'z3 timed out' }), /^undecided \(z3 timed out\)$/);
});

test('counterexampleText keeps exact values exact and rounds only for reading', () => {
  assert.equal(counterexampleText({ v: '7.0601234567' }), 'v=7.0601234567');
  assert.equal(counterexampleText({ v: '7.0601234567' }, 'rounded'), 'v = 7.06');
  assert.equal(counterexampleText({ v: '1/3' }, 'rounded'), 'v = 1/3');
});

test('an algebraic proof filed as z3-proved never reads "proved (Z3) (… without calling z3)"', () => {
  const v = {
    holds: true,
    method: 'z3-proved' as const,
    note: 'proved algebraically (same numerator up to a non-zero factor; conclusion defined wherever the premise is), without calling z3',
  };
  const words = verdictWords(v);
  const line = verdictLine(v);
  for (const s of [words, line]) {
    assert.doesNotMatch(s, /z3/i, s);
    assert.match(s, /same numerator up to a non-zero factor/);
  }
  assert.equal(words, 'proved by exact algebra (same numerator up to a non-zero factor; conclusion defined wherever the premise is)');
  assert.match(line, /^holds \(exact-algebra; same numerator/);
  // A real Z3 proof keeps its name.
  assert.equal(verdictWords({ holds: true, method: 'z3-proved', note: 'z3: unsat' }), 'proved (Z3) (z3: unsat)');
});
