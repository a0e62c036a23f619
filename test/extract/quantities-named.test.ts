// What the words around maths say it is about: a label naming a quantity the question has no
// variable for is left out (gold convention 3), a label naming a variable is read as it, and maths
// that is only referred to, used, or talk about units is no equation. Text written for these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import type { Question } from '../../shared/exam.ts';

const Q = (vars: [string, string][], target: string, prompt: string): Question => ({
  id: 'q',
  title: '',
  prompt,
  variables: vars.map(([name, description]) => ({ name, description, assumptions: ['positive'] })),
  target,
  scheme: [],
});

// A stone thrown from a cliff top, invented for these tests.
const CLIFF = Q(
  [
    ['u', 'throw speed'],
    ['alpha', 'throw angle above the horizontal'],
    ['H', 'height of the cliff'],
    ['T', 'time in the air'],
    ['D', 'horizontal distance from the cliff foot where it lands'],
    ['g', 'gravitational acceleration'],
  ],
  'D',
  'A stone is thrown from the top of a cliff of height H at speed u, at angle alpha above the horizontal. How far from the foot of the cliff does it land?',
);

// A puck pushed across ice by a compressed spring, invented for these tests.
const PUCK = Q(
  [
    ['m', 'mass of the puck'],
    ['k', 'spring constant'],
    ['x', 'compression of the spring'],
    ['v', 'launch speed of the puck'],
  ],
  'v',
  'A spring of constant k compressed by x launches a puck of mass m across ice. Find its speed v.',
);

const read = (text: string, q: Question) => {
  const x = extractEmbedded(text, q);
  return { status: x.status, eqs: x.equations.map((e) => e.source), notes: x.notes.map((n) => n.text).join(' | ') };
};

test('a component of a velocity is not the variable named by the bare noun', () => {
  // "horizontal speed" is u cos α, not u: read as u it would be u = u·cos(α), a silent error.
  for (const text of ['horizontal speed = u cos α, so D = u cos α T', 'The horizontal velocity is u cos(α) and D = u cos(α) T']) {
    const r = read(text, CLIFF);
    assert.deepEqual(r.eqs, ['Eq(D, u*cos(alpha)*T)'], text);
    assert.equal(r.status, 'read', text);
    assert.match(r.notes, /not a (variable|quantity) of the question/, text);
  }
  const vertical = read('vertical speed: u sin α\nT = 2u sin α/g', CLIFF);
  assert.deepEqual(vertical.eqs, ['Eq(T, 2*u*sin(alpha)/g)']);
  assert.equal(vertical.status, 'read');
  // The bare noun, and its synonym, still name the variable.
  assert.deepEqual(read('throw velocity = 12', CLIFF).eqs, ['Eq(u, 12)']);
  assert.deepEqual(read('The throw speed is 12', CLIFF).eqs, ['Eq(u, 12)']);
});

test('a variable described with the qualifier is named by it', () => {
  const q = Q(
    [
      ['u_x', 'horizontal component of the velocity'],
      ['u', 'throw speed'],
    ],
    'u_x',
    'Find the horizontal component.',
  );
  // (An angle in radians: "cos(30)" is now a doubt, degrees without their sign or 30 radians.)
  assert.deepEqual(read('horizontal component = u cos(0.52)', q).eqs, ['Eq(u_x, u*cos(0.52))']);
});

test('a phrase saying when comes before the quantity: "on the way up its speed over the ground is …"', () => {
  const q = Q(
    [
      ['v', "the climber's speed relative to the escalator"],
      ['e', 'speed of the escalator'],
      ['L', 'length of the escalator'],
    ],
    'v',
    'A climber walks up and down a moving escalator.',
  );
  const r = read('On the way up her speed over the ground is v + e, on the way down it is v - e.\nL/(v + e) + L/(v - e) = 3L/e', q);
  assert.deepEqual(r.eqs, ['Eq(L/(v + e) + L/(v - e), 3*L/e)']);
  assert.match(r.notes, /On the way up her speed over the ground.*not a (variable|quantity) of the question/);
});

test('a kind of quantity no variable is described as (energy, force) is left out; a noun students swap for another stays a doubt', () => {
  const r = read('Its elastic energy is just ½kx². The kinetic energy at launch is ½mv².\n½kx² = ½mv²\nv = x√(k/m)', PUCK);
  assert.deepEqual(r.eqs, ['Eq(1/2*k*x**2, 1/2*m*v**2)', 'Eq(v, x*sqrt(k/m))']);
  assert.equal(r.status, 'read');
  // "the squash" is no kind of quantity the reader knows: which variable it is can't be told.
  const doubt = read('the squash is x/2\nv = x√(k/m)', PUCK);
  assert.equal(doubt.status, 'partial');
});

test('maths only referred to ("the +e", "this 2L term") or used ("use ½kx²") is no equation', () => {
  const r = read('Use ½kx² for the spring. The k/m under the root is what sets it.\nv = x√(k/m)', PUCK);
  assert.deepEqual(r.eqs, ['Eq(v, x*sqrt(k/m))']);
  assert.equal(r.status, 'read');
});

test('talk about units is no equation; unit letters without it stay a doubt', () => {
  const r = read('v = x√(k/m)\nUnits: kx² is in J, so J/kg = m²/s² and the root gives m/s.', PUCK);
  assert.deepEqual(r.eqs, ['Eq(v, x*sqrt(k/m))']);
  assert.equal(r.status, 'read');
  assert.match(r.notes, /talk about units/);
  // "N = mg" is a normal force the question has no variable for, not a sentence about units: a doubt.
  const n = read('N = mg\nv = x√(k/m)', PUCK);
  assert.equal(n.status, 'partial');
  assert.ok(n.eqs.includes('Eq(v, x*sqrt(k/m))'));
});

// A mass on a spring with both a speed at x and a maximum speed, invented for these tests.
const OSC = Q(
  [
    ['m', 'mass of the glider'],
    ['k', 'spring constant'],
    ['A', 'amplitude'],
    ['omega', 'angular frequency'],
    ['v_max', 'maximum speed of the glider'],
    ['v', 'speed of the glider at position x'],
    ['x', 'position from equilibrium'],
  ],
  'v_max',
  'A glider of mass m on a spring of constant k oscillates with amplitude A. Find its maximum speed.',
);

test('a label set off by a colon that names another variable than the left side: unread, both named', () => {
  const r = read('ω = √(k/m)\nmax speed: v = Aω', OSC);
  assert.deepEqual(r.eqs, ['Eq(omega, sqrt(k/m))']);
  assert.equal(r.status, 'partial');
  const x = extractEmbedded('max speed: v = Aω', OSC);
  assert.match(x.unread[0].reason, /"max speed"\) name v_max, but its left side is v/);
  // The label and the symbol agree; the answer's label claims nothing; words running into the maths name no side.
  assert.equal(read('max speed: v_max = Aω', OSC).status, 'read');
  assert.equal(read('speed at x: v = ω√(A² − x²)', OSC).status, 'read');
  assert.equal(read('final answer: v = Aω', OSC).status, 'read');
  assert.equal(read('The top speed from v = Aω follows', OSC).status, 'read');
});

test('a symbol named by a quantity right before it ("with speed V0") is an alias, or a doubt when it is another variable', () => {
  // x is no variable of CLIFF's: read as u, noted.
  const alias = extractEmbedded('It leaves with speed x.\nD = x cos α T', CLIFF);
  assert.deepEqual(
    alias.equations.map((e) => e.source),
    ['Eq(D, u*cos(alpha)*T)'],
  );
  // T is CLIFF's time in the air: "with speed T" makes each T unclear.
  const clash = extractEmbedded('It leaves with speed T.\nD = T cos α', CLIFF);
  assert.equal(clash.status, 'needs-review');
  assert.ok(clash.flags.includes('unmapped-symbol'));
  assert.match(clash.notes.map((n) => n.text).join(' | '), /'T' reads as T, a variable of the question, but was defined as "speed" \(u\)/);
  // The named quantity and the symbol agree: nothing to say.
  assert.equal(extractEmbedded('A glider of mass m moves with speed v.\nv = Aω', OSC).status, 'read');
});

test('a value with a unit in prose, stated as no quantity, is a doubt; an approximation or an aside in brackets is not', () => {
  const r = read('Thrown at 12 m/s from a 40 m cliff, it lands D = 31 m out.', CLIFF);
  assert.equal(r.status, 'partial');
  assert.ok(r.eqs.includes('Eq(D, 31)'));
  assert.match(extractEmbedded('Thrown at 12 m/s, D = 31', CLIFF).unread[0].reason, /a value with a unit in words/);
  assert.equal(read('T = 2u sin α/g, about 2.4 s', CLIFF).status, 'read');
  assert.equal(read('T = 2.4 s (12 m/s up and back at 9.8 m/s²)\nD = u cos α T', CLIFF).status, 'read');
  assert.equal(read('It goes 2 times as far: D = 2u²/g', CLIFF).status, 'read');
});

test('an equation of a symbol that conventionally names a quantity no variable is described as is left out, not a doubt', () => {
  // OSC has no force or momentum: "F = −kx" and "p = mv" are about quantities it lacks.
  const r = read('F = −kx pulls it back\np = mv at the middle\nv_max = Aω', OSC);
  assert.deepEqual(r.eqs, ['Eq(v_max, A*omega)']);
  assert.equal(r.status, 'read');
  assert.match(r.notes, /'F' \(a force\) is no quantity of the question/);
  assert.match(r.notes, /'p' \(a momentum\) is no quantity of the question/);
  // A symbol that may be one of the question's stays a doubt: s could be a distance (D), f a frequency (ω's "angular frequency").
  assert.equal(read('s = u cos α T', CLIFF).status, 'abstained');
  assert.equal(read('f = 1/T', OSC).status, 'abstained');
  // A unit letter after a number is a unit, not a quantity: still a doubt, never dropped.
  const g = read('g = 9.8 N/kg\nT = 2u sin α/g', CLIFF);
  assert.equal(g.status, 'partial');
});

test('"where F is the tension": a symbol said to be a quantity is an alias of its variable', () => {
  const q = Q(
    [
      ['T', 'tension in the string'],
      ['mu', 'mass per unit length'],
      ['v', 'wave speed'],
    ],
    'v',
    'A string under tension T has mass per unit length mu. Find the wave speed v.',
  );
  const r = read('v = √(F/μ) where F is the tension', q);
  assert.deepEqual(r.eqs, ['Eq(v, sqrt(T/mu))']);
  assert.match(r.notes, /read 'F' as T/);
});

test('"ΔU = 0" is about a change of a quantity the question lacks: left out; a change of its own variable stays a doubt', () => {
  const gas = Q(
    [
      ['W', 'work done by the gas'],
      ['Q', 'heat supplied to the gas'],
      ['V_1', 'initial volume'],
      ['V_2', 'final volume'],
    ],
    'W',
    'An ideal gas expands slowly at constant temperature from V_1 to V_2.',
  );
  const r = read('ΔU = 0 because T is constant, so Q = W', gas);
  assert.deepEqual(r.eqs, ['Eq(Q, W)']);
  assert.equal(r.status, 'read');
  assert.match(r.notes, /'ΔU' \(an energy\) is no quantity of the question/);
  assert.equal(read('ΔW = Q', gas).status, 'abstained');
});

// A capacitor discharging through a resistor, invented for these tests.
const DISCHARGE = Q(
  [
    ['Q_0', 'initial charge on the capacitor'],
    ['q', 'charge at time t'],
    ['C', 'capacitance'],
    ['R', 'resistance'],
    ['t', 'time since the switch closed'],
  ],
  'q',
  'A capacitor C holding Q_0 discharges through R. Find the charge q at time t.',
);

test('"e^(…)" where the question has no e is the exponential; an unbracketed exponent runs to the next space, and no further', () => {
  assert.deepEqual(read('q = Q_0 e^(−t/(RC))', DISCHARGE).eqs, ['Eq(q, Q_0*exp(-t/(R*C)))']);
  assert.deepEqual(read('q = Q_0 e^{-t/(R C)}', DISCHARGE).eqs, ['Eq(q, Q_0*exp(-t/(R*C)))']);
  // "e^-t/RC" is e^(−t/RC) to everyone who writes it: the exponent is what is glued to the '^'.
  assert.deepEqual(read('q = Q_0 e^-t/RC', DISCHARGE).eqs, ['Eq(q, Q_0*exp(-t/(R*C)))']);
  assert.deepEqual(read('q = Q_0 e^-t/RC + 2', DISCHARGE).eqs, ['Eq(q, Q_0*exp(-t/(R*C)) + 2)']);
  // Glued on past an operator, where it ends is not clear: still a doubt.
  assert.notEqual(read('q = Q_0 e^-t/RC+2', DISCHARGE).status, 'read');
  // With e a variable of the question, e is e.
  const withE = Q(
    [
      ['e', 'coefficient of restitution'],
      ['h', 'height of the bounce'],
    ],
    'h',
    'A ball bounces.',
  );
  assert.deepEqual(read('h = e^(2)', withE).eqs, ['Eq(h, e**2)']);
});

test('an equation opening with the state at the end ("Finally q = 0", "Eventually …") is a doubt; "Finally," is the last step', () => {
  const r = read('At the start q = Q_0.\nFinally q = 0 once it has all flowed off.', DISCHARGE);
  assert.equal(r.status, 'partial');
  assert.deepEqual(r.eqs, ['Eq(q, Q_0)']);
  assert.equal(read('Eventually q = 0', DISCHARGE).status, 'abstained');
  assert.deepEqual(read('Finally, q = Q_0 e^(−t/(RC))', DISCHARGE).eqs, ['Eq(q, Q_0*exp(-t/(R*C)))']);
  assert.equal(read('Finally, q = Q_0 e^(−t/(RC))', DISCHARGE).status, 'read');
});

// A block floating in water, invented for these tests.
const FLOAT = Q(
  [
    ['V_s', 'submerged volume'],
    ['V', 'volume of the block'],
    ['rho', 'density of the block'],
    ['rho_w', 'density of the water'],
    ['m', 'mass of the block'],
    ['g', 'gravitational acceleration'],
  ],
  'V_s',
  'A block floats in water. Find the submerged volume.',
);

test('an equation between letter runs the question lacks ("Vs = pV/pw") is a doubt, never words = words read as nothing', () => {
  const r = read('I could not type Greek letters. The answer is Vs = pV/pw.', FLOAT);
  assert.equal(r.status, 'abstained');
  assert.match(extractEmbedded('Vs = pV/pw', FLOAT).unread[0].reason, /written as maths, but its letters are not symbols of the question/);
  // Words on both sides are words.
  assert.equal(read('heat lost = heat gained', FLOAT).status, 'read');
});

test('an atomic unit after a number is a unit even when its letters are variables ("2.3 eV" with e and V)', () => {
  const PHOTO = Q(
    [
      ['K', 'maximum kinetic energy of the electrons'],
      ['e', 'charge of the electron'],
      ['V', 'stopping potential'],
      ['phi', 'work function'],
    ],
    'V',
    'Light falls on a metal. Find the stopping potential V.',
  );
  assert.deepEqual(read('φ = 2.3 eV', PHOTO).eqs, ['Eq(phi, 2.3)']);
  assert.deepEqual(read('K = eV', PHOTO).eqs, ['Eq(K, e*V)']);
});

test('the rest of a glued unit ("600 kg/m³") is no maths; maths right after a quantity the question lacks ("its weight mg") is left out', () => {
  const r = read('ρ = 600 kg/m³ and ρ_w = 1000 kg/m³\nV_s = ρV/ρ_w', FLOAT);
  assert.deepEqual(r.eqs, ['Eq(rho, 600)', 'Eq(rho_w, 1000)', 'Eq(V_s, rho*V/rho_w)']);
  assert.equal(r.status, 'read');
  const w = read('The forces are its weight mg down and the buoyancy up.\nV_s = ρV/ρ_w', FLOAT);
  assert.equal(w.status, 'read');
  assert.match(w.notes, /"weight" is not a variable of the question/);
  assert.equal(read('The fraction submerged is ρ/ρ_w, so V_s = ρV/ρ_w', FLOAT).status, 'read');
});

test('maths followed by "of" and a symbol ("a fraction 1 − m/k of v") is a factor of that quantity: unread, not left out', () => {
  // Left out as the value of a noun the question lacks, it would drop a statement about v silently.
  const r = read('The spring hands on a fraction 1 − m/k of v, so\nv = x√(k/m)', PUCK);
  assert.equal(r.status, 'partial');
  assert.deepEqual(r.eqs, ['Eq(v, x*sqrt(k/m))']);
  assert.match(JSON.stringify(extractEmbedded('The spring hands on a fraction 1 − m/k of v, so\nv = x√(k/m)', PUCK).unread), /factor of another quantity/);
  // "of" followed by words is not about a symbol: the noun's value is left out as before.
  const w = read('its energy ½kx² of the spring goes into the puck\nv = x√(k/m)', PUCK);
  assert.equal(w.status, 'read');
  assert.deepEqual(w.eqs, ['Eq(v, x*sqrt(k/m))']);
});

test('the letter of the question\'s own subscripted variables ("N" beside N_1, N_2) is no quantity foreign to it: unread, not left out', () => {
  const LIFT = Q(
    [
      ['m', 'mass of the passenger'],
      ['g', 'gravitational acceleration'],
      ['a', 'acceleration of the lift'],
      ['N_1', 'scale reading going up'],
      ['N_2', 'scale reading going down'],
    ],
    'a',
    'A passenger stands on scales in a lift. Find a from the two readings.',
  );
  const r = read('N = m(g ± a), + going up\nN_1 - N_2 = 2ma', LIFT);
  assert.equal(r.status, 'partial');
  assert.deepEqual(r.eqs, ['Eq(N_1 - N_2, 2*m*a)']);
});

test('a label qualifying a kind with a word of the prompt names no variable described as one particular quantity ("time to stop" is not the "reaction time")', () => {
  const BRAKE = Q(
    [
      ['t_r', 'reaction time'],
      ['u', 'speed before braking'],
      ['b', 'braking deceleration'],
      ['s', 'stopping distance'],
    ],
    's',
    'A driver sees a hazard, reacts after a time, then brakes to stop. Find the stopping distance s.',
  );
  const r = read('time to stop = u/b\ns = u t_r + u²/(2b)', BRAKE);
  assert.notEqual(r.status, 'read');
  assert.ok(!r.eqs.includes('Eq(t_r, u/b)'), r.eqs.join(' '));
  // The variable's own words still name it; a generic description takes the prompt's words.
  assert.deepEqual(read('reaction time = 0.7 s', BRAKE).eqs, ['Eq(t_r, 0.7)']);
});

test('a description ends its name at a clause word: "force between the charges" is a force, "time since release" a time', () => {
  const CHARGES = Q(
    [
      ['F', 'magnitude of the force between the spheres'],
      ['q', 'charge on each sphere'],
      ['r', 'distance between the centres'],
      ['k', 'Coulomb constant'],
      ['t', 'time since the spheres were released'],
    ],
    'F',
    'Two small spheres each carry charge q at distance r apart. Find the force on each and how it changes with the time since they are let go.',
  );
  assert.deepEqual(
    extractEmbedded('The force is kq²/r².', CHARGES).equations.map((e) => e.source),
    ['Eq(F, k*q**2/r**2)'],
  );
  // A label naming a kind no variable has ("energy density") before a symbol that resembles a
  // variable: the symbol is that other quantity's, so the equation is not read as the variable's.
  const WORK = Q(
    [
      ['U', 'energy stored in the spring'],
      ['k', 'spring constant'],
      ['x', 'extension'],
    ],
    'U',
    'A spring of constant k is stretched by x. Find the energy stored.',
  );
  const r = extractEmbedded('energy density u = kx/2', WORK);
  assert.deepEqual(r.equations, []);
  assert.match(r.unread[0].reason, /not the question's/);
});

test('numbers stated as a named quantity\'s value and worked out ("The time is 2 × 3 = 6 s") begin with the quantity; a name that may be a paraphrase is a doubt', () => {
  assert.deepEqual(
    extractEmbedded('The time in the air is 2 × 1.5 = 3 s', CLIFF).equations.map((e) => e.source),
    ['Eq(T, 2*1.5)', 'Eq(2*1.5, 3)'],
  );
  const unsure = extractEmbedded('The flight is 2 × 1.5 = 3 s', CLIFF);
  assert.deepEqual(
    unsure.equations.map((e) => e.source),
    ['Eq(2*1.5, 3)'],
  );
  assert.notEqual(unsure.status, 'read');
});

test('a chain that opens with a symbol of a quantity the question has no variable for keeps its later links ("F = ma = kx")', () => {
  const r = extractEmbedded('F = m a = k x', SPRING_PUSH);
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(m*a, k*x)'],
  );
  assert.equal(r.status, 'read');
});

// A block pushed by a spring, with no force variable (invented here).
const SPRING_PUSH = Q(
  [
    ['m', 'mass of the block'],
    ['a', 'acceleration of the block'],
    ['k', 'spring constant'],
    ['x', 'compression of the spring'],
  ],
  'a',
  'A spring of constant k compressed by x pushes a block of mass m. Find its acceleration a.',
);

test("a long label naming the variable whose subscript the left side lacks ('the glider's own maximum speed v = …') is a clash too; other long labels name no side", () => {
  const r = extractEmbedded("the glider's own maximum speed v = Aω", OSC);
  assert.equal(r.status, 'abstained');
  assert.match(r.unread[0].reason, /"the glider's own maximum speed"\) name v_max, but its left side is v/);
  // A long label naming another variable than the symbol's own subscripted one stays what was done, not a name.
  assert.equal(read('using the energy of the glider at x: v = ω√(A² − x²)', OSC).status, 'read');
});

test('a symbol right after "across", "through", "in", "on" is what a named quantity is of ("p.d. across k = …"): a doubt; "sub in k = …" is not', () => {
  const r = extractEmbedded('the speed across x = 3 × 2 = 6', OSC);
  assert.equal(r.status, 'abstained');
  assert.match(r.unread[0].reason, /name a quantity across x: the left side may be that quantity, not x/);
  assert.deepEqual(
    extractEmbedded('sub in x = A', OSC).equations.map((e) => e.source),
    ['Eq(x, A)'],
  );
});

test('"ΔE" where the question\'s E is itself an increase ("increase in the stored energy") is E; with no such description it stays a change of its own', () => {
  const HEAT: Question = {
    id: 'heat',
    title: '',
    prompt: 'A block of mass m is heated through a temperature rise Delta_T. Find the increase in its stored energy E.',
    variables: [
      ['m', 'mass of the block'],
      ['c', 'specific heat capacity of the block'],
      ['Delta_T', 'rise in temperature'],
      ['E', 'increase in the stored energy'],
      ['P', 'power of the heater'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
    target: 'E',
    scheme: [],
  };
  assert.deepEqual(
    extractEmbedded('ΔE = mcΔT', HEAT).equations.map((e) => e.source),
    ['Eq(E, m*c*Delta_T)'],
  );
  assert.equal(extractEmbedded('ΔP = mcΔT', HEAT).status, 'abstained', 'P is no change: ΔP is another quantity');
});

test('"goes up by 3/2 nRΔT" says how much a quantity changes: a doubt, not an operation dropped unseen ("multiply by" still is one)', () => {
  const r = extractEmbedded('The amplitude goes up by 2Aω', OSC);
  assert.equal(r.status, 'abstained');
  assert.match(r.unread[0].reason, /an expression in prose/);
  assert.equal(extractEmbedded('multiply by 2Aω', OSC).unread.length, 0);
});

test('a label that says a whole ("total resistance") names no variable described as one part ("resistance of one bulb"); "Answer:" before an expression names the target', () => {
  const LIGHTS = Q(
    [
      ['V', 'supply voltage'],
      ['N', 'number of bulbs'],
      ['R', 'resistance of one bulb'],
      ['I', 'current in the string'],
      ['P', 'power of each bulb'],
    ],
    'P',
    'N bulbs of resistance R each are wired in series across a supply V. Find the power P of each bulb.',
  );
  const r = read('the total resistance is NR, so the current is I = V/(NR)', LIGHTS);
  assert.deepEqual(r.eqs, ['Eq(I, V/(N*R))']);
  assert.ok(!r.eqs.includes('Eq(R, N*R)'));
  // Without the whole, the label is R's.
  assert.deepEqual(read('the resistance of one bulb is 6', LIGHTS).eqs, ['Eq(R, 6)']);
  assert.deepEqual(read('Answer: V^2/(N^2 R) = 0.24 W', LIGHTS).eqs, ['Eq(P, V**2/(N**2*R))', 'Eq(V**2/(N**2*R), 0.24)']);
});

test('"work against friction" is a work (the quantity comes before "against"), "KE" a kinetic energy where a variable is described as one', () => {
  // A crate sliding down a rough ramp, invented for this test: the question has no energy variable.
  const RAMP = Q(
    [
      ['m', 'mass of the crate'],
      ['g', 'gravitational field strength'],
      ['h', 'height of the ramp'],
      ['L', 'length of the ramp'],
      ['F', 'constant friction force on the crate'],
      ['v', 'speed of the crate at the foot of the ramp'],
    ],
    'v',
    'A crate of mass m slides from rest down a ramp of height h and length L against a constant friction force F. Find its speed v at the foot.',
  );
  // Labels of quantities the question has no variable for: only their links are left out.
  const r = read(
    'Energy at top = mgh = 40 × 9.8 × 1.5 = 588 J\nWork against friction = FL = 50 × 4 = 200 J\nKinetic energy at bottom = 588 − 200 = 388 J\n½ × 40 × v² = 388, v = 4.4',
    RAMP,
  );
  assert.deepEqual(r.eqs, [
    'Eq(m*g*h, 40*9.8*1.5)',
    'Eq(40*9.8*1.5, 588)',
    'Eq(F*L, 50*4)',
    'Eq(50*4, 200)',
    'Eq(588 - 200, 388)',
    'Eq(1/2*40*v**2, 388)',
    'Eq(v, 4.4)',
  ]);
  assert.equal(r.status, 'read');
  // "KE" names the variable described as a kinetic energy; with none, it stays a doubt (not left out).
  const WITH_E = Q(
    [...RAMP.variables.map((x) => [x.name, x.description] as [string, string]), ['E', 'kinetic energy of the crate at the foot']],
    'v',
    RAMP.prompt,
  );
  assert.deepEqual(read('KE = 588 − 200 = 388 J', WITH_E).eqs, ['Eq(E, 588 - 200)', 'Eq(588 - 200, 388)']);
  assert.equal(read('KE at bottom = 588 − 200 = 388 J\nv = 4.4', RAMP).status, 'partial');
  // "force from outside" keeps its last word: it names no variable for sure, so nothing is read as F.
  const outside = read('force from outside = 101000 × 0.038 = 3838 N', RAMP);
  assert.equal(outside.status, 'abstained');
  assert.deepEqual(outside.eqs, []);
});

test('"Total resistance" names no variable where the question has two resistances, neither described as a whole', () => {
  // A lamp dimmed by a resistor in series, invented for this test.
  const DIMMER = Q(
    [
      ['R', 'resistance of the series resistor'],
      ['R_L', 'resistance of the lamp (constant)'],
      ['V', 'supply voltage'],
      ['I', 'current in the circuit'],
    ],
    'I',
    'A lamp of resistance R_L is in series with a resistor R across a supply V. Find the current I.',
  );
  const r = read('Total resistance R + R_L so I = V/(R + R_L)', DIMMER);
  assert.deepEqual(r.eqs, ['Eq(I, V/(R + R_L))']);
  assert.equal(r.status, 'partial');
  // Described as the whole, a variable is named by it.
  const WITH_TOTAL = Q(
    [...DIMMER.variables.map((v) => [v.name, v.description] as [string, string]), ['R_T', 'total resistance of the circuit']],
    'I',
    DIMMER.prompt,
  );
  assert.deepEqual(read('Total resistance = R + R_L = 14 ohm', WITH_TOTAL).eqs, ['Eq(R_T, R + R_L)', 'Eq(R + R_L, 14)']);
});

test('a name in brackets is not a description\'s head ("upthrust (buoyant force) of the water" is an upthrust); one agent\'s work is no "total work"', () => {
  // An anchor hanging in water from a chain, invented for this test.
  const ANCHOR = Q(
    [
      ['m', 'mass of the anchor'],
      ['W', 'true weight of the anchor'],
      ['B', 'upthrust (buoyant force) of the water on the anchor'],
      ['T', 'tension in the chain'],
    ],
    'T',
    'An anchor of mass m hangs in water from a chain. Find the tension T.',
  );
  const r = read('T = W - U where U is the upthrust.\nU = 1030 × 9.81 × 0.15', ANCHOR);
  assert.deepEqual(r.eqs, ['Eq(T, W - B)', 'Eq(B, 1030*9.81*0.15)']);
  assert.equal(r.status, 'read');
  // A sled pushed from rest, invented for this test.
  const SLED = Q(
    [
      ['W', 'work done by the pushers on the sled'],
      ['F', 'pushing force'],
      ['f', 'friction force on the sled'],
      ['d', 'push distance'],
    ],
    'W',
    'Pushers push a sled with force F over a distance d against friction f. Find the work W they do.',
  );
  const sled = read('W = Fd = 16000 J\ntotal work = (F + f)d = 18000 J', SLED);
  assert.ok(!sled.eqs.includes('Eq(W, (F + f)*d)'), "the total work is not the pushers' work");
  assert.equal(sled.status, 'partial');
  // Without the whole, the label is W's.
  assert.deepEqual(read('the work done by the pushers = Fd', SLED).eqs, ['Eq(W, F*d)']);
});

test('a bare noun ("distance") names none of two variables of its kind that it doesn\'t tell apart ("braking distance", "total stopping distance"); a word of one names it', () => {
  // A cyclist braking, invented for this test.
  const BRAKING = Q(
    [
      ['u', 'speed before braking'],
      ['t_r', 'reaction time'],
      ['s', 'braking distance'],
      ['D', 'total stopping distance'],
    ],
    'D',
    'A cyclist at speed u reacts after t_r and brakes. Find the stopping distance D.',
  );
  const r = read('reaction: distance = u*t_r', BRAKING);
  assert.deepEqual(r.eqs, []);
  assert.notEqual(r.status, 'read');
  assert.deepEqual(
    read('braking distance = u^2/(2a)', {
      ...BRAKING,
      variables: [...BRAKING.variables, { name: 'a', description: 'deceleration', assumptions: ['positive'] }],
    }).eqs,
    ['Eq(s, u**2/(2*a))'],
  );
  assert.deepEqual(read('total distance = 7.2 + 11.8 = 19.0', BRAKING).eqs, ['Eq(D, 7.2 + 11.8)', 'Eq(7.2 + 11.8, 19.0)']);
});

test('a label that says whose quantity it is ("ball velocity") names no variable that is another\'s, nor without "relative" one measured relative to something', () => {
  // A trolley that fires a ball backwards, invented for this test.
  const TROLLEY = Q(
    [
      ['v', 'speed of the trolley just after the ball is fired'],
      ['w', 'speed of the ball relative to the trolley'],
      ['M', 'mass of the trolley'],
      ['m', 'mass of the ball'],
    ],
    'v',
    'A trolley of mass M fires a ball of mass m backwards at speed w relative to its deck. Find its speed v.',
  );
  const r = read('Ball velocity after = v - w (ground frame)\nMv = m(w - v)', TROLLEY);
  assert.ok(!r.eqs.includes('Eq(v, v - w)'));
  assert.ok(!r.eqs.includes('Eq(w, v - w)'));
  assert.equal(r.status, 'partial');
  assert.deepEqual(read('the trolley velocity after = mw/(M + m)', TROLLEY).eqs, ['Eq(v, m*w/(M + m))']);
  assert.deepEqual(read('the speed of the ball relative to the trolley = 6', TROLLEY).eqs, ['Eq(w, 6)']);
});

test("the change of a quantity the question doesn't name is the one variable described as that change (Δp for an impulse J)", () => {
  const CATCH = Q(
    [
      ['m', 'mass of the ball'],
      ['u', 'speed of the ball before the catch'],
      ['J', "magnitude of the ball's change of momentum in the catch"],
      ['t', 'duration of the catch'],
      ['F', 'average force on the glove'],
    ],
    'F',
    'A fielder catches a ball of mass m moving at u in a time t. Find the change of momentum J and the average force F.',
  );
  const read = (text: string, q = CATCH) => extractEmbedded(text, q).equations.map((e) => e.source);
  assert.deepEqual(read('Δp = mu − 0 | F = Δp/t'), ['Eq(J, m*u - 0)', 'Eq(F, J/t)']);
  assert.deepEqual(read('delta p = mu'), ['Eq(J, m*u)']);
  // Two names of one variable side by side in a chain are one side: no "J = J".
  assert.deepEqual(read('J = Δp = mu = 0.6'), ['Eq(J, m*u)', 'Eq(m*u, 0.6)']);
  // Described as an impulse, the same; with two variables described so, or none, Δp names neither.
  const IMPULSE = Q(
    [
      ['m', 'mass of the ball'],
      ['u', 'speed of the ball'],
      ['I', 'impulse on the ball'],
    ],
    'I',
    'Find the impulse I.',
  );
  assert.deepEqual(read('Δp = mu', IMPULSE), ['Eq(I, m*u)']);
  const NONE = Q(
    [
      ['m', 'mass of the ball'],
      ['u', 'speed of the ball'],
      ['F', 'average force'],
    ],
    'F',
    'Find F.',
  );
  // (Then it is a momentum the question has no variable for: left out, as gold convention 3 says.)
  const none = extractEmbedded('Δp = mu', NONE);
  assert.deepEqual(none.equations, []);
  assert.ok(none.notes.some((n) => /'Δp' \(a momentum\) is no quantity of the question/.test(n.text)));
});

test("Δt is the question's t where t is described as a duration; not where it is a moment, and never ΔT", () => {
  const HIT = (description: string) =>
    Q(
      [
        ['m', 'mass of the ball'],
        ['u', 'speed of the ball'],
        ['t', description],
        ['F', 'average force on the ball'],
      ],
      'F',
      'Find the average force F.',
    );
  const read = (text: string, description: string) => extractEmbedded(text, HIT(description)).equations.map((e) => e.source);
  for (const d of ['contact time between bat and ball', 'duration of the impact', 'time taken to stop the ball', 'a time interval'])
    assert.deepEqual(read('F = mu/Δt', d), ['Eq(F, m*u/t)'], d);
  // A moment, not a duration: Δt is some other time (not read as t).
  assert.deepEqual(read('F = mu/Δt', 'time at which the ball is hit'), []);
  // (ΔT, a change of temperature, is not the question's t even though its T would be t in the other case.)
  assert.deepEqual(read('F = mu/ΔT', 'contact time between bat and ball'), []);
});

test('a relative clause ends a description\'s noun phrase: "charge that flows through the motor" is a charge, named by "the charge"', () => {
  const FAN = Q(
    [
      ['I', 'current drawn by the motor'],
      ['t', 'running time'],
      ['Q', 'charge that flows through the motor in time t'],
      ['e', 'elementary charge'],
    ],
    'Q',
    'Find the charge Q.',
  );
  // (Its head had been "flows": only the elementary charge was a charge, and "the charge is …" named e.)
  assert.deepEqual(
    extractEmbedded('The charge is 12.5 x 240 = 3000 C.', FAN).equations.map((e) => e.source),
    ['Eq(Q, 12.5*240)', 'Eq(12.5*240, 3000)'],
  );
});

test('a pronoun after the noun opens a clause: "the height it falls" is a height, named as such', () => {
  const SWING = Q(
    [
      ['m', 'mass of the bob'],
      ['r', 'radius of the arc'],
      ['h', 'height through which the bob falls to the lowest point'],
      ['v', 'speed of the bob when it reaches the lowest point'],
    ],
    'v',
    'Find the speed v.',
  );
  // (Its head had been "falls": no variable was named, and the value was left as prose.)
  assert.deepEqual(
    extractEmbedded('the height it falls is 2r', SWING).equations.map((e) => e.source),
    ['Eq(h, 2*r)'],
  );
  assert.deepEqual(
    extractEmbedded('the speed it reaches is √(2rh)', SWING).equations.map((e) => e.source),
    ['Eq(v, sqrt(2*r*h))'],
  );
});
