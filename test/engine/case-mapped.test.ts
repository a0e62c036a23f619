// A letter read in the other case that leaves its equation unbalanced (issue 11, miscapitalised
// symbols): "I = V/R" with V an emf the question calls epsilon, read as its speed v, goes to review;
// a case mapping whose equation balances ("t = s/u" for the question's S) stays read. Questions
// and readings written for these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Question } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { withCaseMappedCheck } from '../../electron/engine/decide/case-mapped.ts';

// A wire pulled through a magnetic field (invented here): v is its speed, epsilon the emf.
const WIRE: Question = {
  id: 'wire',
  title: '',
  prompt: 'A wire of length L is pulled at speed v through a field B; the circuit has resistance R. Find the current I.',
  variables: [
    ['B', 'magnetic field'],
    ['L', 'length of the wire'],
    ['v', 'speed of the wire'],
    ['R', 'resistance of the circuit'],
    ['I', 'current in the circuit'],
    ['epsilon', 'emf induced in the wire'],
    ['S', 'distance the wire moves'],
    ['t', 'time taken'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
  target: 'I',
  scheme: [],
};

const checked = (text: string): Extraction => withCaseMappedCheck(WIRE, extractEmbedded(text, WIRE), text);

test("V written for the emf and read as the speed v leaves 'I = V/R' unbalanced: needs-review, the letter and the equation named", () => {
  const text = 'I = V/R';
  const before = extractEmbedded(text, WIRE);
  assert.equal(before.status, 'read', 'the extractor maps V to v');
  const out = checked(text);
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['unmapped-symbol']);
  assert.match(out.notes.at(-1)?.text ?? '', /^"I = V\/R": 'V' was read as the question's v, and the equation then doesn't balance/);
  assert.deepEqual(out.equations, before.equations, 'the reading itself is never changed');
});

test('a case mapping whose equation balances, the letter written as the question writes it, or no text: no doubt', () => {
  for (const text of ['t = s/v', 'I = BLv/R', 'I = epsilon/R']) assert.equal(checked(text).status, 'read', text);
  // An unbalanced equation written with the question's own letters is the student's physics, not a misreading.
  assert.equal(checked('I = v/R').status, 'read');
  assert.equal(withCaseMappedCheck(WIRE, extractEmbedded('I = V/R', WIRE)).status, 'read', 'without the text nothing can be said');
});

test("a letter with a 2 glued after it read as the numbered symbol ('v2' as v) that leaves its equation unbalanced is a doubt: v² may be meant", () => {
  // "v2 = 2BL" is unbalanced with v (speed against field times length): likely v².
  const out = checked('v2 = BLR');
  assert.deepEqual(
    extractEmbedded('v2 = BLR', WIRE).equations.map((e) => e.source),
    ['Eq(v, B*L*R)'],
  );
  assert.equal(out.status, 'needs-review');
  assert.match(out.notes.at(-1)?.text ?? '', /'v2' was read as the question's v, and the equation then doesn't balance; 'v2' may be v to the power 2/);
  // Balanced, the numbered symbol stands as read.
  assert.equal(checked('v2 = S/t').status, 'read');
});

// A gas in a cylinder (invented here): both N (molecules) and n (moles) are variables.
const GAS: Question = {
  id: 'gas',
  title: '',
  prompt: 'A cylinder of volume V holds gas at pressure p and temperature T. Find the number of moles n and of molecules N.',
  variables: [
    ['p', 'pressure of the gas'],
    ['V', 'volume of the cylinder'],
    ['T', 'absolute temperature of the gas'],
    ['R', 'molar gas constant'],
    ['n', 'number of moles of gas'],
    ['N', 'number of molecules'],
    ['N_A', 'Avogadro constant'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
  target: 'N',
  scheme: [],
};

test("a letter whose other case is also a variable, and balances the equation in its place ('pV = NRT' with n the moles), is a doubt", () => {
  const gas = (text: string): Extraction => withCaseMappedCheck(GAS, extractEmbedded(text, GAS), text);
  const out = gas('pV = NRT');
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['unmapped-symbol']);
  assert.match(
    out.notes.at(-1)?.text ?? '',
    /^"pV = NRT": read with the question's N, the equation doesn't balance; with n in its place it does: 'N' may stand for n/,
  );
  assert.deepEqual(
    out.equations.map((e) => e.source),
    ['Eq(p*V, N*R*T)'],
    'the reading itself is never changed',
  );
  // Balanced as written: no doubt.
  for (const text of ['pV = nRT', 'N = n N_A', 'N = pV N_A/(RT)']) assert.equal(gas(text).status, 'read', text);
  // Unbalanced with either case: the student's physics, kept as read.
  assert.equal(gas('pV = N T').status, 'read');
});

test("u typed for μ (no u in the question) is read as μ; where μ leaves the equation unbalanced, the u may be the student's own speed: a doubt", () => {
  // A puck on a rough rink, invented here: mu the friction coefficient, no u.
  const RINK: Question = {
    ...WIRE,
    variables: [
      ['mu', 'coefficient of friction between the puck and the ice'],
      ['m', 'mass of the puck'],
      ['g', 'gravitational field strength'],
      ['v', 'speed of the puck'],
      ['d', 'distance the puck slides'],
      ['F', 'friction force on the puck'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
    target: 'd',
  };
  const read = (text: string) => withCaseMappedCheck(RINK, extractEmbedded(text, RINK), text);
  const friction = read('F = umg');
  assert.deepEqual(
    friction.equations.map((e) => e.source),
    ['Eq(F, mu*m*g)'],
  );
  assert.equal(friction.status, 'read');
  assert.equal(read('d = v^2/(2ug)').status, 'read');
  // "v² = u² + 2ad"-like: read with μ it adds a number to a speed squared.
  const speed = read('v^2 = u^2 + 2 g d');
  assert.deepEqual(
    speed.equations.map((e) => e.source),
    ['Eq(v**2, mu**2 + 2*g*d)'],
  );
  assert.equal(speed.status, 'needs-review');
  assert.match(speed.notes.at(-1)?.text ?? '', /'u' was read as the question's mu \(typed without the Greek letter\), and the equation then doesn't balance/);
  // Where the question has a u of its own, u is never μ.
  const withU: Question = { ...RINK, variables: [...RINK.variables, { name: 'u', description: 'initial speed of the puck', assumptions: ['positive'] }] };
  assert.deepEqual(
    extractEmbedded('F = u m g', withU).equations.map((e) => e.source),
    ['Eq(F, u*m*g)'],
  );
});
