// A sum of fractions read as written that doesn't balance, where a '/' reaching over the sum beside
// it balances ("T_i = ρ T_a/ρ − M/V": a temperature minus a density), goes to review; one that
// balances as written, or that no regrouping balances (the student's own physics), stays read.
// A question and readings written for these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Question } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { regroupings, withUnbracketedGroupingCheck } from '../../electron/engine/decide/unbracketed-grouping.ts';
import { equationToSympy, parseEquationOrThrow } from '../../shared/equation/index.ts';

// A gas heated in a rigid tank (invented here).
const TANK: Question = {
  id: 'tank',
  title: '',
  prompt: 'A rigid tank of volume V holds gas of mass m at temperature T_1; it is heated to T_2. Find the density and the final temperature.',
  variables: [
    ['V', 'volume of the tank'],
    ['m', 'mass of the gas'],
    ['rho', 'density of the gas'],
    ['T_1', 'initial temperature of the gas'],
    ['T_2', 'final temperature of the gas'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
  target: 'T_2',
  scheme: [],
};

const checked = (text: string): Extraction => withUnbracketedGroupingCheck(TANK, extractEmbedded(text, TANK), text);

test('a sum of fractions that balances only with the brackets left out goes to review, the reading kept as written', () => {
  const text = 'T_2 = rho T_1/rho - m/V';
  const before = extractEmbedded(text, TANK);
  assert.equal(before.status, 'read', 'the extractor reads a sum of fractions as written');
  const out = checked(text);
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['unbracketed-grouping']);
  assert.match(out.notes.at(-1)?.text ?? '', /Eq\(T_2, rho\*T_1\/\(rho - m\/V\)\)/);
  assert.deepEqual(out.equations, before.equations, 'the reading itself is never changed');
});

test('a sum of fractions that balances as written, an unbalanced one no regrouping mends, or no text: no doubt', () => {
  for (const text of ['T_2 = m T_1/(2m) + T_1/2', 'rho = m/V', 'T_2 = T_1/rho - m/V']) assert.equal(checked(text).status, 'read', text);
  assert.equal(withUnbracketedGroupingCheck(TANK, extractEmbedded('T_2 = rho T_1/rho - m/V', TANK)).status, 'read', 'without the text nothing can be said');
});

test('regroupings: each one reaching of a / over the sum beside it, anywhere in the tree', () => {
  const shown = (s: string) => regroupings(parseEquationOrThrow(`Eq(x, ${s})`).rhs).map((e) => equationToSympy({ lhs: { kind: 'sym', name: 'x' }, rhs: e }));
  assert.deepEqual(shown('a/b - c'), ['Eq(x, a/(b - c))']);
  assert.deepEqual(shown('c + a/b'), ['Eq(x, (c + a)/b)']);
  assert.deepEqual(shown('sqrt(a/b + c)'), ['Eq(x, sqrt(a/(b + c)))']);
  assert.deepEqual(shown('a*b'), []);
});
