// The workspace's change log for the review list (migration 7): every write a response's line in
// the list rests on names that response, and only it, whatever path made the write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { FakeEngine } from './fake-engine.ts';
import { grade } from '../../electron/engine/grade.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';

const exam = validateExam({
  format: 'exam.v1',
  id: 'e1',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
      ],
      target: 'v',
      scheme: [
        { id: 'a', marks: 2, match: 'answer', accept: ['Eq(v, 2*u)'] },
        { id: 'm', marks: 1, manual: true },
      ],
    },
  ],
});
const read = (s: string): Extraction => ({ equations: [{ source: s }], status: 'read', source: 'embedded', flags: [], unread: [], notes: [] });

test('each write a review line rests on names its response, once, after the last number read', async () => {
  const ws = new Workspace(':memory:');
  ws.importExam(exam.exam);
  ws.importResponses('e1', [
    { studentId: 'S1', questionId: 'q1', text: 'v = 2u' },
    { studentId: 'S2', questionId: 'q1', text: 'v = u' },
  ]);
  const s1 = ws.findResponse('e1', 'S1', 'q1')!;
  const s2 = ws.findResponse('e1', 'S2', 'q1')!;
  let seen = ws.lastReviewChange();
  assert.ok(seen > 0, 'the import is a change');
  /** The responses changed since the last call, and move on. */
  const changed = (): number[] => {
    const c = ws.reviewChangesSince(seen);
    seen = c.last;
    return c.responseIds;
  };
  assert.deepEqual(changed(), []);

  const xid = ws.saveExtraction(s1, read('Eq(v, 2*u)'), 'plain');
  assert.deepEqual(changed(), [s1], 'a reading');
  ws.saveMarks(s1, xid, await markEquations(new FakeEngine(), exam.questions.get('q1')!, [parseEquationOrThrow('Eq(v, 2*u)')]));
  assert.deepEqual(changed(), [s1], 'marks');
  ws.setOverride(s1, 'm', 1);
  assert.deepEqual(changed(), [s1], 'a mark by hand');
  ws.clearOverride(s1, 'm');
  assert.deepEqual(changed(), [s1], 'a mark by hand taken back');
  const rq = ws.addRegradeRequest(s2, 'please look again', '2026-11-20');
  assert.deepEqual(changed(), [s2], 'a regrade request');
  ws.resolveRegradeRequest(rq, 'looked again', []);
  assert.deepEqual(changed(), [s2], 'its answer');
  ws.importResponses('e1', [{ studentId: 'S1', questionId: 'q1', text: 'v = 3u' }]);
  assert.deepEqual(changed(), [s1], 'a new text (its reading and marks dropped with it)');
  ws.saveExtractions([
    { responseId: s1, extraction: read('Eq(v, 3*u)'), reader: 'plain' },
    { responseId: s2, extraction: read('Eq(v, u)'), reader: 'plain' },
  ]);
  assert.deepEqual(changed().sort(), [s1, s2].sort(), 'a bulk write names each response once');
  ws.addComment(s1, 'a comment is not on the list');
  ws.flushDecided();
  assert.deepEqual(changed(), []);
  // Asked from the start: every response, each once.
  assert.deepEqual(ws.reviewChangesSince(0).responseIds.sort(), [s1, s2].sort());
  ws.close();
});

// Migration 11: an update names its response only when something a reader of the log reads
// changed (listResponses: the review index and the exports rest on it). The marking time and
// evidence that keeps its follow-through are not; everything else still is.
const ftExam = validateExam({
  format: 'exam.v1',
  id: 'e2',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
      ],
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(u, 1)'] },
        { id: 'b', marks: 2, match: 'implied', accept: ['Eq(v, 2*u)'], follow_through: ['a'] },
      ],
    },
  ],
});

test('an update of marks names its response when a listed value or the follow-through changes, not for the marking time or other evidence', async () => {
  const ws = new Workspace(':memory:');
  ws.importExam(ftExam.exam);
  ws.importResponses('e2', [{ studentId: 'S1', questionId: 'q1', text: 'v = 2u' }]);
  const s1 = ws.findResponse('e2', 'S1', 'q1')!;
  const xid = ws.saveExtraction(s1, read('Eq(v, 2*u)'), 'plain');
  const marks = await markEquations(new FakeEngine(), ftExam.questions.get('q1')!, [parseEquationOrThrow('Eq(v, 2*u)')]);
  ws.saveMarks(s1, xid, marks);
  const b = marks.items.findIndex((i) => i.itemId === 'b');
  assert.equal(marks.items[b].outcome, 'awarded');
  let seen = ws.lastReviewChange();
  const changed = (): number[] => {
    const c = ws.reviewChangesSince(seen);
    seen = c.last;
    return c.responseIds;
  };
  const withB = (evidence: (typeof marks.items)[number]['evidence'], awarded = marks.items[b].awarded) => ({
    ...marks,
    items: marks.items.map((it, i) => (i === b ? { ...it, evidence, awarded } : it)),
  });
  const listed = () => JSON.stringify(ws.listResponses('e2'));
  const before = listed();
  const save = (m: typeof marks) => assert.deepEqual(ws.saveMarksBatch([{ responseId: s1, extractionId: xid, marks: m }]), []);

  save(marks);
  assert.deepEqual(changed(), [], 'the same marks again: only the time changed');
  const ev = marks.items[b].evidence;
  save(withB([...ev, { ...ev[0], acceptIndex: 1, accepted: 'Eq(2*u, v)' }]));
  assert.equal(ws.getMarks(s1)!.items[b].evidence.length, ev.length + 1, 'the evidence was written');
  assert.deepEqual(changed(), [], 'evidence that keeps the follow-through: nothing a reader sees');
  assert.equal(listed(), before, 'as the readers see it, nothing changed');

  save(withB([{ ...ev[0], followThrough: { fromItem: 'a', fromStudent: [0], relation: 'Eq(v, 2*u)' } }]));
  assert.deepEqual(changed(), [s1], 'earned by follow-through now: named');
  assert.deepEqual(ws.listResponses('e2')[0].followThrough, ['b'], 'the readers see it');
  save(withB(ev));
  assert.deepEqual(changed(), [s1], 'and back: named');

  save(withB(ev, 1));
  assert.deepEqual(changed(), [s1], 'a mark moved: named');
  ws.close();
});

test('a re-grade after an accepted form that moves no mark names no response; one that moves marks names those only', async () => {
  const examOf = (accept: string[]) =>
    validateExam({
      format: 'exam.v1',
      id: 'e3',
      questions: [{ id: 'q1', variables: [{ name: 'x' }], scheme: [{ id: 'a', marks: 1, match: 'implied', accept }] }],
    });
  const ws = new Workspace(':memory:');
  const lists: [string, string[]][] = [
    ['S1', ['Eq(x, 1)']],
    ['S2', ['Eq(x, 2)']],
    ['S3', ['Eq(x, 5)']],
  ];
  const input = (exam: ReturnType<typeof examOf>) => ({
    kind: 'given' as const,
    rows: parseEquationsCsv(
      `student_id,question_id,equations\n${lists.map(([s, l]) => `${s},q1,"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`,
      (q) => exam.questions.get(q)?.variables,
    ).rows,
  });
  const id = (s: string) => ws.findResponse('e3', s, 'q1')!;
  const first = examOf(['Eq(x, 1)']);
  await grade({ workspace: ws, exam: first, engine: new FakeEngine(), input: input(first) });
  const evidence = () => ws.listResponses('e3').map((r) => JSON.stringify(ws.getMarks(r.id)!.items[0].evidence));
  const listed = ws.listResponses('e3');
  const evidenceBefore = evidence();
  let seen = ws.lastReviewChange();

  // x = 1 + 1 is x = 1: no mark moves, but the evidence of those withheld lists the new form.
  const same = examOf(['Eq(x, 1)', 'Eq(x + 1, 2)']);
  await grade({ workspace: ws, exam: same, engine: new FakeEngine(), input: input(same) });
  assert.notDeepEqual(evidence(), evidenceBefore, 'evidence was rewritten');
  assert.deepEqual(ws.reviewChangesSince(seen).responseIds, [], 'no response named');
  assert.deepEqual(ws.listResponses('e3'), listed, 'as every reader of the log sees it, nothing changed');
  seen = ws.lastReviewChange();

  const moved = examOf(['Eq(x, 1)', 'Eq(x + 1, 2)', 'Eq(x, 5)']);
  await grade({ workspace: ws, exam: moved, engine: new FakeEngine(), input: input(moved) });
  assert.deepEqual(ws.reviewChangesSince(seen).responseIds, [id('S3')], "S3's mark moved: it alone is named");
  ws.close();
});
