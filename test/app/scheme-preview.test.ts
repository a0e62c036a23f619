// The app's scheme-change preview (scheme.preview, polled with scheme.previewStatus): the counts
// and changes of the engine's preview through the API, nothing stored until exam.save applies
// it; an invalid edit answers with its issues; discard forgets it; after the change is applied,
// overrides.cases lists the override the automatic mark now disagrees with. A table-driven
// engine decides (no Z3, no SymPy): identical equations entail each other, nothing else does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../electron/engine/decide/engine-factory.ts';
import type { Exam } from '../../shared/exam.ts';
import { FakeEngine } from '../engine/fake-engine.ts';
import { openService, serviceApi } from '../support/app-service.ts';

class QuietEngine extends FakeEngine {
  readonly sympy = null;
  sympyStatus() {
    return null;
  }
  async setSympy(): Promise<void> {}
}

const exam = {
  format: 'exam.v1',
  id: 'pv',
  title: 'Preview',
  questions: [
    {
      id: 'q1',
      variables: [{ name: 'x' }],
      scheme: [
        { id: 'a', marks: 2, match: 'implied', accept: ['Eq(x, 1)'] },
        { id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 5)'] },
      ],
    },
  ],
};

describe('app: a scheme change previewed, then applied or discarded', () => {
  it('previews, stores nothing, applies through exam.save, and lists the override that now disagrees', async () => {
    const service = openService(':memory:', { createEngine: async () => new QuietEngine() as unknown as Engine });
    const { call, settle } = serviceApi(() => service, 20);
    try {
      assert.ok((await call('exam.import', { json: JSON.stringify(exam) })).ok);
      await call('responses.import', { examId: 'pv', csv: 'student_id,question_id,response\nS1,q1,x = 1\nS2,q1,x = 2\nS3,q1,x = 2\n', fileName: 'r.csv' });
      await call('grade.start', { examId: 'pv', technique: 'embedded', models: [] });
      assert.equal((await settle()).state, 'done');
      const rows = async () => (await call('review.list', { examId: 'pv' })).rows.map((r) => [r.studentId, r.marks.a, r.total]);
      const s1 = (await call('review.list', { examId: 'pv' })).rows.find((r) => r.studentId === 'S1')!.responseId;
      await call('response.override', { responseId: s1, itemId: 'a', marks: 2, comment: 'x = 1 checked by hand' });
      const marked = await rows();
      assert.deepEqual(marked, [
        ['S1', 2, 2],
        ['S2', 0, 0],
        ['S3', 0, 0],
      ]);

      // An invalid edit: its issues, nothing run.
      const bad = structuredClone(exam) as unknown as Exam;
      bad.questions[0].scheme[0].accept = ['Eq(y, 2)'];
      const invalid = await call('scheme.preview', { exam: bad });
      assert.equal(invalid.state, 'invalid');
      assert.match(invalid.issues?.[0]?.path ?? '', /questions\[0\]\.scheme\[0\]\.accept\[0\]/);

      // Item a now accepts x = 2 instead of x = 1.
      const edited = structuredClone(exam) as unknown as Exam;
      edited.questions[0].scheme[0].accept = ['Eq(x, 2)'];
      let st = await call('scheme.preview', { exam: edited });
      for (let i = 0; i < 500 && st.state === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        st = await call('scheme.previewStatus', {});
      }
      assert.equal(st.state, 'done', st.message ?? '');
      assert.equal(st.total, 3);
      const p = st.result!;
      assert.deepEqual(
        p.items.map((i) => [i.itemId, i.gained, i.lost, i.unchanged]),
        [
          ['a', 2, 1, 0],
          ['b', 0, 0, 3],
        ],
      );
      assert.deepEqual(
        p.changes.map((c) => [c.studentId, c.before, c.after, c.override]),
        [
          ['S1', 2, 0, 2],
          ['S2', 0, 2, null],
          ['S3', 0, 2, null],
        ],
      );
      assert.deepEqual(
        p.students.map((s) => [s.studentId, s.before, s.after]),
        [
          ['S2', 0, 2],
          ['S3', 0, 2],
        ],
        "S1's override stays in force",
      );
      assert.equal(p.overrides.newlyDisagree, 1);
      assert.deepEqual(await rows(), marked, 'a preview stores nothing');
      assert.equal((await call('overrides.cases', { examId: 'pv' })).disagreeing.length, 0);

      // Discard forgets the preview; the stored exam is unchanged.
      assert.equal((await call('scheme.previewDiscard', {})).state, 'idle');
      assert.equal((await call('scheme.previewStatus', {})).state, 'idle');
      assert.deepEqual((await call('exam.get', { examId: 'pv' })).questions[0].scheme[0].accept, ['Eq(x, 1)']);

      // Importing the edited exam as a file stores nothing: it comes back staged for the preview.
      const imported = await call('exam.import', { json: JSON.stringify(edited) });
      assert.ok(imported.ok && imported.staged, 'a changed version of a marked exam is staged');
      assert.deepEqual(imported.staged.questions[0].scheme[0].accept, ['Eq(x, 2)']);
      assert.deepEqual((await call('exam.get', { examId: 'pv' })).questions[0].scheme[0].accept, ['Eq(x, 1)']);
      assert.deepEqual(await rows(), marked, 'an import of a changed marked exam changes no mark');
      const same = await call('exam.import', { json: JSON.stringify(exam) });
      assert.ok(same.ok && !same.staged, 'the same exam again is not staged');
      assert.deepEqual(await rows(), marked);

      // Apply: exam.save re-marks; the marks are those previewed and the override is listed.
      await new Promise((r) => setTimeout(r, 5));
      const saved = await call('exam.save', { exam: edited });
      assert.ok(saved.ok);
      assert.equal((await settle()).state, 'done');
      assert.deepEqual(await rows(), [
        ['S1', 2, 2],
        ['S2', 2, 2],
        ['S3', 2, 2],
      ]);
      const cases = await call('overrides.cases', { examId: 'pv' });
      assert.deepEqual(
        cases.disagreeing.map((c) => [c.studentId, c.itemId, c.automatic, c.override, c.comment, c.schemeChangedSince]),
        [['S1', 'a', 0, 2, 'x = 1 checked by hand', true]],
      );
    } finally {
      await service.close();
    }
  });
});
