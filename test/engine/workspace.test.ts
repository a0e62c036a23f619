import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Workspace, StaleError, SCHEMA_VERSION } from '../../electron/engine/store/workspace.ts';
import { migrate, MIGRATIONS } from '../../electron/engine/store/migrations.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { parseResponsesCsv } from '../../electron/engine/io/csv/responses.ts';
import { markEquations } from '../../electron/engine/decide/marking.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { FakeEngine } from './fake-engine.ts';

const examData = {
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
    { id: 'q2', variables: [{ name: 'x' }], scheme: [{ id: 'b', marks: 1, match: 'implied', accept: ['Eq(x, 1)'] }] },
  ],
};
const exam = validateExam(examData);
const read = (...s: string[]): Extraction => ({
  equations: s.map((source) => ({ source })),
  status: 'read',
  source: 'embedded',
  flags: [],
  unread: [],
  notes: [],
});

function tmp(): { path: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-ws-'));
  return { path: join(dir, 'w.sqlite'), done: () => rmSync(dir, { recursive: true, force: true }) };
}

function dump(ws: Workspace): string {
  const tables = ['exams', 'questions', 'responses', 'extractions', 'mark_results', 'marks', 'overrides', 'comments', 'audit'] as const;
  return JSON.stringify(tables.map((t) => ws.tableRows(t)));
}

test('migrations: WAL, foreign keys, user_version; reopening is a no-op; a newer file is refused', () => {
  const t = tmp();
  try {
    const ws = new Workspace(t.path);
    assert.equal(ws.schemaVersion(), SCHEMA_VERSION);
    assert.deepEqual(ws.storageSettings(), { journalMode: 'wal', foreignKeys: true });
    ws.importExam(exam.exam);
    ws.close();
    const again = new Workspace(t.path);
    assert.equal(again.listExams().length, 1, 'data survives reopening');
    again.close();
    // A later migration applies on open, in order, once.
    const db = new Database(t.path);
    const more = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, description: 'test', up: 'CREATE TABLE extra (x INTEGER);' }];
    assert.deepEqual(migrate(db, more), { from: SCHEMA_VERSION, to: SCHEMA_VERSION + 1 });
    assert.deepEqual(migrate(db, more), { from: SCHEMA_VERSION + 1, to: SCHEMA_VERSION + 1 });
    db.close();
    assert.throws(() => new Workspace(t.path), /newer than this Equimark understands/);
  } finally {
    t.done();
  }
});

test('imports are idempotent; changed text drops the old extraction; every change is audited with old and new', async () => {
  const ws = new Workspace(':memory:');
  assert.deepEqual(ws.importExam(exam.exam), { examId: 'e1', created: true, changed: false });
  assert.deepEqual(ws.importExam(exam.exam), { examId: 'e1', created: false, changed: false });
  const rows = parseResponsesCsv('student_id,question_id,response\nS1,q1,v = 2*u\nS2,q1,v = u\n', ['q1', 'q2']);
  assert.deepEqual(ws.importResponses('e1', rows), { inserted: 2, updated: 0, unchanged: 0, kept: 0, setAside: 0 });
  assert.deepEqual(ws.importResponses('e1', rows), { inserted: 0, updated: 0, unchanged: 2, kept: 0, setAside: 0 });
  const id = ws.findResponse('e1', 'S1', 'q1')!;
  const xid = ws.saveExtraction(id, read('Eq(v, 2*u)'), 'plain');
  const marks = await markEquations(new FakeEngine(), exam.questions.get('q1')!, [parseEquationOrThrow('Eq(v, 2*u)')]);
  ws.saveMarks(id, xid, marks);
  assert.deepEqual(ws.listResponses('e1')[0].effective, { a: 2, m: null });
  assert.deepEqual(ws.importResponses('e1', [{ studentId: 'S1', questionId: 'q1', text: 'v = 3*u' }]), {
    inserted: 0,
    updated: 1,
    unchanged: 0,
    kept: 0,
    setAside: 0,
  });
  assert.equal(ws.getExtraction(id), null, 'changed text: extraction (and its marks) dropped');
  assert.equal(ws.getMarks(id), null);
  assert.deepEqual(
    ws.pending('e1', 'extract').map((r) => r.studentId),
    ['S1', 'S2'],
  );
  const log = ws.auditLog({ keyPrefix: 'e1/S1/q1' });
  assert.deepEqual(
    log.map((e) => e.action),
    ['response.import', 'extraction.save', 'marks.save', 'response.update'],
  );
  assert.deepEqual([log[3].old, log[3].new], [{ text: 'v = 2*u' }, { text: 'v = 3*u' }]);
  assert.ok(log.every((e) => !Number.isNaN(Date.parse(e.at))));
  ws.close();
});

test('a re-import plans first; a correction or override made on the old text is set aside, never applied to the new text', async () => {
  const ws = new Workspace(':memory:');
  ws.importExam(exam.exam);
  ws.importResponses('e1', [{ studentId: 'S1', questionId: 'q1', text: 'v = 2*u' }]);
  const id = ws.findResponse('e1', 'S1', 'q1')!;
  const xid = ws.saveExtraction(id, { ...read('Eq(v, 2*u)'), source: 'manual' }, 'manual');
  ws.saveMarks(id, xid, await markEquations(new FakeEngine(), exam.questions.get('q1')!, [parseEquationOrThrow('Eq(v, 2*u)')]));
  ws.setOverride(id, 'm', 1, 'explained');
  const next = [{ studentId: 'S1', questionId: 'q1', text: 'v = 3*u' }];
  assert.deepEqual(ws.planImport('e1', next), {
    inserted: 0,
    unchanged: 0,
    changed: [{ studentId: 'S1', questionId: 'q1', oldText: 'v = 2*u', newText: 'v = 3*u', corrected: true, overrides: 1 }],
  });
  assert.deepEqual(ws.importResponses('e1', next, { changed: 'keep' }), { inserted: 0, updated: 0, unchanged: 0, kept: 1, setAside: 0 });
  assert.equal(ws.getResponseDetail(id)?.text, 'v = 2*u');
  assert.deepEqual(ws.importResponses('e1', next), { inserted: 0, updated: 1, unchanged: 0, kept: 0, setAside: 2 });
  const r = ws.listResponses('e1')[0];
  assert.deepEqual(r.effective, {}, 'no override applies to the new text');
  assert.equal(r.extraction, null, 'nor the correction');
  assert.equal(r.earlier, 2);
  const changes = ws.earlierChanges(id).map((c) => [c.kind, c.itemId, c.equations, c.awarded, c.comment, c.earlierText]);
  assert.deepEqual(changes, [
    ['correction', null, ['Eq(v, 2*u)'], null, null, 'v = 2*u'],
    ['override', 'm', null, 1, 'explained', 'v = 2*u'],
  ]);
  ws.closeEarlierChange(ws.earlierChanges(id)[0].id, 'dropped', 'new text');
  assert.equal(ws.listResponses('e1')[0].earlier, 1);
  assert.deepEqual(
    ws
      .auditLog({ keyPrefix: 'e1/S1/q1' })
      .filter((a) => a.action.startsWith('earlier.'))
      .map((a) => a.action),
    ['earlier.set-aside', 'earlier.set-aside', 'earlier.drop'],
  );
  ws.close();
});

test('a failed import changes nothing stored', () => {
  const ws = new Workspace(':memory:');
  ws.importExam(exam.exam);
  ws.importResponses('e1', [{ studentId: 'S1', questionId: 'q1', text: 'a' }]);
  const before = dump(ws);
  // A question that isn't in the exam fails the foreign key half-way through the batch.
  assert.throws(
    () =>
      ws.importResponses('e1', [
        { studentId: 'S2', questionId: 'q1', text: 'b' },
        { studentId: 'S1', questionId: 'q1', text: 'changed' },
        { studentId: 'S3', questionId: 'nope', text: 'c' },
      ]),
    /FOREIGN KEY/,
  );
  assert.equal(dump(ws), before);
  assert.throws(() => ws.importResponses('other', [{ studentId: 'S2', questionId: 'q1', text: 'b' }]), /no exam 'other'/);
  // An exam change that would orphan responses is refused as a whole.
  const shrunk = { ...examData, title: 'changed', questions: [examData.questions[1]] };
  assert.throws(() => ws.importExam(validateExam(shrunk).exam), /question 'q1' has 1 responses/);
  assert.equal(dump(ws), before);
  ws.close();
});

test('marks of a superseded extraction are refused (StaleError); overriding an automatic mark needs a comment; all audited', async () => {
  const ws = new Workspace(':memory:');
  ws.importExam(exam.exam);
  ws.importResponses('e1', [{ studentId: 'S1', questionId: 'q1', text: 'v = 2*u' }]);
  const id = ws.findResponse('e1', 'S1', 'q1')!;
  const x1 = ws.saveExtraction(id, read('Eq(v, 2*u)'), 'plain');
  const x2 = ws.saveExtraction(id, read('Eq(v, u)'), 'manual-fix');
  const marks = await markEquations(new FakeEngine(), exam.questions.get('q1')!, [parseEquationOrThrow('Eq(v, u)')]);
  assert.throws(() => ws.saveMarks(id, x1, marks), StaleError);
  ws.saveMarks(id, x2, marks);
  // The rule for reasons lives here, below every face: required to override an automatic item...
  assert.throws(() => ws.setOverride(id, 'a', 1, '  '), /needs a comment/);
  assert.throws(() => ws.setOverride(id, 'a', 1), /needs a comment/);
  assert.throws(() => ws.clearOverride(id, 'a'), /needs a comment/);
  assert.equal(ws.auditLog({ action: 'override.set' }).length, 0);
  // ...optional for a manual item, which is the instructor's to mark (stored as marked by hand).
  ws.setOverride(id, 'm', 0);
  assert.equal(ws.getResponseDetail(id)!.overridesList[0].comment, 'marked by hand');
  assert.deepEqual(ws.getResponseDetail(id)!.overriddenItems, ['m']);
  assert.throws(() => ws.setOverride(id, 'm', 5, 'too much'), /worth 1/);
  assert.throws(() => ws.setOverride(id, 'zz', 1, 'x'), /no scheme item 'zz'/);
  ws.setOverride(id, 'm', 1, 'limits explained well');
  ws.setOverride(id, 'a', 2, 'v = u is right for this variant');
  ws.addComment(id, 'see margin note');
  const d = ws.getResponseDetail(id)!;
  assert.deepEqual(d.effective, { a: 2, m: 1 });
  assert.equal(d.items.find((i) => i.itemId === 'a')!.awarded, 0, 'the automatic mark stays alongside the override');
  assert.equal(d.items.find((i) => i.itemId === 'a')!.override?.comment, 'v = u is right for this variant');
  assert.equal(d.comments[0].body, 'see margin note');
  assert.equal(d.text, 'v = 2*u');
  ws.clearOverride(id, 'a', 'changed my mind');
  assert.deepEqual(ws.getResponseDetail(id)!.effective, { a: 0, m: 1 });
  const actions = ws.auditLog().map((e) => e.action);
  assert.deepEqual(actions.slice(-5), ['override.set', 'override.set', 'override.set', 'comment.add', 'override.clear']);
  const clear = ws.auditLog({ action: 'override.clear' })[0];
  assert.deepEqual(clear.old, { awarded: 2, comment: 'v = u is right for this variant' });
  ws.close();
});

test('migrations 2 to 11: a version-1 workspace gains model_records, gold_lists, extractions.alternatives, earlier_changes, regrade_requests, decided, review_changes (its update triggers narrowed by 11), its random id and canonical_keys, keeping its data', () => {
  const t = tmp();
  try {
    const db = new Database(t.path);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version === 1),
    );
    db.prepare("INSERT INTO exams (id, title, json, imported_at) VALUES ('old', 'Old', '{}', 'then')").run();
    db.close();
    const ws = new Workspace(t.path);
    assert.equal(ws.schemaVersion(), SCHEMA_VERSION);
    assert.equal(SCHEMA_VERSION, 11);
    assert.deepEqual(
      ws.tableRows('exams').map((r) => r.title),
      ['Old'],
    );
    const cols = ws.tableColumns('model_records');
    assert.deepEqual(cols, ['response_id', 'extraction_id', 'technique', 'models', 'waiting', 'record', 'created_at']);
    const goldCols = ws.tableColumns('gold_lists');
    assert.deepEqual(goldCols, ['exam_id', 'student_id', 'question_id', 'equations']);
    assert.ok(ws.tableColumns('extractions').includes('alternatives'));
    assert.deepEqual(ws.tableColumns('decided'), ['key', 'verdict']);
    assert.deepEqual(ws.tableColumns('review_changes'), ['response_id', 'seq']);
    assert.deepEqual(ws.tableColumns('canonical_keys'), ['space', 'source', 'key']);
    assert.match(ws.workspaceId(), /^[0-9a-f]{32}$/);
    ws.close();
    assert.notEqual(new Workspace(':memory:').workspaceId(), new Workspace(':memory:').workspaceId(), 'each workspace its own id');
  } finally {
    t.done();
  }
});

test('model records are stored with the extraction; waiting extractions are pending for extraction again', () => {
  const ws = new Workspace(':memory:');
  ws.importExam(exam.exam);
  ws.importResponses('e1', [
    { studentId: 's1', questionId: 'q1', text: 'v = 2u' },
    { studentId: 's2', questionId: 'q1', text: 'v is twice u, as shown' },
  ]);
  const [a, b] = ws.responseIds('e1');
  const record = {
    id: String(a),
    questionId: 'q1',
    technique: 'hybrid' as const,
    models: [{ name: 'm:7b', digest: 'abc' }],
    calls: [],
    readings: [{ reader: 'model:m:7b', equations: ['Eq(v, 2*u)'] }],
    ungrounded: [],
    waiting: false,
    wallMs: 12,
  };
  const xa = ws.saveExtraction(a, { ...read('Eq(v, 2*u)'), source: 'model:m:7b' }, 'hybrid:m:7b', record);
  const waiting: Extraction = {
    equations: [],
    status: 'abstained',
    source: 'embedded',
    flags: ['waiting-for-model'],
    unread: [],
    notes: [{ kind: 'waiting', text: 'waiting for the model: cannot reach Ollama' }],
  };
  ws.saveExtraction(b, waiting, 'hybrid:m:7b', { ...record, id: String(b), waiting: true, readings: [] });
  const got = ws.getModelRecord(a)!;
  assert.equal(got.extractionId, xa);
  assert.equal(got.current, true);
  assert.deepEqual(got.models, [{ name: 'm:7b', digest: 'abc' }]);
  assert.equal(got.record.wallMs, 12);
  assert.equal(ws.getModelRecord(b)!.waiting, true);
  // The waiting response is pending for extraction (a re-run reads it again), unless asked to keep waiting ones.
  assert.deepEqual(
    ws.pending('e1', 'extract').map((r) => r.id),
    [b],
  );
  assert.deepEqual(ws.pending('e1', 'extract', { waiting: false }), []);
  assert.deepEqual(
    ws.waiting('e1').map((w) => w.studentId),
    ['s2'],
  );
  // A correction by hand replaces the extraction; the model's record stays, no longer current.
  ws.saveExtraction(a, { ...read('Eq(v, 2*u)'), source: 'manual' }, 'manual');
  const after = ws.getModelRecord(a)!;
  assert.equal(after.extractionId, null);
  assert.equal(after.current, false);
  assert.equal(after.record.readings[0].reader, 'model:m:7b');
  // Reading it again with a model replaces the record, in the same transaction as the extraction.
  ws.saveExtraction(b, read('Eq(v, 2*u)'), 'hybrid:m:7b', { ...record, id: String(b) });
  assert.equal(ws.getModelRecord(b)!.waiting, false);
  assert.deepEqual(ws.waiting('e1'), []);
  assert.deepEqual(ws.pending('e1', 'extract'), []);
  const audit = ws.auditLog({ action: 'extraction.save' }).at(-1)!;
  assert.deepEqual((audit.new as { models: string[] }).models, ['m:7b@abc']);
  ws.close();
});
