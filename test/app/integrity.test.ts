// The instructor's work is never changed behind their back (issue 13): a group correction
// reaches only members whose own list is the one edited, with a preview; a re-import asks
// before replacing changed texts and sets aside what was done on the old text; a pause is
// answered while responses are being read; "grade again" with another reader reads again; a
// group override that can't be applied names the student and changes nobody. Regrade requests
// and the exports that go with them. On the bundled demo exam, through `dispatch`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppService } from '../../electron/app/service.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAM = readFileSync(resolve(REPO, 'resources/demo/exam.json'), 'utf8');
const csv = (rows: [string, string, string][]) => `student_id,question_id,response\n${rows.map((r) => r.map((c) => JSON.stringify(c)).join(',')).join('\n')}\n`;

describe('integrity of the instructor’s work', () => {
  let dir: string;
  let service: AppService;
  let examId: string;
  const { call, settle } = serviceApi(() => service);
  const idOf = async (studentId: string, questionId = 'q1') =>
    (await call('review.list', { examId })).rows.find((r) => r.studentId === studentId && r.questionId === questionId)!.responseId;
  const grade = async (technique: 'embedded' | 'plain' = 'embedded') => {
    await call('grade.start', { examId, technique, models: [] });
    return settle();
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-integrity-'));
    service = openService(join(dir, 'w.sqlite'));
    const ex = await call('exam.import', { json: EXAM });
    assert.ok(ex.ok);
    examId = ex.examId;
    // S1 and S2 write the height solved for H; S3 stops at the energy relation (equivalent, but the answer item needs H alone).
    await call('responses.import', {
      examId,
      fileName: 'r.csv',
      csv: csv([
        ['S1', 'q1', 'H = u^2/(2g)'],
        ['S2', 'q1', 'H = u^2/(2g)'],
        ['S3', 'q1', 'u^2 = 2 g H'],
      ]),
    });
    assert.equal((await grade()).state, 'done');
  });
  after(async () => {
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a group correction reaches only members whose own list was edited; the preview shows everyone and the mark changes', async () => {
    const groups = await call('groups.list', { examId, questionId: 'q1' });
    const g = groups.find((x) => x.responseIds.length === 3);
    assert.ok(g, `the three answers are one group: ${JSON.stringify(groups.map((x) => x.responseIds))}`);
    const from = g.equations.map((e) => e.source);
    const s3 = await idOf('S3');
    const before3 = await call('response.get', { responseId: s3 });
    assert.equal(before3.items.find((i) => i.itemId === 'c')?.final, 0, 'S3 did not write H alone');
    // Change nothing, as in the report: the preview says S3 is left alone and no total changes.
    const p = await call('groups.preview', { responseIds: g.responseIds, from, equations: from });
    const byStudent = new Map(p.members.map((m) => [m.studentId, m]));
    assert.equal(byStudent.get('S3')?.reached, false);
    assert.match(byStudent.get('S3')?.reason ?? '', /written differently/);
    assert.equal(byStudent.get('S3')?.after, null);
    assert.ok(byStudent.get('S1')?.reached && byStudent.get('S2')?.reached);
    assert.equal(byStudent.get('S1')?.after?.total, byStudent.get('S1')?.before.total);
    assert.match(byStudent.get('S3')?.excerpt ?? '', /2 g H/);
    const r = await call('groups.apply', { responseIds: g.responseIds, action: { kind: 'equations', from, equations: from, comment: 'checked' } });
    assert.equal(r.changed, 2);
    assert.deepEqual(
      r.skipped?.map((x) => x.studentId),
      ['S3'],
    );
    const after3 = await call('response.get', { responseId: s3 });
    assert.equal(after3.total, before3.total, "S3's mark is unchanged");
    assert.deepEqual(
      after3.current?.equations.map((e) => e.source),
      before3.current?.equations.map((e) => e.source),
      'S3 keeps its own equations',
    );
  });

  it('a group override the item cannot take names the student and changes nobody', async () => {
    const ids = [await idOf('S1'), await idOf('S2')];
    const overrides = service.ws.auditLog({ action: 'override.set' }).length;
    await assert.rejects(
      call('groups.apply', { responseIds: ids, action: { kind: 'override', itemId: 'a', marks: 5, comment: 'too much' } }),
      /student S1 \(question q1\): item a is worth 1, so 5 can't be awarded; nothing was changed/,
    );
    assert.equal(service.ws.auditLog({ action: 'override.set' }).length, overrides);
  });

  it('re-import asks before replacing changed texts, and a correction or override made on the old text is never applied to the new one', async () => {
    const id = await idOf('S2');
    await call('response.setEquations', { responseId: id, equations: ['Eq(H, u**2/(2*g))', 'Eq(t, u/g)'], comment: 'time was in words' });
    await call('response.override', { responseId: id, itemId: 'd', marks: 1, comment: 'explained doubling' });
    const file = csv([
      ['S2', 'q1', 'H = u t - g t^2/2'],
      ['S1', 'q1', 'H = u^2/(2g)'],
      ['S4', 'q1', 'H = u^2/(2g)'],
    ]);
    const asked = await call('responses.import', { examId, csv: file, fileName: 'again.csv' });
    assert.equal(asked.needsDecision, true);
    assert.deepEqual(asked.counts, { new: 1, unchanged: 1, changed: 1 });
    assert.equal(asked.changedRows?.[0].studentId, 'S2');
    assert.equal(asked.changedRows?.[0].corrected, true);
    assert.equal(asked.changedRows?.[0].overrides, 1);
    assert.equal(asked.imported, 0);
    assert.equal((await call('review.list', { examId })).rows.length, 3, 'nothing stored while the instructor decides');
    const done = await call('responses.import', { examId, csv: file, fileName: 'again.csv', changed: 'replace' });
    assert.equal(done.setAside, 2);
    await grade();
    const d = await call('response.get', { responseId: id });
    assert.equal(d.text, 'H = u t - g t^2/2');
    assert.ok(!d.chips.includes('corrected'), 'the correction is not applied to the new text');
    assert.equal(d.items.find((i) => i.itemId === 'd')?.override, undefined, 'nor is the override');
    assert.equal(d.items.find((i) => i.itemId === 'd')?.final, null);
    assert.ok(d.chips.includes('earlier-text') && d.chips.includes('needs-review'));
    assert.deepEqual(d.earlier?.map((c) => c.kind).sort(), ['correction', 'override']);
    assert.equal(d.earlier?.find((c) => c.kind === 'override')?.earlierText, 'H = u^2/(2g)');
    // The instructor confirms the override on the new text and drops the correction.
    const ov = d.earlier!.find((c) => c.kind === 'override')!;
    const cor = d.earlier!.find((c) => c.kind === 'correction')!;
    let e = await call('response.resolveEarlier', { responseId: id, earlierId: ov.id, action: 'confirm', comment: 'still explained' });
    assert.equal(e.items.find((i) => i.itemId === 'd')?.final, 1);
    e = await call('response.resolveEarlier', { responseId: id, earlierId: cor.id, action: 'drop', comment: 'new text reads fine' });
    assert.deepEqual(e.earlier, []);
    assert.ok(!e.chips.includes('earlier-text'));
    assert.ok(e.audit.some((a) => a.what === 'dropped (made on earlier text)'));
    // Keeping the old texts: a changed row is left as it was.
    const kept = await call('responses.import', { examId, csv: csv([['S1', 'q1', 'something else']]), fileName: 'k.csv', changed: 'keep' });
    assert.equal(kept.counts?.changed, 1);
    assert.equal((await call('response.get', { responseId: await idOf('S1') })).text, 'H = u^2/(2g)');
  });

  it('"Grade again" with another reader reads again (corrections kept), and says when there is nothing to read', async () => {
    const s1 = await idOf('S1');
    await call('response.setEquations', { responseId: s1, equations: ['Eq(H, u**2/(2*g))'], comment: 'confirmed' });
    const p = await grade('plain');
    assert.equal(p.state, 'done');
    assert.match(p.message ?? '', /Read 3 responses again with the 'plain' reader.*1 reading you corrected kept/);
    const readers = service.ws.tableRows('extractions').map((x) => `${x.reader}`);
    assert.equal(readers.filter((r) => r === 'plain').length, 3);
    assert.equal(readers.filter((r) => r === 'manual').length, 1);
    const again = await grade('plain');
    assert.match(again.message ?? '', /Nothing was read again: every response was already read with the 'plain' reader/);
  });

  it('regrade requests: recorded, queued, resolved with a reply and an audited override; in the report and the CSV', async () => {
    const id = await idOf('S4');
    const q = await call('regrade.add', { responseId: id, text: 'I explained the doubling in my last line', date: '2026-11-20' });
    assert.equal(q.reply, null);
    assert.equal((await call('regrade.list', { examId }))[0].id, q.id);
    assert.ok((await call('response.get', { responseId: id })).chips.includes('regrade'));
    const r = await call('regrade.resolve', { requestId: q.id, reply: 'Yes: one mark for d.', marks: [{ itemId: 'd', marks: 1 }] });
    assert.deepEqual(r.changes, [{ itemId: 'd', from: null, to: 1 }]);
    const d = await call('response.get', { responseId: id });
    assert.equal(d.items.find((i) => i.itemId === 'd')?.override?.comment, 'regrade request: Yes: one mark for d.');
    assert.ok(!d.chips.includes('regrade'));
    await assert.rejects(call('regrade.resolve', { requestId: q.id, reply: 'again', marks: [] }), /already resolved/);
    const rq = await call('export.regrades', { examId });
    assert.match(rq.csv, /S4,q1,2026-11-20,I explained the doubling in my last line,resolved,Yes: one mark for d\.,.*q1\.d: open -> 1/);
    const html = (await call('export.studentReport', { examId, studentId: 'S4' })).html;
    assert.match(html, /I explained the doubling in my last line/);
    assert.match(html, /Yes: one mark for d\./);
    assert.match((await call('export.studentReport', { examId, studentId: 'S1' })).html, /class="katex"/, 'equations rendered by KaTeX');
    assert.match(html, /data:font\/woff2;base64,/, 'fonts inlined: the page is self-contained');
    assert.doesNotMatch(html, /<script/);
  });

  it('exports: per answer with q1.a columns, comments, overrides and review state; the open-work check; a gradebook one row per student', async () => {
    const a = (await call('export.marks', { examId })).csv.split('\n');
    const header = a[0].split(',');
    for (const c of ['q1.a', 'q1.d', 'q2.r1', 'status', 'review_reasons', 'overridden', 'comments']) assert.ok(header.includes(c), `column ${c}`);
    const s4 = a.find((l) => l.startsWith('S4,q1,'))!;
    assert.match(s4, /q1\.d/);
    assert.match(s4, /regrade request: Yes: one mark for d\./);
    const check = await call('export.check', { examId });
    assert.ok(check.manualOpen.some((m) => m.studentId === 'S1' && m.items.includes('d')));
    const gb = (await call('export.gradebook', { examId })).csv.trim().split('\n');
    assert.equal(gb[0], 'Student,ID,SIS User ID,SIS Login ID,Section,Equimark demo: three short physics questions');
    assert.equal(gb.length, 1 + 4, 'one row per student');
    assert.match(
      gb.find((l) => l.startsWith('S4,'))!,
      /^S4,,S4,,,\d+$/,
    );
  });
});

describe('pause while responses are being read', () => {
  it('is answered at once (a request arriving from outside, between reads), and the run stops during reading', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'equimark-pause-'));
    const service = openService(join(dir, 'w.sqlite'));
    const { call, settle } = serviceApi(() => service);
    try {
      const ex = await call('exam.import', { json: EXAM });
      assert.ok(ex.ok);
      const rows: [string, string, string][] = [];
      for (let i = 0; i < 2000; i++) rows.push([`S${i}`, i % 2 ? 'q1' : 'q2', i % 3 ? 'H = u^2/(2g) so t = u/g' : 'the height is u squared over 2g']);
      await call('responses.import', { examId: ex.examId, csv: csv(rows), fileName: 'big.csv' });
      await call('grade.start', { examId: ex.examId, technique: 'embedded', models: [] });
      // A timer is a macrotask, like an HTTP request: it runs only when the batch lets the event loop go.
      await new Promise((ok) => setTimeout(ok, 0));
      const paused = await call('grade.pause', {});
      assert.ok(paused.state === 'pausing' || paused.state === 'paused');
      // Asked again while it takes effect: where it stands, not "nothing is being graded".
      assert.ok(['pausing', 'paused'].includes((await call('grade.pause', {})).state));
      const p = await settle();
      assert.equal(p.state, 'paused');
      assert.ok(p.read < p.total, `paused during reading (${p.read} of ${p.total} read)`);
      await call('grade.resume', {});
      const done = await settle();
      assert.equal(done.state, 'done');
      assert.equal(done.read, 2000);
      assert.equal(done.done, 2000);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
