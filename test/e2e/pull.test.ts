// Downloading a model from inside the app, end to end: our Ollama-compatible test server starts
// with no models but can pull one (slowly, so the progress can be watched). The Grade view says
// Ollama has no models; a bad name and an unknown model are refused in plain words (Ollama's
// message); the instructor downloads a model, watches its progress (screenshot
// grade-pull.png), and the model is then listed with its digest, chosen, and
// grades the bundled demo exam with the hybrid technique.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.ts';
import { SHOTS, launch, openApp, shot, skipReason, startApp, type App } from './support.ts';

const skip = skipReason();

const MODEL = 'demo-reader:7b';
/** A response written in words: the embedded extractor leaves it to the model (hybrid). */
const PROSE = 'By energy conservation u squared equals 2 g H, so the height H is u squared over 2 g.';

describe('downloading a model from the Grade view, then grading with it', { skip: skip ?? false }, () => {
  let fake: FakeOllama;
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let examId: string;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    fake = await startFakeOllama({
      models: [],
      pullable: [{ name: MODEL, parameterSize: '7.6B', family: 'qwen2', quantization: 'Q4_K_M' }],
      // About a second between progress lines: the download takes ~9 s, long enough to watch.
      pullDelayMs: 1000,
      // Each equation with the span of the text it was read from: the guard anchors it there.
      rules: [
        {
          match: 'u squared equals',
          reply: {
            json: {
              equations: [
                { equation: 'Eq(u**2, 2*g*H)', span: 'u squared equals 2 g H', mappings: [] },
                { equation: 'Eq(H, u**2/(2*g))', span: 'the height H is u squared over 2 g', mappings: [] },
              ],
            },
          },
        },
      ],
      fallback: [],
    });
    app = await startApp({ ollamaUrl: fake.url });
    const h = app.service.handlers();
    const demo = await h['exam.loadDemo']({});
    examId = demo.examId;
    const csv = `student_id,question_id,response\nS01,q1,"${PROSE}"\n`;
    assert.equal((await h['responses.import']({ examId, csv, fileName: 'words.csv' })).imported, 1);
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await fake?.close();
  });

  it('says Ollama has no models, and offers to download one', async () => {
    await page.click('[data-view="grade"]');
    await page.waitForSelector('[data-testid="ollama-status"]');
    assert.match((await page.textContent('[data-testid="ollama-status"]')) ?? '', /Ollama is running at .* but has no models installed: download one below/);
    assert.ok(await page.isDisabled('input[name="technique"][value="hybrid"]'), 'no model technique without a model');
    assert.ok(await page.isChecked('input[name="technique"][value="embedded"]'));
    assert.match((await page.textContent('[data-testid="pull"]')) ?? '', /Download a model/);
    assert.ok(await page.isDisabled('[data-testid="pull-start"]'), 'nothing to download yet');
  });

  it('refuses a bad name, and says plainly when Ollama has no such model', async () => {
    await page.fill('[data-testid="pull-name"]', 'two words');
    await page.click('[data-testid="pull-start"]');
    await page.waitForSelector('[data-testid="pull"] .banner.error');
    assert.match((await page.textContent('[data-testid="pull"] .banner.error')) ?? '', /not an Ollama model name \(like qwen2\.5:7b/);
    assert.equal(fake.count('pull'), 0, 'nothing was sent to Ollama');

    await page.fill('[data-testid="pull-name"]', 'no-such-model:70b');
    await page.click('[data-testid="pull-start"]');
    await page.waitForSelector('[data-testid="pull-progress"][data-state="failed"]');
    assert.match(
      (await page.textContent('[data-testid="pull-error"]')) ?? '',
      /The download failed\. Ollama could not download 'no-such-model:70b': (Ollama at \S+ failed: )?pull model manifest: file does not exist/,
    );
  });

  it('downloads a model with progress, then lists it with its digest and chooses it', async () => {
    await page.fill('[data-testid="pull-name"]', MODEL);
    await page.click('[data-testid="pull-start"]');
    await page.waitForSelector('[data-testid="pull-progress"][data-state="running"]');
    assert.equal(await page.locator('[data-testid="pull"] .banner.error').count(), 0, 'the earlier failure is gone');
    // Mid-download: Ollama's status with the layer's share of its size.
    await page.waitForFunction(
      () => /pulling [0-9a-f]{6}… (25|50)% of 4\.7 GB/.test(document.querySelector('[data-testid="pull-status"]')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    const status = (await page.textContent('[data-testid="pull-progress"]')) ?? '';
    assert.match(status, new RegExp(`Downloading ${MODEL}…`));
    const now = Number(await page.getAttribute('[data-testid="pull-progress"] [role="progressbar"]', 'aria-valuenow'));
    assert.ok(now > 0 && now < 100, `the bar is part way (${now}%)`);
    assert.ok(await page.isDisabled('[data-testid="pull-start"]'), 'one download at a time');
    await shot(page, 'grade-pull');
    // After the layer: Ollama's later steps are shown as they come.
    await page.waitForFunction(
      () =>
        /verifying sha256 digest|writing manifest|removing any unused layers/.test(document.querySelector('[data-testid="pull-status"]')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForSelector('[data-testid="pull-progress"][data-state="done"]', { timeout: 20_000 });
    assert.match((await page.textContent('[data-testid="pull-progress"]')) ?? '', new RegExp(`Downloaded ${MODEL}\\.`));

    // The list is refreshed: the model is installed, listed with its digest, and chosen with hybrid.
    await page.waitForSelector(`label.check:has-text("${MODEL}")`);
    assert.match((await page.textContent('[data-testid="ollama-status"]')) ?? '', /with 1 model installed/);
    const row = page.locator(`label.check:has-text("${MODEL}")`);
    assert.equal(await row.locator('[data-digest]').getAttribute('data-digest'), fake.digest(MODEL));
    assert.ok(await row.locator('input').isChecked(), 'the new model is chosen');
    assert.ok(await page.isChecked('input[name="technique"][value="hybrid"]'), 'hybrid is chosen');
    assert.match((await page.textContent('[data-testid="pull"]')) ?? '', /Download another model/);
    assert.equal(await page.inputValue('[data-testid="pull-name"]'), '', 'the field is ready for another name');
  });

  it('grades with the downloaded model (hybrid)', async () => {
    await page.click('[data-testid="grade-start"]');
    await page.waitForSelector('[data-testid="progress"][data-state="done"]', { timeout: 120_000 });
    assert.equal(await page.getAttribute('[data-testid="progress"]', 'data-state'), 'done');
    assert.ok(fake.count('chat', MODEL) >= 1, 'the model read the response written in words');
    const row = (await app.service.handlers()['review.list']({ examId })).rows.find((r) => r.studentId === 'S01')!;
    assert.ok(row.chips.includes('model'), `its marks rest on the model\u2019s reading (${row.chips.join(', ')})`);
    // Items b (energy relation, 1) and c (greatest height, 2) from the model's reading; a and the manual d not.
    assert.equal(row.total, 3, 'and it earns the marks of the equations the model read');
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
