// Follow-through marks (error carried forward): the rule of decide/follow-through.ts against a
// table-driven engine (every verdict named), and the exam validation of `follow_through`. The same
// cases against the real engine (Z3) are in follow-through-z3.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import { validateExam, ExamError } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { resultQuantity, solvedSymbol } from '../../electron/engine/decide/follow-through.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { answersCsv, marksCsv, studentMarksCsv } from '../../electron/engine/io/csv/write.ts';
import { FakeEngine } from './fake-engine.ts';

// A force F pushes a crate of mass m from rest for a time T: acceleration a, then speed v.
const question = (extra: Record<string, unknown> = {}) => ({
  id: 'q1',
  variables: ['F', 'm', 'T', 'a', 'v', 's'].map((name) => ({ name, assumptions: ['positive'] })),
  target: 'v',
  scheme: [
    { id: 'a1', marks: 1, match: 'implied', accept: ['Eq(a, F/m)'] },
    { id: 'v1', marks: 2, match: 'answer', accept: ['Eq(v, F*T/m)', 'Eq(v, a*T)'], follow_through: ['a1'] },
    { id: 's1', marks: 1, match: 'implied', accept: ['Eq(s, v*T/2)'], follow_through: ['v1'] },
  ],
  ...extra,
});
const exam = validateExam({ format: 'exam.v1', id: 'ft', questions: [question()] });
const cq = exam.questions.get('q1')!;
const eqs = (...s: string[]) => s.map((x) => parseEquationOrThrow(x));
const item = (m: Awaited<ReturnType<typeof markEquations>>, id: string) => m.items.find((i) => i.itemId === id)!;

test('the quantity an item gives: the variable its first accepted form is solved for', () => {
  assert.equal(solvedSymbol(parseEquationOrThrow('Eq(t, u/g)')), 't');
  assert.equal(solvedSymbol(parseEquationOrThrow('Eq(u/g, t)')), 't');
  assert.equal(solvedSymbol(parseEquationOrThrow('Eq(t, t/2 + u)')), undefined);
  assert.equal(solvedSymbol(parseEquationOrThrow('Eq(u**2, 2*g*H)')), undefined);
  const a1 = cq.question.scheme[0];
  assert.equal(resultQuantity(a1, cq.accept.get('a1')!, cq.question), 'a');
  assert.equal(resultQuantity({ ...a1, manual: true, match: undefined }, [], cq.question), undefined);
});

test('a wrong result carried forward correctly earns the item by follow-through, with the evidence', async () => {
  const m = await markEquations(new FakeEngine(), cq, eqs('Eq(a, F*m)', 'Eq(v, F*m*T)'));
  assert.equal(item(m, 'a1').outcome, 'withheld');
  const v1 = item(m, 'v1');
  assert.equal(v1.outcome, 'awarded');
  assert.equal(v1.awarded, 2);
  const ev = v1.evidence[0];
  assert.equal(ev.studentIndex, 1);
  assert.equal(ev.accepted, 'Eq(v, a*T)');
  assert.deepEqual(ev.followThrough && { ...ev.followThrough, note: undefined }, {
    fromItem: 'a1',
    fromStudent: [0],
    relation: 'Eq(v, F*m*T)',
    note: undefined,
  });
  assert.equal(ev.forward.holds, true);
  assert.equal(ev.backward?.holds, true);
  assert.match(v1.note ?? '', /follow-through from equation 1/);
  assert.equal(m.total, 2, 'a follow-through mark counts in the total');
  assert.equal(m.status, 'complete');
});

test('a second error (wrong physics in the item itself, on the wrong result) never earns the mark', async () => {
  const m = await markEquations(new FakeEngine(), cq, eqs('Eq(a, F*m)', 'Eq(v, F*m*T/2)'));
  const v1 = item(m, 'v1');
  assert.equal(v1.outcome, 'withheld');
  assert.equal(v1.awarded, 0);
  assert.ok(!v1.evidence.some((e) => e.followThrough), 'no follow-through evidence on a withheld item');
  assert.match(v1.note ?? '', /no follow-through from item a1/);
  assert.equal(m.total, 0);
});

test('a right result: the item is marked normally, and no follow-through is tried', async () => {
  const engine = new FakeEngine();
  const right = await markEquations(engine, cq, eqs('Eq(a, F/m)', 'Eq(v, F*T/m)'));
  assert.equal(item(right, 'v1').outcome, 'awarded');
  assert.equal(item(right, 'v1').evidence[0].followThrough, undefined);
  engine.calls.length = 0;
  // Right a, wrong v: withheld; the wrong v is not carried into anything from a1.
  const wrongV = await markEquations(engine, cq, eqs('Eq(a, F/m)', 'Eq(v, F*T/(2*m))'));
  assert.equal(item(wrongV, 'v1').outcome, 'withheld');
  assert.ok(!engine.calls.some((c) => c.includes('Eq(v, F/m*T)')), `no check with a1's value put in: ${engine.calls.join(' | ')}`);
});

test('an answer item: a form that uses the earlier quantity is a relation, not an answer (v = a*T earns nothing by itself)', async () => {
  const m = await markEquations(new FakeEngine(), cq, eqs('Eq(a, F/m)', 'Eq(v, a*T)'));
  assert.equal(item(m, 'a1').outcome, 'awarded');
  assert.equal(item(m, 'v1').outcome, 'withheld');
  assert.ok(
    item(m, 'v1').evidence.every((e) => e.acceptIndex === 0),
    'only the final answer is checked',
  );
  assert.match(
    problems({ ...question(), scheme: [question().scheme[0], { ...question().scheme[1], accept: ['Eq(v, a*T)'] }] })[0],
    /every accepted form of this answer item uses a/,
  );
});

test('an undecided earlier item: the follow-through item is undecided, never awarded', async () => {
  const engine = new FakeEngine([], [], [['Eq(a, F*m)', 'Eq(a, F/m)']]);
  const m = await markEquations(engine, cq, eqs('Eq(a, F*m)', 'Eq(v, F*m*T)'));
  assert.equal(item(m, 'a1').outcome, 'undecided');
  const v1 = item(m, 'v1');
  assert.equal(v1.outcome, 'undecided');
  assert.equal(v1.awarded, null);
  assert.match(v1.note ?? '', /which is undecided/);
  // ...but when the follow-through can't hold, the item stays withheld.
  const second = await markEquations(engine, cq, eqs('Eq(a, F*m)', 'Eq(v, F*m*T/2)'));
  assert.equal(item(second, 'v1').outcome, 'withheld');
});

test('an undecided follow-through check leaves the item undecided', async () => {
  const engine = new FakeEngine([], [], [['Eq(v, T*F*m)', 'Eq(v, F*m*T)']]);
  const m = await markEquations(engine, cq, eqs('Eq(a, F*m)', 'Eq(v, T*F*m)'));
  assert.equal(item(m, 'v1').outcome, 'undecided');
  assert.match(item(m, 'v1').note ?? '', /could not be decided/);
});

test('only a later equation, consistent, solved for the target of an answer item, follows through', async () => {
  // The result comes after the equation: nothing to carry.
  const before = await markEquations(new FakeEngine(), cq, eqs('Eq(v, F*m*T)', 'Eq(a, F*m)'));
  assert.equal(item(before, 'v1').outcome, 'withheld');
  // An inconsistent result is no result.
  const inconsistent = await markEquations(new FakeEngine([], ['Eq(a, F*m)']), cq, eqs('Eq(a, F*m)', 'Eq(v, F*m*T)'));
  assert.equal(item(inconsistent, 'v1').outcome, 'withheld');
  // For an answer item, the equation must be solved for the target.
  const unsolved = await markEquations(
    new FakeEngine([
      ['Eq(v/T, F*m)', 'Eq(v, F*m*T)'],
      ['Eq(v, F*m*T)', 'Eq(v/T, F*m)'],
    ]),
    cq,
    eqs('Eq(a, F*m)', 'Eq(v/T, F*m)'),
  );
  assert.equal(item(unsolved, 'v1').outcome, 'withheld');
});

test('a relation the wrong value makes trivially true earns nothing', async () => {
  // The student's own a = F*m entails the relation with it put in: it says nothing of theirs.
  const engine = new FakeEngine([['Eq(a, F*m)', 'Eq(v, F*m*T)']]);
  const m = await markEquations(engine, cq, eqs('Eq(a, F*m)', 'Eq(v, F*m*T)'));
  assert.equal(item(m, 'v1').outcome, 'withheld');
});

test('follow-through chains: an item awarded by follow-through is itself a wrong result to follow from', async () => {
  const engine = new FakeEngine([
    ['Eq(s, F*m*T**2/2)', 'Eq(s, F*m*T*T/2)'],
    ['Eq(s, F*m*T*T/2)', 'Eq(s, F*m*T**2/2)'],
  ]);
  const m = await markEquations(engine, cq, eqs('Eq(a, F*m)', 'Eq(v, F*m*T)', 'Eq(s, F*m*T**2/2)'));
  assert.deepEqual(
    m.items.map((i) => [i.itemId, i.outcome, i.evidence[0]?.followThrough?.fromStudent]),
    [
      ['a1', 'withheld', undefined],
      ['v1', 'awarded', [0]],
      ['s1', 'awarded', [1]],
    ],
  );
  assert.equal(m.total, 3);
});

function problems(q: Record<string, unknown>): string[] {
  try {
    validateExam({ format: 'exam.v1', id: 'x', questions: [q] });
  } catch (e) {
    assert.ok(e instanceof ExamError);
    return e.problems.map((p) => `${p.path}: ${p.message}`);
  }
  return [];
}

test('validation: follow_through names items of the same question, not itself, with a result its relations use, and no cycles', () => {
  const scheme = (v1: Record<string, unknown>, more: Record<string, unknown>[] = []) => ({
    ...question(),
    scheme: [question().scheme[0], { ...question().scheme[1], ...v1 }, ...more],
  });
  assert.deepEqual(problems(question()), []);
  assert.deepEqual(problems(scheme({ follow_through: ['x'] })), ["questions[0].scheme[1].follow_through[0]: no item 'x' in this question (its items: a1, v1)"]);
  assert.deepEqual(problems(scheme({ follow_through: ['v1'] })), ["questions[0].scheme[1].follow_through[0]: an item can't follow through from itself ('v1')"]);
  assert.deepEqual(problems(scheme({ follow_through: ['a1', 'a1'] })), ["questions[0].scheme[1].follow_through[1]: 'a1' is listed twice"]);
  assert.match(
    problems(scheme({ accept: ['Eq(v, F*T/m)'] }))[0],
    /^questions\[0\]\.scheme\[1\]\.follow_through\[0\]: item 'a1' gives a, but none of this item's accepted forms uses a/,
  );
  assert.match(
    problems(scheme({ follow_through: ['n'] }, [{ id: 'n', marks: 1, manual: true }]))[0],
    /^questions\[0\]\.scheme\[1\]\.follow_through\[0\]: item 'n' is manual/,
  );
  assert.match(
    problems(scheme({ follow_through: ['u'] }, [{ id: 'u', marks: 1, match: 'implied', accept: ['Eq(s, F*T)'] }]))[0],
    /follow_through\[0\]: item 'u' gives s, but none/,
  );
  assert.match(
    problems(scheme({ follow_through: ['u'] }, [{ id: 'u', marks: 1, match: 'implied', accept: ['Eq(2*a, F/m + a)'] }]))[0],
    /follow_through\[0\]: item 'u' has no result to carry forward/,
  );
  assert.match(problems(scheme({ manual: true, match: undefined, accept: [] }))[0], /^questions\[0\]\.scheme\[1\]\.follow_through: a manual item/);
  const cycle = problems({
    ...question(),
    scheme: [
      { id: 'a1', marks: 1, match: 'implied', accept: ['Eq(a, F/m)', 'Eq(a, v/T)'], follow_through: ['v1'] },
      { id: 'v1', marks: 2, match: 'answer', accept: ['Eq(v, F*T/m)', 'Eq(v, a*T)'], follow_through: ['a1'] },
    ],
  });
  assert.deepEqual(cycle, ["questions[0].scheme[1].follow_through[0]: follow-through cycle: a1 → v1 → a1 (an item can't depend on its own result)"]);
});

test('marks CSVs: a follow_through column names the items whose mark stands by follow-through (not once overridden)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-ft-'));
  const ws = new Workspace(join(dir, 'w.sqlite'));
  try {
    ws.importExam(exam.exam);
    const answers: [string, string[]][] = [
      ['S1', ['Eq(a, F*m)', 'Eq(v, F*m*T)']],
      ['S2', ['Eq(a, F*m)', 'Eq(v, F*m*T/2)']],
      ['S3', ['Eq(a, F/m)', 'Eq(v, F*T/m)']],
    ];
    ws.importResponses(
      'ft',
      answers.map(([studentId]) => ({ studentId, questionId: 'q1', text: '...' })),
    );
    for (const [sid, list] of answers) {
      const id = ws.findResponse('ft', sid, 'q1')!;
      const xid = ws.saveExtraction(
        id,
        { equations: list.map((source) => ({ source })), status: 'read', source: 'given', flags: [], unread: [], notes: [] },
        'given',
      );
      ws.saveMarks(id, xid, await markEquations(new FakeEngine(), cq, eqs(...list)));
    }
    const rows = (csv: string) => csv.trim().split('\n');
    assert.deepEqual(rows(marksCsv(ws, exam.exam)), [
      'student_id,question_id,a1,v1,s1,total,status,dimensions,follow_through',
      'S1,q1,0,2,0,2,complete,,v1',
      'S2,q1,0,0,0,0,complete,,',
      'S3,q1,1,2,0,3,complete,,',
    ]);
    assert.match(rows(answersCsv(ws, exam.exam))[0], /,open_regrade_requests,dimensions,follow_through$/);
    assert.match(rows(answersCsv(ws, exam.exam))[1], /^S1,q1,.*,q1\.v1$/);
    assert.match(rows(studentMarksCsv(ws, exam.exam))[1], /^S1,.*,q1\.v1$/);
    // Overridden by the instructor: the mark is theirs, no longer a follow-through mark.
    ws.setOverride(ws.findResponse('ft', 'S1', 'q1')!, 'v1', 1, 'half: the method was shown only in words');
    assert.equal(rows(marksCsv(ws, exam.exam))[1], 'S1,q1,0,1,0,1,complete,,');
    // An exam with no follow-through keeps its columns as they were.
    const plain = validateExam({ format: 'exam.v1', id: 'plain', questions: [{ ...question(), scheme: [question().scheme[0]] }] });
    ws.importExam(plain.exam);
    assert.equal(rows(marksCsv(ws, plain.exam))[0], 'student_id,question_id,a1,total,status,dimensions');
  } finally {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an item that requires dimensional consistency follows through only along consistent equations', async () => {
  const units: Record<string, string> = { F: 'N', m: 'kg', T: 's', a: 'm/s^2', v: 'm/s', s: 'm' };
  const withUnits = (requireDimensions: boolean) => {
    const q = question();
    return validateExam({
      format: 'exam.v1',
      id: 'ftu',
      questions: [
        {
          ...q,
          variables: q.variables.map((v) => ({ ...v, unit: units[v.name] })),
          scheme: q.scheme.map((it) => (it.id === 'v1' && requireDimensions ? { ...it, require_dimensions: true } : it)),
        },
      ],
    }).questions.get('q1')!;
  };
  // a = F*m is wrong and dimensionally inconsistent (N·kg is not m/s²); v = F*m*T carries it forward.
  const lenient = await markEquations(new FakeEngine(), withUnits(false), eqs('Eq(a, F*m)', 'Eq(v, F*m*T)'));
  assert.equal(item(lenient, 'v1').outcome, 'awarded', 'without the requirement, follow-through earns it');
  const strict = await markEquations(new FakeEngine(), withUnits(true), eqs('Eq(a, F*m)', 'Eq(v, F*m*T)'));
  assert.equal(item(strict, 'v1').outcome, 'withheld');
  assert.equal(item(strict, 'v1').awarded, 0);
  assert.ok(!item(strict, 'v1').evidence.some((e) => e.followThrough), 'no follow-through evidence');
  assert.match(item(strict, 'v1').note ?? '', /requires dimensional consistency/);
});
