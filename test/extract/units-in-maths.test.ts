// Units typed inside the maths: a value's unit between a number and more maths ("5 kg × 9.8",
// "π(0.5mm)²/4"), a bracket holding a number and a letter that is both a unit and a variable
// ("(0.5 m)" with m a mass), and a prefixed unit the prompt spells ("200 GPa"). Read alone, each
// piece used to say something the student didn't write ("F = 5", "A = π", "Y = 200·g"). Text
// written for these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import type { Question } from '../../shared/exam.ts';
import { questionOf } from '../support/question.ts';

// A crate hung from a steel cable, invented for these tests.
const CABLE: Question = {
  id: 'q',
  title: 'A crate on a cable',
  prompt: 'A crate of mass m hangs from a steel cable of length L and diameter d (Young modulus Y = 2.0 × 10^11 Pa). Find the extension x.',
  variables: [
    ['m', 'mass of the crate'],
    ['g', 'gravitational acceleration'],
    ['L', 'length of the cable'],
    ['d', 'diameter of the cable'],
    ['A', 'cross-sectional area of the cable'],
    ['Y', 'Young modulus of steel'],
    ['x', 'extension of the cable'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive'] })),
  target: 'x',
  scheme: [],
};

const read = (text: string) => {
  const r = extractEmbedded(text, CABLE);
  return { status: r.status, eqs: r.equations.map((e) => e.source), unread: r.unread.map((u) => u.reason).join(' | ') };
};

test('a unit between a number and more maths leaves the stretch unread instead of cutting the maths at it', () => {
  for (const text of ['weight = 5 kg × 9.8', 'm g = 5 kg × 9.8 = 49 N', 'A = π(0.5mm)²/4', 'A = π × (0.25 cm)^2', 'mg = 5kg*9.8m/s^2']) {
    const r = read(text);
    assert.notEqual(r.status, 'read', text);
    assert.deepEqual(r.eqs, [], text);
    assert.match(r.unread, /a unit \('(kg|mm|cm)'\) inside the maths/, text);
  }
});

test('a unit that goes on as a unit, or ends the value, is still a unit', () => {
  assert.deepEqual(read('g = 9.8 m/s² and L = 2 m').eqs, ['Eq(g, 9.8)', 'Eq(L, 2)']);
  assert.equal(read('g = 9.8 m/s² and L = 2 m').status, 'read');
  const r = read('d = 0.5 mm, so A = πd²/4');
  assert.deepEqual(r.eqs, ['Eq(d, 0.5)', 'Eq(A, pi*d**2/4)']);
  assert.equal(r.status, 'read');
});

test('a number and a letter that is a unit and a variable, alone in brackets, is a doubt', () => {
  // m is the crate's mass: "(0.5 m)" is half a metre or half the mass.
  const r = read('A = π(0.5 m)²/4');
  assert.equal(r.status, 'abstained');
  assert.match(r.unread, /'\(0\.5 m\)' could be a value in m or 0\.5 times the variable m/);
  // Glued, or outside brackets, it is the product as before.
  assert.deepEqual(read('x = mgL/(AY)').eqs, ['Eq(x, m*g*L/(A*Y))']);
});

test('a prefixed unit the prompt spells ("200 GPa") is that unit, not a variable with a word subscript', () => {
  // G read as g with the subscript "Pa" (a word of the prompt) made this Y = 200·g.
  assert.deepEqual(read('Y = 200 GPa').eqs, ['Eq(Y, 200)']);
  assert.equal(read('Y = 200 GPa').status, 'read');
});

test('a unit glued to a number ("2.5s", "49N") is a unit when none of its letters is the question\'s; "0.5m" with m a mass stays a doubt', () => {
  assert.deepEqual(read('x = 2.5mm').eqs, ['Eq(x, 2.5)']);
  assert.deepEqual(read('mg = 49N so x = 2.5mm').eqs, ['Eq(m*g, 49)', 'Eq(x, 2.5)']);
  assert.equal(read('mg = 49N so x = 2.5mm').status, 'read');
  const m = read('L = 0.5m');
  assert.equal(m.status, 'abstained');
  assert.deepEqual(m.eqs, []);
});

test('two numbers joined by a "-" with no space ("2.0-2.5 mm") may be a range: a doubt; spaced, it is a difference', () => {
  const r = read('x = 2.0-2.5 mm');
  assert.equal(r.status, 'abstained');
  assert.match(r.unread, /'2\.0-2\.5' could be a range of values or a difference/);
  assert.deepEqual(read('x = 2.5 - 0.5').eqs, ['Eq(x, 2.5 - 0.5)']);
});

test('a ratio written with colons ("x : L = 1 : 800") is not read as one side of it; a colon that opens the next equation is no ratio', () => {
  const r = read('x : L = 1 : 800');
  assert.notEqual(r.status, 'read');
  assert.deepEqual(r.eqs, []);
  assert.match(r.unread, /a ratio written with ':'/);
  const next = read('d = 2: A = πd²/4');
  assert.deepEqual(next.eqs, ['Eq(d, 2)', 'Eq(A, pi*d**2/4)']);
  assert.equal(next.status, 'read');
});

test('π is a number: a unit after "1600π" is a unit ("A = 1600π m²" with m a mass in the question)', () => {
  const WIND: Question = {
    id: 'wind',
    title: '',
    prompt: 'Air of density rho and mass m per second passes blades sweeping area A.',
    variables: [
      ['A', 'area swept by the blades'],
      ['m', 'mass of air per second'],
      ['rho', 'density of air'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
    target: 'A',
    scheme: [],
  };
  assert.deepEqual(
    extractEmbedded('A = 1600π m²', WIND).equations.map((e) => e.source),
    ['Eq(A, 1600*pi)'],
  );
  // After a symbol the letter stays the question's m.
  assert.deepEqual(
    extractEmbedded('A = ρ m²', WIND).equations.map((e) => e.source),
    ['Eq(A, rho*m**2)'],
  );
});

test('a unit typed after the "$" that closes the maths is the last number\'s unit ("$x = 113$ mm"), not letters of the question', () => {
  // m and d are variables: outside the '$', "mm" after a number is still millimetres.
  assert.deepEqual(read('so $x = 0.41$ mm, small').eqs, ['Eq(x, 0.41)']);
  assert.equal(read('so $x = 0.41$ mm, small').status, 'read');
  // Letters that are no unit stay maths in prose: a doubt.
  assert.notEqual(read('so $x = 0.41$ m d').status, 'read');
});

test('a capital the question writes only in lower case, after a number, is the unit when it is the quantity\'s unit ("B = 0.56 T", t a thickness)', () => {
  // A Hall probe's strip, invented for this test.
  const STRIP: Question = {
    ...CABLE,
    variables: [
      ['B', 'magnetic flux density'],
      ['t', 'thickness of the strip'],
      ['I', 'current in the strip'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive'] })),
    target: 'B',
  };
  const eqs = (text: string) => extractEmbedded(text, STRIP).equations.map((e) => e.source);
  assert.deepEqual(eqs('so B = 0.56 T'), ['Eq(B, 0.56)']);
  assert.deepEqual(eqs('B = 0.2 × 4.2/1.5 = 0.56 T'), ['Eq(B, 0.2*4.2/1.5)', 'Eq(0.2*4.2/1.5, 0.56)']);
  // Not the quantity's unit (a current is no tesla): the letter stays the question's t.
  assert.deepEqual(eqs('I = 0.56 T'), ['Eq(I, 0.56*t)']);
});

test('turns are a unit: "0.85 rev/s" ends the value', () => {
  assert.deepEqual(read('x = 0.85 rev/s').eqs, ['Eq(x, 0.85)']);
  assert.equal(read('x = 0.85 rev/s').status, 'read');
});

test('two unit words after a value ("67.5 N s") are one unit, where neither names a variable', () => {
  assert.deepEqual(read('so x = 67.5 N s').eqs, ['Eq(x, 67.5)']);
  assert.equal(read('so x = 67.5 N s').status, 'read');
});

test('units joined by a middle dot ("9.84 kg·m/s", "2.34 m·s⁻¹") are one unit; "10x brighter" with no x in the question is words', () => {
  // A sled's momentum, invented for this test: m a mass, no x.
  const SLED: Question = {
    ...CABLE,
    variables: [
      ['p', 'momentum of the sled'],
      ['m', 'mass of the sled'],
      ['v', 'speed of the sled'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive'] })),
    target: 'p',
  };
  const r = (text: string) => extractEmbedded(text, SLED);
  assert.deepEqual(
    r('p = mv = 9.84 kg·m/s').equations.map((e) => e.source),
    ['Eq(p, m*v)', 'Eq(m*v, 9.84)'],
  );
  assert.equal(r('p = mv = 9.84 kg·m/s').status, 'read');
  assert.deepEqual(
    r('v = 2.34 m·s⁻¹').equations.map((e) => e.source),
    ['Eq(v, 2.34)'],
  );
  assert.deepEqual(
    r('p = 9.84 kg·m·s⁻¹').equations.map((e) => e.source),
    ['Eq(p, 9.84)'],
  );
  // Not a unit after it: a doubt, as before.
  assert.notEqual(r('so it is 9.84 kg·v then').status, 'read');
  assert.equal(r('so the heavier sled has 10x the momentum').status, 'read');
});

test('"τ = 2.97 N m" where the question has n (a number of turns) and no N: the torque\'s unit, not 2.97·n', () => {
  // A braked wheel, invented for this test.
  const WHEEL: Question = {
    ...CABLE,
    variables: [
      ['tau', 'braking torque (N m)'],
      ['n', 'number of turns the wheel makes'],
      ['F', 'force of the pads (N)'],
      ['R', 'radius of the wheel (m)'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive'] })),
    target: 'n',
  };
  const eqs = (text: string) => extractEmbedded(text, WHEEL).equations.map((e) => e.source);
  assert.deepEqual(eqs('tau = F R = 15 × 0.2 = 2.97 N m'), ['Eq(tau, F*R)', 'Eq(F*R, 15*0.2)', 'Eq(15*0.2, 2.97)']);
  // Not the quantity's unit (a number of turns has none): "N m" is not taken as a unit there.
  assert.ok(!eqs('n = 2.97 N m').includes('Eq(n, 2.97)'));
});

test('"Q = 3.34×10^-7 C" with the question\'s C a capacitance: the coulomb, the charge\'s unit, not a factor C', () => {
  // A charged sphere, invented for this test.
  const SPHERE: Question = {
    ...CABLE,
    variables: [
      ['Q', 'charge on the sphere'],
      ['C', 'capacitance of the sphere'],
      ['V', 'potential of the sphere'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive'] })),
    target: 'Q',
  };
  const eqs = (text: string) => extractEmbedded(text, SPHERE).equations.map((e) => e.source);
  assert.deepEqual(eqs('Q = CV = 1.5×10^-7 C'), ['Eq(Q, C*V)', 'Eq(C*V, 1.5*10**(-7))']);
  // The capacitance's own value: C stays the variable where the quantity is no charge.
  assert.ok(!eqs('V = 2 C').includes('Eq(V, 2)'));
});

test('a unit after a value in the middle of a chain ends that side ("E = 60 × 3.6 J = 216 J"); a letter that is the question\'s and no unit of the quantity stays maths', () => {
  // A battery-powered winch, invented for this test.
  const WINCH = questionOf('winch', "A winch's battery stores energy E and lifts a load with acceleration a. Find E.", 'E', [
    ['E', 'energy stored in the battery'],
    ['a', 'acceleration of the load'],
    ['g', 'gravitational acceleration'],
  ]);
  const r = (text: string) => extractEmbedded(text, WINCH);
  for (const [text, eqs] of [
    ['E = 60 × 3.6 J = 216 J', ['Eq(E, 60*3.6)', 'Eq(60*3.6, 216)']],
    ['E = 60 × 3.6 × 10^6 J = 2.16 × 10^8 J', ['Eq(E, 60*(3.6*10**6))', 'Eq(60*(3.6*10**6), 2.16*10**8)']],
    ['E = 0.5 kWh', ['Eq(E, 0.5)']],
    // g after a number is the question's g, not grams: grams are no acceleration's unit.
    ['a = 3/4 g = 7.35', ['Eq(a, 3/4*g)', 'Eq(3/4*g, 7.35)']],
  ] as const) {
    assert.deepEqual(
      r(text).equations.map((e) => e.source),
      eqs,
      text,
    );
    assert.equal(r(text).status, 'read', text);
  }
});

test('a letter glued to a number that is the question\'s variable and spells the unit of the quantity the chain gives ("Q = CV = 0.06C") is a doubt', () => {
  // A camera flash's capacitor, invented for this test.
  const FLASH = questionOf('flash', "A camera flash's capacitor C is charged to V. Find the charge Q it stores.", 'Q', [
    ['Q', 'charge stored on the capacitor'],
    ['C', 'capacitance'],
    ['V', 'potential difference across the capacitor'],
  ]);
  const r = extractEmbedded('Q = CV = 0.06C', FLASH);
  assert.notEqual(r.status, 'read');
  assert.ok(!r.equations.some((e) => e.source === 'Eq(C*V, 0.06*C)'));
  assert.match(r.unread.map((u) => u.reason).join(' | '), /'0\.06C' could be a value in C or 0\.06 times/);
  // Spaced, it is the unit (as before); a glued letter that spells no unit of the quantity is maths.
  assert.deepEqual(
    extractEmbedded('Q = CV = 0.06 C', FLASH).equations.map((e) => e.source),
    ['Eq(Q, C*V)', 'Eq(C*V, 0.06)'],
  );
  // (Coulombs are no unit of a potential difference: 3C is three times the capacitance.)
  assert.deepEqual(
    extractEmbedded('V = 3C', FLASH).equations.map((e) => e.source),
    ['Eq(V, 3*C)'],
  );
});

test('a lower-case letter after the last value of a chain that is a unit in capitals ("= 10218 n") is a doubt, not a link left out unseen', () => {
  const r = extractEmbedded('x = mgL/(AY) = 12 × 9.8 × 2/(3 × 4) = 19.6 n', CABLE);
  assert.equal(r.status, 'partial');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(x, m*g*L/(A*Y))', 'Eq(m*g*L/(A*Y), 12*9.8*2/(3*4))'],
  );
  assert.match(r.unread.map((u) => u.reason).join(' | '), /'19\.6 n': 'n' after a value may be the unit N typed in lower case/);
});
