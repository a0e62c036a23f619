// The review table stays smooth with thousands of responses: it is virtualised, so only the rows
// in view are in the page, and scrolling to the end shows the last one. A list this long (over
// 2,000) is filtered, searched and sorted by the main process and comes a page at a time. The
// list here is read in slices (as a list of tens of thousands is): its first page comes before it
// is read, the lead line says the counts are being counted, and shows them once they are, never
// a number before.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DATA, launch, openApp, skipReason, startApp, type App } from './support.ts';

const skip = skipReason() ?? (existsSync(join(DATA, 'exam.json')) ? null : `development data not found at ${DATA}`);
const STUDENTS = 1200;

describe('review table with thousands of responses', { skip: skip ?? false }, () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  before(async () => {
    // Read in slices of about 100 responses, at once only up to 1,000 (the app: 250 and 5,000).
    app = await startApp(undefined, { reviewSlicing: { first: 100, ms: 30, atOnceUpTo: 1000 } });
    const h = app.service.handlers();
    const ex = await h['exam.import']({ json: readFileSync(join(DATA, 'exam.json'), 'utf8') });
    assert.ok(ex.ok);
    const lines = ['student_id,question_id,response'];
    for (let i = 1; i <= STUDENTS; i++) for (const q of ['q1', 'q2', 'q3']) lines.push(`X${String(i).padStart(5, '0')},${q},"v = ${i}"`);
    const r = await h['responses.import']({ examId: ex.examId, csv: lines.join('\n') + '\n', fileName: 'big.csv' });
    assert.equal(r.imported, STUDENTS * 3);
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders only the rows in view and reaches the last one by scrolling', async () => {
    // Every text the lead line shows, from the first (watched from before the view opens).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { leads: string[] }).leads = seen;
      new MutationObserver(() => {
        const t = document.querySelector('.review .lead')?.textContent;
        if (t && seen.at(-1) !== t) seen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.click('[data-view="review"]');
    await page.waitForSelector('[data-testid="review-table"] [data-response]');
    assert.equal(await page.getAttribute('.vtable', 'aria-rowcount'), String(STUDENTS * 3));
    const rendered = await page.locator('[data-testid="review-table"] [data-response]').count();
    assert.ok(rendered < 60, `only the visible rows are in the page (${rendered})`);
    const t0 = Date.now();
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="review-table"]')!;
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForSelector(`[data-response] >> text=X${String(STUDENTS).padStart(5, '0')}`);
    assert.ok(Date.now() - t0 < 3000, 'the end of the table shows at once');
    assert.ok((await page.locator('[data-testid="review-table"] [data-response]').count()) < 60);
    // The counts once the list is read (nothing graded); before, only that they are being counted.
    const final = `${STUDENTS * 3} of ${STUDENTS * 3} responses are not graded yet.`;
    await page.waitForFunction((t) => document.querySelector('.review .lead')?.textContent?.startsWith(t) ?? false, final);
    const leads = await page.evaluate(() => (window as unknown as { leads: string[] }).leads);
    for (const t of leads) assert.ok(t.startsWith(final) || t.startsWith(`${STUDENTS * 3} responses; counting those that need your eyes…`), t);
    assert.deepEqual(errors, []);
  });

  it('filters and searches a long list in the main process: only the rows asked for come', async () => {
    const shown = (n: number) => page.waitForFunction((t) => document.querySelector('[data-testid="shown"]')?.textContent === t, `${n} shown`);
    await page.selectOption('select[aria-label="question"]', 'q2');
    await shown(STUDENTS);
    await page.fill('input[type="search"]', 'x00012');
    await shown(1);
    const rows = await page.locator('[data-testid="review-table"] [data-response]').allTextContents();
    assert.equal(rows.length, 1);
    assert.match(rows[0], /X00012\s*q2/);
    await page.fill('input[type="search"]', '');
    await page.selectOption('select[aria-label="question"]', 'all');
    await shown(STUDENTS * 3);
    // End goes to the last row, fetched when asked for.
    await page.locator('[data-testid="review-table"] [data-response]').first().focus();
    await page.keyboard.press('End');
    await page.waitForFunction((id) => document.activeElement?.textContent?.includes(id) ?? false, `X${String(STUDENTS).padStart(5, '0')}`);
    assert.deepEqual(errors, []);
  });
});
