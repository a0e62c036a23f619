#!/usr/bin/env node
// `npm run soak [-- ROUNDS]`: runs the entailment and CLI suites (test/entail, test/cli) ROUNDS
// times (default 20; or SOAK_ROUNDS) with two busy CPU loops beside them and a very short Z3
// deadline, to show that Z3 time-outs under load give 'unknown' and never a crash or a hang.
// Prints each round's failures and ends with one line "N passed, N failed" (all rounds together);
// exits 1 when anything failed.
//
// Environment:
//   SOAK_ROUNDS               rounds when no argument is given (default 20).
//   EQUIMARK_Z3_DEADLINE_MS   read by the engine (electron/engine/decide/entail/z3.ts): caps the
//                             wall-clock deadline of every Z3 check, in ms; a Z3 worker thread still
//                             busy at the deadline is terminated and replaced, and the check is
//                             'unknown'. The soak sets it to SOAK_Z3_DEADLINE_MS (default 1000: half
//                             the default 2000 ms time limit; some of the suites' pairs need Z3 for
//                             over 600 ms on a loaded 2-core machine, and a time-out there changes
//                             their verdict to sampling or unknown, which the tests rightly flag);
//                             tests that ask for a shorter limit (1 ms, 200 ms) keep theirs.
//   SOAK_BUSY                 busy loops beside the tests (default 2).
import { spawn } from 'node:child_process';
import { findTests } from './test-files.mjs';

const rounds = Math.max(1, Number(process.argv[2] ?? process.env.SOAK_ROUNDS ?? 20) || 20);
const deadline = String(process.env.SOAK_Z3_DEADLINE_MS ?? 1000);
const busyCount = Math.max(0, Number(process.env.SOAK_BUSY ?? 2));
const suites = ['test/entail', 'test/cli'];

const files = suites.flatMap(findTests);

// The busy loops: separate processes, each spinning one core, ended by their pid at the end.
const busy = Array.from({ length: busyCount }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBusy = () => {
  for (const b of busy) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL');
};
process.on('exit', stopBusy);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

/** One round: Node's test runner over the suites, TAP on stdout (parsed here, nothing written to disk). */
function round() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=tap', ...files], {
      env: { ...process.env, EQUIMARK_Z3_DEADLINE_MS: deadline },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code, signal) => {
      const n = (re) => Number(re.exec(out)?.[1] ?? 0);
      const pass = n(/^# pass (\d+)/m);
      const fail = n(/^# fail (\d+)/m) + n(/^# cancelled (\d+)/m);
      // Names of failing tests (top-level and nested), for the round's report.
      const failed = [...out.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => m[1]).filter((name) => !/\.test\.(ts|mjs)$/.test(name));
      const broken = code !== 0 && fail === 0;
      resolve({
        pass,
        fail: fail + (broken ? 1 : 0),
        failed: broken ? [`runner exited with ${signal ?? code}: ${err.trim().split('\n').slice(-3).join(' | ')}`] : failed,
      });
    });
  });
}

console.log(`soak: ${rounds} rounds of ${suites.join(' + ')} (${files.length} files), ${busyCount} busy loops, EQUIMARK_Z3_DEADLINE_MS=${deadline}`);
let passed = 0;
let failed = 0;
for (let i = 1; i <= rounds; i++) {
  const t0 = Date.now();
  const r = await round();
  passed += r.pass;
  failed += r.fail;
  const secs = ((Date.now() - t0) / 1000).toFixed(0);
  console.log(`round ${i}/${rounds}: ${r.pass} passed, ${r.fail} failed (${secs} s)${r.failed.length ? `\n  failed: ${r.failed.join('\n  failed: ')}` : ''}`);
}
stopBusy();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
