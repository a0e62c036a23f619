// Unit tests for the embedded extractor, one group per rule, on text written for these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { normalize } from '../../shared/extract/normalize.ts';
import type { Question } from '../../shared/exam.ts';

const Q = (id: string, vars: [string, string][], target: string, prompt = ''): Question => ({
  id,
  title: '',
  prompt,
  variables: vars.map(([name, description]) => ({ name, description, assumptions: ['positive'] })),
  target,
  scheme: [],
});

// A pendulum-and-cart question invented for these tests (not the development exam).
const CART = Q(
  'cart',
  [
    ['a', 'acceleration of the cart'],
    ['F', 'applied force'],
    ['M', 'mass of the cart'],
    ['t', 'time to stop'],
    ['d', 'stopping distance'],
    ['v_0', 'initial speed of the cart'],
    ['phi', 'angle of the ramp'],
  ],
  'd',
  'A cart of mass M moving at v_0 is braked by a force F. Find the stopping distance d and the time t. The Smith family owns it.',
);
const BOAT = Q(
  'boat',
  [
    ['c', 'speed of the river current'],
    ['b', "Ana's rowing speed relative to the water"],
    ['L', 'width of the river'],
    ['T', 'a crossing time'],
  ],
  'b',
  'Ana rows across a river of width L and back. The current has speed c. Find b such that the crossings take T.',
);

const eqs = (text: string, q: Question): string[] => extractEmbedded(text, q).equations.map((e) => e.source);
const read = (text: string, q: Question) => {
  const x = extractEmbedded(text, q);
  assert.equal(x.status, 'read', `${JSON.stringify(text)}: ${x.status} ${JSON.stringify(x.unread)}`);
  return x.equations.map((e) => e.source);
};

test('blank and whitespace-only responses are blank with no equations', () => {
  for (const t of ['', '   ', '\n\n\t ']) {
    const x = extractEmbedded(t, CART);
    assert.equal(x.status, 'blank');
    assert.deepEqual(x.equations, []);
  }
});

test('attachment lines give no equations and are flagged; typed working beside them is still read', () => {
  const x = extractEmbedded('Attachments: photo_of_work.JPG (2.3MB)', CART);
  assert.deepEqual(x.equations, []);
  assert.ok(x.flags.includes('attachment'));
  const y = extractEmbedded('see attached page for the rest', CART);
  assert.deepEqual(y.equations, []);
  assert.ok(y.flags.includes('attachment'));
  const z = extractEmbedded('Attachment: scan.pdf (88KB)\nfinal answer d = v_0^2/(2a)', CART);
  assert.deepEqual(
    z.equations.map((e) => e.source),
    ['Eq(d, v_0**2/(2*a))'],
  );
  assert.ok(z.flags.includes('attachment'));
});

test('words-only responses give no equations and are flagged', () => {
  const x = extractEmbedded(
    "The cart slows down because the brakes push against it. A heavier cart takes longer, I think, and it doesn't matter how steep it is.",
    CART,
  );
  assert.equal(x.status, 'read');
  assert.deepEqual(x.equations, []);
  assert.ok(x.flags.includes('words-only'));
});

test('equations among prose, several per line, trailing punctuation dropped', () => {
  assert.deepEqual(read('From Newton, F = M a so a = F/M. Then d = v_0^2/(2a), done.', CART), ['Eq(F, M*a)', 'Eq(a, F/M)', 'Eq(d, v_0**2/(2*a))']);
});

test('an equation continued on the next line after an operator or before "="', () => {
  assert.deepEqual(read('d = v_0 t -\n(1/2) a t^2', CART), ['Eq(d, v_0*t - 1/2*a*t**2)']);
  assert.deepEqual(read('d = v_0^2/(2a)\n  = M v_0^2/(2F)', CART), ['Eq(d, v_0**2/(2*a))', 'Eq(v_0**2/(2*a), M*v_0**2/(2*F))']);
});

test('powers with ^ and **, implicit multiplication of numbers, symbols and brackets', () => {
  assert.deepEqual(read('Fd = ½Mv_0**2', CART), ['Eq(F*d, 1/2*M*v_0**2)']);
  assert.deepEqual(read('2ad = v_0^2', CART), ['Eq(2*a*d, v_0**2)']);
  assert.deepEqual(read('d = a(t^2 + 1)(t - 1)', CART), ['Eq(d, a*(t**2 + 1)*(t - 1))']);
  assert.deepEqual(read('F = 3 M a sin(phi)', CART), ['Eq(F, 3*M*a*sin(phi))']);
});

test('a tight product after "/" is the whole denominator; "1/2kx" is left unread as ambiguous', () => {
  assert.deepEqual(read('d = v_0^2/2a', CART), ['Eq(d, v_0**2/(2*a))']);
  const x = extractEmbedded('F = 1/2Ma', CART);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(read('F = 1/2 M a', CART), ['Eq(F, 1/2*M*a)']);
});

test('unicode: √ ² ³ ± φ π · × − ÷', () => {
  assert.deepEqual(read('t = √(2d/a)', CART), ['Eq(t, sqrt(2*d/a))']);
  assert.deepEqual(read('d = a·t² ÷ 2', CART), ['Eq(d, a*t**2/2)']);
  assert.deepEqual(
    read(
      'F = M × a − M g sin φ',
      Q(
        'x',
        [
          ['F', ''],
          ['M', ''],
          ['a', ''],
          ['g', ''],
          ['phi', ''],
        ],
        'F',
      ),
    ),
    ['Eq(F, M*a - M*g*sin(phi))'],
  );
  assert.deepEqual(read('d = π t³', CART), ['Eq(d, pi*t**3)']);
});

test('sqrt without brackets only where unambiguous', () => {
  assert.deepEqual(read('t = √2 + √a', CART), ['Eq(t, sqrt(2) + sqrt(a))']);
  assert.deepEqual(read('t = sqrt d', CART), ['Eq(t, sqrt(d))']);
  assert.notEqual(extractEmbedded('t = √2d', CART).status, 'read');
  assert.notEqual(extractEmbedded('t = √ad', CART).status, 'read');
});

test('functions without brackets take one argument: sin φ, sin 2φ', () => {
  assert.deepEqual(read('a = F sin φ t / M', CART), ['Eq(a, F*sin(phi)*t/M)']);
  assert.deepEqual(read('a = F sin 2φ', CART), ['Eq(a, F*sin(2*phi))']);
  assert.deepEqual(read('a = root(F/M)', CART), ['Eq(a, sqrt(F/M))']);
  // The power on the name is the function's power (the convention everywhere in physics).
  assert.deepEqual(read('a = sin^2 φ', CART), ['Eq(a, sin(phi)**2)']);
  assert.notEqual(extractEmbedded('a = sin^x φ', CART).status, 'read');
});

test('LaTeX: \\frac, \\sqrt, subscripts in braces, Greek, \\cdot, $...$', () => {
  assert.deepEqual(read('We get $d = \\frac{v_{0}^{2}}{2a}$ and $t = \\sqrt{\\frac{2d}{a}}$.', CART), ['Eq(d, v_0**2/(2*a))', 'Eq(t, sqrt(2*d/a))']);
  assert.deepEqual(read('$$F = M\\cdot a\\sin\\phi$$', CART), ['Eq(F, M*a*sin(phi))']);
  assert.deepEqual(read('$a = \\tfrac12 F$', CART), ['Eq(a, 1/2*F)']);
});

test('normalisation keeps spans pointing into the original text', () => {
  const text = 'so $d=\\frac{v_0}{a}$ ok';
  const n = normalize(text);
  const i = n.text.indexOf('d');
  assert.equal(text[n.from[i]], 'd');
  const x = extractEmbedded(text, CART);
  const sp = x.equations[0].span!;
  assert.match(text.slice(sp.start, sp.end), /^d=\\frac\{v_0\}\{a\}/);
});

test("'?' where the only Greek letter was lost", () => {
  assert.deepEqual(
    read(
      'a = g sin?',
      Q(
        'r',
        [
          ['a', ''],
          ['g', ''],
          ['theta', ''],
        ],
        'a',
      ),
    ),
    ['Eq(a, g*sin(theta))'],
  );
  assert.deepEqual(read('is it right? a = F/M', CART), ['Eq(a, F/M)']);
});

test('symbols mapped to variables: capitalisation, v0/V0 -> v_0, numbered and named subscripts', () => {
  assert.deepEqual(read('D = V0 T', CART), ['Eq(d, v_0*t)']);
  assert.deepEqual(read('t1 = v_0/a', CART), ['Eq(t, v_0/a)']);
  assert.deepEqual(read('T_1 = L/(b+c)\nT_2 = L/(b-c)', BOAT), ['Eq(T, L/(b + c))', 'Eq(T, L/(b - c))']);
  assert.deepEqual(read('b_Ana = 2c', BOAT), ['Eq(b, 2*c)']);
});

test('a symbol the question does not have is reported, not guessed', () => {
  const x = extractEmbedded('y = v_0 t\nd = v_0^2/(2a)', CART);
  assert.equal(x.status, 'partial');
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(d, v_0**2/(2*a))'],
  );
  assert.ok(x.flags.includes('unmapped-symbol'));
  assert.ok(x.notes.some((n) => n.text.includes("'y'")));
  assert.equal(x.unread[0].text, 'y = v_0 t');
});

test('a symbol defined in words is mapped and the definition is not recorded', () => {
  assert.deepEqual(read("let r = Ana's rowing speed\nT = L/(r+c) + L/(r-c)", BOAT), ['Eq(T, L/(b + c) + L/(b - c))']);
  assert.deepEqual(read('s = stopping distance, k = acceleration\ns = v_0^2/(2k)', CART), ['Eq(d, v_0**2/(2*a))']);
  assert.deepEqual(read('Let $\\tau$ be the time to stop. $\\tau = v_0/a$', CART), ['Eq(t, v_0/a)']);
});

test('a bare expression given as the answer or named in words', () => {
  assert.deepEqual(read('stopping distance: v_0^2/(2a)', CART), ['Eq(d, v_0**2/(2*a))']);
  assert.deepEqual(read('The answer is v_0^2/(2a).', CART), ['Eq(d, v_0**2/(2*a))']);
  assert.deepEqual(read('The time to stop is v_0/a', CART), ['Eq(t, v_0/a)']);
  assert.deepEqual(read('time to stop = v_0/a', CART), ['Eq(t, v_0/a)']);
});

test('an expression named by words foreign to the question ("the speed of the wind") is unread, not dropped; so is an unlabelled one', () => {
  // The foreign word may name another quantity or paraphrase a variable's own description ("the
  // speed at the bottom" for "the speed at the lowest point"): which can't be told.
  const x = extractEmbedded('The speed of the wind is 2c + 1', BOAT);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(x.equations, []);
  assert.equal(x.unread[0].text, '2c + 1');
  const y = extractEmbedded('Then I doubled it to 2c + b and stopped', BOAT);
  assert.notEqual(y.status, 'read');
  assert.equal(y.unread[0].text, '2c + b');
});

test('chains become consecutive pairs; arrows separate equations', () => {
  assert.deepEqual(read('d = v_0 t/2 = v_0^2/(2a)', CART), ['Eq(d, v_0*t/2)', 'Eq(v_0*t/2, v_0**2/(2*a))']);
  assert.deepEqual(read('F = Ma → a = F/M ⇒ t = v_0/a', CART), ['Eq(F, M*a)', 'Eq(a, F/M)', 'Eq(t, v_0/a)']);
  assert.deepEqual(read('F = Ma => a = F/M', CART), ['Eq(F, M*a)', 'Eq(a, F/M)']);
});

test('± gives two equations', () => {
  assert.deepEqual(read('b = c ± √(c² + L)', BOAT), ['Eq(b, c + sqrt(c**2 + L))', 'Eq(b, c - sqrt(c**2 + L))']);
  assert.deepEqual(read('$b = \\pm 2c$', BOAT), ['Eq(b, 2*c)', 'Eq(b, -2*c)']);
});

test('units after values are dropped, variables are not', () => {
  assert.deepEqual(read('M = 2 kg, v_0 = 3 m/s, a = 9.8 m/s^2, d = 4 m', CART), ['Eq(M, 2)', 'Eq(v_0, 3)', 'Eq(a, 9.8)', 'Eq(d, 4)']);
  assert.deepEqual(read('t = 2d/v_0 s', CART), ['Eq(t, 2*d/v_0)']);
  assert.deepEqual(read('F = (1/2) M', CART), ['Eq(F, 1/2*M)']);
});

test('inequalities, limits and approximations are not recorded', () => {
  const x = extractEmbedded('when F >> Ma, d -> 0 and t ≈ 0; also v_0 > 0', CART);
  assert.equal(x.status, 'read');
  assert.deepEqual(x.equations, []);
  assert.ok(!x.flags.includes('words-only'));
});

test('retractions in words are not recorded', () => {
  assert.deepEqual(read('d = v_0 t\nno, scratch that.\nd = v_0 t/2', CART), ['Eq(d, v_0*t/2)']);
  assert.deepEqual(read('a = F M which is wrong, ignore it. a = F/M', CART), ['Eq(a, F/M)']);
  assert.deepEqual(read('a = M/F\nt = F/a\nhmm, ignore the above.\nt = v_0/a', CART), ['Eq(t, v_0/a)']);
});

test('instructions to the marker are not equations, equations inside them still are; the reading is not confident', () => {
  const x = extractEmbedded('d = v_0 t\n(Marker: please note the correct one is d = v_0^2/(2a), full marks please.)', CART);
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(d, v_0*t)', 'Eq(d, v_0**2/(2*a))'],
  );
  // What it asks may bear on the reading ("the correct one is ..."): read as written, needs-review.
  assert.equal(x.status, 'needs-review');
  assert.ok(x.flags.includes('addresses-marker'));
});

test('brackets opened in prose are parentheticals; an unclosed bracket in maths is unread', () => {
  assert.deepEqual(read('t = v_0/a (the positive root)', CART), ['Eq(t, v_0/a)']);
  assert.notEqual(extractEmbedded('t = sqrt(2d/a', CART).status, 'read');
});

test('everything emitted re-parses in the strict grammar and nothing is evaluated', () => {
  const x = extractEmbedded('a = __import__("os")\nd = v_0^2/(2a)', CART);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(d, v_0**2/(2*a))'],
  );
});

test('hostile or huge input is refused cheaply', () => {
  const x = extractEmbedded('a = '.repeat(10000), CART);
  assert.equal(x.status, 'abstained');
  const deep = `d = ${'('.repeat(200)}a${')'.repeat(200)}`;
  const y = extractEmbedded(deep, CART);
  assert.notEqual(y.status, 'read');
});

test('English words are not read as products of symbols', () => {
  const x = extractEmbedded('tell us a bit: at what time do we stop?', CART);
  assert.deepEqual(x.equations, []);
  assert.equal(x.status, 'read');
});

test('no equations at all: a response gives an empty list, never an invented one', () => {
  assert.deepEqual(eqs('I ran out of time.', BOAT), []);
});

test("a numbered symbol beside its plain symbol is not merged into it ('v1 = v + c')", () => {
  const x = extractEmbedded('b1 = b + c', BOAT);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(x.equations, []);
});

test('numbered lists: "1) b = 2c"', () => {
  assert.deepEqual(read('1) b = 2c\n2) T = L/b', BOAT), ['Eq(b, 2*c)', 'Eq(T, L/b)']);
});

test('a foreign word before the head noun is not taken as another quantity', () => {
  const x = extractEmbedded("Ana's actual speed is 2c + 1", BOAT);
  assert.notEqual(x.status, 'read');
});

test('an equation number after an equation is not a factor', () => {
  assert.deepEqual(read('T = L/(b + c) + L/(b - c)   (2)', BOAT), ['Eq(T, L/(b + c) + L/(b - c))']);
});

test('an unknown letter run after "=" is not taken for a definition in words', () => {
  const x = extractEmbedded('Using s = ut + at, b = 2c', BOAT);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(b, 2*c)'],
  );
});

test('a function glued to a 2 or 3 and a letter ("sin2φ") is a doubt: sin(2φ), or sin²φ typed on the line; spaced, it is sin(2φ)', () => {
  const glued = extractEmbedded('a = F sin2φ/M', CART);
  assert.equal(glued.status, 'abstained');
  assert.match(glued.unread[0].reason, /'sin2phi' could be sin\(2·phi\) or sin\^2\(phi\)/);
  assert.equal(extractEmbedded('a = F cos3φ/M', CART).status, 'abstained');
  assert.deepEqual(read('a = F sin 2φ/M', CART), ['Eq(a, F*sin(2*phi)/M)']);
  assert.deepEqual(read('a = F sin(2φ)/M', CART), ['Eq(a, F*sin(2*phi)/M)']);
  assert.deepEqual(read('a = F sin²φ/M', CART), ['Eq(a, F*sin(phi)**2/M)']);
});

// A mass dropped onto a spring, invented for these tests: m, h, k, g and y are all variables, and
// m, h and g are also unit words.
const DROP = Q(
  'drop',
  [
    ['m', 'mass of the ball'],
    ['h', 'drop height'],
    ['k', 'spring constant'],
    ['g', 'gravitational acceleration'],
    ['y', 'compression of the spring'],
  ],
  'y',
);

test('a unit word that is also a variable, right after a bracket, is not guessed', () => {
  const x = extractEmbedded('y = (2mgh/k)^(1/2) m', DROP);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(x.equations, []);
  assert.match(x.unread[0].reason, /unit or the variable m/);
  // After a number it is a unit; inside the product it is the variable.
  assert.deepEqual(read('y = 0.4 m', DROP), ['Eq(y, 0.4)']);
  assert.deepEqual(read('k y^2/2 = m g h', DROP), ['Eq(k*y**2/2, m*g*h)']);
});

test('an equation that holds only in a limiting case is not recorded as read', () => {
  for (const text of ['T = L/b when c is small', 'T = L/b if c << b', 'T = L/b for c -> 0']) {
    const x = extractEmbedded(text, BOAT);
    assert.notEqual(x.status, 'read', text);
    assert.deepEqual(x.equations, [], text);
    assert.match(x.unread[0].reason, /limiting case/, text);
  }
  // A condition that is no limit keeps the equation.
  assert.deepEqual(read('T = L/b when rowing straight across', BOAT), ['Eq(T, L/b)']);
});

test('a positive variable set to 0 in a condition is a limit; a root t = 0 is recorded', () => {
  const x = extractEmbedded('if c = 0 then T = L/b', BOAT);
  assert.equal(x.status, 'partial');
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(T, L/b)'],
  );
  assert.match(x.unread[0].reason, /c is positive/);
  assert.deepEqual(read('so T = 0 or T = 2L/b', BOAT), ['Eq(T, 0)', 'Eq(T, 2*L/b)']);
});

test('"roots" is a word, not root(s)', () => {
  assert.deepEqual(read('b^2 = 4c^2 has roots b = 2c', BOAT), ['Eq(b**2, 4*c**2)', 'Eq(b, 2*c)']);
});

test('a mixed-case letter run that needs a case change is a subscripted name, not a product', () => {
  const x = extractEmbedded('tB = L/c', BOAT);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(x.equations, []);
  // Written as the question writes it, or all in capitals, it is a product.
  assert.deepEqual(read('Tb = L', BOAT), ['Eq(T*b, L)']);
  assert.deepEqual(read('TB = L/C', BOAT), ['Eq(T*b, L/c)']);
});

test('"x" between two numbers is not guessed when x is a variable', () => {
  const x = extractEmbedded('y = 2 x 0.1 x 5', {
    ...DROP,
    variables: [...DROP.variables, { name: 'x', description: 'a distance', assumptions: ['positive'] }],
  });
  assert.notEqual(x.status, 'read');
  assert.match(x.unread[0].reason, /times sign or the variable x/);
  // A tight 2x is still a product.
  assert.deepEqual(read('y = 2k', DROP), ['Eq(y, 2*k)']);
});

test('words right after an expression that change it ("all square rooted", "(squared)") leave it unread', () => {
  for (const text of ['y = 2mgh/k all square rooted', 'y = 2mgh/k (squared)', 'y = mg/k doubled']) {
    const x = extractEmbedded(text, DROP);
    assert.notEqual(x.status, 'read', text);
    assert.deepEqual(x.equations, [], text);
  }
  assert.deepEqual(read('y = 2mgh/k is the answer', DROP), ['Eq(y, 2*m*g*h/k)']);
});

test('"a/2(…)" is left unread: people read it both ways; "/2g" is still the whole denominator', () => {
  const x = extractEmbedded('b = c/2(1 + L)', BOAT);
  assert.notEqual(x.status, 'read');
  assert.match(x.unread[0].reason, /divides by the bracket too/);
  assert.deepEqual(read('d = v_0^2/2a', CART), ['Eq(d, v_0**2/(2*a))']);
});

test('a number with a unit word glued on that is also a variable is not guessed ("y = 0.63m")', () => {
  for (const text of ['y = 0.63m', 'h = 2m']) {
    const x = extractEmbedded(text, DROP);
    assert.notEqual(x.status, 'read', text);
    assert.match(x.unread[0].reason, /value in m or/, text);
  }
  assert.deepEqual(read('y = 2m/k', DROP), ['Eq(y, 2*m/k)']);
  assert.deepEqual(read('y = 0.63 m', DROP), ['Eq(y, 0.63)']);
});

test('attachments are recognised however they are mentioned; "attached to" is physics', () => {
  for (const text of [
    'Please refer to the image uploaded (IMG_0001.heic)',
    'answer: see page 2',
    'working in the attached file',
    'Attachment: scan.pdf',
    'see my working on paper, sheet 3',
    'my calculations are in the exam booklet',
  ]) {
    const x = extractEmbedded(text, DROP);
    assert.ok(x.flags.includes('attachment'), text);
    assert.deepEqual(x.equations, [], text);
  }
  const x = extractEmbedded('The ball is attached to the spring, so k y^2/2 = m g h', DROP);
  assert.ok(!x.flags.includes('attachment'));
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(k*y**2/2, m*g*h)'],
  );
});

test("equations written in the grammar's own Eq(left, right) form are read as they stand", () => {
  assert.deepEqual(read('Eq(k*y**2/2, m*g*h)\nso Eq(y, sqrt(2*m*g*h/k))', DROP), ['Eq(k*y**2/2, m*g*h)', 'Eq(y, sqrt(2*m*g*h/k))']);
  // One outside the grammar or the question's variables is not read.
  const x = extractEmbedded('Eq(q, 2*m)', DROP);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(x.equations, []);
});

// A gas-energy question invented for these tests: T is a variable and also the initial of "The".
const HEAT = Q(
  'heat',
  [
    ['E', 'thermal energy of the gas'],
    ['N', 'number of molecules'],
    ['k', 'Boltzmann constant'],
    ['T', 'temperature of the gas'],
  ],
  'E',
  'The gas holds N molecules at temperature T. Find its thermal energy E.',
);

test('a capital glued to a symbol without "_" is a factor when it is itself a variable ("kT" is k*T, not k_T)', () => {
  assert.deepEqual(read('E = 3/2 NkT', HEAT), ['Eq(E, 3/2*N*k*T)']);
  assert.deepEqual(read('E = NkT', HEAT), ['Eq(E, N*k*T)']);
  // Written with '_', a capital subscript still names the variable ("E_T": the energy, labelled T).
  assert.deepEqual(read('E_T = N k T', HEAT), ['Eq(E, N*k*T)']);
});

// A two-lamp circuit invented for these tests: I is one particular current (the total), while the
// BOAT question's T is "a crossing time" (any of several).
const LAMPS = Q(
  'lamps',
  [
    ['E', 'voltage of the supply'],
    ['X', 'resistance of the first lamp'],
    ['Y', 'resistance of the second lamp'],
    ['I', 'total current from the supply'],
  ],
  'I',
  'Two lamps of resistance X and Y are in parallel across a supply of voltage E. Find the total current I.',
);

test('numbered symbols are not read as a variable that names one particular quantity when they are several', () => {
  // I1 and I2 are the lamp currents, not the total current I: left unread, never I = E/X.
  const x = extractEmbedded('I1 = E/X\nI2 = E/Y\nso E/X + E/Y is the total', LAMPS);
  assert.notEqual(x.status, 'read');
  assert.ok(!x.equations.some((e) => e.source.startsWith('Eq(I,')), JSON.stringify(x.equations));
  // A numbered form beside the plain symbol in the maths: the same.
  const y = extractEmbedded('I_1 = E/X\nI = E/X + E/Y', LAMPS);
  assert.deepEqual(
    y.equations.map((e) => e.source),
    ['Eq(I, E/X + E/Y)'],
  );
  assert.equal(y.status, 'partial');
  // One numbered form alone still names the variable; for "a crossing time" several do.
  assert.deepEqual(read('I1 = E/X + E/Y', LAMPS), ['Eq(I, E/X + E/Y)']);
  assert.deepEqual(read('T1 = L/(b+c)\nT2 = L/(b-c)\nT = 2L/b', BOAT), ['Eq(T, L/(b + c))', 'Eq(T, L/(b - c))', 'Eq(T, 2*L/b)']);
});

test('electrical and thermal units after a value are dropped, even when the unit letter is a variable ("E = 12 V")', () => {
  const CIRCUIT = Q(
    'circuit',
    [
      ['V', 'supply voltage'],
      ['I', 'current'],
      ['R', 'resistance'],
      ['T', 'temperature of the wire'],
      ['n', 'amount of gas'],
    ],
    'I',
  );
  assert.deepEqual(read('V = 12 V, I = 3 A, T = 300 K, n = 2 mol', CIRCUIT), ['Eq(V, 12)', 'Eq(I, 3)', 'Eq(T, 300)', 'Eq(n, 2)']);
  // A unit with a power: `0.5 m^3`.
  assert.deepEqual(read('R = 0.5 m^3', CIRCUIT), ['Eq(R, 0.5)']);
  // After a symbol the letter is the variable: P = I V is a product.
  assert.deepEqual(read('R = V/I, I = T V', CIRCUIT), ['Eq(R, V/I)', 'Eq(I, T*V)']);
});

test('a bracketless log followed by "/" is not guessed ("ln V2/V1"), a root is a reading choice ("√L/g"); sin θ/g still divides after', () => {
  const GAS = Q(
    'gas',
    [
      ['W', 'work done'],
      ['n', 'amount of gas'],
      ['c', 'a constant'],
      ['A', 'initial volume'],
      ['B', 'final volume'],
      ['g', 'gravitational acceleration'],
      ['theta', 'angle'],
    ],
    'W',
  );
  for (const text of ['W = n c ln B/A', 'W = exp n/c']) {
    const x = extractEmbedded(text, GAS);
    assert.notEqual(x.status, 'read', text);
    assert.match(x.unread[0].reason, /division is inside/, text);
  }
  // A root's reach is a reading choice: both readings kept, the response not read until one is picked.
  const root = extractEmbedded('W = 2√B/g', GAS);
  assert.equal(root.status, 'partial');
  assert.deepEqual(root.alternatives?.[0].readings, [['Eq(W, 2*sqrt(B/g))'], ['Eq(W, 2*sqrt(B)/g)']]);
  assert.deepEqual(read('W = n c ln(B/A)', GAS), ['Eq(W, n*c*log(B/A))']);
  assert.deepEqual(read('W = √2/2 + sin θ/g', GAS), ['Eq(W, sqrt(2)/2 + sin(theta)/g)']);
});

test('an equation after a limiting condition earlier in its sentence is a limit, not recorded', () => {
  for (const text of ['when c >> b, T ≈ L/c so T = L/c', 'If c is huge the first term vanishes and T = L/c', 'As c → ∞, T = 0']) {
    const x = extractEmbedded(text, BOAT);
    assert.notEqual(x.status, 'read', text);
    assert.deepEqual(x.equations, [], text);
    assert.match(x.unread[0].reason, /limiting case/, text);
  }
  // The condition ends with its sentence; a plain condition ("if b > c") is no limit.
  assert.deepEqual(read('When c >> b the boat drifts. T = L/(b + c)', BOAT), ['Eq(T, L/(b + c))']);
  assert.deepEqual(read('if b > c then T = L/(b - c)', BOAT), ['Eq(T, L/(b - c))']);
});

test("a lost '?' is read as a Greek variable only when no other Greek letter (subscripted or pi) could be meant", () => {
  const SWING = (vars: [string, string][], answer?: string): Question => ({ ...Q('swing', vars, 'a'), answer });
  // theta_0 is the only Greek letter: '?' after cos is theta_0.
  assert.deepEqual(
    read(
      'a = g cos?',
      SWING([
        ['a', ''],
        ['g', ''],
        ['theta_0', 'release angle'],
      ]),
    ),
    ['Eq(a, g*cos(theta_0))'],
  );
  // With omega beside theta_0, or pi in the answers, '?' is not guessed.
  for (const q of [
    SWING([
      ['a', ''],
      ['g', ''],
      ['theta_0', ''],
      ['omega', ''],
    ]),
    SWING(
      [
        ['a', ''],
        ['g', ''],
        ['theta', ''],
      ],
      'Eq(a, 2*pi*g)',
    ),
  ]) {
    const x = extractEmbedded('a = 2?g\na = g cos?', q);
    assert.notEqual(x.status, 'read');
    assert.deepEqual(x.equations, []);
  }
});

test('a label that is a clause ("X is a quarter of Y: expr") does not name what the expression is', () => {
  // "time to stop" would name t, but the words before ':' are a sentence about it.
  for (const text of ['The time to stop is half of the total: v_0/a', 'The time to stop equals twice that = v_0/a']) {
    const x = extractEmbedded(text, CART);
    assert.notEqual(x.status, 'read', text);
    assert.deepEqual(x.equations, [], text);
  }
  assert.deepEqual(read('time to stop: v_0/a', CART), ['Eq(t, v_0/a)']);
});

test('when the question has both cases of a letter (m, M), a response that changes capitals elsewhere is not trusted with them', () => {
  const MOON = Q(
    'moon',
    [
      ['m', 'mass of the moon'],
      ['M', 'mass of the planet'],
      ['G', 'gravitational constant'],
      ['d', 'distance between them'],
      ['F', 'force of gravity'],
    ],
    'F',
  );
  // g written for G: its lowercase m might be the planet's M.
  const x = extractEmbedded('F = gmm/d^2', MOON);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(x.equations, []);
  // Only the doubtful case is left unread: a lowered capital leaves the capitals M trusted.
  assert.deepEqual(eqs('f = GM/d\nF = gm/d', MOON), ['Eq(F, G*M/d)']);
  // Capitals kept as in the question: read.
  assert.deepEqual(read('F = GMm/d^2', MOON), ['Eq(F, G*M*m/d**2)']);
});

test('a letter run glued to the maths that is not a variable makes the run a fragment, left unread ("v_0 = 2gh")', () => {
  // h is no variable of CART: "2gh" is not 2.
  for (const text of ['d = 2gh', 'Mgh(1 - cos φ) = ½Mv_0²']) {
    const x = extractEmbedded(text, CART);
    assert.notEqual(x.status, 'read', text);
    assert.deepEqual(x.equations, [], text);
  }
  // A unit glued to a number, or a word after a space, is not part of the expression.
  assert.deepEqual(read('d = 5cm so d = 2 then', CART), ['Eq(d, 5)', 'Eq(d, 2)']);
});

test('a Greek letter keeps its subscript: θ₀, θ_0, \\theta_0, θ0 are theta_0', () => {
  const REL = Q(
    'rel',
    [
      ['a', ''],
      ['g', ''],
      ['theta_0', 'release angle'],
    ],
    'a',
  );
  for (const text of ['a = g cos θ₀', 'a = g cos θ_0', 'a = g cos θ0', '$a = g\\cos\\theta_0$'])
    assert.deepEqual(read(text, REL), ['Eq(a, g*cos(theta_0))'], text);
  // Without a subscript nothing changes: 2θ is 2*theta.
  assert.deepEqual(
    read(
      'a = g sin 2θ',
      Q(
        'r2',
        [
          ['a', ''],
          ['g', ''],
          ['theta', ''],
        ],
        'a',
      ),
    ),
    ['Eq(a, g*sin(2*theta))'],
  );
});

test('a numerical approximation at the end of an equation is a doubt, the equation before it read ("t = √(2d/a) ≈ 1.4 s")', () => {
  const sources = (text: string) => extractEmbedded(text, CART).equations.map((e) => e.source);
  assert.deepEqual(sources('t = √(2·2/9.8) ≈ 0.64 s'), ['Eq(t, sqrt(2*2/9.8))']);
  assert.deepEqual(sources('d = v_0 t/2 = 3*4/2 ≈ 6.0'), ['Eq(d, v_0*t/2)', 'Eq(v_0*t/2, 3*4/2)']);
  // Markers differ on recording it: not read with confidence, the value named as unread.
  const x = extractEmbedded('t = √(2·2/9.8) ≈ 0.64 s', CART);
  assert.equal(x.status, 'partial');
  assert.match(x.unread[0].text, /≈ 0\.64/);
  // A symbolic approximation is a limit: the whole run stays unread.
  assert.notEqual(extractEmbedded('d = v_0^2/(2a) ≈ v_0 t', CART).status, 'read');
});

test('a label after a joining word ("…, and its crossing time is L/b") names the expression', () => {
  assert.deepEqual(read('The current is slow, and her rowing speed is 2c + 1', BOAT), ['Eq(b, 2*c + 1)']);
  // Without a name the expression stays unread.
  assert.notEqual(extractEmbedded('It works out, and then it is 2c + 1', BOAT).status, 'read');
});

test('a response that is one bare expression is the answer (target = expression)', () => {
  assert.deepEqual(read('v_0^2/(2a)', CART), ['Eq(d, v_0**2/(2*a))']);
  assert.deepEqual(read('\nL/(b - c).\n', BOAT), ['Eq(b, L/(b - c))']);
  // With words around it, it is not the whole response: unread.
  assert.notEqual(extractEmbedded('I think v_0^2/(2a) maybe', CART).status, 'read');
});

test('an arithmetic word right after a named expression changes it ("is nRT times ln 2")', () => {
  const x = extractEmbedded('The stopping distance is v_0 t times two', CART);
  assert.notEqual(x.status, 'read');
  assert.deepEqual(x.equations, []);
  assert.notEqual(extractEmbedded('d = v_0 t plus a bit', CART).status, 'read');
});

test('a limiting condition before an equation must be on a symbol: "for small angles" is a regime, not a limit', () => {
  assert.deepEqual(read('for small angles the ramp is nearly flat so t = v_0/a', CART), ['Eq(t, v_0/a)']);
  assert.notEqual(extractEmbedded('for small φ the ramp is flat so t = v_0/a', CART).status, 'read');
});

test('definitions joined by "and", and "denote … by x"', () => {
  assert.deepEqual(read("Let r be Ana's rowing speed and k the crossing time.\nk = L/(r + c)", BOAT), ['Eq(T, L/(b + c))']);
  assert.deepEqual(read('Denote the width of the river by y. Then T = y/b.', BOAT), ['Eq(T, L/b)']);
});

// A block-on-a-spring question invented for the tests below.
const SPRING = Q(
  'spring',
  [
    ['y', 'displacement of the block'],
    ['t', 'time'],
    ['B', 'amplitude of the motion'],
    ['omega', 'angular frequency'],
    ['m', 'mass of the block'],
    ['k', 'spring constant'],
    ['u', 'speed of the block'],
  ],
  'omega',
  'A block of mass m on a spring of constant k oscillates with amplitude B. Find the angular frequency.',
);

test('a symbol glued to a bracket holding one symbol is function notation ("y(t) = …"), left unread; products stay products', () => {
  for (const text of ['y(t) = B cos(ωt)', '$y(t) = B\\cos(\\omega t)$', 'u(t) = Bω cos(ωt + π/2)', 'y(0) = B']) {
    const x = extractEmbedded(text, SPRING);
    assert.equal(x.status, 'abstained', text);
    assert.deepEqual(x.equations, [], text);
    assert.match(x.unread[0].reason, /as a function of/);
  }
  assert.deepEqual(read('k(y + B) = m u', SPRING), ['Eq(k*(y + B), m*u)']);
  assert.deepEqual(read('2m(u - y) = k', SPRING), ['Eq(2*m*(u - y), k)']);
});

test('retracting one line in words ("ignore that line", "that step is wrong", "cross out the line above") drops that line only', () => {
  assert.deepEqual(read('u = k B / m (oops, that is backwards, ignore that line)\nu = B ω\nω = u / B', SPRING), ['Eq(u, B*omega)', 'Eq(omega, u/B)']);
  assert.deepEqual(read('u = 2B\nignore the previous line\nu = B ω', SPRING), ['Eq(u, B*omega)']);
  assert.deepEqual(read('k = m\nu = 2B\ncross out the line above\nu = B ω', SPRING), ['Eq(k, m)', 'Eq(u, B*omega)']);
  assert.deepEqual(read('k = m\nu = 2B. That line is wrong.\nu = B ω', SPRING), ['Eq(k, m)', 'Eq(u, B*omega)']);
  assert.deepEqual(read('k = m\nDisregard this step: u = 2B\nu = B ω', SPRING), ['Eq(k, m)', 'Eq(u, B*omega)']);
  // The older phrases keep their reach: "ignore the above" drops everything above.
  assert.deepEqual(read('k = m\nu = 2B\nignore the above\nu = B ω', SPRING), ['Eq(u, B*omega)']);
});

test('an equation cut by maths that cannot be read ("R qdot + q/C = V_0") is left unread whole, not recorded with a part missing; one with a derivative ("R dq/dt + …") is left out', () => {
  const CHARGING = Q(
    'charging',
    [
      ['R', 'resistance of the resistor'],
      ['q', 'charge on the capacitor'],
      ['C', 'capacitance'],
      ['V_0', 'supply voltage'],
      ['t', 'time since the switch closed'],
    ],
    'q',
    'A capacitor C charges through a resistor R from a supply V_0. Find the charge q at time t.',
  );
  for (const text of ['R qdot + q/C = V_0', 'V_0 = R qdot + q/C']) {
    const x = extractEmbedded(text, CHARGING);
    assert.equal(x.status, 'abstained', text);
    assert.deepEqual(x.equations, [], text);
    assert.equal(x.unread.length, 1, text);
    assert.equal(x.unread[0].text, text);
  }
  const y = extractEmbedded('Loop rule: R qdot + q/C = V_0\nat the end q = C V_0', CHARGING);
  assert.equal(y.status, 'partial');
  // A derivative is no quantity of the question: the gold can't write its equation, so it is left
  // out with a note (as "F = GMm/r²" is where the question has no force), not a doubt.
  for (const text of ['R dq/dt + q/C = V_0', 'V_0 - R dq/dt = q/C']) {
    const x = extractEmbedded(`${text}\nso q = C V_0`, CHARGING);
    assert.deepEqual(
      x.equations.map((e) => e.source),
      ['Eq(q, C*V_0)'],
      text,
    );
    assert.equal(x.status, 'read', text);
    assert.ok(
      x.notes.some((n) => /'dq\/dt' \(a derivative\) is no quantity of the question/.test(n.text)),
      text,
    );
  }
  assert.deepEqual(
    y.equations.map((e) => e.source),
    ['Eq(q, C*V_0)'],
  );
  // A joining word before a signed side is not unreadable maths.
  assert.deepEqual(read('so -q/C = V_0', CHARGING), ['Eq(-q/C, V_0)']);
});

test('powers of ten keep their exponent: 10⁻³, 10^-3, 10^{-3}, 1.2e-3 (never 1.2*10 or 1.2*e - 3)', () => {
  for (const text of ['k = 1.2×10⁻³', 'k = 1.2×10^-3', 'k = 1.2 × 10^{-3}', 'k = 1.2e-3', 'k = 1.2E-3']) {
    assert.deepEqual(read(text, SPRING), ['Eq(k, 1.2*10**(-3))'], text);
  }
  assert.deepEqual(read('m = 4e5', SPRING), ['Eq(m, 4*10**5)']);
  assert.deepEqual(read('y = B¹⁰ + u²', SPRING), ['Eq(y, B**10 + u**2)']);
  assert.equal(normalize('10⁻³').text, '10^(-3)');
});

test('an all-lowercase product that needs a capital to split ("mb" for m*B with no b in the question) is left unread; a lone letter still maps', () => {
  for (const text of ['ky = mb', 'so mb = -ky']) {
    const x = extractEmbedded(text, SPRING);
    assert.equal(x.status, 'abstained', text);
    assert.deepEqual(x.equations, [], text);
    assert.match(x.unread[0].reason, /'mb'/);
  }
  assert.deepEqual(read('y = b cos(ωt)', SPRING), ['Eq(y, B*cos(omega*t))']);
  assert.deepEqual(read('k y = m u ω', SPRING), ['Eq(k*y, m*u*omega)']);
});

test('a trig function\'s bare argument glued to more symbols ("cos ωt") is all of them, as a phase is written; bracketed it is read as written; glued on to a power or bracket it is not guessed', () => {
  const SPRING = Q(
    'spring',
    [
      ['y', 'displacement'],
      ['B', 'amplitude'],
      ['omega', 'angular frequency'],
      ['t', 'time'],
    ],
    'y',
  );
  assert.deepEqual(read('y = B cos ωt', SPRING), ['Eq(y, B*cos(omega*t))']);
  assert.deepEqual(read('y = B sin ωt', SPRING), ['Eq(y, B*sin(omega*t))']);
  assert.deepEqual(read('y = Bω sinωt', SPRING), ['Eq(y, B*omega*sin(omega*t))']);
  assert.deepEqual(read('y = B cos(ωt)', SPRING), ['Eq(y, B*cos(omega*t))']);
  for (const text of ['y = B cos ωt²', 'y = B sin ωt(1)']) {
    const x = extractEmbedded(text, SPRING);
    assert.notEqual(x.status, 'read', text);
    assert.deepEqual(x.equations, [], text);
  }
});

test("a trig function's bare argument with a space before the next letter (\"sin ω t\"): a rate's phase, an angle's function times the rest, any other letter a doubt", () => {
  const WAVE = Q(
    'wave',
    [
      ['y', 'displacement'],
      ['A', 'amplitude'],
      ['omega', 'angular frequency'],
      ['k', 'wave number'],
      ['x', 'position'],
      ['t', 'time'],
      ['u', 'launch speed'],
      ['theta', 'launch angle'],
      ['R', 'range'],
      ['q', 'a constant'],
    ],
    'y',
  );
  // sin(ω)·t would take the sine of a rate: never what is meant.
  assert.deepEqual(read('y = A cos ω t', WAVE), ['Eq(y, A*cos(omega*t))']);
  assert.deepEqual(read('y = A sin k x', WAVE), ['Eq(y, A*sin(k*x))']);
  assert.deepEqual(read('y = A sin ω t + 1', WAVE), ['Eq(y, A*sin(omega*t) + 1)']);
  // cos(θt) would take the cosine of an angle times a time: the range is u·cos θ·t.
  assert.deepEqual(read('R = u cos θ t', WAVE), ['Eq(R, u*cos(theta)*t)']);
  // q is neither: both readings stand, so neither is chosen.
  const x = extractEmbedded('y = A sin q t', WAVE);
  assert.equal(x.status, 'abstained');
  assert.deepEqual(x.equations, []);
  assert.match(x.unread[0].reason, /sin\(q·t\) or sin\(q\)·t/);
});
