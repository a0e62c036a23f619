// Notes carry a kind (shared/extraction.ts NOTE_KINDS): producers name it at the source; the
// store loads notes written as strings (every row so far) and as {kind, text}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOTE_KINDS, note, toNote, type Extraction } from '../../shared/extraction.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { finishExtraction } from '../../electron/engine/read/model/strategies.ts';
import { FALL } from './helpers.ts';

test('toNote: a string is an other-note; {kind, text} stays; anything else keeps its text', () => {
  assert.deepEqual(toNote('possibly invented, held back until accepted: x'), { kind: 'other', text: 'possibly invented, held back until accepted: x' });
  assert.deepEqual(toNote({ kind: 'held-back', text: 'x' }), { kind: 'held-back', text: 'x' });
  assert.deepEqual(toNote({ kind: 'no-such-kind', text: 'y' }), { kind: 'other', text: 'y' });
  assert.equal(toNote(42).kind, 'other');
  assert.ok(NOTE_KINDS.includes('engine-error') && NOTE_KINDS.includes('other'));
  assert.deepEqual(note('retraction', 'scratch that'), { kind: 'retraction', text: 'scratch that' });
});

test('the store loads notes stored as strings and as {kind, text}', () => {
  const ws = new Workspace(':memory:');
  try {
    const exam = validateExam({ format: 'exam.v1', id: 'fall-exam', title: 'Fall', questions: [FALL] });
    ws.importExam(exam.exam);
    ws.importResponses('fall-exam', [
      { studentId: 's1', questionId: 'fall', text: 'v = 1' },
      { studentId: 's2', questionId: 'fall', text: 'v = 2' },
    ]);
    const [a, b] = ws.listResponses('fall-exam');
    const base: Extraction = { equations: [{ source: 'Eq(v, 1)' }], status: 'read', source: 'embedded', flags: [], unread: [], notes: [] };
    // A row written before notes had kinds held plain strings.
    ws.saveExtraction(a.id, { ...base, notes: ['an old note'] as unknown as Extraction['notes'] }, 'embedded');
    ws.saveExtraction(b.id, { ...base, notes: [{ kind: 'held-back', text: 'a new note' }] }, 'embedded');
    assert.deepEqual(ws.getExtraction(a.id)!.notes, [{ kind: 'other', text: 'an old note' }]);
    assert.deepEqual(ws.getExtraction(b.id)!.notes, [{ kind: 'held-back', text: 'a new note' }]);
  } finally {
    ws.close();
  }
});

test("the model pipeline's guards each leave a note (held back, attachment, unread)", async () => {
  const text = 'see the attached photo; v = 3';
  const { extraction } = await finishExtraction(
    FALL,
    text,
    { equations: [{ source: 'Eq(v, sqrt(2*g*h))' }], problems: [{ source: 'v^^2', errors: 'bad' }] },
    'model:m',
  );
  // (and the embedded extractor's 'v = 3', which the model left out, is a disagreement)
  assert.deepEqual(extraction.flags.sort(), ['attachment', 'invented', 'models-disagree', 'parse-error']);
  assert.deepEqual(extraction.notes.map((n) => n.kind).sort(), ['attachment', 'disagreement', 'held-back', 'unread']);
});
