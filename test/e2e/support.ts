// End-to-end support: build the renderer when needed, start the browser mode in-process on a
// temporary workspace, and launch Debian's Chromium headless through playwright-core.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AppService, type ServiceOptions } from '../../electron/app/service.ts';
import { serveBrowserMode, type BrowserServer } from '../../electron/server/http.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = process.env.EQUIMARK_CHROMIUM ?? '/usr/bin/chromium';
export const DATA = resolve(REPO, '../shared/data');
/**
 * Where the e2e tests write their screenshots: test-results/screenshots/ (gitignored), or
 * EQUIMARK_SCREENSHOTS. The tracked ones in docs/screenshots/ change only through
 * `npm run screenshots` (scripts/screenshots.mjs), which copies these there.
 */
export const SHOTS = resolve(REPO, process.env.EQUIMARK_SCREENSHOTS || 'test-results/screenshots');

/** Why the e2e suite can't run here, or null. */
export function skipReason(): string | null {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (install Debian's chromium or set EQUIMARK_CHROMIUM)`;
  return null;
}

function newest(dir: string): number {
  let t = 0;
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** Build dist/renderer with Vite if it is missing or older than the renderer or shared sources. */
export function ensureRendererBuilt(): string {
  const out = resolve(REPO, 'dist/renderer');
  const index = join(out, 'index.html');
  const src = Math.max(newest(resolve(REPO, 'renderer')), newest(resolve(REPO, 'shared')));
  if (!existsSync(index) || statSync(index).mtimeMs < src) {
    execFileSync(process.execPath, [resolve(REPO, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: REPO, stdio: 'inherit' });
  }
  return out;
}

export type App = { service: AppService; server: BrowserServer; dir: string; close(): Promise<void> };

export async function startApp(settings?: { ollamaUrl?: string }, options: Partial<ServiceOptions> = {}): Promise<App> {
  const dir = mkdtempSync(join(tmpdir(), 'equimark-e2e-'));
  const service = new AppService({ workspacePath: join(dir, 'w.sqlite'), mode: 'browser', resourcesDir: resolve(REPO, 'resources'), ...options });
  if (settings?.ollamaUrl) await service.handlers()['settings.set']({ ollamaUrl: settings.ollamaUrl, models: [], pythonPath: '' });
  const server = await serveBrowserMode({ handlers: service.handlers(), rendererDir: ensureRendererBuilt() });
  return {
    service,
    server,
    dir,
    async close() {
      await server.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // playwright gives the browser a fresh temporary profile (user-data-dir) of its own.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

export async function openApp(browser: Browser, app: App): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, acceptDownloads: true, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.goto(app.server.url);
  return { context, page, errors };
}

/**
 * The bundled demo exam with one response of one student (S01) to question `questionId`, graded
 * by the embedded extractor: the response's id. Throws where a step fails.
 */
export async function demoWithOneResponse(app: App, questionId: string, text: string): Promise<string> {
  const h = app.service.handlers();
  const ex = await h['exam.import']({ json: readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8') });
  if (!ex.ok) throw new Error('the demo exam was not imported');
  const examId = ex.examId;
  const csv = `student_id,question_id,response\nS01,${questionId},"${text}"\n`;
  if ((await h['responses.import']({ examId, csv, fileName: 'r.csv' })).imported !== 1) throw new Error('the response was not imported');
  await h['grade.start']({ examId, technique: 'embedded', models: [] });
  for (let i = 0; i < 600 && ['running', 'pausing'].includes((await h['grade.status']({})).state); i++) await new Promise((r) => setTimeout(r, 50));
  const state = (await h['grade.status']({})).state;
  if (state !== 'done') throw new Error(`grading ended '${state}', not 'done'`);
  return (await h['review.list']({ examId })).rows[0].responseId;
}

export async function shot(page: Page, name: string, opts: { top?: boolean } = { top: true }): Promise<void> {
  if (opts.top) await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(400); // let bars and transitions settle
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** A CSV (no multi-line fields in the files compared) as header + rows of cells. */
export function readSimpleCsv(text: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const header = lines[0].split(',');
  return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((c, i) => [header[i], c])));
}
