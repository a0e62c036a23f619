// Letter runs that spell English words ("at", "as") standing alone in maths, between an operator or
// '=' and the end of the maths, are the question's symbols; in prose they stay words. On text
// written for these tests (a cart question invented here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { questionOf } from '../support/question.ts';

const CART = questionOf(
  'cart',
  'A cart starts from rest with constant acceleration a, pulled with tension T. Find its speed v after time t and the power P.',
  'P',
  [
    ['a', 'acceleration of the cart (m/s^2)'],
    ['t', 'time since the start (s)'],
    ['v', 'speed of the cart at time t (m/s)'],
    ['T', 'tension in the rope (N)'],
    ['P', 'power delivered by the rope (W)'],
    ['s', 'distance travelled (m)'],
  ],
);
const sources = (text: string) => extractEmbedded(text, CART).equations.map((e) => e.source);

test('"at" alone after "=" or an operator, up to the end of the maths, is a times t', () => {
  assert.deepEqual(sources('v = at = 1.5 × 2.0 = 3.0 m/s'), ['Eq(v, a*t)', 'Eq(a*t, 1.5*2.0)', 'Eq(1.5*2.0, 3.0)']);
  assert.deepEqual(sources('so v = at.'), ['Eq(v, a*t)']);
  assert.deepEqual(sources('P = Tv = T × at'), ['Eq(P, T*v)', 'Eq(T*v, T*a*t)']);
});

test('"at" in prose stays a word', () => {
  assert.deepEqual(sources('T = 40 N at the start'), ['Eq(T, 40)']);
  assert.deepEqual(sources('v = 3 m/s at t = 2 s'), ['Eq(v, 3)', 'Eq(t, 2)']);
  assert.equal(extractEmbedded('the speed = at least 3', CART).equations.length, 0);
});

test('a letter hyphened to a word ("x-axis", "f-number") is a word; hyphened to a kind of quantity it stays maths with a word in it', () => {
  assert.deepEqual(extractEmbedded('along the x-axis v = at', CART).status, 'read');
  assert.deepEqual(sources('the s-bend takes v = at'), ['Eq(v, a*t)']);
  const r = extractEmbedded('T-weight = a', CART);
  assert.notEqual(r.status, 'read');
  assert.match(r.unread.map((u) => u.reason).join(' | '), /weight/);
});
