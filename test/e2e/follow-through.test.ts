// Follow-through marks in the app: the demo exam's q1.b follows through from q1.a (time to the top).
// A student whose wrong time (t = u/(2g)) is carried into a right height for it earns b, and the
// response view says "Follow-through from equation 1" with the relation worked on their value; a
// second error earns nothing and says why. The student's report and the marks-by-answer export say
// the same. Uses the bundled demo exam (resources/demo), read by the embedded extractor.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO, SHOTS, launch, openApp, readSimpleCsv, shot, skipReason, startApp, type App } from './support.ts';

const skip = skipReason();

describe('follow-through: the evidence in the response view, the report and the export', { skip: skip ?? false }, () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let examId: string;
  const ids: Record<string, string> = {};

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startApp();
    const h = app.service.handlers();
    const ex = await h['exam.import']({ json: readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8') });
    assert.ok(ex.ok);
    examId = ex.examId;
    const csv = 'student_id,question_id,response\nS01,q1,"t = u/(2g), so H = 3u^2/(8g)"\nS02,q1,"t = u/(2g), so H = u^2/(4g)"\n';
    assert.equal((await h['responses.import']({ examId, csv, fileName: 'r.csv' })).imported, 2);
    await h['grade.start']({ examId, technique: 'embedded', models: [] });
    for (let i = 0; i < 6000 && ['running', 'pausing'].includes((await h['grade.status']({})).state); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal((await h['grade.status']({})).state, 'done');
    for (const r of (await h['review.list']({ examId })).rows) ids[r.studentId] = r.responseId;
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const open = async (student: string) => {
    await page.click('[data-view="review"]');
    await page.waitForSelector(`[data-testid="review-table"] [data-response="${ids[student]}"]`);
    await page.click(`[data-response="${ids[student]}"]`);
    await page.waitForSelector('[data-testid="response-detail"] [data-testid="detail-total"] .big');
  };

  it('a wrong result carried forward correctly: b earned, "Follow-through from equation 1" with the relation', async () => {
    await open('S01');
    const ev = page.locator('[data-testid="follow-through-b"]');
    await ev.waitFor();
    const text = (await ev.textContent()) ?? '';
    assert.match(text, /Follow-through from equation 1 \(item a was wrong\): equation 2/);
    assert.ok((await ev.locator('.katex').count()) >= 3, 'the equation, the accepted relation and the relation worked on the student value, typeset');
    assert.equal((await page.textContent('tr[data-item="b"] [data-mark] .mark'))?.trim(), '1');
    assert.equal((await page.textContent('[data-testid="detail-total"] .big'))?.trim(), '1');
    await shot(page, 'response-follow-through');
  });

  it('a second error: b withheld, and the row says no follow-through', async () => {
    await open('S02');
    assert.equal(await page.locator('[data-testid="follow-through-b"]').count(), 0);
    assert.equal((await page.textContent('tr[data-item="b"] [data-mark] .mark'))?.trim(), '0');
    assert.match((await page.textContent('tr[data-item="b"]')) ?? '', /no follow-through from item a/);
  });

  it('the student report and the marks-by-answer export mark the follow-through', async () => {
    const h = app.service.handlers();
    const report = await h['export.studentReport']({ examId, studentId: 'S01' });
    assert.match(
      report.html,
      /Earned by follow-through from your equation 1: your result for item a was wrong, but your equation 2 follows correctly from it\./,
    );
    const rows = readSimpleCsv((await h['export.marks']({ examId })).csv);
    assert.deepEqual(
      rows.map((r) => [r.student_id, r['q1.b'], r.follow_through]),
      [
        ['S01', '1', 'q1.b'],
        ['S02', '0', ''],
      ],
    );
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
