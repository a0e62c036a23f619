// A number stated in words as a result ("…, which comes to 14 m/s") is a reading choice: recorded
// as the quantity's value, or not at all, as markers differ. The response view shows the span and
// both readings, the second as "nothing recorded"; picking it takes the equation out of the list
// at once and is recorded. Uses the bundled demo exam (resources/demo), read by the embedded
// extractor; no development data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { SHOTS, demoWithOneResponse, launch, openApp, shot, skipReason, startApp, type App } from './support.ts';

const skip = skipReason();
const TEXT = 'v = √(2gh), which comes to 14 m/s';

describe('a result stated in words: offered as a choice, recorded or not', { skip: skip ?? false }, () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let id: string;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startApp();
    id = await demoWithOneResponse(app, 'q3', TEXT);
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const equations = () => page.locator('.eqlist input[aria-label^="equation"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

  it('shows the words with both readings, the second "nothing recorded", the value in the list for now', async () => {
    await page.click('[data-view="review"]');
    await page.waitForSelector(`[data-testid="review-table"] [data-response="${id}"]`);
    assert.ok(await page.isVisible(`[data-response="${id}"] .chip[data-chip="ambiguous-reading"]`));
    await page.click(`[data-response="${id}"]`);
    await page.waitForSelector('[data-testid="response-detail"] [data-testid="choices"]');
    const card = page.locator('[data-testid="choices"]');
    assert.equal((await card.locator('[data-testid="choice-span"]').textContent())?.trim(), 'which comes to 14');
    const readings = card.locator('[data-testid="choice-reading"]');
    assert.equal(await readings.count(), 2);
    assert.match((await readings.nth(0).textContent()) ?? '', /Eq\(v, 14\)/);
    assert.match((await readings.nth(1).textContent()) ?? '', /nothing recorded/);
    assert.equal(await readings.nth(1).locator('.katex').count(), 0);
    assert.ok((await equations()).includes('Eq(v, 14)'));
    await shot(page, 'response-result-in-words-choice');
  });

  it('picking "nothing recorded" takes the value out at once and settles the choice', async () => {
    await page.locator('[data-testid="choice-reading"][data-reading="1"] [data-testid="choice-use"]').click();
    await page.waitForSelector('[data-testid="choice-reading"][data-reading="1"].in-use');
    const eqs = await equations();
    assert.ok(!eqs.includes('Eq(v, 14)'), eqs.join(' | '));
    assert.ok(eqs.includes('Eq(v, sqrt(2*g*h))'), eqs.join(' | '));
    assert.ok(!(await page.isVisible('.chip[data-chip="ambiguous-reading"]')));
    assert.match((await page.textContent('details.card')) ?? '', /reading picked by the instructor/);
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
