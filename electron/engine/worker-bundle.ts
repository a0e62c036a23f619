// A worker thread's code bundled from the TypeScript sources with esbuild (which tsx itself runs
// on), for running from the sources (tests, the browser mode, the bench): the worker then starts
// without loading tsx and every module through it (about 3 s of CPU for the answer groups'
// worker at load 5 on 2 cores). The app's esbuild bundle has its own entries instead
// (scripts/build-electron.mjs). As there, every module of the bundle sees one `import.meta.url`,
// the caller's `importMetaUrl`: the code that reads it must find what it looks for from that URL.
// The build is synchronous (about 250 ms, once per process, as the app service opens): built
// asynchronously, its result waited for a turn of the event loop, and the first read of a large
// exam's list (seconds, synchronous) came first, so the worker started only after it.
// The packages left external are required by their resolved paths (the code runs from a string).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The bundle of `entry` as CommonJS code, or null where esbuild can't be used (the caller then starts the file through tsx). */
export function bundleFromSource(entry: URL, importMetaUrl: URL, external: readonly string[]): string | null {
  try {
    const require = createRequire(entry);
    const esbuild = require('esbuild') as typeof import('esbuild');
    const r = esbuild.buildSync({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: [...external],
      define: { 'import.meta.url': JSON.stringify(importMetaUrl.href) },
      logLevel: 'silent',
    });
    let code = r.outputFiles[0].text;
    for (const name of external) code = code.replaceAll(`require("${name}")`, `require(${JSON.stringify(require.resolve(name))})`);
    return code;
  } catch {
    return null;
  }
}
