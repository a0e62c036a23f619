// Manual items are the instructor's to mark: which are still open, and whether a mark by hand
// replaced the engine's (an override, which needs a reason) or only filled a manual item.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openManualItems, overridesAutomatic } from '../../electron/engine/review/state.ts';
import type { Question } from '../../shared/exam.ts';

const scheme = [
  { id: 'a', description: '', marks: 1, match: 'implied', accept: ['Eq(v, u)'] },
  { id: 'f', description: '', marks: 2, manual: true },
] as unknown as Question['scheme'];
const marks = { total: 1, available: 3, status: 'complete' as const, inconsistent: [] };

test('open manual items: those without a mark, and none before the response is marked', () => {
  assert.deepEqual(openManualItems({ marks, effective: { a: 1, f: null } }, scheme), ['f']);
  assert.deepEqual(openManualItems({ marks, effective: { a: 1 } }, scheme), ['f']);
  assert.deepEqual(openManualItems({ marks, effective: { a: 1, f: 0 } }, scheme), []);
  assert.deepEqual(openManualItems({ marks: null, effective: {} }, scheme), []);
});

test('a manual item marked by hand is not an override of an automatic mark', () => {
  assert.equal(overridesAutomatic({ overrides: 1, overriddenItems: ['f'] }, scheme), false);
  assert.equal(overridesAutomatic({ overrides: 2, overriddenItems: ['f', 'a'] }, scheme), true);
  assert.equal(overridesAutomatic({ overrides: 1 }, scheme), true, 'without the item list, any override counts');
});
