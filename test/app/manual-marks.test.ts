// Marking by hand through the app service (the same validated entry point the IPC handler and the
// HTTP server use): a manual item takes a mark without a reason, an automatic one only with a
// reason (the engine's rule, not only the UI's); the review list says which manual items are open;
// a manual mark or a comment for a whole answer group is previewed, then applied with each member
// audited. Runs on the bundled demo exam.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppService } from '../../electron/app/service.ts';
import { dispatch } from '../../shared/api.ts';
import { openService, serviceApi } from '../support/app-service.ts';

describe('marks by hand', () => {
  let dir: string;
  let service: AppService;
  let examId: string;
  const { call, settle } = serviceApi(() => service);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-manual-'));
    service = openService(join(dir, 'w.sqlite'));
    examId = (await call('exam.loadDemo', {})).examId;
    await call('grade.start', { examId, technique: 'embedded', models: [] });
    assert.equal((await settle()).state, 'done');
  });
  after(async () => {
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const q1Rows = async () => (await call('review.list', { examId })).rows.filter((r) => r.questionId === 'q1');

  it('lists the open manual items of each response', async () => {
    const rows = await q1Rows();
    const open = rows.filter((r) => r.openManual?.includes('d'));
    assert.ok(open.length >= 2, `some q1 responses wait for item d (${open.length})`);
    for (const r of open) assert.equal(r.marks.d, null);
    assert.ok(
      rows.every((r) => r.state),
      'every row carries its review state',
    );
  });

  it('takes a manual mark without a reason, and refuses to override an automatic mark without one', async () => {
    const r = (await q1Rows()).find((x) => x.openManual?.includes('d') && x.state === 'manual-open')!;
    const d = await call('response.override', { responseId: r.responseId, itemId: 'd', marks: 1 });
    assert.equal(d.items.find((i) => i.itemId === 'd')!.final, 1);
    const after = (await q1Rows()).find((x) => x.responseId === r.responseId)!;
    assert.deepEqual(after.openManual, []);
    assert.ok(!after.chips.includes('overridden'), 'a manual item marked by hand is not an override');
    // The API lets an empty comment through; the engine refuses it for an automatic item.
    const before = service.ws.auditLog({ action: 'override.set' }).length;
    const refused = await dispatch(service.handlers(), 'response.override', { responseId: r.responseId, itemId: 'a', marks: 0 });
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.error.message : '', /comment is required to override the automatic mark of item 'a'/);
    assert.equal(service.ws.auditLog({ action: 'override.set' }).length, before, 'nothing stored');
    const withReason = await call('response.override', { responseId: r.responseId, itemId: 'a', marks: 0, comment: 'wrong sign in the working' });
    assert.ok(withReason.chips.includes('overridden'));
  });

  it('previews a manual mark for a group, then applies it to those who change, each audited', async () => {
    const open = (await q1Rows()).filter((x) => x.openManual?.includes('d'));
    const marked = (await q1Rows()).find((x) => x.marks.d === 1)!;
    const ids = [...open.map((x) => x.responseId), marked.responseId];
    const audits = () => service.ws.auditLog({ action: 'override.set' }).length;
    const before = audits();
    const preview = await call('groups.mark', { responseIds: ids, itemId: 'd', marks: 1, preview: true });
    assert.equal(preview.applied, 0);
    assert.equal(preview.manual, true);
    assert.equal(audits(), before, 'a preview stores nothing');
    const who = new Map(preview.members.map((m) => [m.responseId, m]));
    for (const x of open) assert.deepEqual([who.get(x.responseId)!.old, who.get(x.responseId)!.new, who.get(x.responseId)!.changes], [null, 1, true]);
    assert.equal(who.get(marked.responseId)!.changes, false, 'already 1: unchanged');
    assert.ok(preview.members.every((m) => m.studentId && typeof m.excerpt === 'string'));
    const done = await call('groups.mark', { responseIds: ids, itemId: 'd', marks: 1, preview: false });
    assert.equal(done.applied, open.length);
    assert.equal(audits(), before + open.length, 'one audited override per member that changed');
    assert.ok((await q1Rows()).filter((x) => ids.includes(x.responseId)).every((x) => x.marks.d === 1));
  });

  it('refuses a group mark above the item, or an automatic override without a reason, before storing anything', async () => {
    const ids = (await q1Rows()).map((x) => x.responseId);
    const before = service.ws.auditLog().length;
    for (const req of [
      { responseIds: ids, itemId: 'd', marks: 5, preview: false },
      { responseIds: ids, itemId: 'a', marks: 1, preview: false },
    ]) {
      const r = await dispatch(service.handlers(), 'groups.mark', req);
      assert.equal(r.ok, false);
    }
    assert.equal(service.ws.auditLog().length, before);
  });

  it('adds a comment to every member of a group', async () => {
    const ids = (await q1Rows()).slice(0, 3).map((x) => x.responseId);
    const before = service.ws.auditLog({ action: 'comment.add' }).length;
    const r = await call('groups.mark', { responseIds: ids, comment: 'see the model answer on the board', preview: false });
    assert.equal(r.applied, 3);
    assert.equal(service.ws.auditLog({ action: 'comment.add' }).length, before + 3);
  });
});
