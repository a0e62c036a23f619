#!/usr/bin/env node
// Bundles the Electron main process and preload with esbuild into dist/electron/ (CommonJS, as
// Electron loads them; the preload runs sandboxed, so it must be one self-contained file).
// Native and WASM modules stay external and ship in node_modules (see electron-builder.yml).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// engine-factory.ts loads the Entailer by a computed path (so the CLI can report a missing engine);
// a bundle needs it static, so the bundle gets the same file with that one import made literal
// (everything else, the SymPy prover included, stays as written).
const staticEngine = {
  name: 'static-engine-import',
  setup(b) {
    b.onLoad({ filter: /electron[\\/]engine[\\/]engine-factory\.ts$/ }, async (args) => {
      const src = await readFile(args.path, 'utf8');
      const contents = src.replace('await import(path)', "await import('./entail/index.ts')");
      if (contents === src) throw new Error('engine-factory.ts: the computed Entailer import was not found; update scripts/build-electron.mjs');
      return { loader: 'ts', contents, resolveDir: dirname(args.path) };
    });
  },
};

const common = { bundle: true, platform: 'node', target: 'node22', format: 'cjs', sourcemap: true, logLevel: 'info', legalComments: 'none' };

mkdirSync('dist/electron', { recursive: true });
await build({
  ...common,
  entryPoints: ['electron/shell/main.ts'],
  outfile: 'dist/electron/main.cjs',
  plugins: [staticEngine],
  external: ['electron', 'better-sqlite3', 'z3-solver', 'csv-parse', 'csv-stringify', 'ollama'],
  // The engine loads some modules by computed path (techniques, Entailer); keep import.meta.url working in CJS.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
await build({ ...common, entryPoints: ['electron/shell/preload.ts'], outfile: 'dist/electron/preload.cjs', external: ['electron'] });
writeFileSync('dist/electron/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
