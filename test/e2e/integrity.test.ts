// Issue 13's integrity defects, each driven as an instructor would in the browser mode (Chromium):
// the exam just loaded is current everywhere; a group correction shows who changes and leaves
// members written differently alone; a group override error is an error naming the student,
// and the mark field has a maximum; a re-import asks before replacing changed answers and sets
// aside the work done on the old text; "Grade again" with another reader reads again; pause is
// answered while reading and Review shows content during a batch. Then regrade requests and
// the exports (open-work warning, gradebook, HTML report). Screenshots of each changed view go
// to test-results/screenshots/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO, SHOTS, launch, openApp, readSimpleCsv, shot, skipReason, startApp, type App } from './support.ts';

const DEMO = JSON.parse(readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8')) as { id: string; title: string };
const csvOf = (rows: [string, string, string][]) =>
  `student_id,question_id,response\n${rows.map((r) => r.map((c) => JSON.stringify(c)).join(',')).join('\n')}\n`;

describe('integrity of the instructor’s work, in the browser', { skip: skipReason() ?? false }, () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const h = () => app.service.handlers();
  const nav = (view: string) => page.click(`[data-view="${view}"]`);
  const idOf = async (studentId: string) =>
    (await h()['review.list']({ examId: DEMO.id })).rows.find((r) => r.studentId === studentId && r.questionId === 'q1')!.responseId;
  const totalOf = async (studentId: string) => (await h()['response.get']({ responseId: await idOf(studentId) })).total;
  const gradeAndWait = async () => {
    const before = await page.evaluate(() => document.querySelector('[data-testid="progress"]')?.getAttribute('data-started') ?? '');
    await page.click('[data-testid="grade-start"]');
    await page.waitForFunction(
      (prev) => {
        const p = document.querySelector('[data-testid="progress"]');
        return p?.getAttribute('data-state') === 'done' && (p.getAttribute('data-started') ?? '') !== prev;
      },
      before,
      { timeout: 120_000 },
    );
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startApp();
    browser = await launch();
    ({ page, errors } = await openApp(browser, app));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('(3) the demo, loaded with another exam open, is current everywhere: selector, editor, footer and banner; so is a second exam imported', async () => {
    const first = join(app.dir, 'first.json');
    writeFileSync(first, JSON.stringify({ ...DEMO, id: 'first-exam', title: 'First exam' }));
    await page.setInputFiles('[data-testid="exam-file"]', first);
    await page.waitForFunction(() => (document.querySelector('input[aria-label="exam title"]') as HTMLInputElement | null)?.value === 'First exam');
    await page.click('button:has-text("Load the demo exam")');
    await page.waitForSelector('text=Demo exam loaded');
    const banner = (await page.locator('text=Demo exam loaded').textContent()) ?? '';
    const n = /with (\d+) responses/.exec(banner)?.[1];
    await page.waitForFunction((title) => (document.querySelector('input[aria-label="exam title"]') as HTMLInputElement | null)?.value === title, DEMO.title);
    // The selector follows the editor in its own render: wait for it (a fixed read races it).
    await page.waitForFunction((id) => (document.querySelector('select[aria-label="current exam"]') as HTMLSelectElement | null)?.value === id, DEMO.id);
    assert.equal(await page.inputValue('select[aria-label="current exam"]'), DEMO.id);
    await page.waitForSelector(`.sidebar-foot:has-text("${n} responses")`);
    await shot(page, 'exam-demo-current');
    const second = join(app.dir, 'second.json');
    writeFileSync(second, JSON.stringify({ ...DEMO, id: 'second-exam', title: 'Second exam' }));
    await page.setInputFiles('[data-testid="exam-file"]', second);
    await page.waitForFunction(() => (document.querySelector('input[aria-label="exam title"]') as HTMLInputElement | null)?.value === 'Second exam');
    await page.waitForFunction(() => (document.querySelector('select[aria-label="current exam"]') as HTMLSelectElement | null)?.value === 'second-exam');
    assert.equal(await page.inputValue('select[aria-label="current exam"]'), 'second-exam');
    await page.waitForSelector('.sidebar-foot:has-text("0 responses")');
    // Back to the demo for what follows.
    await page.selectOption('select[aria-label="current exam"]', DEMO.id);
    await page.waitForFunction((title) => (document.querySelector('input[aria-label="exam title"]') as HTMLInputElement | null)?.value === title, DEMO.title);
  });

  it('(1) a group correction shows every member and the mark changes first, and leaves a member written differently alone', async () => {
    await nav('responses');
    const file = join(app.dir, 'group.csv');
    writeFileSync(
      file,
      csvOf([
        ['T1', 'q1', 'H = u^2/(2g)'],
        ['T2', 'q1', 'H = u^2/(2g)'],
        ['T3', 'q1', 'u^2 = 2 g H'],
      ]),
    );
    await page.setInputFiles('[data-testid="responses-file"]', file);
    await page.waitForSelector('text=Imported 3 responses');
    await nav('grade');
    await gradeAndWait();
    const t3 = await totalOf('T3');
    await nav('groups');
    await page.waitForSelector('.group');
    // The group holding T1: find it through the preview of each group with equations.
    const n = await page.locator('.group').count();
    let found = false;
    for (let i = 0; i < n && !found; i++) {
      const g = page.locator('.group').nth(i);
      if ((await g.locator('.katex').count()) === 0) continue;
      await g.locator('[data-testid="group-correct"]').click();
      await g.locator('input[aria-label="group correction comment"]').fill('checked as a group');
      await g.locator('[data-testid="group-correct-preview"]').click();
      await g.locator('[data-testid="group-preview"]').waitFor();
      if ((await g.locator('tr[data-member="T1"]').count()) && (await g.locator('tr[data-member="T3"]').count())) {
        found = true;
        assert.equal(await g.locator('tr[data-member="T1"]').getAttribute('data-reached'), 'true');
        assert.equal(await g.locator('tr[data-member="T3"]').getAttribute('data-reached'), 'false');
        assert.match((await g.locator('tr[data-member="T3"]').textContent()) ?? '', /u\^2 = 2 g H.*written differently/);
        await shot(page, 'groups-preview', { top: false });
        await g.locator('[data-testid="group-correct-apply"]').click();
        await page.waitForSelector('[data-testid="groups-message"]:has-text("left as they were")');
      } else await g.locator('[data-testid="group-correct"]').click();
    }
    assert.ok(found, 'a group holds T1 and T3');
    assert.equal(await totalOf('T3'), t3, "T3's mark did not change");
    assert.deepEqual((await h()['response.get']({ responseId: await idOf('T3') })).chips.includes('corrected'), false);
  });

  it('(6) the group mark field has a maximum, and an override error is an error banner naming the student', async () => {
    const g = page.locator('.group').first();
    await g.locator('[data-testid="group-override"]').click();
    await g.locator('select[aria-label="scheme item"]').selectOption('d');
    const marks = g.locator('input[aria-label="marks"]');
    assert.equal(await marks.getAttribute('max'), '1');
    await marks.fill('5');
    await g.locator('text=at most 1').waitFor();
    await g.locator('input[aria-label="group override reason"]').fill('explained');
    assert.ok(await g.locator('button:has-text("Apply to")').isDisabled(), 'more than the item is worth cannot be applied');
    await marks.fill('1');
    // Meanwhile (another window) item d's worth is set to 0: the server refuses, naming the student.
    const exam = await h()['exam.get']({ examId: DEMO.id });
    await h()['exam.save']({
      exam: {
        ...exam,
        questions: exam.questions.map((q) => (q.id !== 'q1' ? q : { ...q, scheme: q.scheme.map((s) => (s.id === 'd' ? { ...s, marks: 0 } : s)) })),
      },
    });
    await g.locator('button:has-text("Apply to")').click();
    const banner = page.locator('[data-testid="groups-message"]');
    await banner.waitFor();
    assert.match((await banner.getAttribute('class')) ?? '', /banner error/);
    assert.match((await banner.textContent()) ?? '', /student \S+ \(question q1\): item d is worth 0, so 1 can't be awarded; nothing was changed/);
    await shot(page, 'groups-override-error', { top: false });
    await h()['exam.save']({ exam });
    for (let i = 0; i < 200 && (await h()['grade.status']({})).state === 'running'; i++) await page.waitForTimeout(100);
  });

  it('(2) re-import lists new, unchanged and changed rows, asks, and sets aside a correction and an override made on the old text', async () => {
    const id = await idOf('T2');
    await h()['response.setEquations']({ responseId: id, equations: ['Eq(H, u**2/(2*g))', 'Eq(t, u/g)'], comment: 'time in words' });
    await h()['response.override']({ responseId: id, itemId: 'd', marks: 1, comment: 'explained doubling' });
    await nav('responses');
    const file = join(app.dir, 'again.csv');
    writeFileSync(
      file,
      csvOf([
        ['T1', 'q1', 'H = u^2/(2g)'],
        ['T2', 'q1', 'H = u t - g t^2/2'],
        ['T4', 'q1', 'H = u^2/(2g)'],
      ]),
    );
    await page.setInputFiles('[data-testid="responses-file"]', file);
    const decision = page.locator('[data-testid="import-decision"]');
    await decision.waitFor();
    assert.match((await decision.textContent()) ?? '', /1 new, 1 unchanged, 1 changed/);
    assert.match((await decision.locator('tr[data-changed="T2/q1"]').textContent()) ?? '', /equations corrected, 1 override/);
    assert.equal((await h()['response.get']({ responseId: id })).text, 'H = u^2/(2g)', 'nothing replaced before the instructor decides');
    await shot(page, 'reimport-decision');
    await page.click('[data-testid="import-replace"]');
    await page.waitForSelector('text=2 corrections or overrides made on the earlier text wait');
    await nav('grade');
    await gradeAndWait();
    await nav('review');
    await page.fill('input[type="search"]', 'T2');
    await page.locator('[data-response]').first().click();
    await page.waitForSelector('[data-testid="earlier-changes"]');
    assert.ok(await page.isVisible('.chip[data-chip="earlier-text"]'));
    const d = await h()['response.get']({ responseId: id });
    assert.equal(d.items.find((i) => i.itemId === 'd')?.final, null, 'the old override is not applied to the new text');
    assert.equal(d.current?.source, 'embedded', 'nor the old correction');
    await shot(page, 'response-earlier-text');
    await page.fill('input[aria-label="earlier change reason"]', 'still explained');
    await page.click('[data-testid="earlier-confirm-override"]');
    await page.waitForFunction(() => !document.querySelector('[data-earlier="override"]'));
    await page.fill('input[aria-label="earlier change reason"]', 'the new text reads fine');
    await page.click('[data-testid="earlier-drop-correction"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="earlier-changes"]'));
    assert.equal((await h()['response.get']({ responseId: id })).items.find((i) => i.itemId === 'd')?.final, 1);
  });

  it('(5) "Grade again" with another reader reads the responses again and says so', async () => {
    await nav('grade');
    await page.check('input[name="technique"][value="plain"]');
    await gradeAndWait();
    const msg = (await page.textContent('[data-testid="progress-message"]')) ?? '';
    assert.match(msg, /Read \d+ responses again with the 'plain' reader/);
    await shot(page, 'grade-again-other-reader');
    await gradeAndWait();
    assert.match((await page.textContent('[data-testid="progress-message"]')) ?? '', /Nothing was read again/);
    await page.check('input[name="technique"][value="embedded"]');
    await gradeAndWait();
  });

  it('regrade requests: recorded, in the queue, answered with a changed mark, and in the CSV', async () => {
    await nav('regrades');
    await page.fill('input[aria-label="regrade student"]', 'T4');
    await page.selectOption('select[aria-label="regrade question"]', 'q1');
    await page.fill('input[aria-label="date requested"]', '2026-11-20');
    await page.fill('textarea[aria-label="regrade request"]', 'My last line explains the doubling.');
    await page.click('[data-testid="regrade-add"]');
    const card = page.locator('.card.regrade').first();
    await card.waitFor();
    await card.locator('input[aria-label="mark d"]').fill('1');
    await card.locator('textarea[aria-label="regrade reply"]').fill('Agreed: one mark for d.');
    await shot(page, 'regrades');
    await card.locator('[data-testid="regrade-resolve"]').click();
    await page.waitForSelector('text=Answered T4, q1: 1 mark changed.');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-regrades"]')]);
    const rows = readSimpleCsv(readFileSync((await dl.path())!, 'utf8'));
    assert.equal(rows[0].student_id, 'T4');
    assert.equal(rows[0].state, 'resolved');
  });

  it('export: open work is listed first (export anyway), the gradebook is one row per student, the report is HTML with rendered maths', async () => {
    await nav('export');
    await page.click('[data-testid="export-gradebook"]');
    const warning = page.locator('[data-testid="export-warning"]');
    await warning.waitFor();
    assert.match((await warning.textContent()) ?? '', /manual items open/);
    await shot(page, 'export-warning');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-anyway"]')]);
    const gb = readFileSync((await dl.path())!, 'utf8')
      .trim()
      .split('\n');
    assert.equal(gb[0], `Student,ID,SIS User ID,SIS Login ID,Section,${DEMO.title}`);
    const ids = gb.slice(1).map((l) => l.split(',')[0]);
    assert.equal(new Set(ids).size, ids.length, 'one row per student');
    await page.click('[data-testid="export-marks"]');
    const [dl2] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-anyway"]')]);
    const answers = readFileSync((await dl2.path())!, 'utf8');
    assert.match(
      answers.split('\n')[0],
      /^student_id,question_id,q1\.a,q1\.b,q1\.c,q1\.d,q2\.r1,q2\.r2,q3\.v1,q3\.v2,total,available,status,review_reasons,overridden,comments,open_regrade_requests,dimensions,follow_through$/,
    );
    await page.fill('input[aria-label="student id"]', 'T4');
    const [dl3] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-report"]')]);
    const html = readFileSync((await dl3.path())!, 'utf8');
    assert.match(dl3.suggestedFilename(), /\.html$/);
    assert.match(html, /class="katex"/);
    assert.match(html, /Agreed: one mark for d\./);
    const report = join(app.dir, 'report.html');
    writeFileSync(report, html);
    const view = await page.context().newPage();
    await view.goto(`file://${report}`);
    await view.waitForSelector('.katex');
    await shot(view, 'student-report');
    await view.close();
  });

  it('(4) pause is answered while responses are being read, progress counts per response, and Review shows content during a batch', async () => {
    const rows: [string, string, string][] = [];
    for (let i = 0; i < 3000; i++) rows.push([`B${i}`, i % 2 ? 'q1' : 'q2', i % 3 ? 'H = u^2/(2g) so t = u/g' : 'the height is u squared over 2g']);
    await nav('responses');
    const file = join(app.dir, 'big.csv');
    writeFileSync(file, csvOf(rows));
    await page.setInputFiles('[data-testid="responses-file"]', file);
    await page.waitForSelector('text=Imported 3000 responses');
    await nav('grade');
    await page.click('[data-testid="grade-start"]');
    await page.waitForSelector('button:has-text("Pause"):not([disabled])');
    await page.click('button:has-text("Pause")');
    await page.waitForSelector('[data-testid="progress"][data-state="paused"]', { timeout: 60_000 });
    const p = await h()['grade.status']({});
    assert.ok(p.read < p.total, `paused during reading (${p.read} of ${p.total} read)`);
    assert.match((await page.textContent('[data-testid="progress-counts"]')) ?? '', new RegExp(`${p.read} of ${p.total} read`));
    await shot(page, 'grade-paused');
    // Resume, and open Review while the batch runs: it shows content at once (a loading line, then the table).
    await page.click('button:has-text("Resume")');
    await page.waitForSelector('[data-testid="progress"][data-state="running"]');
    await nav('review');
    await page.waitForSelector('[data-testid="review-loading"], [data-testid="review-table"]', { timeout: 5000 });
    await page.waitForSelector('[data-testid="review-table"]', { timeout: 60_000 });
    await shot(page, 'review-during-batch');
    const handlers = h();
    await handlers['grade.pause']({}).catch(() => {});
  });

  it('raised no errors in the page', () => {
    assert.deepEqual(errors, []);
  });
});
