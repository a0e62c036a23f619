import { test } from 'node:test';
import assert from 'node:assert/strict';
import { numbersInText, sentenceMentions, significantFigures, variableNamed } from '../../shared/units/quantities-in-text.ts';

const VARS = ['v', 'g', 'h', 'R', 'm', 'x', 't', 'v_0', 'theta'];
const read = (text: string) =>
  numbersInText(text, VARS).numbers.map((n) => ({ written: n.written, value: n.value, unit: n.unitText, to: n.assignedTo, approx: n.approximate }));

test('numbers with their units as students write them', () => {
  assert.deepEqual(read('The range is 40.8 m.'), [{ written: '40.8 m', value: 40.8, unit: 'm', to: null, approx: false }]);
  assert.deepEqual(read('it took 2.9s.'), [{ written: '2.9s', value: 2.9, unit: 's', to: null, approx: false }]);
  assert.deepEqual(read('g = 9.81 m/s² so the energy is 3.2 kJ')[1], { written: '3.2 kJ', value: 3.2, unit: 'kJ', to: null, approx: false });
  assert.deepEqual(read('E = -3.2 J'), [{ written: '-3.2 J', value: -3.2, unit: 'J', to: null, approx: false }]);
  assert.equal(read('4.08 × 10^1 m')[0].value, 40.8);
  assert.equal(read('4.08e1 m')[0].value, 40.8);
  assert.equal(read('1.5×10⁻³ s')[0].value, 0.0015);
});

test('LaTeX is read as plain maths: units in \\mathrm or \\text, values between $ signs', () => {
  assert.deepEqual(
    read('$v = 9.9\\,\\mathrm{m/s}$').map((n) => [n.written, n.to]),
    [['9.9 m/s', 'v']],
  );
  assert.deepEqual(
    read('$v = 9.9\\ \\text{m s}^{-1}$').map((n) => n.unit),
    ['m s ^(-1)'],
  );
  assert.deepEqual(
    read('so $x = 0.45$ m').map((n) => [n.written, n.to]),
    [['0.45 m', 'x']],
  );
  assert.deepEqual(read('$\\frac{2S}{u}$ and $v^{2}$'), []);
});

test('the variable a value is stated for, through a chain of equals signs', () => {
  assert.deepEqual(
    read('t = 2.9 s and v = 12 m/s').map((n) => n.to),
    ['t', 'v'],
  );
  assert.deepEqual(
    read('v = sqrt(2*9.81*5) = 9.9 m/s').map((n) => [n.written, n.to]),
    [['9.9 m/s', 'v']],
  );
  assert.deepEqual(
    read('v₀ = 15 m/s at 30°').map((n) => n.to),
    ['v_0', null],
  );
  assert.deepEqual(
    read('θ = 30°').map((n) => n.to),
    ['theta'],
  );
  assert.deepEqual(
    read('so the speed = 12 m/s').map((n) => n.to),
    [null],
    'a word is no variable',
  );
});

test('approximate values are read and marked approximate', () => {
  assert.deepEqual(
    read('so R is about 41 m').map((n) => n.approx),
    [true],
  );
  assert.deepEqual(
    read('R ≈ 41 m').map((n) => [n.to, n.approx]),
    [['R', true]],
  );
});

test('numbers inside expressions, names and equation tags are no stated values', () => {
  assert.deepEqual(read('v^2 = 2gh'), []);
  assert.deepEqual(read('v = 2 g h'), [], 'a number times variables');
  assert.deepEqual(read('x = 2*9.81*5*t'), []);
  assert.deepEqual(read('v0 and x2 and (1)'), []);
  assert.deepEqual(
    read('x = 0.45 m (1)').map((n) => n.written),
    ['0.45 m'],
  );
});

test('a unit letter that is also a variable of the question is marked ambiguous', () => {
  const [n] = numbersInText('m = 2 g', VARS).numbers;
  assert.equal(n.unitText, 'g');
  assert.equal(n.unitAmbiguous, true);
  assert.equal(numbersInText('E = 3 J', VARS).numbers[0].unitAmbiguous, false);
});

test('significant figures as written; an integer with trailing zeros is a range', () => {
  assert.deepEqual(significantFigures('40.8'), { min: 3, max: 3 });
  assert.deepEqual(significantFigures('0.0450'), { min: 3, max: 3 });
  assert.deepEqual(significantFigures('9.905'), { min: 4, max: 4 });
  assert.deepEqual(significantFigures('41'), { min: 2, max: 2 });
  assert.deepEqual(significantFigures('1200'), { min: 2, max: 4 });
  assert.deepEqual(significantFigures('10'), { min: 1, max: 2 });
  assert.deepEqual(significantFigures('10.'), { min: 2, max: 2 });
  assert.deepEqual(significantFigures('0'), { min: 1, max: 1 });
});

test('sentences about a quantity: its symbol or a word of its description, units blanked', () => {
  const { numbers, prose } = numbersInText('The mass is 3 kg. The speed is 12 m/s.', VARS);
  assert.equal(sentenceMentions(prose[numbers[1].sentence], 'm', ['mass']), false, 'the m of m/s does not name the mass m');
  assert.equal(sentenceMentions(prose[numbers[0].sentence], 'm', ['mass']), true);
  assert.equal(sentenceMentions('the launch speed is', 'v_0', ['launch', 'speed']), true);
  assert.equal(variableNamed('v₀', VARS), 'v_0');
  assert.equal(variableNamed('r', VARS), 'R', 'case ignored when that is unique');
});
