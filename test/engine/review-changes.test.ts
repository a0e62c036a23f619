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
