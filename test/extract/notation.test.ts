// How students write the notation of a question whose names a parser can't take as they are
// typed: λ for a variable the exam calls `lam`, ε₀ typed eps0, ln2, t½ for the half-life, SI units
// after a value, degrees. Questions and text written for these tests (a pendulum clock's drift, a
// cooling body, a light pipe), not taken from any set.
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

// Newton cooling written with a decay constant and a half-time, invented here.
const COOLING = Q(
  [
    ['D_0', 'temperature excess at time zero'],
    ['D', 'temperature excess at time t'],
    ['lam', 'cooling constant (lambda)'],
    ['H', 'half-time of the cooling'],
    ['t', 'time since the kettle was switched off'],
  ],
  't',
  'A kettle cools so that its temperature excess D falls from D_0 as D = D_0 exp(-lambda t); the excess halves every H (the half-time). Find t for a given D.',
);

// A charged sphere's field, with the permittivity of free space as a variable, invented here.
const SPHERE = Q(
  [
    ['q', 'charge on the sphere'],
    ['r', 'distance from the centre'],
    ['epsilon_0', 'permittivity of free space'],
    ['E', 'electric field strength at distance r'],
    ['P', 'potential at distance r'],
  ],
  'E',
  'A sphere carries charge q. Find the field E and the potential P at distance r from its centre.',
);

// A ramp: an angle given in degrees by some students, invented here.
const RAMP = Q(
  [
    ['m', 'mass of the crate'],
    ['beta', 'angle of the ramp above the horizontal'],
    ['g', 'gravitational acceleration'],
    ['a', 'acceleration of the crate down the ramp'],
  ],
  'a',
  'A crate slides down a smooth ramp inclined at beta. Find its acceleration a.',
);

const read = (text: string, q: Question) => {
  const x = extractEmbedded(text, q);
  return { status: x.status, eqs: x.equations.map((e) => e.source), why: x.unread.map((u) => u.reason).join(' | ') };
};

test('λ, lambda and lamda name the variable a question calls lam (lambda is no allowed name)', () => {
  for (const text of ['λ = ln(2)/H', 'lambda = ln(2)/H', 'lamda = ln(2)/H']) {
    const r = read(text, COOLING);
    assert.deepEqual(r.eqs, ['Eq(lam, log(2)/H)'], text);
    assert.equal(r.status, 'read', text);
  }
  assert.deepEqual(read('D = D_0 e^(-λt)', COOLING).eqs, ['Eq(D, D_0*exp(-lam*t))']);
});

test('eps0 and ε₀ name epsilon_0', () => {
  for (const text of ['E = q/(4 pi eps0 r^2)', 'E = q/(4πε₀r²)', 'E = q/(4 pi eps_0 r^2)']) {
    assert.deepEqual(read(text, SPHERE).eqs, ['Eq(E, q/(4*pi*epsilon_0*r**2))'], text);
  }
});

test('ln2 glued is the log of 2; ln 2/H is log(2)/H; log2(x) is a log to base 2 and stays unread', () => {
  assert.deepEqual(read('lam = ln2/H', COOLING).eqs, ['Eq(lam, log(2)/H)']);
  assert.deepEqual(read('lam = ln 2 / H', COOLING).eqs, ['Eq(lam, log(2)/H)']);
  const base2 = read('t = H log2(D_0/D)', COOLING);
  assert.equal(base2.status === 'read', false);
  assert.deepEqual(base2.eqs, []);
  // The log of a symbol divided is still a choice: ln(D_0)/D or ln(D_0/D)?
  assert.notEqual(read('t = ln D_0/D / lam', COOLING).status, 'read');
});

test('a subscript digit ends its name: D₀e^(−λt) is D_0 times the exponential', () => {
  const r = read('D = D₀e^(−λt)', COOLING);
  assert.deepEqual(r.eqs, ['Eq(D, D_0*exp(-lam*t))']);
  assert.equal(r.status, 'read');
});

test('t½ and t_half name the half-time T (the letter in another case, the subscript its kind), never t times ½ nor t', () => {
  const withT: Question = { ...COOLING, variables: COOLING.variables.map((v) => (v.name === 'H' ? { ...v, name: 'T' } : v)) };
  for (const text of ['t½ = ln2/λ', 't_half = ln2/λ']) {
    assert.deepEqual(read(text, withT).eqs, ['Eq(T, log(2)/lam)'], text);
    // With the half-time called H, t½ names no variable: left unread, never read as t.
    const r = read(text, COOLING);
    assert.deepEqual(r.eqs, [], text);
    assert.notEqual(r.status, 'read', text);
  }
  // A subscript naming whose quantity it is still subscripts the letter: D_kettle is D.
  assert.deepEqual(read('D_kettle = D_0/2', COOLING).eqs, ['Eq(D, D_0/2)']);
});

test('½ glued after another letter is a factor: "η½mv²" is η·½·m·v², not a name η_half left out as words', () => {
  const JUMP = Q(
    [
      ['eta', 'fraction of the kinetic energy stored'],
      ['m', 'mass of the athlete'],
      ['v', 'run-up speed'],
      ['g', 'gravitational acceleration'],
      ['H', 'height gained'],
    ],
    'H',
    'An athlete of mass m runs at v and stores a fraction eta of her kinetic energy. Find the height H gained.',
  );
  assert.deepEqual(read('η½mv² = mgH', JUMP), { status: 'read', eqs: ['Eq(eta*(1/2)*m*v**2, m*g*H)'], why: '' });
});

test("letters spelling an SI unit after a value are the unit, unless they are the question's letters", () => {
  const r = read('epsilon_0 = 8.85×10^-12 F/m, q = 2×10^-6 C', SPHERE);
  assert.deepEqual(r.eqs, ['Eq(epsilon_0, 8.85*10**(-12))', 'Eq(q, 2*10**(-6))']);
  assert.equal(r.status, 'read');
  // A question's own letter after a value ("3 E", E the field) is never dropped as a unit.
  assert.notDeepEqual(read('P = 3 E', SPHERE).eqs, ['Eq(P, 3)']);
  assert.notDeepEqual(read('P = 3 e', SPHERE).eqs, ['Eq(P, 3)']);
});

test('a value in degrees is left unread (30 as written, or π/6?), a temperature in °C is not an angle', () => {
  const r = read('β = 30°\na = g sin β', RAMP);
  assert.deepEqual(r.eqs, ['Eq(a, g*sin(beta))']);
  assert.equal(r.status, 'partial');
  assert.match(r.why, /degrees/);
  const warm = read('D_0 = 60°C\nD = 15 °C', COOLING);
  assert.deepEqual(warm.eqs, ['Eq(D_0, 60)', 'Eq(D, 15)']);
  assert.equal(warm.status, 'read');
});

test('"as the train approaches" states no limit; "as r approaches 0" does', () => {
  const moving = read('Where P is the potential felt as the probe approaches, P = q/(4 pi eps0 r)', SPHERE);
  assert.deepEqual(moving.eqs, ['Eq(P, q/(4*pi*epsilon_0*r))']);
  assert.equal(moving.status, 'read');
  const limit = read('As r approaches 0, E = q/(4 pi eps0 r^2) grows without bound', SPHERE);
  assert.deepEqual(limit.eqs, []);
});

test('a Greek letter glued to a number is one factor: "ω/2π" is ω/(2π) as "/2g" is /(2g)', () => {
  const SPIN = Q(
    [
      ['omega', 'angular frequency'],
      ['f', 'frequency'],
      ['T', 'period'],
    ],
    'f',
    'Find the frequency f of a wheel turning at angular frequency omega, and its period T.',
  );
  assert.deepEqual(read('f = ω/2π', SPIN).eqs, ['Eq(f, omega/(2*pi))']);
  assert.deepEqual(read('T = 2π/ω', SPIN).eqs, ['Eq(T, 2*pi/omega)']);
  assert.deepEqual(read('4π²f² = ω²', SPIN).eqs, ['Eq(4*pi**2*f**2, omega**2)']);
});

test('"1/2π" after a number is 1/(2π), bracketed or not; "4/3πr³" and "1/2pi*…" stay a doubt', () => {
  const SPRING = Q(
    [
      ['f', 'frequency of the oscillation'],
      ['k', 'spring constant'],
      ['m', 'mass on the spring'],
      ['n', 'number of turns'],
      ['r', 'radius of the ball'],
      ['V', 'volume of the ball'],
    ],
    'f',
    'A mass m hangs on a spring of constant k. Find the frequency f of its oscillation.',
  );
  assert.deepEqual(read('f = (1/2π)√(k/m)', SPRING), { status: 'read', eqs: ['Eq(f, 1/(2*pi)*sqrt(k/m))'], why: '' });
  assert.deepEqual(read('n = 17.6/2π = 2.8', SPRING).eqs, ['Eq(n, 17.6/(2*pi))', 'Eq(17.6/(2*pi), 2.8)']);
  assert.match(read('V = 4/3πr^3', SPRING).why, /fraction times the rest/);
  assert.match(read('f = 1/2pi*sqrt(k/m)', SPRING).why, /fraction times the rest/);
});

test('"kg m²" after a value is a unit throughout, though m may be a variable; "the component N sinθ" names maths', () => {
  const WHEEL = Q(
    [
      ['m', 'mass of the rider'],
      ['I', 'moment of inertia of the wheel'],
      ['N', 'magnitude of the normal force'],
      ['theta', 'angle of the slope'],
      ['g', 'gravitational acceleration'],
    ],
    'I',
    'A rider of mass m ... find the moment of inertia I and the normal force N.',
  );
  const r = read('I = 360 kg m²\nm = 30 kg', WHEEL);
  assert.deepEqual(r.eqs, ['Eq(I, 360)', 'Eq(m, 30)']);
  assert.equal(r.status, 'read');
  const c = read('the component N sinθ balances it, and the normal force is mg cos θ', WHEEL);
  assert.deepEqual(c.eqs, ['Eq(N, m*g*cos(theta))'], 'the magnitude of the normal force is named by "the normal force"');
  assert.equal(c.status, 'read');
});

test('"e^(" in lower case is the exponential where the question\'s E is an emf; "E/R(1 − …)" leaves the bracket\'s place to the reader', () => {
  const COIL = Q(
    [
      ['E', 'emf of the battery'],
      ['R', 'resistance'],
      ['L', 'inductance'],
      ['I', 'current at time t'],
      ['t', 'time since the switch closed'],
    ],
    't',
    'A coil of inductance L and a resistor R are connected to a battery of emf E. Find the current I at time t.',
  );
  const r = read('I = (E/R)(1 - e^(-Rt/L))', COIL);
  assert.deepEqual(r.eqs, ['Eq(I, E/R*(1 - exp(-R*t/L)))']);
  assert.equal(r.status, 'read');
  // E itself, typed in capitals, is still the emf.
  assert.deepEqual(read('I = E/R', COIL).eqs, ['Eq(I, E/R)']);
  const glued = read('I = E/R(1 - e^(-Rt/L))', COIL);
  assert.deepEqual(glued.eqs, []);
  assert.match(glued.why, /divides by the bracket too/);
});

test('letters after a value that hold a letter of the question are maths the reader can\'t read ("N = 2 mg", g no variable), unless they spell a unit of that quantity', () => {
  // A sledge pulled up a slope (invented here): the question names no g.
  const SLEDGE = Q(
    [
      ['F', 'pulling force on the sledge'],
      ['m', 'mass of the sledge'],
      ['N', 'normal force on the sledge'],
      ['mu', 'coefficient of friction'],
      ['Q', 'charge on the sledge'],
    ],
    'F',
    'A sledge of mass m is pulled up a slope. Find the pulling force F.',
  );
  const r = read('N = 2 mg', SLEDGE);
  assert.deepEqual(r.eqs, [], 'not "N = 2"');
  assert.match(r.why, /'mg' follows it/);
  assert.notEqual(r.status, 'read');
  // Units of the quantity itself stay units: a force in kN, a charge in μC; a word after the value is a word.
  assert.deepEqual(read('F = 5 kN', SLEDGE).eqs, ['Eq(F, 5)']);
  assert.deepEqual(read('Q = 40 μC', SLEDGE).eqs, ['Eq(Q, 40)']);
  assert.deepEqual(read('F = 12 so the sledge moves', SLEDGE).eqs, ['Eq(F, 12)']);
});

test('ħ names hbar; "Pi" is π; "ε_o" with the letter o is ε₀; an English word glued into maths ("me⁴") is maths', () => {
  // The Bohr atom's energy, invented here with a muon in place of the electron.
  const MUON = Q(
    [
      ['E', 'energy of level n'],
      ['n', 'principal quantum number'],
      ['m', 'mass of the muon'],
      ['e', 'elementary charge'],
      ['epsilon_0', 'permittivity of free space'],
      ['hbar', 'reduced Planck constant'],
    ],
    'E',
    'A muon of mass m orbits a proton. Find the energy E of level n.',
  );
  const want = ['Eq(E, -m*e**4/(32*pi**2*epsilon_0**2*hbar**2*n**2))'];
  assert.deepEqual(read('E = −me⁴/(32π²ε₀²ħ²n²)', MUON).eqs, want);
  assert.deepEqual(read('E = -m e^4/(32 Pi^2 eps_o^2 hbar^2 n^2)', MUON).eqs, want);
  assert.deepEqual(read('E = −me⁴/(32π²ε_o²ħ²n²)', MUON).eqs, want);
  // "me" in prose stays a word.
  assert.deepEqual(read('give me the mark for E = 2', MUON).eqs, ['Eq(E, 2)']);
});

test('Delta before a symbol is the change of that quantity, never the quantity: "Δλ", "\\Delta U", "delta lambda" are unread', () => {
  // A photon scattered off a crystal, invented here.
  const PHOTON = Q(
    [
      ['lam', 'wavelength after scattering'],
      ['lam_0', 'wavelength before scattering'],
      ['theta', 'scattering angle'],
      ['U', 'energy given to the crystal'],
      ['T', 'temperature of the crystal'],
    ],
    'lam',
    'An X-ray photon of wavelength lambda_0 scatters off a crystal through theta. Find lambda.',
  );
  for (const text of ['Δλ = 2T', '$\\Delta\\lambda = 2T$', '$\\Delta U = 3T$', 'delta lambda = 2T', 'ΔU = 3T']) {
    const r = read(text, PHOTON);
    assert.deepEqual(r.eqs, [], text);
    assert.notEqual(r.status, 'read', text);
  }
  assert.deepEqual(read('the delta is small, so T = 3', PHOTON).eqs, ['Eq(T, 3)']);
});

// A stone thrown over a wall, invented here.
const THROW = Q(
  [
    ['u', 'launch speed'],
    ['phi', 'launch angle above the horizontal'],
    ['g', 'gravitational acceleration'],
    ['h', 'greatest height reached'],
    ['x', 'horizontal distance to the wall'],
  ],
  'h',
  'A stone is thrown at speed u at angle phi over level ground. Find its greatest height h.',
);

test('a power written on a trigonometric function\'s name is the power of the function: "sin²φ", "sin^2(φ)", "\\sin^2\\phi"; "sin⁻¹" is arcsin', () => {
  const want = ['Eq(h, u**2*sin(phi)**2/(2*g))'];
  for (const text of ['h = u² sin²φ/(2g)', 'h = u^2 sin^2(phi)/(2g)', 'h = u² sin² φ / 2g', '$h = \\frac{u^2\\sin^2\\phi}{2g}$']) {
    const r = read(text, THROW);
    assert.deepEqual(r.eqs, want, text);
    assert.equal(r.status, 'read', text);
  }
  assert.deepEqual(read('phi = sin⁻¹(√(2gh)/u)', THROW).eqs, ['Eq(phi, asin(sqrt(2*g*h)/u))']);
  assert.deepEqual(read('phi = sin^-1 (x/u)', THROW).eqs, ['Eq(phi, asin(x/u))']);
  // Whether a second power is inside is not guessed, nor a power that is not a plain number.
  for (const text of ['h = sin²φ² u', 'h = u sin^(1/2) phi']) assert.notEqual(read(text, THROW).status, 'read', text);
});

test('a name with a subscript the question lacks is a symbol, never a word to step over: "λ_max T = b" is not read as "T = b"', () => {
  for (const text of ['phi_max u = x', 'x = u/phi_max', 'h_top = u']) {
    const r = read(text, THROW);
    assert.deepEqual(r.eqs, [], text);
    assert.notEqual(r.status, 'read', text);
  }
});

test('an unknown LaTeX command is maths that can\'t be read, never prose: "n\\hslash" is not read as n; \\hbar is ħ', () => {
  const BOHR = Q(
    [
      ['L', 'angular momentum of the electron'],
      ['n', 'quantum number of the orbit'],
      ['hbar', 'reduced Planck constant'],
      ['r', 'radius of the orbit'],
    ],
    'L',
    'An electron orbits a nucleus. Find its angular momentum L in orbit n.',
  );
  assert.deepEqual(read('$L = n\\hbar$', BOHR).eqs, ['Eq(L, n*hbar)']);
  const r = read('$L = n\\hslash$', BOHR);
  assert.deepEqual(r.eqs, []);
  assert.notEqual(r.status, 'read');
  assert.deepEqual(read('\\textbf{Answer:} $L = n\\hbar$', BOHR).eqs, ['Eq(L, n*hbar)']);
});

test('an "a" between two pieces of maths is a symbol, not the article: the equation is not cut in two', () => {
  const r = read(
    'P = k1 a (T_h − T_c)/d = 5',
    Q(
      [
        ['P', 'heat current'],
        ['k1', 'conductivity'],
        ['T_h', 'hot side temperature'],
        ['T_c', 'cold side temperature'],
        ['d', 'thickness'],
      ],
      'P',
      'Heat flows through a slab of area a.',
    ),
  );
  assert.notEqual(r.status, 'read');
  assert.ok(!r.eqs.some((e) => e.startsWith('Eq((T_h')), JSON.stringify(r.eqs));
});

test('a Greek letter, a primed symbol or another letter the question lacks is a symbol, never a word stepped over at the edge of an equation', () => {
  // Each of these was read "h = u" (or "h = 2u") with confidence, the symbol dropped.
  for (const text of ['theta h = u', 'h = u omega', 'ℰ h = u', 'h = u ℰ', "h = u v'", "v' h = u", 'h = uλ′', "h' = 2u"]) {
    const r = read(text, THROW);
    assert.ok(!r.eqs.some((e) => /^Eq\(h, (2\*)?u\)$/.test(e)), `${text}: ${JSON.stringify(r.eqs)}`);
    assert.notEqual(r.status, 'read', text);
  }
  // Look-alike letters from other Unicode blocks are those letters: the increment sign is Delta.
  for (const text of ['∆h = u', 'h = u ℏ']) assert.notEqual(read(text, THROW).status, 'read', text);
  assert.deepEqual(read('h = 2 µ', THROW).eqs, []);
  // Prose with an apostrophe, a file's name and an ohm after a number stay as they were.
  assert.deepEqual(read("it's h = u", THROW).eqs, ['Eq(h, u)']);
  assert.equal(read('see the photo (IMG_2231). h = u', THROW).eqs.length, 1);
  const CIRCUIT = Q(
    [
      ['R', 'resistance of the lamp'],
      ['V', 'voltage across the lamp'],
      ['I', 'current'],
    ],
    'I',
    'A lamp of resistance R.',
  );
  const ohms = read('R = 4 Ω, V = 12 V', CIRCUIT);
  assert.deepEqual([ohms.eqs, ohms.status], [['Eq(R, 4)', 'Eq(V, 12)'], 'read']);
});

test('"for small angles" is the question\'s regime, not a limit on a symbol: the equation after it is read; "for small u" is a limit', () => {
  assert.deepEqual(read('For small angles sin θ ≈ θ, so h = u/g', THROW).eqs, ['Eq(h, u/g)']);
  assert.notEqual(read('for small u this is about x, so h = u/g', THROW).status, 'read');
});

test('"1,500" is not read as 1 (a thousands separator or a decimal comma), and an x set apart after a number may be a times sign', () => {
  for (const text of ['h = 1,500 m', 'h = 2,5', 'h = 5 x u']) {
    const r = read(text, THROW);
    assert.deepEqual(r.eqs, [], text);
    assert.notEqual(r.status, 'read', text);
  }
  assert.deepEqual(read('h = 1, x = 2', THROW).eqs, ['Eq(h, 1)', 'Eq(x, 2)']);
  assert.deepEqual(read('h = 5x u', THROW).eqs, ['Eq(h, 5*x*u)']);
});

test('subscript letters and digits beyond ₂ are subscripts ("uₓ" is u_x, "vₘₐₓ" one name v_max), and ℓ is l', () => {
  const PARTS = Q(
    [
      ['u_x', 'horizontal component of the launch speed'],
      ['u', 'launch speed'],
      ['phi', 'launch angle'],
      ['v_max', 'greatest speed'],
      ['l', 'length of the sling'],
      ['t_3', 'time of the third bounce'],
    ],
    'u_x',
    'A stone leaves a sling of length l at speed u and angle phi.',
  );
  assert.deepEqual(read('uₓ = u cos φ', PARTS).eqs, ['Eq(u_x, u*cos(phi))']);
  assert.deepEqual(read('vₘₐₓ = uₓt₃/ℓ', PARTS).eqs, ['Eq(v_max, u_x*t_3/l)']);
});

test('a mark the grammar has no reading for, glued to maths ("|ln V|", "]_{V1}", "∫", "40%"), leaves the run unread; sentence punctuation does not', () => {
  for (const text of ['h = u|ln x|', 'h = u[ln x]_{1}^{2} = u', 'h = 40%', 'h = ∫ u dx = u x']) {
    const r = read(text, THROW);
    assert.notEqual(r.status, 'read', text);
    assert.ok(!r.eqs.some((e) => e === 'Eq(h, u)' || e === 'Eq(h, 40)' || e.includes('**2, u')), `${text}: ${JSON.stringify(r.eqs)}`);
  }
  assert.deepEqual(read('h = u/g... and x = u, so h = x/g.', THROW).eqs, ['Eq(h, u/g)', 'Eq(x, u)', 'Eq(h, x/g)']);
});

// A steel ball in oil, invented here.
const BALL = Q(
  [
    ['r', 'radius of the ball'],
    ['rho', 'density of the oil'],
    ['g', 'gravitational acceleration'],
    ['V', 'volume of the ball'],
    ['F_b', 'buoyant force on the ball'],
    ['U', 'energy stored in the spring'],
    ['k', 'spring constant'],
    ['x', 'extension of the spring'],
    ['e', 'charge of the electron'],
  ],
  'F_b',
  'A ball of radius r hangs from a spring in oil of density rho.',
);

test('a chain after a name of no variable keeps its links between the question\'s quantities: "weight = ρ V g = 3.2 N" gives ρVg = 3.2', () => {
  assert.deepEqual(read('weight = ρ V g = 3.2 N', BALL).eqs, ['Eq(rho*V*g, 3.2)']);
  assert.deepEqual(read('weight = ρ V g', BALL).eqs, []);
});

test('a name right before a symbol that names another variable ("energy stored k = ½kx²") leaves the equation unread', () => {
  const r = read('energy stored k = ½kx²', BALL);
  assert.deepEqual(r.eqs, []);
  assert.match(r.why, /name U, but its left side is k/);
  assert.deepEqual(read('energy stored U = ½kx²', BALL).eqs, ['Eq(U, 1/2*k*x**2)']);
  assert.deepEqual(read('so k = 2U/x²', BALL).eqs, ['Eq(k, 2*U/x**2)']);
});

test('a value in powers of ten with its unit in words is a doubt, not dropped; "150 eV =" with e and V the question\'s is not guessed', () => {
  const r = read('U = 150 J, which in joules per kilo is 2.4 × 10⁻¹⁷ J.', BALL);
  assert.equal(r.status, 'partial');
  assert.match(r.why, /a value with a unit in words/);
  const ev = read('U = 150 eV = 2.4 × 10⁻¹⁷ J', BALL);
  assert.deepEqual(ev.eqs, []);
  assert.match(ev.why, /'eV' after a number could be a unit or a product/);
  assert.deepEqual(read('U = 150 eV', BALL).eqs, ['Eq(U, 150)']);
});

test("a division by a number later in the sum does not show the grouping: '(k − x)g/r+V+U/2' is a reading choice", () => {
  const x = extractEmbedded('F_b = (k - x)g/r+V+U/2', BALL);
  assert.equal(x.alternatives?.length, 1);
  assert.ok(
    x.alternatives![0].readings.some((rd) => rd[0] === 'Eq(F_b, (k - x)*g/(r + V + U/2))'),
    JSON.stringify(x.alternatives),
  );
  // A number over a number beside it is no grouping either way.
  assert.equal(extractEmbedded('F_b = √2/2 + g/r', BALL).alternatives, undefined);
});

test('"u/(g)x": a bracket of the student\'s after a "/" with a factor glued after it is not guessed', () => {
  const r = read('h = u/(g)x', THROW);
  assert.deepEqual(r.eqs, []);
  assert.match(r.why, /divides by what follows the bracket too/);
  assert.deepEqual(read('h = u/(2g)', THROW).eqs, ['Eq(h, u/(2*g))']);
});

test('"v" read as the question\'s V where it also has v_t: not chosen unless the response writes v_t itself', () => {
  // Terminal speed in oil, invented here.
  const OIL = Q(
    [
      ['V', 'volume of the drop'],
      ['v_t', 'terminal speed of the drop'],
      ['r', 'radius of the drop'],
      ['g', 'gravitational acceleration'],
    ],
    'v_t',
    'A drop of radius r falls through oil and reaches its terminal speed.',
  );
  const r = read('v = 2gr²', OIL);
  assert.deepEqual(r.eqs, []);
  assert.match(r.why, /'v' could be V or v_t with its subscript dropped/);
  assert.deepEqual(read('V = 4/3 π r³', OIL).eqs, ['Eq(V, 4/3*pi*r**3)']);
  // Writing v_t elsewhere shows that "v" is not it: the other case is read as before.
  assert.deepEqual(read('v = 4/3 π r³ and v_t = 2gr²', OIL).eqs, ['Eq(V, 4/3*pi*r**3)', 'Eq(v_t, 2*g*r**2)']);
});

test('a log to base 10 is written as the grammar has it (log(x)/log(10)); a bare "log" is base 10 only where the question\'s scheme is', () => {
  // Sound levels, invented here: the scheme's logs are to base 10.
  const SOUND: Question = {
    ...Q(
      [
        ['L', 'sound level'],
        ['J', 'intensity'],
        ['J_0', 'reference intensity'],
      ],
      'L',
      'Find the sound level L of intensity J.',
    ),
    scheme: [{ id: 'a', description: 'the level', marks: 1, match: 'answer', accept: ['Eq(L, 10*log(J/J_0, 10))'] }],
  };
  const want = ['Eq(L, 10*(log(J/J_0)/log(10)))'];
  for (const text of ['L = 10 log(J/J_0)', 'L = 10 log10(J/J₀)', 'L = 10 lg(J/J_0)', 'L = 10 log₁₀(J/J_0)', '$L = 10\\log_{10}(J/J_0)$']) {
    const r = read(text, SOUND);
    assert.deepEqual([r.eqs, r.status], [want, 'read'], text);
  }
  assert.deepEqual(read('L = 10 ln(J/J_0)', SOUND).eqs, ['Eq(L, 10*log(J/J_0))']);
  assert.notEqual(read('L = 10 log J/J_0', SOUND).status, 'read');
  // A question whose scheme says nothing of base 10: "log" may be either ("W = 2.303 nRT log(V2/V1)").
  const GAS = Q(
    [
      ['W', 'work done by the gas'],
      ['V_1', 'initial volume'],
      ['V_2', 'final volume'],
    ],
    'W',
    'A gas expands from V_1 to V_2.',
  );
  const r = read('W = 2.303 V_1 log(V_2/V_1)', GAS);
  assert.deepEqual(r.eqs, []);
  assert.match(r.why, /'log' could be the natural log or the log to base 10/);
  assert.deepEqual(read('W = V_1 ln(V_2/V_1)', GAS).eqs, ['Eq(W, V_1*log(V_2/V_1))']);
});

test('a number in powers of ten typed with a times sign is one number: "/ 4.0×10⁻²" divides by all of it, as e-notation does', () => {
  // Read literally, "2.0×10⁻⁹ / 4.0×10⁻²" divides by 4.0 and multiplies by 10⁻²: a silent error.
  const r = read('E = 9.0×10⁹ × 2.0×10⁻⁹ / 4.0×10⁻²', SPHERE);
  assert.deepEqual(r.eqs, ['Eq(E, 9.0*10**9*(2.0*10**(-9))/(4.0*10**(-2)))']);
  assert.equal(r.status, 'read');
  assert.deepEqual(read('E = 9.0e9 × 2.0e-9 / 4.0e-2', SPHERE).eqs, r.eqs);
  // Its unit after it is still a unit; a power before it is not split ("r^2×10^3").
  assert.deepEqual(read('q = 2.0 × 10^-9 C', SPHERE).eqs, ['Eq(q, 2.0*10**(-9))']);
  assert.deepEqual(read('P = q/r^2×10^3', SPHERE).eqs, ['Eq(P, q/r**2*10**3)']);
});

test('an English word or a function name glued after a letter is no word subscript, though the prompt has it: "mgsinβ" keeps its sin, "gAt" its A and t', () => {
  // "at" and "sin" are words of this prompt; read as subscripts they dropped maths silently
  // ("Lcosθ" was read L·θ, "NBAt" N·B).
  const INCLINE = Q(
    [
      ['m', 'mass of the crate'],
      ['beta', 'angle of the ramp above the horizontal'],
      ['g', 'gravitational acceleration'],
      ['A', 'area of the crate in contact'],
      ['t', 'time on the ramp'],
      ['F', 'force along the ramp'],
    ],
    'F',
    'A crate of mass m slides at first down a ramp at angle beta; the force along it is m g sin beta. Find F after a time t at the bottom.',
  );
  assert.deepEqual(read('F = mgsinβ', INCLINE).eqs, ['Eq(F, m*g*sin(beta))']);
  assert.deepEqual(
    read('F = Lcosβ + gAt', { ...INCLINE, variables: [...INCLINE.variables, { name: 'L', description: 'length of the ramp', assumptions: ['positive'] }] }).eqs,
    ['Eq(F, L*cos(beta) + g*A*t)'],
  );
});

test('the letter after a number\'s degrees is the temperature scale ("0 °C"), never the symbol of that letter', () => {
  const KETTLE = Q(
    [
      ['m', 'mass of water'],
      ['c', 'specific heat capacity of water'],
      ['Q', 'heat supplied'],
      ['T', 'final temperature'],
    ],
    'T',
    'Water is heated from room temperature. Find its final temperature T.',
  );
  const r = read('it starts at 20 °C = 293 K', KETTLE);
  assert.deepEqual(r.eqs, []);
  assert.notEqual(r.status, 'read');
  assert.deepEqual(read('T = 80°C so Q = mc(T − 20)', KETTLE).eqs, ['Eq(T, 80)', 'Eq(Q, m*c*(T - 20))']);
});

test('an arrow before an equation ("… = 0 → a = g sin β") means "so", not "tends to"; "as β → 0, a = 0" is still a limit', () => {
  const r = read('for the slide 0 = mg sin β - ma → a = g sin β', RAMP);
  assert.deepEqual(r.eqs, ['Eq(0, m*g*sin(beta) - m*a)', 'Eq(a, g*sin(beta))']);
  assert.equal(r.status, 'read');
  const limit = read('as β → 0, a = 0', RAMP);
  assert.deepEqual(limit.eqs, []);
  assert.match(limit.why, /holds only in a limiting case/);
});

test('a quantity\'s value stated approximately ("a ≈ 4.9") is a doubt, never dropped unseen; an approximation between symbols is a limit, not recorded', () => {
  const r = read('a = g sin β\na ≈ 4.9', RAMP);
  assert.equal(r.status, 'partial');
  assert.deepEqual(r.eqs, ['Eq(a, g*sin(beta))']);
  assert.match(r.why, /an approximate value of a/);
  assert.equal(read('for small β, a ≈ g β', RAMP).status, 'read');
});

test('a letter x between two numbers is a times sign where the question has no x; digits grouped in threes are one number', () => {
  assert.deepEqual(read('E = q/(4πε_0 r²) = 2x10^-6/(4π x 8.85x10^-12 x 0.5^2) = 72 000', SPHERE), {
    status: 'read',
    eqs: [
      'Eq(E, q/(4*pi*epsilon_0*r**2))',
      'Eq(q/(4*pi*epsilon_0*r**2), 2*10**(-6)/(4*pi*(8.85*10**(-12))*0.5**2))',
      'Eq(2*10**(-6)/(4*pi*(8.85*10**(-12))*0.5**2), 72000)',
    ],
    why: '',
  });
  assert.deepEqual(read('a = 9.8 x 0.5 = 4.9', RAMP).eqs, ['Eq(a, 9.8*0.5)', 'Eq(9.8*0.5, 4.9)']);
  assert.deepEqual(read('P = 1 500 000/2 = 750 000', SPHERE).eqs, ['Eq(P, 1500000/2)', 'Eq(1500000/2, 750000)']);
  // A group of two or four digits is no thousands group.
  assert.notEqual(read('P = 10 0000', SPHERE).status, 'read');
  assert.notEqual(read('P = 10 00', SPHERE).status, 'read');
  // Where the question has a variable x, the letter stays a doubt.
  const SPRING = Q(
    [
      ['k', 'spring constant'],
      ['x', 'extension of the spring'],
      ['F', 'force on the spring'],
    ],
    'F',
    'A spring of constant k is stretched by x. Find the force.',
  );
  assert.notEqual(read('F = 200 x 0.05 = 10', SPRING).status, 'read');
});

test("τ where the question has no torque or time, and θ where it has no angle, are quantities of the student's own: left out, not a doubt", () => {
  const SEESAW = Q(
    [
      ['m_1', 'mass of the first child'],
      ['m_2', 'mass of the second child'],
      ['d_1', 'distance of the first child from the pivot'],
      ['d_2', 'distance of the second child from the pivot'],
      ['g', 'gravitational acceleration'],
    ],
    'd_2',
    'Two children balance on a see-saw. Where must the second sit?',
  );
  assert.deepEqual(read('τ₁ = m₁g d₁, τ₂ = m₂g d₂\nτ₁ = τ₂ so d₂ = m₁d₁/m₂', SEESAW), { status: 'read', eqs: ['Eq(d_2, m_1*d_1/m_2)'], why: '' });
  assert.deepEqual(read('tanθ = d₁/d₂ and d₂ = m₁d₁/m₂', SEESAW).eqs, ['Eq(d_2, m_1*d_1/m_2)']);
  // Where the question has an angle, θ may be the student's name for it: a doubt, not left out.
  assert.notEqual(read('a = g sin θ', RAMP).status, 'read');
});

test('a relation with a rounded number ("a ≈ 0.707 g") is a doubt; one between quantities is a limit, not recorded', () => {
  const r = read('a ≈ 0.707 g\na = g sin β', RAMP);
  assert.equal(r.status, 'partial');
  assert.deepEqual(r.eqs, ['Eq(a, g*sin(beta))']);
  assert.match(r.why, /rounded number/);
  assert.equal(read('a ≈ g when β is near 90°, a = g sin β', RAMP).status, 'read');
});

test('a d glued to a letter whose change the question names ("dT" with ΔT) is a doubt; LaTeX "\\Delta L" is ΔL', () => {
  const ROD = Q(
    [
      ['L', 'length of the rod'],
      ['d', 'gap left at the end'],
      ['alpha', 'expansion coefficient'],
      ['Delta_L', 'expansion of the rod'],
      ['Delta_T', 'temperature rise'],
    ],
    'Delta_L',
    'A rod of length L warms by Delta_T. How much does it expand, and what gap d must be left?',
  );
  const r = read('dL = alpha L dT', ROD);
  assert.notEqual(r.status, 'read');
  assert.match(r.why, /'d[LT]'/);
  assert.notEqual(read('dL = alpha*L*dT', ROD).status, 'read');
  assert.match(read('sigma_x = dL/L', ROD).why, /'dL' could be Delta_L/);
  assert.deepEqual(read('$\\Delta L = \\alpha L \\Delta T$', ROD), { status: 'read', eqs: ['Eq(Delta_L, alpha*L*Delta_T)'], why: '' });
  assert.deepEqual(read('d = ΔL = αLΔT', ROD).eqs, ['Eq(d, Delta_L)', 'Eq(Delta_L, alpha*L*Delta_T)']);
  // Where the question has no d, "dT" can only be the change.
  const WARM = Q(
    [
      ['Q', 'heat taken by the water'],
      ['m', 'mass of the water'],
      ['c', 'specific heat capacity of water'],
      ['DeltaT', 'rise in temperature'],
    ],
    'Q',
    'Water of mass m warms by DeltaT. Find the heat Q.',
  );
  assert.deepEqual(read('Q = m*c*dT', WARM), { status: 'read', eqs: ['Eq(Q, m*c*DeltaT)'], why: '' });
  assert.notEqual(read('dT/dt = 5', WARM).status, 'read', 'a rate is no change');
});

// Two springs and a light beam through polarisers, invented for the tests below.
const SPRINGS: Question = {
  id: 'springs',
  title: '',
  prompt: 'Two springs of stiffness k_1 and k_2 hang a mass m in series; find the extension x. Light of intensity I_0 passes polarisers at angle phi; find I.',
  variables: [
    ['k_1', 'stiffness of the first spring'],
    ['k_2', 'stiffness of the second spring'],
    ['m', 'hanging mass'],
    ['g', 'gravitational field strength'],
    ['x', 'extension of the pair'],
    ['I_0', 'intensity of the incident light'],
    ['I', 'intensity after the polarisers'],
    ['phi', 'angle between the polarisers'],
    ['v_y', 'vertical speed'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
  target: 'x',
  scheme: [],
};
const springs = (text: string) => extractEmbedded(text, SPRINGS);

test('a unicode subscript digit ends its name without making a gap: "/k₁k₂" is the whole denominator, as "/k_1k_2" would be', () => {
  assert.deepEqual(
    springs('x = mg(k₁+k₂)/k₁k₂').equations.map((e) => e.source),
    ['Eq(x, m*g*(k_1 + k_2)/(k_1*k_2))'],
  );
  // A space the student typed still ends the denominator's product.
  assert.deepEqual(
    springs('x = mg/k₁ k₂').equations.map((e) => e.source),
    ['Eq(x, m*g/k_1*k_2)'],
  );
});

test('subscript letters: "vᵧ" (the subscript gamma, which students type for y) is v_y; ᵢ ᵣ ᵤ ᵥ ⱼ are letters too', () => {
  assert.deepEqual(
    springs('vᵧ = g·x').equations.map((e) => e.source),
    ['Eq(v_y, g*x)'],
  );
});

test('a power glued to a number after a function ("sin²2θ") is the square of the function of 2θ, not a power 22', () => {
  assert.deepEqual(
    springs('I = (I_0/8)sin²2φ').equations.map((e) => e.source),
    ['Eq(I, I_0/8*sin(2*phi)**2)'],
  );
});

test('a function inside a tight product after "/" ("I₀/2cos²φ") is a doubt: (I₀/2)cos²φ or I₀/(2cos²φ)', () => {
  const r = springs('I = I_0/2cos²φ');
  assert.equal(r.status, 'abstained');
  assert.match(r.unread[0].reason, /unclear whether '\/2' divides by 'cos' too/);
  // Written so the reading is plain, it is read.
  assert.deepEqual(
    springs('I = I_0 cos²φ/2').equations.map((e) => e.source),
    ['Eq(I, I_0*cos(phi)**2/2)'],
  );
  assert.deepEqual(
    springs('I = I_0/(2cos²φ)').equations.map((e) => e.source),
    ['Eq(I, I_0/(2*cos(phi)**2))'],
  );
});

test("k and M as quantities a question doesn't have (Boltzmann's constant, a molar mass) are left out, noted; where the question has a stiffness, k is a doubt", () => {
  // A gas question: no stiffness, spring or mass anywhere in it.
  const GAS: Question = {
    id: 'gas',
    title: '',
    prompt: 'A gas at temperature T has molecules of mean kinetic energy E.',
    variables: [
      ['T', 'absolute temperature of the gas'],
      ['E', 'mean kinetic energy of a molecule'],
      ['R', 'molar gas constant'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
    target: 'E',
    scheme: [],
  };
  const r = extractEmbedded('E = 3RT/2 with k = 1.38×10^-23\nv = √(3RT/M)', GAS);
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(E, 3*R*T/2)'],
  );
  assert.ok(r.notes.some((n) => /left out "k = 1\.38×10\^-23": 'k' \(a constant/.test(n.text)));
  // v is no quantity of this question either, so the whole line is left out; what matters is that k is not read.
  const s = springs('k = 1.38×10^-23');
  assert.equal(s.status, 'abstained', 'a k where the question has stiffnesses may be one of them');
});

test('a Greek subscript is one name with its letter: "K_β", "K_{β}", "K_\\beta", "K_{\\beta}", and "Kβ" glued where the question has K_beta', () => {
  const BETA: Question = {
    id: 'beta',
    title: '',
    prompt: 'A nucleus emits a beta particle of mass m and speed v. Find its kinetic energy K_beta.',
    variables: [
      ['K_beta', 'kinetic energy of the beta particle'],
      ['m', 'mass of the beta particle'],
      ['v', 'speed of the beta particle'],
      ['b', 'a length'],
    ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
    target: 'K_beta',
    scheme: [],
  };
  for (const text of ['K_β = ½mv²', 'K_{β} = ½mv²', '$K_\\beta = \\frac{1}{2}mv^2$', '$K_{\\beta} = \\frac{1}{2}mv^2$', 'Kβ = ½mv²'])
    assert.deepEqual(
      extractEmbedded(text, BETA).equations.map((e) => e.source),
      ['Eq(K_beta, 1/2*m*v**2)'],
      text,
    );
  // Glued to a letter whose subscripted name the question lacks, the Greek letter is a factor of its own.
  assert.equal(extractEmbedded('bβ = ½mv²', BETA).status, 'abstained');
});

test('a ratio written with colons ("v₁ : v₂ = m₂ : m₁") is left unread, never read as the equation between the colons; a label\'s colon still names', () => {
  for (const text of ['k_1 : k_2 = x : g', 'k_1:k_2 = x:g']) {
    const r = springs(text);
    assert.deepEqual(r.equations, [], text);
    assert.match(r.unread[0].reason, /a ratio written with ':' on both sides/);
  }
  assert.deepEqual(
    springs('extension: x = mg/k_1').equations.map((e) => e.source),
    ['Eq(x, m*g/k_1)'],
  );
});

test('a letter with a power glued to a number, a variable of the question that spells the unit of the chain\'s quantity, is a doubt ("A = LB = 32m^2")', () => {
  const FLOOR = Q(
    [
      ['A', 'area of the floor'],
      ['L', 'length of the floor'],
      ['B', 'breadth of the floor'],
      ['m', 'mass of the carpet'],
    ],
    'A',
    'Find the area A of the floor.',
  );
  for (const text of ['A = LB = 32m^2', 'A = 32m²']) {
    const r = read(text, FLOOR);
    assert.ok(!r.eqs.some((e) => e.includes('m**2')), text);
    assert.ok(r.status === 'partial' || r.status === 'abstained', text);
  }
  // Spaced, it is the unit as before; and m² of a mass-like quantity is no unit of an area.
  assert.deepEqual(read('A = 32 m^2', FLOOR).eqs, ['Eq(A, 32)']);
});

test('a symbol alone glued to a bracket holding a number times a symbol is function notation ("F(2r) = F/16"); with a factor beside it, a product', () => {
  const MAGNETS = Q(
    [
      ['F', 'force between the magnets'],
      ['r', 'separation of the magnets'],
      ['m', 'mass of a magnet'],
      ['g', 'gravitational acceleration'],
      ['h', 'height'],
    ],
    'F',
    'Find the force F at separation r.',
  );
  const f = read('F(2r) = F/16', MAGNETS);
  assert.deepEqual(f.eqs, []);
  assert.match(f.why, /F as a function of 2r/);
  assert.deepEqual(read('h = 2g(2r)', MAGNETS).eqs, ['Eq(h, 2*g*(2*r))']);
  assert.deepEqual(read('F = mg(2r)', MAGNETS).eqs, ['Eq(F, m*g*(2*r))']);
});
