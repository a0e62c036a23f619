import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { markEquations, solvedFor } from '../../electron/engine/decide/marking.ts';
import { FakeEngine } from './fake-engine.ts';

const exam = validateExam({
  format: 'exam.v1',
  id: 'x',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
        { name: 'w', assumptions: ['positive'] },
      ],
      target: 'v',
      scheme: [
        { id: 'imp', marks: 1, match: 'implied', accept: ['Eq(v - u, w)'] },
        { id: 'eqv', marks: 2, match: 'equivalent', accept: ['Eq(v - u, w)', 'Eq(v, 2*w)'] },
        { id: 'ans', marks: 3, match: 'answer', accept: ['Eq(v, u + w)'] },
        { id: 'man', marks: 2, manual: true },
      ],
    },
  ],
});
const cq = exam.questions.get('q1')!;
const eqs = (...s: string[]) => s.map((x) => parseEquationOrThrow(x));
const awarded = (m: Awaited<ReturnType<typeof markEquations>>) => Object.fromEntries(m.items.map((i) => [i.itemId, i.awarded]));

test('solvedFor: target alone on one side and not on the other', () => {
  assert.equal(solvedFor(parseEquationOrThrow('v = u + w'), 'v'), true);
  assert.equal(solvedFor(parseEquationOrThrow('u + w = v'), 'v'), true);
  assert.equal(solvedFor(parseEquationOrThrow('v = u + v/2'), 'v'), false);
  assert.equal(solvedFor(parseEquationOrThrow('2*v = u'), 'v'), false);
  assert.equal(solvedFor(parseEquationOrThrow('v = v'), 'v'), false);
});

test('answer needs equivalence and a solved form; an unsolved equivalent equation earns equivalent but not answer', async () => {
  const engine = new FakeEngine([
    ['Eq(v - u, w)', 'Eq(v, u + w)'],
    ['Eq(v, u + w)', 'Eq(v - u, w)'],
  ]);
  const unsolved = await markEquations(engine, cq, eqs('Eq(v - u, w)'));
  assert.deepEqual(awarded(unsolved), { imp: 1, eqv: 2, ans: 0, man: null });
  const ansEv = unsolved.items.find((i) => i.itemId === 'ans')!;
  assert.equal(ansEv.outcome, 'withheld');
  assert.equal(ansEv.evidence[0].solvedForTarget, false);
  const solved = await markEquations(engine, cq, eqs('Eq(v, u + w)'));
  assert.deepEqual(awarded(solved), { imp: 1, eqv: 2, ans: 3, man: null });
  assert.equal(solved.total, 6);
  assert.equal(solved.available, 8);
  assert.equal(solved.status, 'manual-open');
  const ev = solved.items.find((i) => i.itemId === 'ans')!.evidence[0];
  assert.deepEqual([ev.studentIndex, ev.acceptIndex, ev.forward.method, ev.backward?.method, ev.solvedForTarget], [0, 0, 'identical', 'identical', true]);
});

test('implied needs one direction only; equivalent needs both (the study example v=u+w vs v-u=w)', async () => {
  // v = u + w + 0*... : a stronger equation entailing the accepted form one way only.
  const engine = new FakeEngine([['Eq(v, 2*u)', 'Eq(v - u, w)']]);
  const m = await markEquations(engine, cq, eqs('Eq(v, 2*u)'));
  assert.deepEqual(awarded(m), { imp: 1, eqv: 0, ans: 0, man: null });
  const eqv = m.items.find((i) => i.itemId === 'eqv')!;
  assert.equal(eqv.evidence[0].forward.holds, true);
  assert.equal(eqv.evidence[0].backward?.holds, false, 'the closest miss (one direction holds) is shown first');
});

test('each item is earned by some single equation, independently; a second accepted form counts', async () => {
  const engine = new FakeEngine([]);
  const m = await markEquations(engine, cq, eqs('Eq(u, 7)', 'Eq(v, 2*w)'));
  assert.deepEqual(awarded(m), { imp: 0, eqv: 2, ans: 0, man: null });
  assert.equal(m.items.find((i) => i.itemId === 'eqv')!.evidence[0].acceptIndex, 1);
  assert.equal(m.items.find((i) => i.itemId === 'eqv')!.evidence[0].studentIndex, 1);
});

test('an inconsistent equation earns nothing and is flagged; the rest of the list still counts', async () => {
  const engine = new FakeEngine([], ['Eq(v, u + w)']);
  const m = await markEquations(engine, cq, eqs('Eq(v, u + w)', 'Eq(v - u, w)'));
  assert.deepEqual(awarded(m), { imp: 1, eqv: 2, ans: 0, man: null });
  assert.deepEqual(
    m.inconsistent.map((i) => i.student),
    ['Eq(v, u + w)'],
  );
  assert.ok(!engine.calls.some((c) => c.startsWith('Eq(v, u + w) =>')), 'an inconsistent premise is never checked');
});

test('a vacuous-premise verdict is treated like an inconsistent equation', async () => {
  const engine = new FakeEngine();
  engine.entails = async () => ({ holds: false, method: 'vacuous-premise' });
  const m = await markEquations(engine, cq, eqs('Eq(v, u + w)'));
  assert.deepEqual(awarded(m), { imp: 0, eqv: 0, ans: 0, man: null });
  assert.equal(m.inconsistent.length, 1);
});

test('manual items are never awarded; empty lists earn nothing; unknown verdicts leave an item undecided', async () => {
  const empty = await markEquations(new FakeEngine(), cq, []);
  assert.deepEqual(awarded(empty), { imp: 0, eqv: 0, ans: 0, man: null });
  assert.equal(empty.items.find((i) => i.itemId === 'man')!.outcome, 'manual');
  const engine = new FakeEngine([], [], [['Eq(u, 3)', 'Eq(v - u, w)']]);
  const m = await markEquations(engine, cq, eqs('Eq(u, 3)'));
  const imp = m.items.find((i) => i.itemId === 'imp')!;
  assert.equal(imp.outcome, 'undecided');
  assert.equal(imp.awarded, null);
  assert.equal(m.status, 'undecided');
});
