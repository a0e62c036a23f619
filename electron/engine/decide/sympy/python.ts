// Where the SymPy worker's Python comes from. Order (first that starts and imports SymPy wins):
//   1. a configured path (Settings → Python path; `pythonPath` option),
//   2. the environment variable EQUIMARK_PYTHON,
//   3. the bundled runtime when packaged: <resources>/python-runtime/bin/python3
//      (Windows: <resources>\python-runtime\python.exe), packaged as electron-builder.yml explains,
//   4. system interpreters: /usr/bin/python3 (Debian's, with python3-sympy), /usr/local/bin/python3,
//      /opt/homebrew/bin/python3, then `python3` / `python` on PATH.
// A candidate that exists but lacks SymPy is skipped (the worker itself reports "no-sympy").
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type PythonCandidate = { path: string; source: 'configured' | 'env' | 'bundled' | 'system' | 'path' };

export type LocateOptions = {
  /** Configured interpreter (Settings). */
  pythonPath?: string;
  /** Electron's process.resourcesPath when packaged; defaults to process.resourcesPath if set. */
  resourcesPath?: string;
  /** Environment to read EQUIMARK_PYTHON from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Look for system interpreters (/usr/bin/python3 ..., then python3 on PATH) after the others (default true). */
  searchSystem?: boolean;
};

const here = dirname(fileURLToPath(import.meta.url));

/** The resources directory Electron sets when packaged (undefined under plain Node / tsx). */
function packagedResources(): string | undefined {
  const rp = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  return typeof rp === 'string' && rp !== '' ? rp : undefined;
}

export function bundledPythonPath(resourcesPath: string): string {
  return process.platform === 'win32' ? join(resourcesPath, 'python-runtime', 'python.exe') : join(resourcesPath, 'python-runtime', 'bin', 'python3');
}

/** Candidates in priority order, without duplicates. Existence is checked for absolute paths. */
export function pythonCandidates(opts: LocateOptions = {}): PythonCandidate[] {
  const env = opts.env ?? process.env;
  const out: PythonCandidate[] = [];
  const add = (path: string | undefined, source: PythonCandidate['source']): void => {
    if (!path) return;
    if (out.some((c) => c.path === path)) return;
    out.push({ path, source });
  };
  add(opts.pythonPath, 'configured');
  add(env.EQUIMARK_PYTHON, 'env');
  const res = opts.resourcesPath ?? packagedResources();
  if (res) {
    const bundled = bundledPythonPath(res);
    if (existsSync(bundled)) add(bundled, 'bundled');
  }
  if (opts.searchSystem === false) return out;
  const system = process.platform === 'win32' ? [] : ['/usr/bin/python3', '/usr/local/bin/python3', '/opt/homebrew/bin/python3'];
  for (const p of system) if (existsSync(p)) add(p, 'system');
  add(process.platform === 'win32' ? 'python' : 'python3', 'path');
  return out;
}

/** The worker script: <resources>/python/worker.py when packaged, else this repository's copy. */
export function workerScriptPath(resourcesPath?: string): string {
  const res = resourcesPath ?? packagedResources();
  if (res) {
    const packaged = join(res, 'python', 'worker.py');
    if (existsSync(packaged)) return packaged;
  }
  return resolve(here, '..', '..', '..', '..', 'resources', 'python', 'worker.py');
}
