// Notation students type that the reader either left unread for no good reason or read wrong with
// no doubt: a change written out as "delta L", a unit with a negative power after a value ("m s⁻²"),
// the atomic mass unit u, "sqrt2", LaTeX's \mathcal{E}, a proportionality or a term named in words
// ("goes like 1/T", "the I²R heating"), and a letter run that is no English word ("nRT" where the
// question has no T). Questions and text written for these tests, not taken from any set.
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

const read = (text: string, q: Question) => {
  const r = extractEmbedded(text, q);
  return { status: r.status, eqs: r.equations.map((e) => e.source), why: r.unread.map((u) => u.reason).join(' | ') };
};

// A brass rod clamped between two walls and warmed, invented here.
const ROD = Q(
  [
    ['L', 'length of the rod'],
    ['alpha', 'linear expansion coefficient of brass'],
    ['Delta_T', 'rise in temperature'],
    ['Delta_L', 'free expansion of the rod'],
    ['Y', 'Young modulus of brass'],
    ['sigma', 'stress in the clamped rod'],
  ],
  'sigma',
  'A brass rod of length L is clamped between two walls and warmed by Delta_T. Find the stress sigma.',
);

// An ion accelerated between plates, invented here.
const ION = Q(
  [
    ['V', 'potential difference between the plates'],
    ['d', 'separation of the plates'],
    ['E', 'electric field strength between the plates'],
    ['q', 'charge of the ion'],
    ['m', 'mass of the ion'],
    ['a', 'acceleration of the ion'],
  ],
  'a',
  'An ion of charge q and mass m is between plates a distance d apart with a potential difference V. Find its acceleration a.',
);

test('"delta L" written out is the question\'s Delta_L, as "ΔL" is; a change the question has no variable for stays unmapped', () => {
  assert.deepEqual(read('delta L = alpha*L*delta T', ROD).eqs, ['Eq(Delta_L, alpha*L*Delta_T)']);
  assert.deepEqual(read('sigma = Y delta L / L', ROD).eqs, ['Eq(sigma, Y*Delta_L/L)']);
  const other = read('delta sigma = 4', ROD);
  assert.deepEqual(other.eqs, []);
  assert.match(other.why, /'Deltasigma' could not be mapped/);
});

test('a unit with a negative power after a value is a unit, read with its spaces ("m s⁻²" is not per millisecond squared)', () => {
  assert.deepEqual(read('a = 1.76 × 10¹⁵ m s⁻²', ION).eqs, ['Eq(a, 1.76*10**15)']);
  assert.deepEqual(read('a = 2.4e12 m s^-2', ION).eqs, ['Eq(a, 2.4*10**12)']);
  // The letters spell the field's own unit and are the question's variables: V·m⁻¹, or the unit?
  const field = read('E = 1.0 × 10^4 V m⁻¹', ION);
  assert.deepEqual(field.eqs, [], 'not E = 10⁴·V/m read with confidence');
  assert.match(field.why, /could be its unit or a product of the question's variables/);
  // Letters that spell no unit of the quantity are maths as before.
  assert.deepEqual(read('E = 2 V/d', ION).eqs, ['Eq(E, 2*V/d)']);
});

// A nucleus and its mass defect, invented here.
const NUCLEUS = Q(
  [
    ['M', 'mass of the nucleus'],
    ['Delta_m', 'mass defect'],
    ['E', 'binding energy'],
    ['c', 'speed of light'],
  ],
  'E',
  'Find the binding energy E of a nucleus of mass M from its mass defect Delta_m.',
);

test('"u" after a value is the atomic mass unit where the question has no u; where it has one it stays a variable', () => {
  assert.deepEqual(read('Δm = 0.0304 u', NUCLEUS).eqs, ['Eq(Delta_m, 0.0304)']);
  assert.deepEqual(read('M = 4.0015 u', NUCLEUS).eqs, ['Eq(M, 4.0015)']);
  const withU = Q(
    [
      ['u', 'launch speed'],
      ['v', 'final speed'],
    ],
    'v',
    'A ball launched at u ends at v.',
  );
  assert.deepEqual(read('v = 3 u', withU).eqs, ['Eq(v, 3*u)']);
});

test('"sqrt2" is √2, and \\mathcal{E} is the letter E', () => {
  const AC = Q(
    [
      ['V_0', 'peak voltage'],
      ['R', 'resistance'],
      ['I_rms', 'rms current'],
    ],
    'I_rms',
    'A resistor R is across an AC supply of peak voltage V_0. Find the rms current.',
  );
  assert.deepEqual(read('I_rms = V_0/(R sqrt2)', AC).eqs, ['Eq(I_rms, V_0/(R*sqrt(2)))']);
  const COIL = Q(
    [
      ['N', 'number of turns'],
      ['B', 'magnetic field'],
      ['A', 'area of the coil'],
      ['t', 'time taken to remove the coil'],
      ['E', 'average emf induced'],
    ],
    'E',
    'A coil of N turns and area A is pulled out of a field B in a time t. Find the average emf E.',
  );
  assert.deepEqual(read('$\\mathcal{E} = \\frac{NBA}{t}$', COIL).eqs, ['Eq(E, N*B*A/t)']);
});

test('an expression after "goes like", "as", "proportional to", or named as a term or heating, is no value: left out, not a doubt', () => {
  const LINE = Q(
    [
      ['P', 'power sent'],
      ['V', 'transmission voltage'],
      ['R', 'resistance of the line'],
      ['I', 'current in the line'],
      ['P_L', 'power lost in the line'],
    ],
    'P_L',
    'Power P is sent at voltage V down a line of resistance R. Find the power lost P_L.',
  );
  const r = read('P_L = P²R/V², so the losses go down as 1/V²', LINE);
  assert.equal(r.status, 'read');
  assert.deepEqual(r.eqs, ['Eq(P_L, P**2*R/V**2)']);
  assert.equal(read('P_L is proportional to 1/V^2', LINE).status, 'read');
  assert.deepEqual(read('the I²R heating in the line is P_L = P²R/V²', LINE).eqs, ['Eq(P_L, P**2*R/V**2)']);
  assert.equal(read('the I²R heating in the line is P_L = P²R/V²', LINE).status, 'read');
  // Without such words the expression is still a doubt.
  assert.notEqual(read('P_L = P²R/V², and then 1/V²', LINE).status, 'read');
});

test('a letter run with a capital inside that no symbols of the question spell ("nRT" with no T) is unread maths, never a word', () => {
  const GAS = Q(
    [
      ['n', 'number of moles'],
      ['R', 'molar gas constant'],
      ['Delta_T', 'rise in temperature'],
      ['Q', 'heat supplied'],
    ],
    'Q',
    'The gas of n moles is heated at constant pressure; its temperature rises by Delta_T. Find the heat Q.',
  );
  for (const text of ['Q = nRT', 'The heat Q = nRT']) {
    const r = read(text, GAS);
    assert.deepEqual(r.eqs, [], `${text}: not Q = n·R, and not dropped as a definition in words`);
    assert.notEqual(r.status, 'read');
  }
  assert.deepEqual(read('Q = 5/2 nRΔT', GAS).eqs, ['Eq(Q, 5/2*n*R*Delta_T)']);
  // A unit with a capital inside is still a unit.
  assert.deepEqual(read('Q = 40 kJ', GAS).eqs, ['Eq(Q, 40)']);
});

// A pulley wheel and a falling bucket, invented here; its prompt writes "√(2gh)" and "gh".
const WHEEL = Q(
  [
    ['m', 'mass of the bucket'],
    ['I', 'moment of inertia of the wheel'],
    ['r', 'radius of the wheel'],
    ['h', 'height the bucket falls'],
    ['g', 'gravitational field strength'],
    ['v', 'speed of the bucket after falling h'],
    ['omega', 'angular speed of the wheel'],
  ],
  'v',
  'A bucket of mass m on a rope wound round a wheel falls a height h. Find its speed v, and say why v is less than √(2gh) (the speed in free fall, where all of mgh becomes kinetic energy).',
);

test('a run of the question\'s one-letter names is a product even where the prompt spells it as a word ("mgh" is never m with the subscript gh)', () => {
  assert.deepEqual(read('mgh = ½mv² + ½Iω²', WHEEL).eqs, ['Eq(m*g*h, 1/2*m*v**2 + 1/2*I*omega**2)']);
  assert.deepEqual(read('v = √(2mgh/(m + I/r²))', WHEEL).eqs, ['Eq(v, sqrt(2*m*g*h/(m + I/r**2)))']);
});

test('a lower-case w stands for ω where the question has ω and nothing called w or W; W never does', () => {
  assert.deepEqual(read('w = v/r', WHEEL).eqs, ['Eq(omega, v/r)']);
  assert.deepEqual(read('mgh = 1/2 m v^2 + 1/2 I w^2', WHEEL).eqs, ['Eq(m*g*h, 1/2*m*v**2 + 1/2*I*omega**2)']);
  assert.deepEqual(read('W = v/r', WHEEL).eqs, [], 'W is no ω');
  const withW = Q(
    [
      ['w', 'width of the gap'],
      ['omega', 'angular speed'],
    ],
    'omega',
    'Find omega.',
  );
  assert.deepEqual(read('w = 3', withW).eqs, ['Eq(w, 3)']);
});

test("the question's own expression mentioned in prose, or one side of a comparison in words, is left out; another expression in prose is still a doubt", () => {
  const quote = read('v = √(2mgh/(m + I/r²)). It is less than √(2gh) because the wheel takes some of the energy.', WHEEL);
  assert.deepEqual(quote.eqs, ['Eq(v, sqrt(2*m*g*h/(m + I/r**2)))']);
  assert.equal(quote.why, '');
  assert.equal(read('Less than $\\sqrt{2gh}$ since the wheel spins.', WHEEL).status, 'read');
  assert.equal(read('The rope tension is less than mg, so the bucket falls slower.', WHEEL).status, 'read');
  assert.notEqual(read('The energy goes into Iω² and into 3mv, so the bucket falls slower.', WHEEL).status, 'read');
});

test('an x set apart by spaces after a number is a times sign before a letter too, where the question has no x; root2 is √2; "90e^-10k" is 90·e^(−10k)', () => {
  assert.deepEqual(read('v = 0.5 x 2 x omega r', WHEEL).eqs, ['Eq(v, 0.5*2*omega*r)']);
  // Between two letters it may be the student's own x: left unread.
  assert.notEqual(read('v = 0.5 x 2 x r x omega', WHEEL).status, 'read');
  assert.deepEqual(read('v = √(2gh)/root2', WHEEL).eqs, ['Eq(v, sqrt(2*g*h)/sqrt(2))']);
  const COOL = Q(
    [
      ['T', 'temperature of the tea'],
      ['k', 'cooling constant'],
      ['t', 'time'],
    ],
    't',
    'Tea cools so that its temperature excess falls exponentially. Find t.',
  );
  assert.deepEqual(read('60 = 90e^-10k', COOL).eqs, ['Eq(60, 90*exp(-10*k))']);
  assert.deepEqual(read('T = 90 e^-kt', COOL).eqs, ['Eq(T, 90*exp(-k*t))']);
});

test('a capital the student defines as the question\'s variable ("M = mass of the bucket") reads as it, glued into products too', () => {
  const r = read('Mgh = ½Mv² + ½Iω²   (M = mass of the bucket)\nω = v/r', WHEEL);
  assert.deepEqual(r.eqs, ['Eq(m*g*h, 1/2*m*v**2 + 1/2*I*omega**2)', 'Eq(omega, v/r)']);
  // Undefined, the capital is still a change of the question's capitals: not read.
  assert.deepEqual(read('Mgh = ½Mv²', WHEEL).eqs, []);
});

test('"the speed of the bucket" names v, not ω ("angular speed of the wheel"), where both descriptions share its words', () => {
  const r = read('Let x be the speed of the bucket and w the angular speed.\nx = wr', WHEEL);
  assert.deepEqual(r.eqs, ['Eq(v, omega*r)']);
});

test('"ln3.5", "V0e^(…)", a value with "/min" after a space, "√2 R", and what follows a "∝"', () => {
  const TEA = Q(
    [
      ['T_0', 'initial temperature'],
      ['T', 'temperature at time t'],
      ['k', 'cooling constant'],
      ['t', 'time'],
    ],
    't',
    'Tea cools from T_0. Find the time t.',
  );
  assert.deepEqual(read('t = ln3.5/k', TEA).eqs, ['Eq(t, log(3.5)/k)']);
  assert.deepEqual(read('T = T0e^-kt', TEA).eqs, ['Eq(T, T_0*exp(-k*t))']);
  assert.deepEqual(read('T = T_0e^(-kt)', TEA).eqs, ['Eq(T, T_0*exp(-k*t))']);
  assert.deepEqual(read('k = ln(1.75)/10 = 0.056 /min', TEA).eqs, ['Eq(k, log(1.75)/10)', 'Eq(log(1.75)/10, 0.056)']);
  const RC = Q(
    [
      ['V_0', 'supply voltage'],
      ['R', 'resistance'],
      ['C', 'capacitance'],
      ['I', 'current'],
      ['W', 'energy stored'],
      ['t', 'time'],
    ],
    't',
    'A capacitor discharges through a resistor. Find t.',
  );
  // A space after the number closes the root: reading 0 is √2·R (the other stays a choice).
  assert.deepEqual(read('I = V_0/(√2 R)', RC).eqs, ['Eq(I, V_0/(sqrt(2)*R))']);
  const prop = read('W = ½CV_0² ∝ e^(−2t/RC)', RC);
  assert.deepEqual(prop.eqs, ['Eq(W, 1/2*C*V_0**2)']);
  assert.equal(prop.status, 'read');
});

test('a derivative glued like "dT/dt" is one symbol only where neither part is a variable\'s own name ("di/do" with d_i and d_o is a quotient)', () => {
  const LENS = Q(
    [
      ['f', 'focal length'],
      ['d_o', 'object distance'],
      ['d_i', 'image distance'],
      ['M', 'magnification'],
    ],
    'M',
    'A lens of focal length f. Find the magnification M.',
  );
  assert.deepEqual(read('M = -di/do', LENS).eqs, ['Eq(M, -d_i/d_o)']);
});

// A generator coil, invented here: E is its emf, E_0 the peak, E_rms the rms value.
const COIL = Q(
  [
    ['N', 'number of turns'],
    ['B', 'magnetic flux density'],
    ['A', 'area of the coil'],
    ['omega', 'angular speed of the coil'],
    ['t', 'time'],
    ['Phi', 'flux through one turn at time t'],
    ['E', 'emf induced at time t'],
    ['E_0', 'peak emf'],
    ['E_rms', 'rms emf'],
  ],
  'E_0',
  'A coil of N turns spins at omega in a field B. Find its peak emf E_0.',
);

test('ε is the question\'s emf E (with its subscript) where the question has no ε; "emf" names E, "max emf" the peak', () => {
  assert.deepEqual(read('ε = NBAω sin ωt', COIL).eqs, ['Eq(E, N*B*A*omega*sin(omega*t))']);
  assert.deepEqual(read('ε_rms = ε_0/√2', COIL).eqs, ['Eq(E_rms, E_0/sqrt(2))']);
  assert.deepEqual(read('emf = NBAω sin ωt', COIL).eqs, ['Eq(E, N*B*A*omega*sin(omega*t))']);
  assert.deepEqual(read('max emf = NBAω', COIL).eqs, ['Eq(E_0, N*B*A*omega)']);
  assert.deepEqual(read('$\\mathcal{E}_{rms} = \\frac{E_0}{\\sqrt{2}}$', COIL).eqs, ['Eq(E_rms, E_0/sqrt(2))']);
});

test('an expression stated as a quantity in words is that quantity\'s value, or a doubt; "this is …" is the value of what came before, a doubt', () => {
  assert.deepEqual(read('The peak emf is NBAω = 113 V', COIL).eqs, ['Eq(E_0, N*B*A*omega)', 'Eq(N*B*A*omega, 113)']);
  const unsure = read('The effective value is E_0/√2 = 80 V', COIL);
  assert.notEqual(unsure.status, 'read');
  assert.match(unsure.why, /may name the quantity/);
  const that = read('E_0 = NBAω. With the numbers this is 2π × 50 × 200 × 0.012 = 75 V', COIL);
  assert.notEqual(that.status, 'read');
  assert.match(that.why, /value of what came before|may name the quantity/);
});

test('a derivative inside a chain is a doubt (its two sides may be joined); at the end of a chain only its link is left out', () => {
  const mid = read('E = -N dΦ/dt = NBAω sin ωt', COIL);
  assert.deepEqual(mid.eqs, []);
  assert.match(mid.why, /in the middle of a chain/);
  const last = read('E = NBAω sin ωt = -N dΦ/dt', COIL);
  assert.deepEqual(last.eqs, ['Eq(E, N*B*A*omega*sin(omega*t))']);
  assert.equal(last.status, 'read');
});

test('"m=0 d = …": a value tight to its \'=\' and a symbol after a space may be two equations, a doubt; spaced alike it is a product', () => {
  const FILM = Q(
    [
      ['n', 'refractive index'],
      ['d', 'thickness'],
      ['lamda', 'wavelength'],
      ['m', 'order'],
    ],
    'd',
    'A film. Find d.',
  );
  const two = read('m=0 d = λ/4n', FILM);
  assert.deepEqual(two.eqs, []);
  assert.match(two.why, /could end one equation and start the next/);
  assert.deepEqual(read('d = 2 n = 3', FILM).eqs, ['Eq(d, 2*n)', 'Eq(2*n, 3)']);
  // The same with an expression typed tight before the symbol: "m = 2n + 1", "d = λ/4n", or m = (2n + 1)·d?
  const tight = read('m=2n+1 d=λ/4n', FILM);
  assert.deepEqual(tight.eqs, []);
  assert.match(tight.why, /'1 d' could end one equation and start the next/);
});

test('a Greek letter before a times sign stays tight to it: "Δf/γ·G" is the choice "Δf/gamma*G" is', () => {
  const SLICE = Q(
    [
      ['z', 'slice thickness'],
      ['f', 'bandwidth'],
      ['gamma', 'gyromagnetic ratio'],
      ['G', 'field gradient'],
    ],
    'z',
    'Find the slice thickness z.',
  );
  for (const text of ['z = 2π·f/γ·G', 'z = 2*pi*f/gamma*G']) {
    const x = extractEmbedded(text, SLICE);
    assert.equal(x.status, 'partial', text);
    assert.deepEqual(x.alternatives?.[0].readings, [['Eq(z, 2*pi*f/gamma*G)'], ['Eq(z, 2*pi*f/(gamma*G))']], text);
  }
});

test('a correction that restates a quantity of an earlier sentence as well as the one it revises is a doubt', () => {
  const x = extractEmbedded('Φ = BA sin(ωt)\nE = NBAω cos(ωt)\nwait, the flux is largest at t = 0, it should be cos:\nΦ = BA cos(ωt)\nE = NBAω sin(ωt)', COIL);
  assert.notEqual(x.status, 'read');
  assert.ok(x.notes.some((n) => /restates more than/.test(n.text)));
  assert.ok(
    x.equations.some((e) => e.source === 'Eq(Phi, B*A*sin(omega*t))'),
    'kept as written, not dropped unseen',
  );
});

test('a value in words inside brackets that hold its equation ("(E = 5.0 MeV is 8.0 × 10⁻¹³ J)") is a doubt; an aside in brackets is not', () => {
  const ALPHA = Q(
    [
      ['E', 'kinetic energy of the alpha particle'],
      ['d', 'distance of closest approach'],
    ],
    'd',
    'An alpha particle of energy E. Find d.',
  );
  const r = read('Putting in the numbers (E = 5.0 MeV is 8.0 × 10^-13 J) I got d = 4.5 × 10^-14 m.', ALPHA);
  assert.deepEqual(r.eqs, ['Eq(E, 5.0)', 'Eq(d, 4.5*10**(-14))']);
  assert.notEqual(r.status, 'read');
  assert.equal(read('d = 4.5 × 10^-14 m (about 45 fm)', ALPHA).status, 'read');
});

test('"ignore that line" with no maths before it on its line takes back the line before, not the revision after it', () => {
  const x = read('v = 36/1200 = 0.03\nhmm, too slow... oh P is in kW, ignore that line, it should be 36000:\nv = 36000/1200 = 30', WHEEL);
  assert.deepEqual(x.eqs, ['Eq(v, 36000/1200)', 'Eq(36000/1200, 30)']);
  // After maths on its own line it takes back that line.
  assert.deepEqual(read('v = 3 (oops, ignore that line)\nv = 4', WHEEL).eqs, ['Eq(v, 4)']);
});

test('in LaTeX the space that ends a Greek command glues what follows: "\\cos\\omega t" is cos(ωt)', () => {
  assert.deepEqual(read('$\\Phi = BA\\cos\\omega t$', COIL).eqs, ['Eq(Phi, B*A*cos(omega*t))']);
  assert.deepEqual(read('$E = NBA\\omega \\sin(\\omega t)$', COIL).eqs, ['Eq(E, N*B*A*omega*sin(omega*t))']);
});

test('LaTeX subscripts that are operator names or text ("\\lambda_{\\min}", "v_{\\text{max}}") are one name; "35^{\\circ}" is degrees', () => {
  const TUBE = Q(
    [
      ['V', 'accelerating voltage'],
      ['e', 'elementary charge'],
      ['h', 'Planck constant'],
      ['c', 'speed of light'],
      ['lambda_min', 'shortest wavelength'],
    ],
    'lambda_min',
    'Electrons accelerated through V hit a target. Find the shortest wavelength.',
  );
  assert.deepEqual(read('$\\lambda_{\\min} = \\frac{hc}{eV}$', TUBE).eqs, ['Eq(lambda_min, h*c/(e*V))']);
  assert.deepEqual(read('$\\lambda_{\\text{min}} = \\frac{hc}{eV}$', TUBE).eqs, ['Eq(lambda_min, h*c/(e*V))']);
  const LADDER = Q([['theta', 'angle of the ladder']], 'theta', 'Find the angle theta.');
  assert.match(read('$\\theta = 35^{\\circ}$', LADDER).why, /in degrees/);
  // Stated in words, the same doubt: "the angle is 55°" as "θ = 55°".
  assert.match(read('the angle is 55°', LADDER).why, /in degrees/);
  assert.deepEqual(read('the angle is 0.96 rad', LADDER).eqs, ['Eq(theta, 0.96)']);
});

test('θ_min is the question\'s θ where the prompt asks for "the smallest angle theta"; elsewhere a max or min is another value', () => {
  const LADDER = Q(
    [
      ['mu', 'coefficient of friction'],
      ['theta', 'angle between the ladder and the ground'],
    ],
    'theta',
    'Find the smallest angle theta at which the ladder can rest without slipping.',
  );
  assert.deepEqual(read('theta_min = atan(1/(2*mu))', LADDER).eqs, ['Eq(theta, atan(1/(2*mu)))']);
  assert.deepEqual(read('theta_max = 3', LADDER).eqs, []);
});

test('a unit glued to a value whose letters can\'t all be variables and that is the quantity\'s unit ("9m/s" with m a mass) is that unit', () => {
  const GUN = Q(
    [
      ['k', 'spring constant'],
      ['x', 'compression'],
      ['m', 'mass of the ball'],
      ['v', 'speed of the ball'],
    ],
    'v',
    'A spring gun fires a ball. Find its speed v.',
  );
  assert.deepEqual(read('v=sqrt(k/m)*x=9m/s', GUN).eqs, ['Eq(v, sqrt(k/m)*x)', 'Eq(sqrt(k/m)*x, 9)']);
  assert.notEqual(read('x = 0.5m', GUN).status, 'read');
});

test('"← no, crossed out" after a line takes it back; a spaced times sign between two differences is a doubt', () => {
  const BELT = Q(
    [
      ['mu', 'mass of sand dropped per second'],
      ['v', 'speed of the belt'],
      ['F', 'force on the belt'],
      ['P', 'power needed'],
    ],
    'P',
    'Sand falls onto a belt moving at v. Find the power P.',
  );
  assert.deepEqual(read("P = ½μv² ← no, crossed out, that's just the KE rate\nF = μv\nP = Fv", BELT).eqs, ['Eq(F, mu*v)', 'Eq(P, F*v)']);
  const CYCLE = Q(
    [
      ['p_1', 'low pressure'],
      ['p_2', 'high pressure'],
      ['V_1', 'small volume'],
      ['V_2', 'large volume'],
      ['W', 'net work per cycle'],
    ],
    'W',
    'A gas goes round a rectangular cycle. Find W.',
  );
  const slip = read('W = p2 - p1 x V2 - V1 = 600 J', CYCLE);
  assert.deepEqual(slip.eqs, []);
  assert.match(slip.why, /times sign between two sums or differences/);
  assert.deepEqual(read('W = p2 x V2 - p1 x V1', CYCLE).eqs, ['Eq(W, p_2*V_2 - p_1*V_1)']);
});

test('a word subscript on a letter the question also numbers ("T_upper" beside T_1, T_2) is the one whose description has the word; in two of them, unmapped', () => {
  const ROPES = Q(
    [
      ['T', 'total tension the ceiling takes'],
      ['T_1', 'tension in the upper rope'],
      ['T_2', 'tension in the lower rope'],
      ['m', 'mass of each block'],
      ['g', 'gravitational field strength'],
    ],
    'T',
    'Two blocks hang one below the other on an upper and a lower rope. Find the tensions and the total T.',
  );
  assert.deepEqual(read('T_upper = 2mg', ROPES).eqs, ['Eq(T_1, 2*m*g)']);
  assert.deepEqual(read('T_{lower} = mg', ROPES).eqs, ['Eq(T_2, m*g)']);
  // "total" is T's own word: T.
  assert.deepEqual(read('T_total = 2mg', ROPES).eqs, ['Eq(T, 2*m*g)']);
  // "rope" is in both ropes' descriptions: T_1 or T_2?
  const which = read('T_rope = 2mg', ROPES);
  assert.deepEqual(which.eqs, []);
  assert.match(which.why, /T_rope/);
});

test('a letter the question has none of, given a value in the unit of one of its variables ("W = 7 rad/s" with ω), is a doubt, not left out', () => {
  const ROD = Q(
    [
      ['M', 'mass of the rod'],
      ['L', 'length of the rod'],
      ['g', 'gravitational field strength'],
      ['omega', 'angular speed at the bottom (rad/s)'],
    ],
    'omega',
    'A rod pivoted at one end falls from horizontal. Find its angular speed omega at the bottom.',
  );
  const slip = read('w = sqrt(3g/L)\nW = 7 rad/s', ROD);
  assert.equal(slip.status, 'partial');
  assert.deepEqual(slip.eqs, ['Eq(omega, sqrt(3*g/L))']);
  assert.match(slip.why, /'W' would be a work.*rad\/s, the unit of omega/);
  // In a work's own unit it is a work, which the question has none of: left out, as before.
  assert.deepEqual(read('W = 3 J\nw = 7 rad/s', ROD), { status: 'read', eqs: ['Eq(omega, 7)'], why: '' });
});

test('words saying what the maths is, read past a "$" that opens it and inside a bracketed aside', () => {
  const JUMP = Q(
    [
      ['m', 'mass of the jumper'],
      ['g', 'gravitational field strength'],
      ['L', 'natural length of the rope'],
      ['v', 'speed of the jumper when the rope becomes taut'],
    ],
    'v',
    'A jumper falls a length L before the rope becomes taut. Find v.',
  );
  assert.deepEqual(read('so the speed is $\\sqrt{2gL}$.', JUMP).eqs, ['Eq(v, sqrt(2*g*L))']);
  // Words that may name the quantity (the speed "when the rope goes taut"): the link is a doubt, not dropped unseen.
  for (const text of [
    '(The speed when the rope goes taut is $\\sqrt{2gL} = 19.8\\,\\mathrm{m/s}$.)',
    '(The speed when the rope goes taut is √(2gL) = 19.8 m/s)',
  ]) {
    const aside = read(text, JUMP);
    assert.equal(aside.status, 'partial', text);
    assert.match(aside.why, /may name the quantity/, text);
  }
});

test('a letter after a value that spells a unit the quantity is not measured in ("a = 3/4 g", grams for an acceleration) is the variable', () => {
  const BALL = Q(
    [
      ['m', 'mass of the ball (kg)'],
      ['g', 'gravitational field strength (m/s^2)'],
      ['a', 'acceleration of the ball (m/s^2)'],
    ],
    'a',
    'A ball falls with drag. Find its acceleration a at half its terminal speed.',
  );
  assert.deepEqual(read('a = 3/4 g', BALL).eqs, ['Eq(a, 3/4*g)']);
  assert.deepEqual(read('i.e. $a=\\tfrac34 g$.', BALL), { status: 'read', eqs: ['Eq(a, 3/4*g)'], why: '' });
  // A mass in grams is a value in grams.
  assert.deepEqual(read('m = 57 g', BALL).eqs, ['Eq(m, 57)']);
});

test('a dotted letter ("ṁ", "\\dot{m}") is the rate named X_dot; "u0"/"uo" is μ₀ where no variable is written with a u', () => {
  const JET = Q(
    [
      ['m_dot', 'mass of water leaving the hose per second'],
      ['v', 'speed of the jet'],
      ['F', 'force on the wall'],
      ['rho', 'density of water'],
      ['A', 'area of the nozzle'],
    ],
    'F',
    'A jet of water hits a wall and stops. Find the force F.',
  );
  for (const text of ['F = ṁv = ρAv²', 'F = m\u0307v = ρAv²', '$F = \\dot{m} v = \\rho A v^2$', '$F = \\dot m v = \\rho A v^2$'])
    assert.deepEqual(read(text, JET).eqs, ['Eq(F, m_dot*v)', 'Eq(m_dot*v, rho*A*v**2)'], text);
  // A dotted letter the question has no rate of stays unread, never read as the letter.
  const plain = read('F = ẋ m', JET);
  assert.deepEqual(plain.eqs, []);
  const COIL = Q(
    [
      ['B', 'field inside the solenoid'],
      ['mu_0', 'permeability of free space'],
      ['n', 'turns per metre'],
      ['I', 'current'],
    ],
    'B',
    'Find the field B inside a long solenoid.',
  );
  for (const text of ['B = u0 n I', 'B = uo n I', 'B = u_0nI']) assert.deepEqual(read(text, COIL).eqs, ['Eq(B, mu_0*n*I)'], text);
  // With a speed u in the question, u0 is not μ₀.
  const MOVING = Q(
    [
      ['B', 'field inside the solenoid'],
      ['mu_0', 'permeability of free space'],
      ['n', 'turns per metre'],
      ['I', 'current'],
      ['u', 'speed of the probe'],
    ],
    'B',
    'Find the field B inside a long solenoid.',
  );
  assert.notDeepEqual(read('B = u0 n I', MOVING).eqs, ['Eq(B, mu_0*n*I)']);
});

test('a trig function of a lone number past 2π ("tan(15)", "cos 25") is a doubt: degrees without their sign, or radians', () => {
  const HANG = Q(
    [
      ['m', 'mass of the sphere'],
      ['g', 'gravitational field strength'],
      ['theta', 'angle of the thread to the vertical'],
      ['T', 'tension in the thread'],
      ['q', 'charge on the sphere'],
      ['E', 'field strength'],
    ],
    'q',
    'A charged sphere hangs on a thread at 15 degrees to the vertical in a horizontal field E. Find q.',
  );
  for (const text of ['q = mg tan(15)/E', 'T = mg/cos 15', 'T = mg/cos(15.0)']) {
    const r = read(text, HANG);
    assert.deepEqual(r.eqs, [], text);
    assert.match(r.why, /degrees without its sign/, text);
  }
  // A number of radians a student could mean, and a coefficient of the angle, are read as written.
  assert.deepEqual(read('T = mg/cos(0.26)', HANG).eqs, ['Eq(T, m*g/cos(0.26))']);
  assert.deepEqual(read('T = mg sin 2θ', HANG).eqs, ['Eq(T, m*g*sin(2*theta))']);
});
