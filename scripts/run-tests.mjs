#!/usr/bin/env node
// Runs every test file under test/ (and any given paths) with Node's test runner through tsx,
// and ends with one line "N passed, N failed" totalling all suites, so CI can tell a run that
// tested nothing from one that passed.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { findTests } from './test-files.mjs';

const args = process.argv.slice(2);
const files = args.length ? args.flatMap((a) => (statSync(a).isDirectory() ? findTests(a) : [a])) : findTests('test');
if (files.length === 0) {
  console.log('no test files found');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// A file of this run's own, so two runs side by side (the soak, a developer) never read each other's totals.
const tapLog = join(tmpdir(), `equimark-tap-${process.pid}.log`);
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=1',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapLog}`,
    ...files,
  ],
  { stdio: 'inherit' },
);
child.on('exit', async (code) => {
  const { readFileSync, rmSync } = await import('node:fs');
  let tap = '';
  try {
    tap = readFileSync(tapLog, 'utf8');
    rmSync(tapLog);
  } catch {}
  const pass = Number(/^# pass (\d+)/m.exec(tap)?.[1] ?? 0);
  const fail = Number(/^# fail (\d+)/m.exec(tap)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(tap)?.[1] ?? 0);
  const failed = fail || (code !== 0 && pass === 0 ? 1 : 0);
  console.log(`\n${pass} passed, ${failed} failed`);
  process.exit(code === 0 && failed === 0 && pass > 0 ? 0 : 1);
});
