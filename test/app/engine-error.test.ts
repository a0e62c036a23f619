// The app's grading job and one response the engine fails on: the job finishes (not `failed`),
// its message names the student and the question, the response is needs-review with flag
// 'engine-error', the others are graded, and grading again doesn't crash. And a bad settings
// file beside the workspace gives a clear message and the defaults, not a crash.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../electron/engine/decide/engine-factory.ts';
import type { Domain, Verdict } from '../../electron/engine/decide/entail/types.ts';
import { equationToSympy, type Equation } from '../../shared/equation/index.ts';
import { FakeEngine } from '../engine/fake-engine.ts';
import { openService, serviceApi } from '../support/app-service.ts';

/** A fake engine (no Z3, no SymPy) that throws whenever asked about Eq(x, 13). */
class ThrowingEngine extends FakeEngine {
  readonly sympy = null;
  sympyStatus() {
    return null;
  }
  async setSympy(): Promise<void> {}
  override async entails(p: Equation, c: Equation, d: Domain): Promise<Verdict> {
    if (equationToSympy(p) === 'Eq(x, 13)') throw new Error('solver crashed on Eq(x, 13)');
    return super.entails(p, c, d);
  }
}

const examJson = JSON.stringify({
  format: 'exam.v1',
  id: 'boom',
  questions: [{ id: 'q1', variables: [{ name: 'x' }], scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] }],
});

function open(dir: string) {
  const service = openService(join(dir, 'w.sqlite'), { createEngine: async () => new ThrowingEngine() as unknown as Engine });
  return { service, ...serviceApi(() => service, 50) };
}

describe('app: one response never fails the grading job', () => {
  it('the job finishes, names the response, and grading again does not crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'equimark-app-boom-'));
    const { service, call, settle } = open(dir);
    try {
      const ex = await call('exam.import', { json: examJson });
      assert.ok(ex.ok);
      await call('responses.import', {
        examId: 'boom',
        csv: 'student_id,question_id,response\nS1,q1,x = 1\nS2,q1,so x = 13\nS3,q1,x = 2\n',
        fileName: 'r.csv',
      });
      await call('grade.start', { examId: 'boom', technique: 'embedded', models: [] });
      const p = await settle();
      assert.equal(p.state, 'done', p.message ?? '');
      assert.equal(p.done, 3);
      assert.equal(p.failed, 1);
      assert.match(p.message ?? '', /student S2, question q1 \(marking: solver crashed on Eq\(x, 13\)\)/);
      const rows = (await call('review.list', { examId: 'boom' })).rows;
      const by = new Map(rows.map((r) => [r.studentId, r]));
      assert.equal(by.get('S1')!.marks.a, 1);
      assert.equal(by.get('S3')!.marks.a, 0);
      assert.equal(by.get('S2')!.needsReview, true);
      const d = await call('response.get', { responseId: by.get('S2')!.responseId });
      assert.ok(d.current?.flags.includes('engine-error'));
      assert.ok(d.current?.notes.some((n) => n.kind === 'engine-error' && n.text.includes('solver crashed')));
      assert.equal((await call('summary.get', { examId: 'boom' })).needsReview, 1);
      // Again: the failed response is tried again, fails again, and the job still finishes.
      await call('grade.start', { examId: 'boom', technique: 'embedded', models: [] });
      const again = await settle();
      assert.equal(again.state, 'done', again.message ?? '');
      assert.match(again.message ?? '', /student S2, question q1/);
      // A correction the engine fails on is stored as needs-review too, not an error to the user.
      const fixed = await call('response.setEquations', { responseId: by.get('S2')!.responseId, equations: ['x = 13'] });
      assert.ok(fixed.chips.includes('needs-review'));
      const ok = await call('response.setEquations', { responseId: by.get('S2')!.responseId, equations: ['x = 1'] });
      assert.ok(!ok.chips.includes('needs-review'));
      assert.equal(ok.total, 1);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('app: the settings file', () => {
  it('a file that is not JSON: the defaults, and app.info says which file and why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'equimark-settings-'));
    writeFileSync(join(dir, 'w.sqlite.settings.json'), '{ "ollamaUrl": "http://127.0.0.1:11434", ');
    const { service, call } = open(dir);
    try {
      const s = await call('settings.get', {});
      assert.equal(s.pythonPath, '');
      const info = await call('app.info', {});
      assert.equal(info.features.settings?.available, false);
      assert.match(info.features.settings?.note ?? '', /w\.sqlite\.settings\.json is not valid JSON/);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a field of the wrong kind: that field's default, the others kept, the field named; saving settings clears it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'equimark-settings-'));
    writeFileSync(join(dir, 'w.sqlite.settings.json'), JSON.stringify({ ollamaUrl: 5, models: ['m1'], pythonPath: '/usr/bin/python3', gpu: 'RTX 4090' }));
    const { service, call } = open(dir);
    try {
      const s = await call('settings.get', {});
      assert.deepEqual({ models: s.models, pythonPath: s.pythonPath, gpu: s.gpu }, { models: ['m1'], pythonPath: '/usr/bin/python3', gpu: 'RTX 4090' });
      assert.match(s.ollamaUrl, /^http/);
      const note = (await call('app.info', {})).features.settings?.note ?? '';
      assert.match(note, /ollamaUrl/);
      assert.match(note, /default is used for ollamaUrl/);
      await call('settings.set', { ...s, pythonPath: '/usr/bin/python3' });
      assert.equal((await call('app.info', {})).features.settings, undefined);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
