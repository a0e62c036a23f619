// A scheme change that edits some items of a question only (store/exams.ts's changedItems) marks
// those items again and keeps the others' stored marks (grade.ts's marksByChange): the engine is
// asked only the edited item's pairs; a mark that must move moves (the item, the total, the
// status); a response whose stored marks can't be shown to stand (a vacuous premise met while it
// was marked) is marked whole; and every stored mark is that of a cold grade under the new exam.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Equation } from '../../shared/equation/index.ts';
import { equationToSympy } from '../../shared/equation/index.ts';
import type { Domain, Verdict } from '../../electron/engine/decide/entail/types.ts';
import { grade } from '../../electron/engine/grade.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { changedItems } from '../../electron/engine/store/exams.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { FakeEngine } from './fake-engine.ts';

type Item = { id: string; marks: number; match: 'implied' | 'answer'; accept: string[]; follow_through?: string[] };

const examOf = (items: Item[], extra: { positive?: boolean } = {}): LoadedExam =>
  validateExam({
    format: 'exam.v1',
    id: 'ri',
    questions: [
      {
        id: 'q1',
        variables: [{ name: 'x', ...(extra.positive ? { assumptions: ['positive'] } : {}) }],
        target: 'x',
        scheme: [...items, { id: 'm', marks: 2, manual: true }],
      },
    ],
  });

const csvOf = (lists: [string, string[]][]): string =>
  `student_id,question_id,equations\n${lists.map(([s, l]) => `${s},q1,"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;
const input = (exam: LoadedExam, csv: string) => ({ kind: 'given' as const, rows: parseEquationsCsv(csv, (q) => exam.questions.get(q)?.variables).rows });

/** Each response's stored marks (the time aside), by student. */
function marksBy(ws: Workspace): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of ws.listResponses('ri')) {
    const m = ws.getMarks(r.id);
    out[r.studentId] = m && { ...m, markedAt: undefined };
  }
  return out;
}

test('a one-item change asks the engine only that item’s pairs; the marks that must move move (item, total, status), as a cold grade gives', async () => {
  const before = examOf([
    { id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] },
    { id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] },
  ]);
  // q1.a gains two forms: x = 5 earns it; x = 6 against x = 9 is undecided (the status moves).
  const after = examOf([
    { id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)', 'Eq(x, 5)', 'Eq(x, 9)'] },
    { id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] },
  ]);
  const csv = csvOf([
    ['S1', ['Eq(x, 1)']],
    ['S2', ['Eq(x, 2)']],
    ['S3', ['Eq(x, 5)']],
    ['S4', ['Eq(x, 6)', 'Eq(x, 2)']],
    ['S5', []],
  ]);
  const engine = () => new FakeEngine([], [], [['Eq(x, 6)', 'Eq(x, 9)']]);
  const ws = new Workspace(':memory:');
  const cold = new Workspace(':memory:');
  try {
    await grade({ workspace: ws, exam: before, engine: engine(), input: input(before, csv) });
    const was = marksBy(ws) as Record<string, { total: number; status: string; items: { itemId: string; outcome: string }[] }>;
    const e = engine();
    const summary = await grade({ workspace: ws, exam: after, engine: e, input: input(after, csv) });
    assert.equal(summary.markedNow, 5);
    assert.ok(e.calls.length > 0);
    assert.deepEqual(
      e.calls.filter((c) => c.endsWith('=> Eq(x, 2)')),
      [],
      'q1.b is not marked again: its stored marks stand (the engine is not asked its pairs)',
    );
    await grade({ workspace: cold, exam: after, engine: engine(), input: input(after, csv) });
    const now = marksBy(ws) as typeof was;
    assert.deepEqual(now, marksBy(cold), 'every stored mark, evidence included, is that of a cold grade under the new exam');
    assert.equal(was.S3.total, 0);
    assert.equal(now.S3.total, 1, "S3's x = 5 now earns q1.a");
    assert.equal(now.S3.items.find((i) => i.itemId === 'a')!.outcome, 'awarded');
    assert.equal(was.S4.status, 'manual-open');
    assert.equal(now.S4.status, 'undecided', "S4's q1.a is undecided against the new form: its status moves");
    assert.equal(now.S4.total, 1, "S4's q1.b stands");
  } finally {
    ws.close();
    cold.close();
  }
});

/** Every equation satisfiable to the consistency check, but `x = 7` a vacuous premise when entailing (as a check that can't tell, then one that can). */
class VacuousLater extends FakeEngine {
  override async consistent(): Promise<{ satisfiable: true; method: 'z3' }> {
    return { satisfiable: true, method: 'z3' };
  }
  override async entails(p: Equation, c: Equation, d: Domain): Promise<Verdict> {
    if (equationToSympy(p) === 'Eq(2*x, 14)') return { holds: false, method: 'vacuous-premise', note: 'no admissible x' };
    return super.entails(p, c, d);
  }
}

test('a response on which marking met a vacuous premise is marked whole: the equation is set aside for the items after, as a cold grade does', async () => {
  // q1.a meets 2x = 14 as a vacuous premise: it is set aside for q1.b (an answer item, where it
  // would otherwise add a line of evidence, "not solved for x"). Marking q1.b alone would not know.
  const before = examOf([
    { id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] },
    { id: 'b', marks: 1, match: 'answer', accept: ['Eq(x, 2)'] },
  ]);
  const after = examOf([
    { id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] },
    { id: 'b', marks: 1, match: 'answer', accept: ['Eq(x, 2)', 'Eq(x, 3)'] },
  ]);
  const csv = csvOf([
    ['S1', ['Eq(2*x, 14)', 'Eq(x, 5)']],
    ['S2', ['Eq(x, 3)']],
  ]);
  const ws = new Workspace(':memory:');
  const cold = new Workspace(':memory:');
  try {
    await grade({ workspace: ws, exam: before, engine: new VacuousLater(), input: input(before, csv) });
    await grade({ workspace: ws, exam: after, engine: new VacuousLater(), input: input(after, csv) });
    await grade({ workspace: cold, exam: after, engine: new VacuousLater(), input: input(after, csv) });
    const now = marksBy(ws) as Record<
      string,
      { total: number; inconsistent: { method: string }[]; items: { itemId: string; outcome: string; evidence: { studentIndex: number }[] }[] }
    >;
    assert.deepEqual(now, marksBy(cold), 'every stored mark is that of a cold grade under the new exam');
    assert.equal(now.S1.inconsistent[0]?.method, 'entailment');
    const b = now.S1.items.find((i) => i.itemId === 'b')!;
    assert.equal(b.outcome, 'withheld');
    assert.deepEqual(
      b.evidence.map((e) => e.studentIndex),
      [1, 1],
      "q1.b's evidence leaves out the equation set aside (no line 'not solved for x' for it)",
    );
    assert.equal(now.S2.total, 1, "S2's x = 3 now earns q1.b");
  } finally {
    ws.close();
    cold.close();
  }
});

test('changedItems: only the items edited, or null where the question must be marked whole', () => {
  const a: Item = { id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] };
  const b: Item = { id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] };
  const base = examOf([a, b]).exam;
  assert.deepEqual(changedItems(base, examOf([a, { ...b, accept: ['Eq(x, 2)', 'Eq(x, 3)'] }]).exam, 'q1'), ['b']);
  assert.deepEqual(changedItems(base, examOf([{ ...a, marks: 2 }, b]).exam, 'q1'), ['a']);
  assert.equal(changedItems(base, examOf([b, a]).exam, 'q1'), null, 'items reordered');
  assert.equal(changedItems(base, examOf([a]).exam, 'q1'), null, 'an item removed');
  assert.equal(changedItems(base, examOf([a, b], { positive: true }).exam, 'q1'), null, "the question's assumptions changed");
  assert.equal(changedItems(base, examOf([a, { ...b, follow_through: ['a'] }]).exam, 'q1'), null, 'follow-through: an item rests on another');
});
