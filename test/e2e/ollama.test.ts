// Grading with a model, end to end: the app's Ollama URL points at our Ollama-compatible test
// server (test/support/fake-ollama.ts), which replays scripted replies: for every development-set
// response the gold equation list, except two responses where the second model reads differently
// (once it comes round in the consensus exchange, once it never does). The test checks that the
// installed models are listed with their digests, that grading with two models runs with
// progress (counts, time left, tokens, energy), that the marks rest on the models' readings
// (accuracy against gold), and that the response view shows both models' readings side by side
// where they disagree and says when they reached consensus.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { startFakeOllama, type FakeOllama, type FakeRule } from '../support/fake-ollama.ts';
import { AppService } from '../../electron/app/service.ts';
import { DATA, REPO, SHOTS, launch, openApp, shot, skipReason, startApp, type App } from './support.ts';

const noData = existsSync(join(DATA, 'exam.json')) ? null : `development data not found at ${DATA}`;
const skip = skipReason() ?? noData;

const READER = 'demo-reader:7b';
const CHECKER = 'demo-checker:8b';
/** The second model drops an equation here and keeps to it: the models disagree. */
const DISAGREE = { student: 'S001', question: 'q2' };
/** The second model drops an equation here at first, then agrees in the consensus exchange. */
const COMES_ROUND = { student: 'S004', question: 'q1' };

type Row = { student_id: string; question_id: string; response: string };

/** One rule per response: a line of its text unique to it, answered with the gold list. */
function script() {
  const responses = parse(readFileSync(join(DATA, 'responses.csv')), { columns: true }) as Row[];
  const gold = new Map(
    (parse(readFileSync(join(DATA, 'gold.csv')), { columns: true }) as { student_id: string; question_id: string; equations: string }[]).map((g) => [
      `${g.student_id}/${g.question_id}`,
      JSON.parse(g.equations) as string[],
    ]),
  );
  const texts = responses.map((r) => r.response.replace(/\r\n/g, '\n'));
  const rules: FakeRule[] = [];
  const marker = new Map<string, string>();
  responses.forEach((r, i) => {
    const lines = texts[i]
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length >= 6);
    // The longest line no other response contains.
    const unique = lines.sort((a, b) => b.length - a.length).find((l) => texts.every((t, k) => k === i || !t.includes(l)));
    if (!unique) return; // blank or shared text: the fallback (no equations)
    const key = `${r.student_id}/${r.question_id}`;
    marker.set(key, unique);
    rules.push({ match: unique, reply: gold.get(key) ?? [] });
  });
  const special = (who: { student: string; question: string }, replies: string[][]): FakeRule => {
    const key = `${who.student}/${who.question}`;
    assert.ok(marker.has(key) && (gold.get(key)?.length ?? 0) > 1, `${key} has a unique line and a gold list to disagree with`);
    return { model: CHECKER, match: marker.get(key)!, replies };
  };
  const g1 = gold.get(`${DISAGREE.student}/${DISAGREE.question}`)!;
  const g2 = gold.get(`${COMES_ROUND.student}/${COMES_ROUND.question}`)!;
  // Specific rules first: the first matching rule answers.
  rules.unshift(special(DISAGREE, [g1.slice(0, 1)]), special(COMES_ROUND, [g2.slice(0, -1), g2]));
  return {
    models: [
      { name: READER, parameterSize: '7.6B', family: 'qwen2' },
      { name: CHECKER, parameterSize: '8.0B', family: 'llama' },
    ],
    latencyMs: 15,
    rules,
    fallback: [],
  };
}

describe('grading with models through the test Ollama server', { skip: skip ?? false }, () => {
  let fake: FakeOllama;
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let examId: string;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    fake = await startFakeOllama(script());
    app = await startApp({ ollamaUrl: fake.url });
    const h = app.service.handlers();
    const ex = await h['exam.import']({ json: readFileSync(join(DATA, 'exam.json'), 'utf8') });
    assert.ok(ex.ok);
    examId = ex.examId;
    const imp = await h['responses.import']({ examId, csv: readFileSync(join(DATA, 'responses.csv'), 'utf8'), fileName: 'responses.csv' });
    assert.equal(imp.imported, 85);
    const gold = await h['gold.import']({ examId, csv: readFileSync(join(DATA, 'gold.csv'), 'utf8') });
    assert.equal(gold.imported, 85);
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await fake?.close();
  });

  const nav = (view: string) => page.click(`[data-view="${view}"]`);

  it('lists the installed models with their digests', async () => {
    await nav('grade');
    await page.waitForSelector('[data-testid="ollama-status"]');
    assert.match((await page.textContent('[data-testid="ollama-status"]')) ?? '', /Ollama is running at .* with 2 models installed/);
    // With a model installed, hybrid is offered first, with the first model chosen.
    assert.ok(await page.isChecked('input[name="technique"][value="hybrid"]'), 'hybrid is the default');
    assert.ok(await page.isChecked(`label.check:has-text("${READER}") input`), 'the first model is chosen');
    for (const t of ['direct', 'llm-modulo', 'consensus', 'per-line', 'embedded', 'plain'])
      assert.ok(await page.isEnabled(`input[name="technique"][value="${t}"]`), `${t} offered`);
    await page.check('input[name="technique"][value="consensus"]');
    for (const m of [READER, CHECKER]) {
      const digest = fake.digest(m);
      const row = page.locator(`label.check:has-text("${m}")`);
      assert.equal(await row.locator('[data-digest]').getAttribute('data-digest'), digest, `${m} is listed with its digest`);
      assert.match((await row.textContent()) ?? '', new RegExp(`sha256:${digest.slice(0, 12)}`));
    }
  });

  it('grades with two models, with progress: counts, time left, tokens and energy', async () => {
    await page.check(`label.check:has-text("${READER}") input`);
    await page.check(`label.check:has-text("${CHECKER}") input`);
    await page.click('[data-testid="grade-start"]');
    // While it runs: counts, and a time-left estimate once some responses are done.
    await page.waitForFunction(
      () => {
        const p = document.querySelector('[data-testid="progress"]');
        return p?.getAttribute('data-state') === 'running' && /\d+ s|min/.test(p.querySelector('[data-stat="eta"]')?.textContent ?? '');
      },
      undefined,
      { timeout: 60_000 },
    );
    const running = (await page.textContent('[data-testid="progress"]')) ?? '';
    assert.match(running, /Reading the responses.*\d+ of 85 read/);
    await shot(page, 'grade-models-running');
    await page.waitForSelector('[data-testid="progress"][data-state="done"]', { timeout: 180_000 });
    const text = (await page.textContent('[data-testid="progress"]')) ?? '';
    assert.match(text, /85 of 85/);
    const tokens = Number((await page.textContent('[data-stat="tokens"]'))?.replace(/[^\d]/g, ''));
    assert.ok(tokens > 1000, `tokens counted (${tokens})`);
    const energy = (await page.textContent('[data-stat="energy"]')) ?? '';
    assert.match(energy, /[1-9]/, `energy estimated (${energy})`);
    assert.ok(fake.count('chat', READER) >= 80 && fake.count('chat', CHECKER) >= 80, 'both models read the responses');
    await shot(page, 'grade-models');
  });

  it('rests the marks on the models\u2019 readings: accuracy against gold', async () => {
    await nav('summary');
    await page.waitForSelector('svg.chart');
    const acc = (await page.textContent('[data-stat="accuracy"]')) ?? '';
    const pct = Number(/(\d+)%/.exec(acc)?.[1]);
    // Every scripted reply is the gold list, except the lasting disagreement. The replies carry no
    // spans: an equation the embedded extractor did not read the same way can't be anchored to the
    // text and is held back (read/model/anchors.ts), so a few gold lists come out short.
    assert.ok(pct >= 90, `reading accuracy ${acc}`);
  });

  it('shows both models\u2019 readings side by side where they disagree', async () => {
    await nav('review');
    await page.waitForSelector('[data-testid="review-table"] [data-response]');
    await page.selectOption('select[aria-label="status"]', 'disagree');
    const rows = page.locator('[data-testid="review-table"] [data-response]');
    assert.equal(await rows.count(), 1, 'one lasting disagreement');
    assert.match((await rows.first().textContent()) ?? '', new RegExp(`${DISAGREE.student}.*${DISAGREE.question}`));
    await rows.first().click();
    await page.waitForSelector('[data-testid="response-detail"]');
    const readings = page.locator('[data-testid="readings"] .reading');
    assert.equal(await readings.count(), 2);
    const heads = (await page.locator('[data-testid="readings"] .reading h3').allTextContents()).join(' | ');
    assert.ok(heads.includes(READER) && heads.includes(CHECKER), heads);
    assert.ok(await page.isVisible('.chip[data-chip="disagree"]'));
    // The equation only one model read is marked as such.
    assert.ok((await page.locator('[data-testid="readings"] .only-here').count()) >= 1, 'the difference is highlighted');
    await shot(page, 'response-models');
    // The readings are kept in the workspace: a restarted app shows them too.
    const id = (await page.evaluate(() => document.querySelector('[data-testid="response-detail"]')?.getAttribute('data-response-id'))) as string;
    const again = new AppService({ workspacePath: join(app.dir, 'w.sqlite'), mode: 'browser', resourcesDir: join(REPO, 'resources') });
    try {
      const d = await again.handlers()['response.get']({ responseId: id });
      assert.deepEqual(d.readings.map((r) => r.source).sort(), [`model:${CHECKER}`, `model:${READER}`].sort());
    } finally {
      await again.close();
    }
  });

  it('says when the models came to agree', async () => {
    await nav('review');
    await page.selectOption('select[aria-label="status"]', 'all');
    await page.fill('input[type="search"]', COMES_ROUND.student);
    await page.selectOption('select[aria-label="question"]', COMES_ROUND.question);
    await page.locator('[data-response]').first().click();
    await page.waitForSelector('[data-testid="response-detail"]');
    assert.ok(await page.isVisible('.chip[data-chip="consensus"]'), 'consensus chip');
    assert.match((await page.textContent('[data-testid="readings"]')) ?? '', /agree/i);
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
