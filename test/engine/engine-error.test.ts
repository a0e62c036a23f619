// One response never stops a batch: an engine that throws on one equation, and a reader that
// throws on one text, leave those responses needs-review with flag 'engine-error' and the reason
// in their notes; every other response is marked; the summary names them (engineErrors); a
// re-run does not crash (and reads the failed reading again).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { grade, markResponse } from '../../electron/engine/grade.ts';
import { embeddedExtractor, type Technique } from '../../electron/engine/read/registry.ts';
import { reviewOfResponse } from '../../electron/engine/review/state.ts';
import { equationToSympy, parseEquationOrThrow, type Equation } from '../../shared/equation/index.ts';
import type { Domain, Verdict } from '../../electron/engine/decide/entail/types.ts';
import { FakeEngine } from './fake-engine.ts';

const examData = {
  format: 'exam.v1',
  id: 'boom',
  questions: [
    {
      id: 'q1',
      variables: [{ name: 'x' }],
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] },
        { id: 'm', marks: 1, manual: true },
      ],
    },
  ],
};
const exam = validateExam(examData);

/** Throws whenever asked about Eq(x, 13). */
class ThrowingEngine extends FakeEngine {
  override async entails(p: Equation, c: Equation, d: Domain): Promise<Verdict> {
    if (equationToSympy(p) === 'Eq(x, 13)') throw new Error('solver crashed on Eq(x, 13)');
    return super.entails(p, c, d);
  }
}

/** The embedded extractor, except that it throws on a text containing BOOM. */
const technique: Technique = {
  name: 'embedded',
  extractor: {
    name: 'embedded',
    extract: (text, q) => {
      if (text.includes('BOOM')) throw new Error('reader fell over');
      return embeddedExtractor.extract(text, q);
    },
  },
};

test("an exception on one response is that response's state; the batch finishes and names it", async () => {
  const ws = new Workspace(':memory:');
  const engine = new ThrowingEngine();
  const rows = [
    { line: 2, studentId: 'S1', questionId: 'q1', text: 'x = 1' },
    { line: 3, studentId: 'S2', questionId: 'q1', text: 'so x = 13' },
    { line: 4, studentId: 'S3', questionId: 'q1', text: 'BOOM x = 1' },
    { line: 5, studentId: 'S4', questionId: 'q1', text: 'x = 2' },
  ];
  const s = await grade({ workspace: ws, exam, engine, technique, input: { kind: 'responses', rows } });
  assert.equal(s.responses, 4);
  assert.equal(s.markedNow, 4, 'every response ends marked');
  assert.deepEqual(
    s.engineErrors.map((e) => [e.studentId, e.questionId]),
    [
      ['S3', 'q1'],
      ['S2', 'q1'],
    ],
  );
  assert.match(s.engineErrors[0].message, /reading: reader fell over/);
  assert.match(s.engineErrors[1].message, /marking: solver crashed on Eq\(x, 13\)/);
  const byStudent = new Map(ws.listResponses('boom').map((r) => [r.studentId, r]));
  // The others are marked as usual.
  assert.equal(byStudent.get('S1')!.effective.a, 1);
  assert.equal(byStudent.get('S4')!.effective.a, 0);
  assert.equal(reviewOfResponse(byStudent.get('S1')!, exam.exam).state, 'manual-open');
  for (const sid of ['S2', 'S3']) {
    const r = byStudent.get(sid)!;
    assert.equal(r.extraction?.status, 'needs-review', sid);
    assert.ok(r.extraction?.flags.includes('engine-error'), sid);
    const v = reviewOfResponse(r, exam.exam);
    assert.equal(v.state, 'needs-review', sid);
    assert.ok(v.reasons.includes('engine-error'), sid);
  }
  // The reason is in the notes; a failed marking keeps what was read.
  const s2 = ws.getResponseDetail(byStudent.get('S2')!.id)!;
  assert.deepEqual(
    s2.extractionDetail!.equations.map((e) => e.source),
    ['Eq(x, 13)'],
  );
  assert.ok(s2.extractionDetail!.notes.some((n) => n.kind === 'engine-error' && /engine error while marking: solver crashed/.test(n.text)));
  assert.equal(s2.items.find((i) => i.itemId === 'a')!.outcome, 'undecided');
  assert.ok(
    ws
      .getResponseDetail(byStudent.get('S3')!.id)!
      .extractionDetail!.notes.some((n) => n.kind === 'engine-error' && /engine error while reading \(embedded\): reader fell over/.test(n.text)),
  );

  // A re-run doesn't crash: the failed readings are read again (and fail again), nothing else is redone.
  const again = await grade({ workspace: ws, exam, engine, technique, input: { kind: 'none' } });
  assert.deepEqual(again.engineErrors.map((e) => e.studentId).sort(), ['S2', 'S3']);
  assert.equal(again.extractedNow, 2);
  assert.equal(ws.listResponses('boom').find((r) => r.studentId === 'S1')!.effective.a, 1);

  // Once the engine works, a re-run grades them.
  const fixed = await grade({
    workspace: ws,
    exam,
    engine: new FakeEngine(),
    technique: { ...technique, extractor: embeddedExtractor },
    input: { kind: 'none' },
  });
  assert.deepEqual(fixed.engineErrors, []);
  const after = ws.listResponses('boom');
  assert.ok(after.every((r) => !r.extraction?.flags.includes('engine-error')));
  assert.equal(after.find((r) => r.studentId === 'S3')!.effective.a, 1);
  ws.close();
});

test('given lists: a list the engine fails on is needs-review, not a crash; the rest are marked', async () => {
  const ws = new Workspace(':memory:');
  const given = (studentId: string, sources: string[]) => ({
    line: 2,
    studentId,
    questionId: 'q1',
    equations: sources.map((s) => parseEquationOrThrow(s)),
    sources,
    extra: {},
  });
  const s = await grade({
    workspace: ws,
    exam,
    engine: new ThrowingEngine(),
    input: { kind: 'given', rows: [given('G1', ['Eq(x, 1)']), given('G2', ['Eq(x, 13)']), given('G3', [])] },
  });
  assert.deepEqual(
    s.engineErrors.map((e) => e.studentId),
    ['G2'],
  );
  const rows = ws.listResponses('boom');
  assert.equal(rows.filter((r) => r.marks).length, 3);
  const g2 = rows.find((r) => r.studentId === 'G2')!;
  assert.equal(g2.extraction?.source, 'given', 'the given list is kept');
  assert.equal(reviewOfResponse(g2, exam.exam).state, 'needs-review');
  // A given list is not read again: a re-run leaves it as it is, and doesn't crash.
  const again = await grade({ workspace: ws, exam, engine: new ThrowingEngine(), input: { kind: 'none' } });
  assert.deepEqual(again.engineErrors, []);
  // Marking it again on its own (the instructor's correction path) with a working engine clears nothing by itself,
  // but marking a fresh list works through the same function.
  const id = g2.id;
  const res = await markResponse(ws, new ThrowingEngine(), exam.questions.get('q1'), { id, studentId: 'G2', questionId: 'q1' });
  assert.match(res.error?.message ?? '', /solver crashed/);
  assert.equal(
    ws.getResponseDetail(id)!.extractionDetail!.notes.filter((n) => n.text.startsWith('engine error while marking')).length,
    1,
    'the reason is not repeated',
  );
  ws.close();
});
