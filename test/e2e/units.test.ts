// Dimensions and numeric items in the response view, on the bundled demo exam (resources/demo,
// which declares units): a dimensionally inconsistent equation is shown with both sides'
// dimensions ("left: Ω, right: 1/Ω") beside unchanged marks, with its chip; a numeric item shows
// the number read with its unit, the conversion and the tolerance; a wrong significant-figure
// count is withheld with the reason. Screenshots: response-dimensions, response-numeric.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO, SHOTS, launch, openApp, skipReason, startApp, type App } from './support.ts';

const skip = skipReason();
const CSV = [
  'student_id,question_id,response',
  'S01,q2,R = (R_1 + R_2)/(R_1*R_2)',
  'S02,q3,"v² = 2gh, so v = √(2gh), which is 36 km/h."',
  'S03,q3,"v = sqrt(2*g*h) = 9.905 m/s"',
].join('\n');

describe('dimensions and numeric items in the response view', { skip: skip ?? false }, () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const ids = new Map<string, string>();

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startApp();
    const h = app.service.handlers();
    const ex = await h['exam.import']({ json: readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8') });
    assert.ok(ex.ok);
    const examId = ex.examId;
    assert.equal((await h['responses.import']({ examId, csv: `${CSV}\n`, fileName: 'r.csv' })).imported, 3);
    await h['grade.start']({ examId, technique: 'embedded', models: [] });
    for (let i = 0; i < 1200 && ['running', 'pausing'].includes((await h['grade.status']({})).state); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await h['grade.status']({})).state, 'done');
    for (const r of (await h['review.list']({ examId })).rows) ids.set(r.studentId, r.responseId);
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const open = async (studentId: string) => {
    await page.click('[data-view="review"]');
    const id = ids.get(studentId)!;
    await page.waitForSelector(`[data-testid="review-table"] [data-response="${id}"]`);
    await page.click(`[data-response="${id}"]`);
    await page.waitForSelector(`[data-testid="response-detail"][data-response-id="${id}"] [data-testid="detail-total"] .big`);
  };

  it('an inconsistent equation: both sides in words, the chip, the marks as they were', async () => {
    await open('S01');
    const banner = page.locator('[data-testid="dimensions"]');
    assert.match((await banner.textContent()) ?? '', /left: Ω, right: 1\/Ω/);
    assert.match((await banner.textContent()) ?? '', /changes a mark only for an item that requires dimensional consistency/);
    assert.ok(await page.isVisible('.chip[data-chip="dimensions"]'));
    assert.equal((await page.textContent('[data-testid="detail-total"] .big'))?.trim(), '0', 'a wrong answer: no mark, whatever the dimensions');
    await banner.scrollIntoViewIfNeeded();
    await page.locator('.card:has([data-testid="dimensions"])').screenshot({ path: join(SHOTS, 'response-dimensions.png') });
  });

  it('a numeric item: the number read with its unit, converted, and the tolerance used', async () => {
    await open('S02');
    const ev = page.locator('tr[data-item="v2"] [data-testid="numeric-evidence"]');
    const text = (await ev.textContent()) ?? '';
    assert.match(text, /Stated: 36 km\/h/);
    assert.match(text, /36 km\/h = 10 m\/s/);
    assert.match(text, /±2%/);
    assert.equal((await page.textContent('tr[data-item="v2"] [data-mark] .mark'))?.trim(), '1');
  });

  it('a wrong significant-figure count is withheld, with the count', async () => {
    await open('S03');
    const row = page.locator('tr[data-item="v2"]');
    assert.match((await row.textContent()) ?? '', /given to 4 significant figures, 2 required/);
    assert.equal((await page.textContent('tr[data-item="v2"] [data-mark] .mark'))?.trim(), '0');
    await row.scrollIntoViewIfNeeded();
    await page.locator('.card:has(tr[data-item="v2"])').screenshot({ path: join(SHOTS, 'response-numeric.png') });
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
