// Values stated in words as arithmetic on numbers ("the journey time is 1200/4.5"), labels that name
// a variable before numbers worked out ("journey time: 1200/4.5 = 267 s"), descriptions whose unit
// in brackets or words after a comma are not the name of the quantity, and a temperature's scale
// letter after its value. On text written for these tests (a cable car question invented here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { questionOf } from '../support/question.ts';

const CABLE_CAR = questionOf(
  'cable',
  'A cable car climbs a slope at constant speed. Find its journey time, its climbing angle and the heat its brakes give off.',
  't',
  [
    ['L', 'length of the cable (m)'],
    ['u', 'cable speed, along the slope (m/s)'],
    ['t', 'journey time (s)'],
    ['phi', 'climbing angle above the horizontal (radians)'],
    ['c', 'specific heat capacity of the brake discs (J kg^-1 K^-1)'],
    ['T_0', 'temperature of the brake discs at the start (°C)'],
  ],
);
const x = (text: string) => extractEmbedded(text, CABLE_CAR);
const sources = (text: string) => x(text).equations.map((e) => e.source);

test("a unit in a description's brackets, or words after its comma, are not the noun that names the variable", () => {
  // "journey time (s)" is a time, not an "s"; "cable speed, along the slope" a speed.
  assert.deepEqual(sources('so the journey time is L/u'), ['Eq(t, L/u)']);
  assert.deepEqual(sources('the cable speed is L/t'), ['Eq(u, L/t)']);
});

test('arithmetic on numbers after "is" or a colon is the value of the variable the words name, else left unread', () => {
  assert.deepEqual(sources('so the journey time is 1200/4.5 s'), ['Eq(t, 1200/4.5)']);
  assert.deepEqual(sources('journey time: 1200/4.5 = 267 s'), ['Eq(t, 1200/4.5)', 'Eq(1200/4.5, 267)']);
  assert.deepEqual(sources('L = 1200 m\nangle: sin⁻¹(300/1200) above the ground'), ['Eq(L, 1200)', 'Eq(phi, asin(300/1200))']);
  // Words that name no variable for sure: the value is a doubt, not dropped unseen.
  const r = x('L = 1200 m\nslope: sin⁻¹(300/1200)');
  assert.equal(r.status, 'partial');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(L, 1200)'],
  );
  // Elsewhere arithmetic on numbers describes and stays words: a range, a factor.
  assert.deepEqual(sources('t = 267 s, between 200-300 s and a factor of √2 more than walking'), ['Eq(t, 267)']);
  // A label before an equation with symbols says what it is about, not that it is one side.
  assert.deepEqual(sources('journey time: t = L/u'), ['Eq(t, L/u)']);
});

test("C after a temperature's value is the Celsius scale, not the question's c", () => {
  assert.deepEqual(sources('T_0 = 15 C'), ['Eq(T_0, 15)']);
  assert.deepEqual(sources('T_0 = 15C, so in kelvin 288 K'), ['Eq(T_0, 15)']);
});

const BRAKING = questionOf('braking', 'A tram brakes from speed u to rest on a level track, and its brakes store a fraction of the energy.', 'E', [
  ['m', 'mass of the tram (kg)'],
  ['u', 'speed before braking (m/s)'],
  ['K', 'kinetic energy lost by the tram (J)'],
  ['E', 'energy stored in the flywheel (J)'],
  ['t', 'time taken to slide from the first signal to the platform (s)'],
]);
const y = (text: string) => extractEmbedded(text, BRAKING);

test('a percentage stated in words is no value of the quantity: "65% of …" goes on in words, "is 65%" is the marker\'s call', () => {
  for (const text of ['The energy stored is 65% of the kinetic energy', 'The energy stored is 65 % of K', 'The energy stored is 65%.']) {
    const r = y(text);
    assert.deepEqual(r.equations, [], text);
    assert.equal(r.unread.length, 1, text);
  }
});

test('a label that places the quantity elsewhere, or lacks the change the description names, does not name the variable', () => {
  // "time at the platform" (a place) is not the time to slide to the platform (a motion's end).
  const r = y('the time at the platform = 2m/u');
  assert.deepEqual(r.equations, []);
  assert.equal(r.status, 'abstained');
  assert.deepEqual(
    y('the time to the platform = 2m/u').equations.map((e) => e.source),
    ['Eq(t, 2*m/u)'],
  );
  // "the kinetic energy" (of the tram now) is not K, the kinetic energy lost.
  assert.deepEqual(
    y('the kinetic energy is ½mu², so E = 0.65 K').equations.map((e) => e.source),
    ['Eq(E, 0.65*K)'],
  );
  assert.deepEqual(
    y('the kinetic energy lost is ½mu²').equations.map((e) => e.source),
    ['Eq(K, 1/2*m*u**2)'],
  );
});

const DIVIDER = questionOf(
  'divider',
  'Resistors R_1 and R_2 in series across a supply V_s; a load R_L is put across R_2. Write R_P for R_2 and R_L in parallel.',
  'R_P',
  [
    ['V_s', 'supply voltage'],
    ['R_1', 'upper resistor'],
    ['R_2', 'lower resistor'],
    ['R_L', 'load resistance'],
    ['R_P', 'combined resistance of R_2 and R_L in parallel'],
  ],
);

test('a label that says a whole names no variable that is a whole of parts its description names, nor one that is no whole', () => {
  // The whole circuit's resistance is neither R_P (R_2 and R_L) nor R_L.
  const r = extractEmbedded('Total resistance = R1 + R2 + RL', DIVIDER);
  assert.deepEqual(r.equations, []);
  assert.equal(r.status, 'abstained');
  // A label that says no whole is read as before.
  assert.deepEqual(
    extractEmbedded('resistance = R2 RL/(R2 + RL)', DIVIDER).equations.map((e) => e.source),
    ['Eq(R_P, R_2*R_L/(R_2 + R_L))'],
  );
});

test('a value in words that restates the equation before it in another unit is a conversion, left out with a note', () => {
  const r = x('t = 1200 s, which is 20 minutes');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 1200)'],
  );
  assert.equal(r.status, 'read');
  assert.ok(r.notes.some((n) => n.kind === 'unread' && /another unit/.test(n.text)));
  // Another value is no conversion: it is read, for the engine's checks to see two values of t.
  assert.deepEqual(sources('t = 1200 s, which is 25 minutes'), ['Eq(t, 1200)', 'Eq(t, 25)']);
});

test('a value alone as the whole response ("267 s", "57.5 Ω") is the answer where its unit is the target\'s or it has none; another quantity\'s unit is a doubt, never words-only', () => {
  assert.deepEqual(sources('267 s'), ['Eq(t, 267)']);
  assert.deepEqual(sources('267'), ['Eq(t, 267)']);
  assert.deepEqual(sources('2.67 × 10^2 s'), ['Eq(t, 2.67*10**2)']);
  const speed = x('4.5 m/s');
  assert.deepEqual(speed.equations, []);
  assert.notEqual(speed.status, 'read');
  assert.match(speed.unread.map((u) => u.reason).join(' | '), /the whole response: not the unit of the answer \(t\)/);
  // An ohm, typed as Ω, where the answer is a resistance.
  const RHEOSTAT = questionOf('r', 'A resistor carries a current I from a supply V. Find its resistance R.', 'R', [
    ['V', 'supply voltage'],
    ['I', 'current in the resistor'],
    ['R', 'resistance of the resistor'],
  ]);
  assert.deepEqual(
    extractEmbedded('57.5 Ω', RHEOSTAT).equations.map((e) => e.source),
    ['Eq(R, 57.5)'],
  );
});
