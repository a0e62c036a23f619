// Equations held back as possibly invented, through the service's validated entry point
// (`dispatch`): a model reading through our Ollama-compatible test server adds equations the
// student never wrote (a symbol, a number not in the text). The response detail lists them with
// their LaTeX, the model that proposed them and why they were held back; the marks don't count
// them; accepting one through response.setEquations regrades at once (the item it earns is
// awarded), is audited as an accepted possibly-invented equation, and leaves the other listed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppService } from '../../electron/app/service.ts';
import { openService, serviceApi } from '../support/app-service.ts';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.ts';
import { NO_SPAN } from '../../electron/engine/read/model/anchors.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MODEL = 'fake-llm:7b';
/** The demo exam's q1 (ball thrown up: t = u/g earns item a, the height items b and c). */
const TEXT = 'Energy is conserved: u^2 = 2 g H, so H = u^2/(2g).';
const FINE = 'At the top the speed is zero so t = u/g and H = u^2/(2g).';
/** What the model replies for TEXT: two equations the student wrote, and two it made up. */
const READ = ['Eq(u**2, 2*g*H)', 'Eq(H, u**2/(2*g))'];
const INVENTED_T = 'Eq(t, u/g)'; // 't' is nowhere in the text
const INVENTED_4 = 'Eq(H, 4*u**2/(2*g))'; // nor is 4

describe('equations held back as possibly invented', () => {
  let dir: string;
  let fake: FakeOllama;
  let service: AppService;
  let examId: string;
  let id: string;
  let fineId: string;
  const { call, settle } = serviceApi(() => service, 50);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-held-'));
    fake = await startFakeOllama({
      rules: [
        { match: TEXT, reply: [...READ, INVENTED_T, INVENTED_4] },
        { match: FINE, reply: ['Eq(t, u/g)', 'Eq(H, u**2/(2*g))'] },
      ],
    });
    service = openService(join(dir, 'w.sqlite'));
    await call('settings.set', { ollamaUrl: fake.url, models: [MODEL], pythonPath: '' });
    const ex = await call('exam.import', { json: readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8') });
    assert.ok(ex.ok);
    examId = ex.examId;
    const csv = `student_id,question_id,response\nS1,q1,"${TEXT}"\nS2,q1,"${FINE}"\n`;
    assert.equal((await call('responses.import', { examId, csv, fileName: 'r.csv' })).imported, 2);
    await call('grade.start', { examId, technique: 'llm-modulo', models: [MODEL] });
    const p = await settle();
    assert.equal(p.state, 'done', p.message ?? '');
    const rows = (await call('review.list', { examId })).rows;
    id = rows.find((r) => r.studentId === 'S1')!.responseId;
    fineId = rows.find((r) => r.studentId === 'S2')!.responseId;
    assert.ok(fake.count('chat', MODEL) >= 2, 'the model read the responses');
  });
  after(async () => {
    await service?.close();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists them in the detail, with LaTeX, the model and why; the marks don\u2019t count them', async () => {
    const d = await call('response.get', { responseId: id });
    assert.equal(d.current?.source, `model:${MODEL}`);
    assert.deepEqual(
      d.current?.equations.map((e) => e.source),
      READ,
      'only what the text supports is read',
    );
    assert.ok(d.chips.includes('invented') && d.chips.includes('needs-review'), d.chips.join(' '));
    assert.deepEqual(
      d.heldBack.map((h) => h.source),
      [INVENTED_T, INVENTED_4],
    );
    const [t, four] = d.heldBack;
    assert.deepEqual(t.proposedBy, [MODEL]);
    // The model gave no spans (the older reply form): what the embedded extractor also read is anchored there, the rest is unsupported.
    assert.deepEqual(t.reasons, ["'t' does not appear in the student's text", NO_SPAN]);
    assert.deepEqual(
      d.current?.equations.map((e) => (e.span ? TEXT.slice(e.span.start, e.span.end) : null)),
      ['u^2 = 2 g H', 'H = u^2/(2g)'],
      'each equation read carries its span, for the highlight in the student text',
    );
    assert.equal(t.latex, 't = \\frac{u}{g}');
    assert.deepEqual(four.reasons, ["the number 4 does not appear in the student's text", NO_SPAN]);
    assert.match(four.latex, /\\frac\{4 u\^\{2\}\}\{2 g\}/);
    // Item a (t = u/g) is not earned: the invented equation counts for nothing.
    const a = d.items.find((i) => i.itemId === 'a')!;
    assert.equal(a.final, 0);
    assert.ok(
      a.evidence.every((e) => e.student !== INVENTED_T),
      'no evidence rests on it',
    );
    assert.equal(d.items.find((i) => i.itemId === 'c')!.final, 2, 'the height earns its marks');
    assert.equal(d.total, 3);
    // A response whose reading the text supports has nothing held back.
    const fine = await call('response.get', { responseId: fineId });
    assert.deepEqual(fine.heldBack, []);
    assert.equal(fine.items.find((i) => i.itemId === 'a')!.final, 1);
  });

  it('accepting one regrades at once, is audited as accepted though possibly invented, and keeps the other held back', async () => {
    const before = await call('response.get', { responseId: id });
    const d = await call('response.setEquations', {
      responseId: id,
      equations: [...before.current!.equations.map((e) => e.source), INVENTED_T],
      comment: 'her working on the back page shows t = u/g',
    });
    assert.equal(d.items.find((i) => i.itemId === 'a')!.final, 1, 'item a is earned now');
    assert.equal(d.total, 4);
    assert.ok(d.current?.equations.some((e) => e.source === INVENTED_T));
    assert.ok(d.chips.includes('corrected') && !d.chips.includes('needs-review'), d.chips.join(' '));
    assert.ok(
      d.current?.notes.some(
        (n) => n.kind === 'instructor' && n.text.includes('accepted by the instructor although possibly invented') && n.text.includes(INVENTED_T),
      ),
      JSON.stringify(d.current?.notes),
    );
    // Audited: the comment says what was accepted, who proposed it and why it was held back.
    const comment = d.audit.find((a) => a.what === 'comment')?.new ?? '';
    assert.match(
      comment,
      /Accepted a possibly-invented equation: Eq\(t, u\/g\) \(proposed by fake-llm:7b; 't' does not appear in the student's text; the model gave no span of the student's text for it \(nor did the embedded extractor read it\)\)\. her working/,
    );
    assert.ok(d.audit.some((a) => a.what === 'equations read' && (a.new ?? '').startsWith('manual') && (a.new ?? '').includes('Eq(t, u/g)')));
    assert.ok(
      d.audit.some((a) => a.what === 'marked' && /total 4/.test(a.new ?? '')),
      'the new marks are in the history',
    );
    // The other is still held back; the accepted one is not listed any more.
    assert.deepEqual(
      d.heldBack.map((h) => h.source),
      [INVENTED_4],
    );
    // The review table agrees.
    const row = (await call('review.list', { examId })).rows.find((r) => r.responseId === id)!;
    assert.equal(row.total, 4);
  });

  it('an ordinary correction says nothing of invention, and a new reading of the text starts afresh', async () => {
    const before = await call('response.get', { responseId: id });
    const d = await call('response.setEquations', { responseId: id, equations: before.current!.equations.map((e) => e.source).slice(0, 2), comment: 'typo' });
    assert.equal(d.audit.filter((a) => a.what === 'comment').at(-1)?.new, 'typo');
    assert.equal(d.total, 3);
    // Removed again by the correction: the model's invented equation is back in the list, and the other still there.
    assert.deepEqual(
      d.heldBack.map((h) => h.source),
      [INVENTED_T, INVENTED_4],
    );
    // New text replaces the reading: nothing from the old model reading is listed.
    await call('responses.import', { examId, csv: `student_id,question_id,response\nS1,q1,"H = u^2/(2g)"\n`, fileName: 'r2.csv', changed: 'replace' });
    const fresh = await call('response.get', { responseId: id });
    assert.equal(fresh.current, null);
    assert.deepEqual(fresh.heldBack, []);
  });
});
