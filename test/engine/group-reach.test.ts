// Whom a correction of a group's equations may reach (engine/review/groups.ts): only members whose
// own list is the list edited. A member grouped because its list was proved equivalent, but written
// differently, keeps its own equations (issue 13: a group edit gave two students a final answer
// they never wrote).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correctionReach, listKey } from '../../electron/engine/review/groups.ts';
import type { ResponseSummary } from '../../electron/engine/store/workspace.ts';

type Member = Pick<ResponseSummary, 'id' | 'extraction'>;
const member = (id: number, equations: string[] | null): Member => ({
  id,
  extraction: equations ? { id, status: 'read', source: 'embedded', flags: [], equations } : null,
});

test('a group correction reaches only members whose own list is the one edited (order and repeats aside)', () => {
  const edited = ['Eq(H, u**2/(2*g))', 'Eq(t, u/g)'];
  const members = [
    member(1, ['Eq(H, u**2/(2*g))', 'Eq(t, u/g)']),
    member(2, ['Eq(t, u/g)', 'Eq(H, u**2/(2*g))', 'Eq(t, u/g)']),
    member(3, ['Eq(u**2, 2*g*H)', 'Eq(t, u/g)']),
    member(4, null),
  ];
  const { reached, kept } = correctionReach(members, edited);
  assert.deepEqual(
    reached.map((m) => m.id),
    [1, 2],
  );
  assert.deepEqual(
    kept.map((m) => m.id),
    [3, 4],
  );
  assert.equal(listKey(edited), listKey([...edited].reverse()));
});
