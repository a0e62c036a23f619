import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { parseEquation, parseEquationOrThrow } from '../../shared/equation/index.ts';
import { checkDimensions, dimensionIssues, dimensionOfSide } from '../../electron/engine/decide/dimensions.ts';
import { unitOrThrow, type Unit } from '../../shared/units/parse-unit.ts';
import { loadExamFile } from '../../electron/engine/io/exam.ts';

const units = (m: Record<string, string>): Map<string, Unit> => new Map(Object.entries(m).map(([k, v]) => [k, unitOrThrow(v)]));
const U = units({ v: 'm/s', u: 'm/s', a: 'm/s^2', t: 's', x: 'm', h: 'm', g: 'm/s^2', theta: 'rad', k: 'N/m', m: 'kg', n: '1', E: 'J' });
const check = (src: string, u: ReadonlyMap<string, Unit> = U) => checkDimensions(parseEquationOrThrow(src), u);

test('a consistent equation: both sides with one dimension, shown as SI units', () => {
  assert.deepEqual(check('v = u + a*t'), { status: 'consistent', left: 'm/s', right: 'm/s', note: 'both sides m/s' });
  assert.deepEqual(check('v**2 = u**2 + 2*a*x'), { status: 'consistent', left: 'm^2/s^2', right: 'm^2/s^2', note: 'both sides m²/s²' });
  assert.deepEqual(check('E = m*g*h'), { status: 'consistent', left: 'kg m^2/s^2', right: 'kg m^2/s^2', note: 'both sides J' });
  assert.equal(check('E = m*g*h').status, 'consistent');
  assert.equal(check('E = k*x**2/2').status, 'consistent');
  assert.equal(check('x = v*t*cos(theta)').status, 'consistent', 'an angle in rad is dimensionless');
  assert.equal(check('v = sqrt(2*g*h)').status, 'consistent', 'sqrt halves the exponents exactly');
  assert.equal(check('v = (2*g*h)**(1/2)').status, 'consistent', 'a fractional power with an exact exponent');
  assert.equal(check('t = x**(1/2) * (2/g)**(1/2)').status, 'consistent');
});

test('an inconsistent equation: the dimensions of both sides in words', () => {
  const c = check('v = 2*g*h');
  assert.equal(c.status, 'inconsistent');
  assert.deepEqual(c, { status: 'inconsistent', left: 'm/s', right: 'm^2/s^2', note: 'left: m/s, right: m²/s²' });
  const sum = check('x = v*t + a*t');
  assert.equal(sum.status, 'inconsistent');
  assert.match(sum.status === 'inconsistent' ? sum.note : '', /have different dimensions: m and m\/s/);
});

test('the argument of sin, cos, exp, log must be dimensionless; so must an exponent', () => {
  const s = check('x = h*sin(v)');
  assert.equal(s.status, 'inconsistent');
  assert.match(s.status === 'inconsistent' ? s.note : '', /argument of sin must be dimensionless; v is m\/s/);
  assert.equal(check('x = h*exp(-t)').status, 'inconsistent');
  assert.equal(check('x = h*exp(-a*t**2/h)').status, 'consistent');
  assert.equal(check('x = h*log(v/u)').status, 'consistent');
  const p = check('x = h**t');
  assert.equal(p.status, 'inconsistent');
  assert.match(p.status === 'inconsistent' ? p.note : '', /exponent .* must be dimensionless; it is s/);
});

test('a power of a dimensioned quantity with a symbolic exponent is unchecked, never flagged', () => {
  assert.equal(check('x = h**n').status, 'unchecked');
  assert.equal(check('n = 2**n').status, 'consistent', 'a dimensionless base takes any dimensionless exponent');
});

test('a symbol without a unit makes the equation unchecked (never flagged)', () => {
  const c = check('v = w*t', U);
  assert.deepEqual(c, { status: 'unchecked', reason: 'w has no unit' });
  const r = dimensionIssues([parseEquationOrThrow('v = w*t'), parseEquationOrThrow('v = 2*g*h')], ['a', 'b'], U);
  assert.equal(r.issues.length, 1);
  assert.equal(r.issues[0].studentIndex, 1);
  assert.deepEqual(dimensionIssues([parseEquationOrThrow('v = 2*g*h')], ['a'], undefined).issues, [], 'no units declared: nothing is checked');
});

test('values put in for quantities (a number added to a quantity): a mismatch is left unchecked, not flagged', () => {
  // S002 of the development set, after S = 100 m, u = 2 m/s, w = 1 m/s.
  assert.deepEqual(check('2*v = v**2 - 1'), {
    status: 'unchecked',
    reason: 'a number is added to a quantity (values put in for quantities): the units of its numbers are not written',
  });
  assert.equal(check('v**2 = u**2 + 2*a*x').status, 'consistent');
});

test('a bare number is a value whose unit was not written: it agrees with a side or a term, but multiplies as a pure number', () => {
  assert.equal(check('v = 12').status, 'consistent', 'the extractor drops units after values');
  assert.equal(check('x = h + 5').status, 'consistent');
  assert.equal(check('0 = v - u').status, 'consistent');
  assert.equal(check('v = 2*h').status, 'inconsistent', 'in a product a number has no dimension');
  assert.deepEqual(dimensionOfSide(parseEquationOrThrow('x = 2*g*t**2').rhs, U), { text: 'm', free: false });
  assert.equal(dimensionOfSide(parseEquationOrThrow('x = w').rhs, U), null);
});

const DEV_UNITS = new URL('../fixtures/dev-units/exam.json', import.meta.url).pathname;
const GOLD = new URL('../../../shared/data/gold.csv', import.meta.url).pathname;

test('the development exam with units: every accepted form and answer is dimensionally consistent', () => {
  const exam = loadExamFile(DEV_UNITS);
  let n = 0;
  for (const cq of exam.questions.values()) {
    for (const forms of cq.accept.values())
      for (const f of forms) {
        n++;
        assert.equal(checkDimensions(f, cq.units!.bySymbol).status, 'consistent', JSON.stringify(f));
      }
    if (cq.answer) assert.equal(checkDimensions(cq.answer, cq.units!.bySymbol).status, 'consistent');
  }
  assert.ok(n >= 10);
});

test('the development set: gold equations flagged are wrong physics only', { skip: existsSync(GOLD) ? false : 'no ../shared/data/gold.csv' }, () => {
  const exam = loadExamFile(DEV_UNITS);
  const rows = parse(readFileSync(GOLD), { columns: true }) as { student_id: string; question_id: string; equations: string; tags: string }[];
  let total = 0;
  const flagged: string[] = [];
  const unchecked: string[] = [];
  for (const r of rows) {
    const cq = exam.questions.get(r.question_id)!;
    for (const s of JSON.parse(r.equations) as string[]) {
      const p = parseEquation(s, { variables: cq.variables });
      if (!p.ok) continue;
      total++;
      const c = checkDimensions(p.value, cq.units!.bySymbol);
      if (c.status === 'unchecked') unchecked.push(`${r.student_id} ${s}`);
      if (c.status === 'inconsistent') flagged.push(`${r.student_id} ${s}`);
    }
  }
  assert.ok(total > 250, `${total} gold equations`);
  // Each of these is a physics error a marker would circle (v = g*h, x = sqrt(2*g*h/k), m*v = k*x, ...).
  assert.deepEqual(flagged.sort(), [
    'S010 Eq(v, g*h)',
    'S010 Eq(x, m*g*h/k)',
    'S022 Eq(x, sqrt(2*g*h/k))',
    'S033 Eq(R, v_0*sin(theta)/g)',
    'S036 Eq(v, 2*g*h)',
    'S038 Eq(m*v, k*x)',
    'S038 Eq(x, m*sqrt(2*g*h)/k)',
  ]);
  assert.deepEqual(unchecked, ['S002 Eq(2*v, v**2 - 1)'], 'only where numbers were put in for quantities');
});
