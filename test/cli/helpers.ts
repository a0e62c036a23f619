// Helpers for CLI tests: paths, running the real launcher, the development data when present.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin/equimark.mjs');
export const DATA = resolve(ROOT, '../shared/data');
/** Env for a CLI run that names a non-local host: its name lookups fail at once, nothing leaves the machine. */
export const OFFLINE_DNS = { NODE_OPTIONS: `--require ${join(ROOT, 'test/support/offline-dns.cjs')}` };
export const hasData = existsSync(join(DATA, 'exam.json')) && existsSync(join(DATA, 'gold.csv'));

export function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function startCli(args: string[]) {
  return spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Parse a simple CSV we wrote ourselves (no multi-line fields) into keyed rows. */
export function csvRows(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

/**
 * Run the real launcher without blocking this process (a fake Ollama server in the test process
 * keeps answering), with extra environment variables (`undefined` removes one).
 */
export function runCliAsync(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 180_000,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const e: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete e[k];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: e as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr });
    });
  });
}
