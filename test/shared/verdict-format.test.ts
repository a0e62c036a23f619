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
