// A worker thread's code bundled from the TypeScript sources with esbuild (which tsx itself runs
// on), for running from the sources (tests, the browser mode, the bench): the worker then starts
// without loading tsx and every module through it (about 3 s of CPU for the answer groups'
// worker at load 5 on 2 cores). The esbuild CJS bundle of the app has its own entries instead
// (scripts/build-electron.mjs). Each module's `import.meta.url` is its own file's URL, so code that
// finds files beside itself (Z3's worker, SymPy's script) finds them as it does unbundled; the
// packages left external are required by their resolved paths (the code runs from a string).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The bundle of `entry` as CommonJS code, or null where esbuild can't be used (the caller then starts the file through tsx). */
export async function bundleFromSource(entry: URL, external: readonly string[]): Promise<string | null> {
  try {
    const esbuild = await import('esbuild');
    const require = createRequire(entry);
    const r = await esbuild.build({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: [...external],
      logLevel: 'silent',
      plugins: [
        {
          name: 'own-import-meta-url',
          setup(build) {
            build.onLoad({ filter: /\.ts$/ }, async (a) => ({
              contents: (await readFile(a.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href)),
              loader: 'ts',
            }));
          },
        },
      ],
    });
    let code = r.outputFiles[0].text;
    for (const name of external) code = code.replaceAll(`require("${name}")`, `require(${JSON.stringify(require.resolve(name))})`);
    return code;
  } catch {
    return null;
  }
}
