// The cheap algebraic proof rule: proves only what follows, declines the rest (Z3 then decides).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { algebraicEntails } from '../../electron/engine/decide/entail/poly.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import { DOMAINS } from './domains.ts';

const yes: [string, string, keyof typeof DOMAINS][] = [
  ['Eq(v, u + w)', 'Eq(v - u, w)', 'R1'],
  ['Eq(2*S/u, S/(v + w) + S/(v - w))', 'Eq(v**2 - u*v - w**2, 0)', 'Q1'], // N1 = 2*S*N2, S != 0
  ['Eq(v, (u + sqrt(u**2 + 4*w**2))/2)', 'Eq(2*v - u, sqrt(4*w**2 + u**2))', 'Q1'],
  ['Eq(t, 2*S/u)', 'Eq(t*u, 2*S)', 'R1'],
  ['Eq(t*u, 2*S)', 'Eq(t, 2*S/u)', 'Q1'], // u > 0
];
const no: [string, string, keyof typeof DOMAINS][] = [
  ['Eq(t*u, 2*S)', 'Eq(t, 2*S/u)', 'R1'], // u may be 0
  ['Eq(2*S/u, S/(v + w) + S/(v - w))', 'Eq(v**2 - u*v - w**2, 0)', 'R1'], // S may be 0
  ['Eq(v**2 - u*v - w**2, 0)', 'Eq(2*S/u, S/(v + w) + S/(v - w))', 'Q1'], // needs v != w: Z3's job
  ['Eq(t, 2*S/u)', 'Eq(S/(v + w) + S/(v - w), 2*S*v/(v**2 - w**2))', 'Q1'], // identity, but undefined at v = w
  ['Eq(v**2, u**2)', 'Eq(v, u)', 'Q1'],
  ['Eq(v, u)', 'Eq(v, sqrt(u**2))', 'R1'],
  ['Eq(Abs(v), u)', 'Eq(Abs(v), u)', 'R1'],
];

describe('algebraic proof rule', () => {
  for (const [p, c, d] of yes)
    it(`proves ${p} ⊨ ${c} over ${d}`, () => assert.equal(algebraicEntails(parseEquationOrThrow(p), parseEquationOrThrow(c), DOMAINS[d]), true));
  for (const [p, c, d] of no)
    it(`declines ${p} ⊨ ${c} over ${d}`, () => assert.equal(algebraicEntails(parseEquationOrThrow(p), parseEquationOrThrow(c), DOMAINS[d]), false));
});
