// The application service (electron/app/service.ts) through the same validated entry point the
// IPC handler and the HTTP server use (`dispatch`): a changed scheme re-marks at once and every
// re-marked response is audited; an override needs a comment; a group correction is audited per
// member. Runs on the development set (../shared/data).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AppService, gpuWatts } from '../../electron/app/service.ts';
import { gpuPower } from '../../electron/engine/read/ollama/accounting.ts';
import { dispatch } from '../../shared/api.ts';
import type { Exam } from '../../shared/exam.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DATA = resolve(REPO, '../shared/data');
const skip = existsSync(join(DATA, 'exam.json')) ? false : `development data not found at ${DATA}`;

describe('app service', { skip }, () => {
  let dir: string;
  let service: AppService;
  let examId: string;
  const { call, settle } = serviceApi(() => service);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-service-'));
    service = openService(join(dir, 'w.sqlite'));
    const ex = await call('exam.import', { json: readFileSync(join(DATA, 'exam.json'), 'utf8') });
    assert.ok(ex.ok);
    examId = ex.examId;
    await call('responses.import', { examId, csv: readFileSync(join(DATA, 'responses.csv'), 'utf8'), fileName: 'responses.csv' });
    const eq = await call('equations.import', { examId, csv: readFileSync(join(DATA, 'gold.csv'), 'utf8') });
    assert.equal(eq.imported, 85);
    await call('grade.start', { examId, technique: 'embedded', models: [] });
    const p = await settle();
    assert.equal(p.state, 'done', String(p.message));
    assert.equal(p.done, 85);
  });
  after(async () => {
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('re-marks at once when the scheme changes, and audits every re-marked response', async () => {
    const before = await call('review.list', { examId });
    const q1Before = before.rows.filter((r) => r.questionId === 'q1');
    const marksAudits = () => service.ws.auditLog({ action: 'marks.save' }).length;
    const audited = marksAudits();
    const exam = (await call('exam.get', { examId })) as Exam;
    // Item q1.a is worth 2 marks now.
    const changed: Exam = {
      ...exam,
      questions: exam.questions.map((q) => (q.id !== 'q1' ? q : { ...q, scheme: q.scheme.map((s) => (s.id === 'a' ? { ...s, marks: 2 } : s)) })),
    };
    const saved = await call('exam.save', { exam: changed });
    assert.ok(saved.ok);
    assert.ok(saved.remarking > 0, 'responses are being re-marked');
    const p = await settle();
    assert.equal(p.state, 'done', p.message ?? '');
    assert.equal(p.done, 85);
    const after = await call('review.list', { examId });
    const q1After = after.rows.filter((r) => r.questionId === 'q1');
    assert.ok(
      q1After.every((r) => r.available === q1Before[0].available + 1),
      'q1 is out of one more mark',
    );
    const byId = new Map(q1Before.map((r) => [r.responseId, r]));
    let doubled = 0;
    for (const r of q1After) {
      const was = byId.get(r.responseId)!;
      assert.equal(r.marks.a, was.marks.a === null ? null : was.marks.a * 2, `${r.studentId}: item a follows the new scheme`);
      if (was.marks.a) doubled++;
    }
    assert.ok(doubled > 0, 'some responses earned item a');
    assert.equal(marksAudits() - audited, saved.remarking, 'each re-marked response is in the audit log');
  });

  it('refuses an override without a comment, before touching anything', async () => {
    const row = (await call('review.list', { examId })).rows[0];
    const r = await dispatch(service.handlers(), 'response.override', { responseId: row.responseId, itemId: 'a', marks: 0, comment: '   ' });
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error.message : '', /comment is required/);
    assert.equal(service.ws.auditLog({ action: 'override.set' }).length, 0);
  });

  it('applies a correction to a whole group, each member audited', async () => {
    const groups = await call('groups.list', { examId, questionId: 'q3' });
    const g = groups.find((x) => x.responseIds.length >= 2 && x.equations.length > 0)!;
    assert.ok(g, 'a group of two or more');
    const from = g.equations.map((e) => e.source);
    const r = await call('groups.apply', {
      responseIds: g.responseIds,
      action: { kind: 'equations', from, equations: [...from, 'Eq(v, sqrt(2*g*h))'], comment: 'checked as a group' },
    });
    // Only the members whose own list is the one edited are corrected; the others are named.
    const skipped = new Set((r.skipped ?? []).map((x) => x.responseId));
    assert.ok(r.changed >= 1);
    assert.equal(r.changed + skipped.size, g.responseIds.length);
    for (const id of g.responseIds.filter((x) => !skipped.has(x))) {
      const d = await call('response.get', { responseId: id });
      assert.ok(d.chips.includes('corrected'));
      assert.ok(
        d.audit.some((a) => a.comment === null && a.what === 'comment') || d.audit.some((a) => (a.new ?? '').includes('checked as a group')),
        `${d.studentId}: the comment is in its history`,
      );
      assert.ok(
        d.audit.some((a) => a.what === 'equations read' && (a.new ?? '').startsWith('manual')),
        `${d.studentId}: the correction is in its history`,
      );
    }
  });
});

describe('gold lists for the accuracy figure', { skip }, () => {
  it('are kept in the workspace: the summary still has them after a restart, and a new import replaces them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'equimark-gold-'));
    const path = join(dir, 'w.sqlite');
    let s = openService(path);
    const { call } = serviceApi(() => s);
    try {
      const ex = await call('exam.import', { json: readFileSync(join(DATA, 'exam.json'), 'utf8') });
      assert.ok(ex.ok);
      const examId = ex.examId;
      await call('responses.import', { examId, csv: readFileSync(join(DATA, 'responses.csv'), 'utf8'), fileName: 'responses.csv' });
      await call('equations.import', { examId, csv: readFileSync(join(DATA, 'gold.csv'), 'utf8') });
      assert.equal((await call('summary.get', { examId })).accuracy, null, 'no gold yet');
      // Imported lists are said to be imported, not read by the extractor.
      const rows = (await call('review.list', { examId })).rows;
      assert.ok(
        rows.every((r) => r.chips.includes('imported') && !r.chips.includes('extractor')),
        'every row is an imported list',
      );
      const g = await call('gold.import', { examId, csv: readFileSync(join(DATA, 'gold.csv'), 'utf8') });
      assert.equal(g.imported, 85);
      // The responses were read from the gold lists themselves: all equivalent.
      assert.deepEqual((await call('summary.get', { examId })).accuracy, { compared: 85, equivalent: 85 });
      await s.close();
      s = openService(path);
      assert.deepEqual((await call('summary.get', { examId })).accuracy, { compared: 85, equivalent: 85 }, 'survives a restart');
      // A second import replaces the first (one list now), and both are in the audit log.
      const one = readFileSync(join(DATA, 'gold.csv'), 'utf8').split('\n').slice(0, 2).join('\n');
      assert.equal((await call('gold.import', { examId, csv: one })).imported, 1);
      assert.equal((await call('summary.get', { examId })).accuracy?.compared, 1);
      assert.equal(s.ws.auditLog({ action: 'gold.import' }).length, 2);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('settings', () => {
  it('a GPU for the energy estimate is checked against known boards or watts; blank means 250 W assumed', async () => {
    const s = openService(':memory:');
    try {
      const base = { ollamaUrl: 'http://127.0.0.1:11434', models: [], pythonPath: '' };
      const bad = await dispatch(s.handlers(), 'settings.set', { ...base, gpu: 'potato 9000' });
      assert.equal(bad.ok, false);
      assert.match(!bad.ok ? bad.error.message : '', /unknown GPU 'potato 9000'.*320W/);
      const ok = await dispatch(s.handlers(), 'settings.set', { ...base, gpu: 'RTX 4090' });
      assert.ok(ok.ok);
      assert.ok((await dispatch(s.handlers(), 'settings.set', { ...base, gpu: '320W' })).ok);
    } finally {
      await s.close();
    }
    assert.equal(gpuWatts(''), 250);
    assert.equal(gpuWatts(undefined), 250);
    assert.equal(gpuWatts('320W'), 320);
    assert.equal(gpuWatts('NVIDIA GeForce RTX 4090'), gpuPower('rtx 4090'));
  });
});
