// Numeric items (match "numeric") and dimensions through the one marking step (markEquations),
// with the table-driven fake engine: numbers with units read from the text, converted and
// compared; symbolic answers with the given values put in; require_dimensions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { tolerance } from '../../electron/engine/decide/numeric.ts';
import { FakeEngine } from '../engine/fake-engine.ts';

const exam = validateExam({
  format: 'exam.v1',
  id: 'units',
  constants: [{ name: 'g', value: 9.81, unit: 'm/s^2' }],
  questions: [
    {
      id: 'drop',
      variables: [
        { name: 'v', description: 'speed at the ground', assumptions: ['positive'], unit: 'm/s' },
        { name: 'g', assumptions: ['positive'] },
        { name: 'h', description: 'height', assumptions: ['positive'], unit: 'm' },
      ],
      target: 'v',
      given: [{ name: 'h', value: 500, unit: 'cm' }],
      scheme: [
        { id: 'rel', marks: 1, match: 'implied', accept: ['Eq(v**2, 2*g*h)'], require_dimensions: true },
        { id: 'val', marks: 2, match: 'numeric', numeric: { value: 9.9, unit: 'm/s', relative: 0.02, sig_figs: 2 } },
        { id: 'any', marks: 1, match: 'numeric', numeric: { quantity: 'v', value: 35.66, unit: 'km/h', absolute: 0.5 } },
      ],
    },
    {
      id: 'energy',
      variables: [
        { name: 'E', description: 'energy stored', unit: 'J' },
        { name: 'k', unit: 'N/m' },
        { name: 'x', unit: 'm' },
      ],
      target: 'E',
      scheme: [{ id: 'e', marks: 1, match: 'numeric', numeric: { value: 3200, unit: 'J' } }],
    },
  ],
});
const drop = exam.questions.get('drop')!;
const energy = exam.questions.get('energy')!;
const eqs = (...s: string[]) => s.map((x) => parseEquationOrThrow(x));
const item = (m: Awaited<ReturnType<typeof markEquations>>, id: string) => m.items.find((i) => i.itemId === id)!;

test('a number with a unit in the text: converted (kJ to J) and compared; the evidence shows the conversion and the tolerance', async () => {
  const m = await markEquations(new FakeEngine(), energy, eqs('Eq(E, 3.2)'), { text: 'E = ½kx² = 3.2 kJ' });
  const it = item(m, 'e');
  assert.equal(it.outcome, 'awarded');
  assert.equal(it.match, 'numeric');
  const ev = it.evidence[0];
  assert.equal(ev.numeric?.source, 'stated');
  assert.equal(ev.numeric?.value, 3200);
  assert.equal(ev.numeric?.tolerance, '±1% (default)');
  assert.match(ev.numeric!.note, /3\.2 kJ = 3200 J/);
  assert.equal(ev.forward.method, 'numeric-value');
  assert.equal(ev.studentIndex, 0, 'the equation the value was also read into');
});

test('tolerance edges: relative, absolute, both (whichever is larger), and the default 1%', () => {
  const rel = tolerance({ value: 40.8, unit: 'm', relative: 0.01 });
  assert.equal(rel.passes(40.8 * 1.01), true, 'exactly at the edge passes');
  assert.equal(rel.passes(41.3), false);
  const abs = tolerance({ value: 2.9, unit: 's', absolute: 0.05 });
  assert.equal(abs.passes(2.95), true);
  assert.equal(abs.passes(2.96), false);
  assert.equal(abs.words, '±0.05 s');
  const both = tolerance({ value: 100, unit: 'N', absolute: 5, relative: 0.01 });
  assert.equal(both.passes(104.9), true);
  assert.match(both.words, /whichever is larger/);
  assert.equal(tolerance({ value: 10, unit: 'm' }).passes(10.1), true);
  assert.equal(tolerance({ value: 10, unit: 'm' }).passes(10.11), false);
});

test('a wrong unit (another dimension) and no unit are not earned, and the evidence says so', async () => {
  const wrong = item(await markEquations(new FakeEngine(), drop, [], { text: 'v = 9.9 m' }), 'val');
  assert.equal(wrong.outcome, 'withheld');
  assert.equal(wrong.awarded, 0);
  assert.equal(wrong.evidence[0].numeric?.value, null);
  assert.match(wrong.evidence[0].numeric!.note, /wrong unit: 9\.9 m is in m, a value in m\/s was expected/);
  const none = item(await markEquations(new FakeEngine(), drop, [], { text: 'v = 9.9' }), 'val');
  assert.equal(none.outcome, 'withheld');
  assert.match(none.evidence[0].numeric!.note, /no unit given: 9\.9/);
});

test('significant figures are counted as written; an integer that could be read either way is for the instructor', async () => {
  const four = item(await markEquations(new FakeEngine(), drop, [], { text: 'v = sqrt(2gh) = 9.905 m/s' }), 'val');
  assert.equal(four.outcome, 'withheld', 'right value, 4 significant figures where 2 are asked');
  assert.match(four.evidence[0].numeric!.note, /given to 4 significant figures, 2 required/);
  const two = item(await markEquations(new FakeEngine(), drop, [], { text: 'v = sqrt(2gh) = 9.9 m/s' }), 'val');
  assert.equal(two.outcome, 'awarded');
  const ten = item(await markEquations(new FakeEngine(), drop, [], { text: 'The stone hits the ground at about 10 m/s.' }), 'val');
  assert.equal(ten.outcome, 'undecided');
  assert.equal(ten.awarded, null);
  assert.match(ten.note!, /may be given to 1 to 2 significant figures.*instructor decides/);
  assert.match(ten.evidence[0].numeric!.note, /stated as approximate/);
});

test('a value in another unit of the same dimension is converted: 36 km/h is 10 m/s', async () => {
  const m = await markEquations(new FakeEngine(), drop, [], { text: 'v² = 2gh, so v = √(2gh), which is 36 km/h.' });
  assert.equal(item(m, 'val').outcome, 'awarded');
  assert.match(item(m, 'val').evidence[0].numeric!.note, /36 km\/h = 10 m\/s/);
  // The same speed against an expectation in km/h (absolute tolerance in that unit).
  assert.equal(item(m, 'any').outcome, 'awarded');
});

test('a symbolic answer is checked with the given values and the constants put in (cm converted)', async () => {
  const m = await markEquations(new FakeEngine(), drop, eqs('Eq(v, sqrt(2*g*h))'), { text: 'v = sqrt(2gh)' });
  const it = item(m, 'val');
  assert.equal(it.outcome, 'awarded');
  const n = it.evidence[0].numeric!;
  assert.equal(n.source, 'substituted');
  assert.ok(Math.abs(n.value! - Math.sqrt(2 * 9.81 * 5)) < 1e-9);
  assert.match(n.note, /g = 9\.81 m\/s\^2, h = 500 cm/);
  assert.match(n.note, /significant figures not checked/);
  const wrong = item(await markEquations(new FakeEngine(), drop, eqs('Eq(v, sqrt(g*h))'), { text: 'v = sqrt(gh)' }), 'val');
  assert.equal(wrong.outcome, 'withheld');
});

test('nothing clear: a value of the right dimension not stated for the quantity is undecided; no value at all is withheld', async () => {
  const unclear = item(await markEquations(new FakeEngine(), drop, [], { text: 'I got 9.9 m/s' }), 'val');
  assert.equal(unclear.outcome, 'undecided');
  assert.match(unclear.note!, /not clearly as v/);
  const nothing = item(await markEquations(new FakeEngine(), drop, [], { text: 'no idea' }), 'val');
  assert.equal(nothing.outcome, 'withheld');
  const given = item(await markEquations(new FakeEngine(), drop, eqs('Eq(v, 9.9)'), { text: null }), 'val');
  assert.equal(given.outcome, 'undecided', 'a given list has no text to read the unit from');
});

test('dimensions: an inconsistent equation is reported beside the marks and changes no mark by itself', async () => {
  const m = await markEquations(new FakeEngine(), drop, eqs('Eq(v, 2*g*h)'), { text: 'v = 2gh' });
  assert.deepEqual(m.dimensions, [{ studentIndex: 0, student: 'Eq(v, 2*g*h)', left: 'm/s', right: 'm^2/s^2', note: 'left: m/s, right: m²/s²' }]);
  const clean = await markEquations(new FakeEngine(), drop, eqs('Eq(v**2, 2*g*h)'), { text: '' });
  assert.equal(clean.dimensions, undefined);
  assert.equal(item(clean, 'rel').outcome, 'awarded');
});

test('require_dimensions: an item is not earned by a dimensionally inconsistent equation, and the note says why', async () => {
  // The fake engine says the inconsistent equation entails the accepted form: only the dimensions hold it back.
  const bad = 'Eq(v**2, 2*g*h + v)';
  const engine = new FakeEngine([[bad, 'Eq(v**2, 2*g*h)']]);
  const m = await markEquations(engine, drop, eqs(bad), { text: '' });
  assert.equal(m.dimensions?.length, 1);
  const it = item(m, 'rel');
  assert.equal(it.outcome, 'withheld');
  assert.match(it.note!, /requires dimensional consistency: equation 1 .*have different dimensions/);
  assert.equal(engine.calls.filter((c) => c.startsWith(bad)).length, 0, 'the held equation is not even checked');
});
