// Follow-through marks against the real engine (exact algebra, Z3): a wrong result carried
// forward correctly earns the item; a second error, however close, never does. The demo exam's
// q1.b follows through from q1.a (time to the top); the crate question is the unit test's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import { parseExamJson, validateExam } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { createEngine } from '../../electron/engine/decide/engine-factory.ts';

const engine = await createEngine({ sympy: false });
after(() => engine.close());

const demo = parseExamJson(readFileSync(new URL('../../resources/demo/exam.json', import.meta.url), 'utf8'));
const crate = validateExam({
  format: 'exam.v1',
  id: 'crate',
  questions: [
    {
      id: 'q1',
      variables: ['F', 'm', 'T', 'a', 'v'].map((name) => ({ name, assumptions: ['positive'] })),
      target: 'v',
      scheme: [
        { id: 'a1', marks: 1, match: 'implied', accept: ['Eq(a, F/m)'] },
        { id: 'v1', marks: 2, match: 'answer', accept: ['Eq(v, F*T/m)', 'Eq(v, a*T)'], follow_through: ['a1'] },
      ],
    },
  ],
});

async function mark(exam: typeof demo, q: string, ...list: string[]) {
  const m = await markEquations(
    engine,
    exam.questions.get(q)!,
    list.map((s) => parseEquationOrThrow(s)),
  );
  return Object.fromEntries(m.items.map((i) => [i.itemId, i]));
}

test('demo q1: a wrong time to the top worked on correctly earns b by follow-through, proved exactly', async () => {
  const m = await mark(demo, 'q1', 't = u/(2*g)', 'H = 3*u**2/(8*g)');
  assert.equal(m.a.outcome, 'withheld');
  assert.equal(m.b.outcome, 'awarded');
  const ev = m.b.evidence[0];
  assert.deepEqual(ev.followThrough?.fromStudent, [0]);
  assert.equal(ev.followThrough?.fromItem, 'a');
  assert.equal(ev.studentIndex, 1);
  assert.ok(['identical', 'z3-proved'].includes(ev.forward.method) && ['identical', 'z3-proved'].includes(ev.backward!.method), JSON.stringify(ev));
  assert.equal(m.c.outcome, 'withheld', 'the answer item has no follow-through: a wrong height is a wrong answer');
  // The same result written another way round follows through as well.
  const other = await mark(demo, 'q1', 'g*t = u/2', 't = u/(2*g)', '8*g*H = 3*u**2');
  assert.equal(other.b.outcome, 'awarded');
  assert.deepEqual(other.b.evidence[0].followThrough?.fromStudent, [1]);
});

test('demo q1: a second error never earns the follow-through mark', async () => {
  for (const wrong of ['H = u**2/(4*g)', 'H = 3*u**2/(4*g)', 'H = 3*u**2/(8*g) + u/g', 'H = 3*u/(8*g)', 'H = 5*u**2/(8*g)']) {
    const m = await mark(demo, 'q1', 't = u/(2*g)', wrong);
    assert.equal(m.b.outcome, 'withheld', wrong);
    assert.equal(m.b.awarded, 0, wrong);
  }
});

test('demo q1: a right time is marked normally; no result before the height, no follow-through', async () => {
  const right = await mark(demo, 'q1', 't = u/g', 'H = u**2/(2*g)');
  assert.equal(right.a.outcome, 'awarded');
  assert.equal(right.b.outcome, 'awarded');
  assert.equal(right.b.evidence[0].followThrough, undefined);
  const before = await mark(demo, 'q1', 'H = 3*u**2/(8*g)', 't = u/(2*g)');
  assert.equal(before.b.outcome, 'withheld');
});

test('crate: an answer item follows through on the student own acceleration; a second error does not', async () => {
  const carried = await mark(crate, 'q1', 'a = F*m', 'v = m*F*T');
  assert.equal(carried.a1.outcome, 'withheld');
  assert.equal(carried.v1.outcome, 'awarded');
  assert.equal(carried.v1.awarded, 2);
  assert.equal(carried.v1.evidence[0].followThrough?.relation, 'Eq(v, F*m*T)');
  for (const wrong of ['v = F*m*T/2', 'v = F*m*T**2', 'v = F*T/m']) {
    const m = await mark(crate, 'q1', 'a = F*m', wrong);
    assert.equal(m.v1.outcome, wrong === 'v = F*T/m' ? 'awarded' : 'withheld', wrong);
    assert.equal(m.v1.evidence[0]?.followThrough, undefined, `${wrong}: the right answer is earned normally, a wrong one not at all`);
  }
  // The relation written as it is is not an answer, even on the right acceleration.
  const relation = await mark(crate, 'q1', 'a = F/m', 'v = a*T');
  assert.equal(relation.v1.outcome, 'withheld');
  // Not solved for the target: not an answer, by follow-through or otherwise.
  const unsolved = await mark(crate, 'q1', 'a = F*m', 'v/T = F*m');
  assert.equal(unsolved.v1.outcome, 'withheld');
});
