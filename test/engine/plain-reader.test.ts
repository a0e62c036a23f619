import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPlain } from '../../electron/engine/read/plain.ts';
import type { Question } from '../../shared/exam.ts';

const q: Question = {
  id: 'q1',
  title: '',
  prompt: '',
  variables: ['v', 'u', 'w', 'S', 't'].map((name) => ({ name, description: '', assumptions: [] })),
  scheme: [],
};

test('whole text of equations (lines or ;) is read, with spans and canonical sources', () => {
  const text = '  t = 2*S/u\nEq(v, u + w); v - u = w\n\n';
  const x = extractPlain(text, q);
  assert.equal(x.status, 'read');
  assert.equal(x.source, 'embedded');
  assert.deepEqual(
    x.equations.map((e) => e.source),
    ['Eq(t, 2*S/u)', 'Eq(v, u + w)', 'Eq(v - u, w)'],
  );
  assert.equal(text.slice(x.equations[1].span!.start, x.equations[1].span!.end), 'Eq(v, u + w)');
});

test('blank is blank; prose, unknown symbols or hostile text need review with no equations', () => {
  assert.equal(extractPlain(' \n\t', q).status, 'blank');
  for (const t of ['The time is 2S/u', 'v = u\nso v is u', 'v = x', "__import__('os').system('x')", 'v = u +']) {
    const x = extractPlain(t, q);
    assert.equal(x.status, 'needs-review', t);
    assert.deepEqual(x.equations, []);
    assert.ok(x.notes.length > 0);
  }
  assert.deepEqual(extractPlain('v = x', q).flags, ['unmapped-symbol']);
});
