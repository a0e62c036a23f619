// Equations held back as possibly invented, in the response view: a model reading through our
// Ollama-compatible test server adds two equations the student never wrote. The view shows them
// in a card of their own (KaTeX, why, which model); Accept needs a comment, then adds the
// equation, the marks change at once, the history says what was accepted, and the other
// equation stays held back. Uses the bundled demo exam (resources/demo), no development data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.ts';
import { REPO, SHOTS, launch, openApp, shot, skipReason, startApp, type App } from './support.ts';

const skip = skipReason();

const MODEL = 'fake-llm:7b';
const TEXT = 'Energy is conserved: u^2 = 2 g H, so H = u^2/(2g).';
const FINE = 'At the top the speed is zero so t = u/g and H = u^2/(2g).';
const INVENTED_T = 'Eq(t, u/g)';
const INVENTED_4 = 'Eq(H, 4*u**2/(2*g))';

describe('held back as possibly invented: seen and accepted in the response view', { skip: skip ?? false }, () => {
  let fake: FakeOllama;
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let id: string;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    fake = await startFakeOllama({
      rules: [
        { match: TEXT, reply: ['Eq(u**2, 2*g*H)', 'Eq(H, u**2/(2*g))', INVENTED_T, INVENTED_4] },
        { match: FINE, reply: ['Eq(t, u/g)', 'Eq(H, u**2/(2*g))'] },
      ],
    });
    app = await startApp({ ollamaUrl: fake.url });
    const h = app.service.handlers();
    const ex = await h['exam.import']({ json: readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8') });
    assert.ok(ex.ok);
    const examId = ex.examId;
    const csv = `student_id,question_id,response\nS01,q1,"${TEXT}"\nS02,q1,"${FINE}"\n`;
    assert.equal((await h['responses.import']({ examId, csv, fileName: 'r.csv' })).imported, 2);
    await h['grade.start']({ examId, technique: 'llm-modulo', models: [MODEL] });
    for (let i = 0; i < 600 && ['running', 'pausing'].includes((await h['grade.status']({})).state); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await h['grade.status']({})).state, 'done');
    id = (await h['review.list']({ examId })).rows.find((r) => r.studentId === 'S01')!.responseId;
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await fake?.close();
  });

  const total = async () => (await page.textContent('[data-testid="detail-total"] .big'))?.trim();
  const itemMark = async (item: string) => (await page.textContent(`tr[data-item="${item}"] [data-mark] .mark`))?.trim();

  it('shows the held-back equations with why and which model, apart from the equations read', async () => {
    await page.click('[data-view="review"]');
    await page.waitForSelector(`[data-testid="review-table"] [data-response="${id}"]`);
    await page.click(`[data-response="${id}"]`);
    await page.waitForSelector('[data-testid="response-detail"] [data-testid="detail-total"] .big');
    const card = page.locator('[data-testid="held-back"]');
    assert.equal((await card.locator('h2').textContent())?.trim(), 'Held back: possibly invented');
    const held = card.locator('li[data-held]');
    assert.deepEqual(await held.evaluateAll((els) => els.map((e) => e.getAttribute('data-held'))), [INVENTED_T, INVENTED_4]);
    assert.equal(await held.first().locator('.katex').count(), 1, 'typeset with KaTeX');
    const first = (await held.first().textContent()) ?? '';
    assert.match(first, /'t' does not appear in the student's text/);
    assert.match(first, new RegExp(`proposed by ${MODEL}`));
    assert.match((await held.nth(1).textContent()) ?? '', /the number 4 does not appear/);
    // Not among the equations read, and not counted.
    const read = await page.locator('.eqlist input[aria-label^="equation"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    assert.ok(!read.includes(INVENTED_T), read.join(' | '));
    assert.equal(await total(), '3');
    assert.equal(await itemMark('a'), '0');
  });

  it('accepts one with a comment: the mark changes at once, the history says so, the other stays held back', async () => {
    const item = page.locator(`li[data-held="${INVENTED_T}"]`);
    await item.locator('[data-testid="held-accept"]').click();
    const confirm = item.locator('[data-testid="held-confirm"]');
    assert.ok(await confirm.isDisabled(), 'a comment is required');
    await item.locator('input[aria-label="acceptance comment"]').fill('The working for t is on her second page');
    assert.ok(await confirm.isEnabled());
    await shot(page, 'response-held-back');
    await confirm.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="detail-total"] .big')?.textContent?.trim() === '4');
    assert.equal(await itemMark('a'), '1');
    const read = await page.locator('.eqlist input[aria-label^="equation"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    assert.ok(read.includes(INVENTED_T), `accepted into the equations read: ${read.join(' | ')}`);
    assert.deepEqual(await page.locator('[data-testid="held-back"] li[data-held]').evaluateAll((els) => els.map((e) => e.getAttribute('data-held'))), [
      INVENTED_4,
    ]);
    assert.ok(await page.isVisible('.chip[data-chip="corrected"]'));
    const history = (await page.textContent('details.card')) ?? '';
    assert.match(history, /Accepted a possibly-invented equation: Eq\(t, u\/g\).*The working for t is on her second page/);
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
