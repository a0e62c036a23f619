#!/usr/bin/env node
// Bundles the Electron main process and preload with esbuild into dist/electron/ (CommonJS, as
// Electron loads them; the preload runs sandboxed, so it must be one self-contained file).
// Native and WASM modules stay external and ship in node_modules (see electron-builder.yml).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';

const common = { bundle: true, platform: 'node', target: 'node22', format: 'cjs', sourcemap: true, logLevel: 'info', legalComments: 'none' };

mkdirSync('dist/electron', { recursive: true });
await build({
  ...common,
  entryPoints: ['electron/shell/main.ts'],
  outfile: 'dist/electron/main.cjs',
  external: ['electron', 'better-sqlite3', 'z3-solver', 'csv-parse', 'csv-stringify', 'ollama', 'esbuild'],
  // The SymPy worker finds its script from import.meta.url; keep it working in CJS.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// Z3 runs in worker threads (electron/engine/decide/entail/z3-pool.ts); in the bundle the pool
// starts dist/electron/z3-worker.cjs, found beside main.cjs (importMetaUrl). 'esbuild' is only
// imported when running from the TypeScript sources (the pool bundles its worker then), never here.
await build({
  ...common,
  entryPoints: ['electron/engine/decide/entail/z3-worker.ts'],
  outfile: 'dist/electron/z3-worker.cjs',
  external: ['z3-solver', 'esbuild'],
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// The answer groups' comparisons run in a worker thread (electron/engine/review/groups-thread.ts);
// in the bundle it starts dist/electron/groups-worker.cjs beside main.cjs. Its engine's Z3 pool
// finds z3-worker.cjs beside it the same way (importMetaUrl is this file's).
await build({
  ...common,
  entryPoints: ['electron/engine/review/groups-worker.ts'],
  outfile: 'dist/electron/groups-worker.cjs',
  external: ['better-sqlite3', 'z3-solver', 'esbuild'],
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
await build({ ...common, entryPoints: ['electron/shell/preload.ts'], outfile: 'dist/electron/preload.cjs', external: ['electron'] });
writeFileSync('dist/electron/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
