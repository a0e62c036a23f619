// A reading choice in the response view: "R = R1R2/R1+R2" leaves the denominator's bracket to the
// reader. The view shows the student's span and both readings in KaTeX; the response is held back
// with reading 1 marked; "Use this reading" on the bracketed one re-marks at once (the total
// changes), the history records the pick, and the chip goes. Uses the bundled demo exam
// (resources/demo), read by the embedded extractor; no development data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { SHOTS, demoWithOneResponse, launch, openApp, shot, skipReason, startApp, type App } from './support.ts';

const skip = skipReason();
const TEXT = 'In parallel 1/R = 1/R1 + 1/R2 so R = R1R2/R1+R2';

describe('a reading choice: both readings shown, one picked, the marks change', { skip: skip ?? false }, () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let id: string;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startApp();
    id = await demoWithOneResponse(app, 'q2', TEXT);
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const total = async () => (await page.textContent('[data-testid="detail-total"] .big'))?.trim();

  it('shows the span and every reading in KaTeX, reading 1 marked for now, the response held back', async () => {
    await page.click('[data-view="review"]');
    await page.waitForSelector(`[data-testid="review-table"] [data-response="${id}"]`);
    assert.ok(await page.isVisible(`[data-response="${id}"] .chip[data-chip="ambiguous-reading"]`));
    await page.click(`[data-response="${id}"]`);
    await page.waitForSelector('[data-testid="response-detail"] [data-testid="detail-total"] .big');
    const card = page.locator('[data-testid="choices"]');
    assert.equal((await card.locator('[data-testid="choice-span"]').textContent())?.trim(), 'R = R1R2/R1+R2');
    const readings = card.locator('[data-testid="choice-reading"]');
    assert.equal(await readings.count(), 2);
    assert.equal(await readings.nth(0).locator('.katex').count(), 1, 'typeset with KaTeX');
    assert.equal(await readings.nth(1).locator('.katex').count(), 1);
    assert.match((await readings.nth(0).textContent()) ?? '', /Eq\(R, R_1\*R_2\/R_1 \+ R_2\)/);
    assert.match((await readings.nth(1).textContent()) ?? '', /Eq\(R, R_1\*R_2\/\(R_1 \+ R_2\)\)/);
    assert.ok(await page.isVisible('.chip[data-chip="needs-review"]'));
    assert.equal(await total(), '1'); // 1/R = 1/R1 + 1/R2 earns r1; reading 1 earns no answer
  });

  it('picking the bracketed reading re-marks at once and is recorded', async () => {
    await page.locator('[data-testid="choice-reading"][data-reading="1"] [data-testid="choice-use"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="detail-total"] .big')?.textContent?.trim() === '2');
    assert.ok(await page.isVisible('[data-testid="choice-reading"][data-reading="1"].in-use'));
    assert.ok(!(await page.isVisible('.chip[data-chip="ambiguous-reading"]')));
    assert.ok(!(await page.isVisible('.chip[data-chip="needs-review"]')));
    const read = await page.locator('.eqlist input[aria-label^="equation"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    assert.ok(read.includes('Eq(R, R_1*R_2/(R_1 + R_2))'), read.join(' | '));
    const history = (await page.textContent('details.card')) ?? '';
    assert.match(history, /reading picked by the instructor/);
    await shot(page, 'response-reading-choice');
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
