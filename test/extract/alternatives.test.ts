// Reading choices of the embedded extractor (Extraction.alternatives): where typed maths leaves a
// bracket to the reader, every plausible reading is kept (reading 0 in the equations), and the
// response is not 'read' until the engine has compared them; where the text is clear, no choice
// is invented. Texts of our own (a cart, a lens, a relativity question), not the development set's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { pickReading, withAmbiguity } from '../../shared/alternatives.ts';
import type { Question } from '../../shared/exam.ts';

const Q = (names: string[]): Question => ({
  id: 'q',
  title: 'a question',
  prompt: 'find it',
  target: names[0],
  variables: names.map((name) => ({ name, description: `the quantity ${name}`, assumptions: ['positive'] })),
  scheme: [{ id: 'a', description: 'a', marks: 1, match: 'implied', accept: [`Eq(${names[0]}, 1)`] }],
});
const CART = Q(['a', 'F', 'm', 'M', 'k', 'omega', 'phi', 'T']);
const LENS = Q(['f', 'p', 'q', 'd', 'h', 'g', 'y']);
const FAST = Q(['gamma', 'v', 'c', 'L', 'L_0', 'x']);

const choices = (text: string, q: Question) => {
  const x = extractEmbedded(text, q);
  return { x, readings: (x.alternatives ?? []).map((a) => a.readings), reasons: (x.alternatives ?? []).map((a) => a.reason) };
};

test("a '/' followed by an unbracketed '+'/'-' gives both readings; the denominator may reach to the end of the side", () => {
  const { x, readings, reasons } = choices('so the acceleration is a = F/m+M', CART);
  assert.deepEqual(readings, [[['Eq(a, F/m + M)'], ['Eq(a, F/(m + M))']]]);
  assert.match(reasons[0], /'\/'/);
  // Reading 0 (as written) is in the equations; the response is held back until the choice is settled.
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(a, F/m + M)'],
  );
  assert.equal(x.status, 'partial');
  assert.ok(x.flags.includes('ambiguous-reading'));
  const n = x.notes.find((k) => k.kind === 'ambiguous');
  assert.ok(n && n.text.includes('a = F/m+M') && n.text.includes('F/(m + M)'), JSON.stringify(x.notes));
  assert.deepEqual(x.alternatives![0].span, { start: 'so the acceleration is '.length, end: 'so the acceleration is a = F/m+M'.length });

  assert.deepEqual(choices('T = 2π/ω+φ', CART).readings, [[['Eq(T, 2*pi/omega + phi)'], ['Eq(T, 2*pi/(omega + phi))']]]);
  // Only the last fraction can take the '-' after it: 1/p + 1/(q - d), never 1/(p + 1/q - d).
  assert.deepEqual(choices('1/f = 1/p+1/q-d', LENS).readings, [[['Eq(1/f, 1/p + 1/q - d)'], ['Eq(1/f, 1/p + 1/(q - d))']]]);
});

test("a fraction after a '+' may take the terms before it as its numerator; both ways at once where both apply", () => {
  assert.deepEqual(choices('y = h + √(h² + 4d²)/2', LENS).readings, [[['Eq(y, h + sqrt(h**2 + 4*d**2)/2)'], ['Eq(y, (h + sqrt(h**2 + 4*d**2))/2)']]]);
  const both = choices('y = p h + q g / p + q', LENS).readings[0];
  assert.equal(both.length, 4);
  assert.deepEqual(both[1], ['Eq(y, (p*h + q*g)/(p + q))']);
});

test("how far an unbracketed '√' reaches: every reach is a reading", () => {
  const { readings } = choices('y = √2h/g', LENS);
  assert.deepEqual(readings, [[['Eq(y, sqrt(2*h/g))'], ['Eq(y, sqrt(2)*h/g)'], ['Eq(y, sqrt(2*h)/g)']]]);
  assert.deepEqual(choices('γ = 1/√1-v²/c²', FAST).readings, [[['Eq(gamma, 1/sqrt(1) - v**2/c**2)'], ['Eq(gamma, 1/sqrt(1 - v**2/c**2))']]]);
  assert.deepEqual(choices('x = √v^2', FAST).readings, [[['Eq(x, sqrt(v**2))'], ['Eq(x, sqrt(v)**2)']]]);
});

test('a fraction after a power may be all of the exponent', () => {
  assert.deepEqual(choices('gamma = (1 - v^2/c^2)^-1/2', FAST).readings, [[['Eq(gamma, (1 - v**2/c**2)**(-1)/2)'], ['Eq(gamma, (1 - v**2/c**2)**(-1/2))']]]);
  assert.equal(choices('L = L_0 x^1/2', FAST).readings.length, 1);
});

test('no choice is invented where the text is clear', () => {
  for (const [text, q] of [
    ['1/f = 1/p + 1/q', LENS], // a sum of fractions
    ['1/f = 1/p+1/q', LENS],
    ['a = 2/3+F', CART], // a numeric fraction
    ['gamma = 1/sqrt(1 - v^2/c^2)', FAST], // a bare number is never added to a quantity: not (1 - v²)/c²
    ['x = v^2/2 + c', FAST], // a whole-number exponent fraction is v²/2
    ['x = v^2/4 - c^2', FAST],
    ['a = √2 + √k', CART], // each root has its own argument
    ['a = √2/2 + F/m', CART],
    ['a = F/(m+M)', CART], // bracketed
    ['a = k M^2/2 + F T^4/4', CART], // each term with its own denominator: never (k M²/2 + F T⁴)/4
    ['y = (p h + q g)/(p + q)', LENS],
  ] as [string, Question][]) {
    const x = extractEmbedded(text, q);
    assert.equal(x.alternatives, undefined, text);
    assert.equal(x.status, 'read', text);
  }
});

test('a choice whose equations a self-correction took out is no longer a choice', () => {
  const x = extractEmbedded('a = F/m+M, scratch that\na = F/(m + M)', CART);
  assert.equal(x.alternatives, undefined);
});

test("picking a reading replaces the span's equations in place and settles the choice; picking another undoes it", () => {
  const x = extractEmbedded('F = M a\na = F/m+M\nT = 2π/ω', CART);
  assert.equal(x.status, 'partial');
  const picked = pickReading(x, 0, 1);
  assert.deepEqual(
    picked.equations.map((e) => e.source),
    ['Eq(F, M*a)', 'Eq(a, F/(m + M))', 'Eq(T, 2*pi/omega)'],
  );
  assert.equal(picked.alternatives![0].chosen, 1);
  assert.equal(picked.status, 'read');
  assert.ok(!picked.flags.includes('ambiguous-reading'));
  assert.ok(!picked.notes.some((n) => n.kind === 'ambiguous'));
  const back = pickReading(picked, 0, 0);
  assert.deepEqual(
    back.equations.map((e) => e.source),
    ['Eq(F, M*a)', 'Eq(a, F/m + M)', 'Eq(T, 2*pi/omega)'],
  );
  assert.equal(back.alternatives![0].chosen, 0);
  assert.throws(() => pickReading(x, 0, 2), /readings 1 to 2/);
  assert.throws(() => pickReading(x, 1, 0), /no reading choice 1/);
  // Settled as equivalent (by the engine): not ambiguous, read.
  const settled = withAmbiguity({ ...x, alternatives: x.alternatives!.map((a) => ({ ...a, ambiguous: false })) });
  assert.equal(settled.status, 'read');
  assert.ok(!settled.flags.includes('ambiguous-reading'));
});

test("a '/' before a product written with spaces gives both readings; a number, a bracket or a glued run gives none", () => {
  assert.deepEqual(choices('q = (p - f)/f p', LENS).readings, [[['Eq(q, (p - f)/f*p)'], ['Eq(q, (p - f)/(f*p))']]]);
  assert.deepEqual(choices('a = F/m M', CART).readings, [[['Eq(a, F/m*M)'], ['Eq(a, F/(m*M))']]]);
  assert.equal(choices('a = F/m M', CART).x.status, 'partial');
  for (const clear of ['y = 1/2 g h', 'y = g h/(p q)', 'y = gh/pq', 'y = h/p', 'y = pi/2 g h', 'y = 4pi/3 g h'])
    assert.deepEqual(choices(clear, LENS).readings, [], clear);
  // A number under symbols is a denominator like any other: "gh/2 p" is (gh/2)·p or gh/(2p).
  assert.deepEqual(choices('y = g h/2 p', LENS).readings, [[['Eq(y, g*h/2*p)'], ['Eq(y, g*h/(2*p))']]]);
});

test("a second '/' after a denominator gives both readings ('a = F/m/2' is (F/m)/2 or F/(m/2)); two numbers give none", () => {
  assert.deepEqual(choices('a = F/m/2', CART).readings, [[['Eq(a, F/m/2)'], ['Eq(a, F/(m/2))']]]);
  assert.deepEqual(choices('a = F/2/3', CART).readings, []);
});

test("a name with '_' the question lacks is not read as a product of its letters ('v_x' is not v*x)", () => {
  for (const text of ['x = c_v', 'x = v_c', 'L_x = 2 L']) {
    const x = extractEmbedded(text, FAST);
    assert.ok(!x.equations.some((e) => /c\*v|v\*c|L\*x/.test(e.source)), `${text}: ${JSON.stringify(x.equations)}`);
    assert.notEqual(x.status, 'read', text);
  }
  // A subscript the question has, or a numbered one, still reads.
  assert.deepEqual(
    extractEmbedded('x = L_0 v', FAST).equations.map((e) => e.source),
    ['Eq(x, L_0*v)'],
  );
});

test("a generic word subscript ('R_total', 'v_final') is not mapped to the bare variable; the question's own word is", () => {
  const CIRCUIT: Question = {
    ...Q(['I', 'R', 'r', 'V']),
    prompt: 'A battery of internal resistance r drives a current I through a load R in the circuit.',
  };
  const x = extractEmbedded('R_total = R + r so I = V/R_total', CIRCUIT);
  assert.ok(!x.equations.some((e) => e.source === 'Eq(R, R + r)' || e.source === 'Eq(I, V/R)'), JSON.stringify(x.equations));
  assert.notEqual(x.status, 'read');
  // "load" is the question's word for R.
  assert.deepEqual(
    extractEmbedded('R_load = 5', CIRCUIT).equations.map((e) => e.source),
    ['Eq(R, 5)'],
  );
});

test("a tight '*' before a plain symbol after the denominator is the same choice ('d*y/m*L'); before a function or spaced, it is a factor beside the fraction", () => {
  assert.deepEqual(choices('y = d*h/p*q', LENS).readings, [[['Eq(y, d*h/p*q)'], ['Eq(y, d*h/(p*q))']]]);
  assert.equal(choices('y = d*h/p*q', LENS).x.status, 'partial');
  for (const clear of ['y = h/p*exp(-g/q)', 'y = d/p * q', 'y = 1/2*g*h']) assert.deepEqual(choices(clear, LENS).readings, [], clear);
});

test("a word subscript on a letter the question writes only with subscripts names the one variable whose description has the word ('T_top' is T_1)", () => {
  // A ball whirled on a rope in a vertical circle, invented here.
  const WHIRL: Question = {
    ...Q(['m', 'g', 'v', 'r']),
    variables: [
      ...Q(['m', 'g', 'v', 'r']).variables,
      { name: 'T_1', description: 'tension in the rope at the top of the circle', assumptions: ['positive'] },
      { name: 'T_2', description: 'tension in the rope at the bottom of the circle', assumptions: ['positive'] },
    ],
  };
  const read = (text: string) => extractEmbedded(text, WHIRL);
  assert.deepEqual(
    read('T_top + m g = 5').equations.map((e) => e.source),
    ['Eq(T_1 + m*g, 5)'],
  );
  assert.deepEqual(
    read('$T_{bottom} = 7$').equations.map((e) => e.source),
    ['Eq(T_2, 7)'],
  );
  // A word both descriptions have, or a letter's abbreviation, names neither: a doubt.
  for (const text of ['T_rope = 3', 'T_t = 2']) {
    const x = read(text);
    assert.deepEqual(x.equations, [], text);
    assert.notEqual(x.status, 'read', text);
  }
});

test("a one-letter subscript that is the initial of a word of the variable's kind names it ('E_k' is E, 'kinetic energy …'); one of its owner's words does not", () => {
  const PROTON: Question = {
    ...Q(['E', 'm', 'v']),
    variables: [
      { name: 'E', description: 'kinetic energy of the proton as it leaves', assumptions: ['positive'] },
      { name: 'm', description: 'mass of the proton', assumptions: ['positive'] },
      { name: 'v', description: 'speed of the proton at impact', assumptions: ['positive'] },
    ],
  };
  assert.deepEqual(
    extractEmbedded('E_k = 1/2 m v^2', PROTON).equations.map((e) => e.source),
    ['Eq(E, 1/2*m*v**2)'],
  );
  // "at impact" says whose speed, not what kind: v_i may be an initial speed, another quantity.
  assert.notEqual(extractEmbedded('v_i = 3', PROTON).status, 'read');
});

test('a part label opening a line ("(d) n = 1.33", "Part (c): …") is no factor, though its letter is a variable', () => {
  const eqs = (text: string) => extractEmbedded(text, LENS).equations.map((e) => e.source);
  assert.deepEqual(eqs('(d) f = 1.33'), ['Eq(f, 1.33)']);
  assert.deepEqual(eqs('p = 2\n(h) q = 3'), ['Eq(p, 2)', 'Eq(q, 3)']);
  assert.deepEqual(eqs('Part (g): y = 4'), ['Eq(y, 4)']);
  // An '=' after it: the letter's value.
  assert.deepEqual(eqs('(d) = 5'), ['Eq(d, 5)']);
});

test("a dotted letter ('ṁ', '\\\\dot{m}') is the question's letter where that variable is itself a rate ('mass flow rate …')", () => {
  const COOLANT: Question = {
    ...Q(['m', 'c', 'Q', 'T']),
    variables: [
      { name: 'm', description: 'mass flow rate of the coolant', assumptions: ['positive'] },
      { name: 'c', description: 'specific heat capacity of the coolant', assumptions: ['positive'] },
      { name: 'Q', description: 'rate of heat flow', assumptions: ['positive'] },
      { name: 'T', description: 'temperature drop of the coolant', assumptions: ['positive'] },
    ],
  };
  for (const text of ['Q = ṁ c T', 'Q = \\dot{m} c T'])
    assert.deepEqual(
      extractEmbedded(text, COOLANT).equations.map((e) => e.source),
      ['Eq(Q, m*c*T)'],
      text,
    );
  // Where the variable is no rate (a mass), ṁ is another quantity: not m.
  const TANK: Question = { ...COOLANT, variables: [{ ...COOLANT.variables[0], description: 'mass of the coolant' }, ...COOLANT.variables.slice(1)] };
  assert.ok(!extractEmbedded('Q = ṁ c T', TANK).equations.some((e) => e.source === 'Eq(Q, m*c*T)'));
});

test("a word subscript that a short name in brackets gives another variable ('(waste power)') is not this letter's ('P_waste' is no P)", () => {
  const ENGINE: Question = {
    ...Q(['P', 'Q', 'eta']),
    prompt: 'An engine of useful power P and efficiency eta sheds waste heat Q through its radiator.',
    variables: [
      { name: 'P', description: 'useful mechanical power output of the engine', assumptions: ['positive'] },
      { name: 'Q', description: 'rate of heat flow to the air (waste power)', assumptions: ['positive'] },
      { name: 'eta', description: 'efficiency of the engine', assumptions: ['positive'] },
    ],
  };
  const x = extractEmbedded('P_waste = P(1/eta - 1)', ENGINE);
  assert.ok(!x.equations.some((e) => e.source.startsWith('Eq(P, ')), JSON.stringify(x.equations));
  assert.notEqual(x.status, 'read');
  // P's own word is a subscript like any other.
  assert.deepEqual(
    extractEmbedded('P_useful = 45', ENGINE).equations.map((e) => e.source),
    ['Eq(P, 45)'],
  );
});

test("a '/' among substituted numbers before more numbers multiplied in gives both readings; a coefficient or a fraction times a fraction does not", () => {
  // "(a/b)·c as written, or a/(b·c) as a formula's denominator copied into numbers".
  assert.deepEqual(choices('F = 36 × 2/0.5 × 4', CART).readings, [[['Eq(F, 36*2/0.5*4)'], ['Eq(F, 36*2/(0.5*4))']]]);
  // A power of ten in the denominator is one number: the choice is over what follows it.
  assert.deepEqual(choices('F = 120/3.2×10^-4 × 8', CART).readings, [[['Eq(F, 120/(3.2*10**(-4))*8)'], ['Eq(F, 120/(3.2*10**(-4)*8))']]]);
  const c = choices('F = 36 × 2/0.5 × 4', CART);
  assert.equal(c.x.status, 'partial');
  assert.match(c.reasons[0], /product of numbers/);
  // Not choices: ½ as a coefficient, a fraction times a fraction, nothing multiplied after.
  for (const text of ['F = 1/2 × 1200 × 15^2', 'F = 340/512 × 1500/340', 'F = 50 × 70 × 9.8/60', 'F = 36/0.5']) {
    assert.deepEqual(choices(text, CART).readings, [], text);
    assert.equal(extractEmbedded(text, CART).status, 'read', text);
  }
});
