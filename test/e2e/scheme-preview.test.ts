// A scheme change previewed in the Exam step, in Chromium against the browser mode, on the bundled
// demo exam graded by the embedded extractor: q1.a's accepted form is edited (t = 2u/g instead
// of t = u/g); "Preview changes" shows the per-item counts, who gains or loses the mark (D08
// gains, the others that earned it lose), and that the change would make the automatic mark
// disagree with the instructor's override; Discard puts the exam back; Apply saves and re-marks,
// and the override the automatic mark now disagrees with is listed as a regression case.
// Importing a changed version of the marked exam as a file previews it the same way and stores nothing.
// Screenshots: test-results/screenshots/scheme-preview.png, exam-import-preview.png and override-cases.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO, SHOTS, launch, openApp, shot, skipReason, startApp, type App } from './support.ts';

const skip = skipReason();
const FORM = 'input[aria-label="accepted form 1 of item a"]';

describe('a scheme change previewed, discarded, then applied', { skip: skip ?? false }, () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  /** Students whose q1 earned item a before the change. */
  let earners: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startApp();
    const h = app.service.handlers();
    const { examId } = await h['exam.loadDemo']({});
    await h['grade.start']({ examId, technique: 'embedded', models: [] });
    for (let i = 0; i < 2400 && ['running', 'pausing'].includes((await h['grade.status']({})).state); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await h['grade.status']({})).state, 'done');
    const rows = (await h['review.list']({ examId, questionId: 'q1' })).rows;
    earners = rows.filter((r) => r.marks.a === 1).map((r) => r.studentId);
    assert.ok(earners.includes('D01'), earners.join());
    // The instructor confirmed D01's item a by hand: an override the automatic mark agrees with, for now.
    const d01 = rows.find((r) => r.studentId === 'D01')!;
    await h['response.override']({ responseId: d01.responseId, itemId: 'a', marks: 1, comment: 'checked by hand: t = u/g' });
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const editAndPreview = async () => {
    await page.waitForSelector(FORM);
    await page.fill(FORM, 'Eq(t, 2*u/g)');
    await page.click('[data-testid="preview-changes"]');
    await page.waitForSelector('[data-testid="scheme-preview"][data-state="done"]', { timeout: 120_000 });
  };

  it('shows per item how many gain and lose it, who, and the override the change parts from', async () => {
    await editAndPreview();
    const row = page.locator('[data-testid="preview-items"] tr[data-item="q1.a"]');
    assert.equal((await row.locator('[data-count="gained"]').textContent())?.trim(), '1');
    assert.equal((await row.locator('[data-count="lost"]').textContent())?.trim(), String(earners.length));
    assert.equal(
      (await page.locator('[data-testid="preview-items"] tr[data-item="q1.c"] [data-count="unchanged"]').textContent())?.trim(),
      '10',
      'every q1 response of the demo',
    );
    const gains = await page
      .locator('[data-testid="preview-changes"] tr[data-direction="gain"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-student')));
    assert.deepEqual(gains, ['D08']);
    const losses = await page
      .locator('[data-testid="preview-changes"] tr[data-direction="loss"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-student')));
    assert.deepEqual(losses.sort(), [...earners].sort());
    assert.match((await page.textContent('[data-testid="preview-changes"] tr[data-student="D01"]')) ?? '', /1 → 0.*your override \(1\) stays the final mark/);
    assert.match((await page.textContent('[data-testid="preview-overrides"]')) ?? '', /disagree with 1 override and agree with 0 more/);
    await shot(page, 'scheme-preview');
  });

  it('discard puts the exam back as it was saved', async () => {
    await page.click('[data-testid="preview-discard"]');
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLInputElement | null)?.value === 'Eq(t, u/g)', FORM);
    assert.ok(!(await page.isVisible('[data-testid="scheme-preview"]')));
    assert.equal(await page.isVisible('[data-testid="override-cases-none"]'), true, 'no override disagrees yet');
  });

  it('importing a changed version of the marked exam previews it and saves nothing until applied', async () => {
    const file = join(app.dir, 'demo-changed.json');
    writeFileSync(file, readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8').replace('"accept": ["Eq(t, u/g)"]', '"accept": ["Eq(t, 2*u/g)"]'));
    await page.setInputFiles('[data-testid="exam-file"]', file);
    await page.waitForSelector('[data-testid="scheme-preview"][data-state="done"]', { timeout: 120_000 });
    assert.match((await page.textContent('.banner.ok')) ?? '', /already marked: nothing is saved yet/);
    assert.equal(await page.inputValue(FORM), 'Eq(t, 2*u/g)', 'the editor shows the imported version');
    const gains = await page
      .locator('[data-testid="preview-changes"] tr[data-direction="gain"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-student')));
    assert.deepEqual(gains, ['D08']);
    const h = app.service.handlers();
    assert.deepEqual((await h['exam.get']({ examId: 'demo-physics' })).questions[0].scheme[0].accept, ['Eq(t, u/g)'], 'nothing stored');
    assert.equal((await h['review.list']({ examId: 'demo-physics', questionId: 'q1' })).rows.find((r) => r.studentId === 'D08')!.marks.a, 0, 'no mark changed');
    await shot(page, 'exam-import-preview');
    await page.click('[data-testid="preview-discard"]');
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLInputElement | null)?.value === 'Eq(t, u/g)', FORM);
  });

  it('apply saves and re-marks; the override the automatic mark now disagrees with is listed', async () => {
    await editAndPreview();
    await page.click('[data-testid="preview-apply"]');
    await page.waitForSelector('.banner.ok >> text=Saved.');
    const listed = page.locator('[data-testid="override-cases"] tr[data-student="D01"]');
    await listed.waitFor({ timeout: 120_000 });
    assert.equal(await listed.getAttribute('data-changed'), 'yes');
    assert.match((await listed.textContent()) ?? '', /q1\.a.*0.*1.*checked by hand: t = u\/g.*the scheme changed since/);
    const h = app.service.handlers();
    const rows = (await h['review.list']({ examId: 'demo-physics', questionId: 'q1' })).rows;
    assert.equal(rows.find((r) => r.studentId === 'D08')!.marks.a, 1, 'applied: D08 earns a');
    assert.equal(rows.find((r) => r.studentId === 'D01')!.marks.a, 1, "D01's override stays in force");
    await listed.scrollIntoViewIfNeeded();
    await shot(page, 'override-cases', { top: false });
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
