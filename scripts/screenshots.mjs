#!/usr/bin/env node
// Refreshes the tracked screenshots in docs/screenshots/ on purpose. The end-to-end tests write
// theirs to test-results/screenshots/ (gitignored), so `npm test` never changes a tracked file;
// this script is the one way they reach docs/.
//
//   npm run screenshots               run the e2e tests that take screenshots, then copy them
//   npm run screenshots -- --copy     only copy what the last e2e run left in test-results/screenshots/
//   npm run screenshots -- FILE...    run only these e2e test files, then copy what they took
//
// After a run, nothing is copied when a test failed (a failing test can leave a half-drawn
// screen); each screenshot copied is listed, and so is each one in docs/ this run did not take.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const FROM = resolve(REPO, 'test-results/screenshots');
const TO = resolve(REPO, 'docs/screenshots');
/** The e2e files that take screenshots. */
const SHOOTERS = [
  'test/e2e/workflow.test.ts',
  'test/e2e/held-back.test.ts',
  'test/e2e/ollama.test.ts',
  'test/e2e/pull.test.ts',
  'test/e2e/keyboard.test.ts',
  'test/e2e/scheme-preview.test.ts',
  'test/e2e/result-choice.test.ts',
];

const args = process.argv.slice(2);
const copyOnly = args.includes('--copy');
const files = args.filter((a) => !a.startsWith('--'));
const unknown = args.filter((a) => a.startsWith('--') && a !== '--copy');
if (unknown.length) {
  console.error(`screenshots: unknown option ${unknown.join(' ')} (options: --copy, or e2e test files to run)`);
  process.exit(2);
}

if (!copyOnly) {
  // Start clean, so only what this run takes is copied.
  rmSync(FROM, { recursive: true, force: true });
  const run = spawnSync(process.execPath, [join(REPO, 'scripts/run-tests.mjs'), ...(files.length ? files : SHOOTERS)], {
    cwd: REPO,
    stdio: 'inherit',
    env: { ...process.env, EQUIMARK_SCREENSHOTS: FROM },
  });
  if (run.status !== 0) {
    console.error('screenshots: some e2e test failed or was cancelled; docs/screenshots/ left as it was');
    process.exit(1);
  }
}

const taken = existsSync(FROM) ? readdirSync(FROM).filter((n) => n.endsWith('.png') && statSync(join(FROM, n)).isFile()) : [];
if (taken.length === 0) {
  console.error(
    `screenshots: none in ${FROM}${copyOnly ? ' (run the e2e tests first, or drop --copy)' : ' (were the e2e tests skipped? they need Chromium and ../shared/data)'}`,
  );
  process.exit(1);
}
mkdirSync(TO, { recursive: true });
for (const n of taken.sort()) {
  copyFileSync(join(FROM, n), join(TO, n));
  console.log(`docs/screenshots/${n}`);
}
const stale = readdirSync(TO).filter((n) => n.endsWith('.png') && !taken.includes(n));
if (stale.length) console.log(`not refreshed (not taken by this run): ${stale.sort().join(', ')}`);
console.log(`${taken.length} screenshot${taken.length === 1 ? '' : 's'} copied to docs/screenshots/`);
