// A re-grade after a scheme change writes only the marks the change moves (grade.ts's
// marksByChange): the changed question's responses are marked under the new exam before it is
// stored, those whose marks stay the same keep their stored rows (not written, not audited),
// those that differ are written in the import's transaction, other questions are not touched;
// and the marks are exactly those of a cold grade under the new exam.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grade } from '../../electron/engine/grade.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { marksCsv } from '../../electron/engine/io/csv/write.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { FakeEngine } from './fake-engine.ts';

const examOf = (acceptA: string[]): LoadedExam =>
  validateExam({
    format: 'exam.v1',
    id: 'rw',
    questions: [
      {
        id: 'q1',
        variables: [{ name: 'x' }],
        scheme: [
          { id: 'a', marks: 1, match: 'implied', accept: acceptA },
          { id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 2)'] },
        ],
      },
      { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'c', marks: 1, match: 'implied', accept: ['Eq(x, 3)'] }] },
    ],
  });

const LISTS: [string, string, string[]][] = [
  ['S1', 'q1', ['Eq(x, 1)']],
  ['S2', 'q1', ['Eq(x, 2)']],
  ['S3', 'q1', ['Eq(x, 5)']],
  ['S4', 'q1', []],
  ['S1', 'q2', ['Eq(x, 3)']],
  ['S2', 'q2', ['Eq(x, 4)']],
];
const csv = `student_id,question_id,equations\n${LISTS.map(([s, q, l]) => `${s},${q},"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;
const input = (exam: LoadedExam) => ({ kind: 'given' as const, rows: parseEquationsCsv(csv, (q) => exam.questions.get(q)?.variables).rows });

const before = examOf(['Eq(x, 1)']);
// One accepted form added to q1.a: S3's x = 5 now earns it.
const after = examOf(['Eq(x, 1)', 'Eq(x, 5)']);

/** Each response's stored marks (the time aside), by student/question. */
function marksBy(ws: Workspace): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of ws.listResponses('rw')) {
    const m = ws.getMarks(r.id);
    out[`${r.studentId}/${r.questionId}`] = m && { ...m, markedAt: undefined };
  }
  return out;
}

const savesOf = (ws: Workspace): Map<string, number> => {
  const n = new Map<string, number>();
  for (const e of ws.auditLog({ action: 'marks.save' })) n.set(e.entityKey, (n.get(e.entityKey) ?? 0) + 1);
  return n;
};

test('a re-grade after a one-item change writes only the marks it moves; the rest keep their rows; the marks are those of a cold grade', async () => {
  const ws = new Workspace(':memory:');
  const cold = new Workspace(':memory:');
  try {
    await grade({ workspace: ws, exam: before, engine: new FakeEngine(), input: input(before) });
    const rowsBefore = new Map(ws.tableRows('mark_results').map((r) => [Number(r.response_id), JSON.stringify(r)]));
    const itemsBefore = JSON.stringify(ws.tableRows('marks'));
    const marksBefore = marksBy(ws);
    const savesBefore = savesOf(ws);

    const summary = await grade({ workspace: ws, exam: after, engine: new FakeEngine(), input: input(after) });
    assert.equal(summary.markedNow, 4, "q1's four responses are marked again; q2's are not");

    await grade({ workspace: cold, exam: after, engine: new FakeEngine(), input: input(after) });
    const marksAfter = marksBy(ws);
    assert.deepEqual(marksAfter, marksBy(cold), 'every stored mark, evidence included, is that of a cold grade under the new exam');
    assert.equal(marksCsv(ws, after.exam), marksCsv(cold, after.exam), 'marks.csv identical to a cold grade');

    const savesAfter = savesOf(ws);
    let moved = 0;
    for (const r of ws.listResponses('rw')) {
      const key = `${r.studentId}/${r.questionId}`;
      const changed = JSON.stringify(marksAfter[key]) !== JSON.stringify(marksBefore[key]);
      const row = JSON.stringify(ws.tableRows('mark_results').find((m) => Number(m.response_id) === r.id));
      const audited = (savesAfter.get(`rw/${key}`) ?? 0) - (savesBefore.get(`rw/${key}`) ?? 0);
      if (changed) moved++;
      assert.equal(audited, changed ? 1 : 0, `${key}: audited once if its marks moved, never otherwise`);
      if (!changed) assert.equal(row, rowsBefore.get(r.id), `${key}: its stored row is left as it was (time included)`);
    }
    assert.ok(moved >= 1, "S3's q1.a moved");
    assert.ok(moved < 4, 'some of the changed question kept their marks');
    assert.equal(
      JSON.stringify(ws.tableRows('marks').filter((m) => ws.listResponses('rw', { questionId: 'q2' }).some((r) => r.id === Number(m.response_id)))),
      JSON.stringify(
        JSON.parse(itemsBefore).filter((m: { response_id: number }) => ws.listResponses('rw', { questionId: 'q2' }).some((r) => r.id === m.response_id)),
      ),
      "q2's item rows are untouched",
    );
  } finally {
    ws.close();
    cold.close();
  }
});

test('a response whose reading changed meanwhile is not kept by the import: it is marked again on its new reading', async () => {
  const ws = new Workspace(':memory:');
  try {
    await grade({ workspace: ws, exam: before, engine: new FakeEngine(), input: input(before) });
    const s1 = ws.findResponse('rw', 'S1', 'q1')!;
    const x = ws.getExtraction(s1)!;
    // Marks found unchanged on the reading S1 had, named to the import after the reading was replaced.
    const reading = ws.saveExtraction(s1, { ...x, equations: [{ source: 'Eq(x, 2)' }] }, 'given');
    await grade({ workspace: ws, exam: before, engine: new FakeEngine(), input: { kind: 'none' } });
    ws.importExam(after.exam, { keep: [{ responseId: s1, extractionId: x.id }] });
    assert.equal(ws.getMarks(s1), null, 'marks of another reading are dropped, to be marked again');
    await grade({ workspace: ws, exam: after, engine: new FakeEngine(), input: { kind: 'none' } });
    assert.equal(ws.getMarks(s1)!.extractionId, reading);
  } finally {
    ws.close();
  }
});
