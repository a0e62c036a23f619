// A '±' standing for two situations (shared/extract/plus-minus-situations.ts): both equations read
// as written (gold convention 6), the response held for review with a note; a '±' of two roots is
// left alone. Text written for these tests (a lift question invented here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import type { Question } from '../../shared/exam.ts';

const LIFT: Question = {
  id: 'lift',
  title: '',
  prompt: 'A lift of mass m hangs from a cable and accelerates at a. Find the tension T.',
  variables: [
    ['T', 'tension in the cable'],
    ['m', 'mass of the lift'],
    ['g', 'gravitational acceleration'],
    ['a', 'magnitude of the acceleration'],
    ['y', 'height of the lift'],
    ['h', 'height of the shaft'],
  ].map(([name, description]) => ({ name, description, assumptions: [] })),
  target: 'T',
  scheme: [],
};

test("a '±' whose signs are given situations: both equations as written, needs-review, noted", () => {
  for (const text of [
    'T ± mg = ma, + going up, − going down',
    'T = m(g +/- a), upper sign when it speeds up going up',
    'T = mg ± ma (+ when rising, − when slowing)',
  ]) {
    const x = extractEmbedded(text, LIFT);
    assert.equal(x.equations.length, 2, text);
    assert.equal(x.status, 'needs-review', text);
    assert.match(x.notes.map((n) => n.text).join(' | '), /stands for two situations/, text);
  }
});

test("a '±' of two roots, or with no words for its signs, is left alone", () => {
  for (const text of ['y = ±h/2, so it stops at either end', 'T = mg ± ma']) {
    const x = extractEmbedded(text, LIFT);
    assert.equal(x.equations.length, 2, text);
    assert.equal(x.status, 'read', text);
  }
});
