// Helpers for CLI tests: paths, running the real launcher, the development data when present.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin/equimark.mjs');
export const DATA = resolve(ROOT, '../shared/data');
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
