// `npm run bench`: runs every bench/*.bench.ts in turn (each prints its own report, with ratios
// against a baseline measured in the same run). Pass names to run a subset: `npm run bench -- entail`.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  try {
    const mod = (await import(pathToFileURL(join(here, f)).href)) as { main?: () => Promise<void> };
    if (typeof mod.main === 'function') await mod.main();
  } catch (e) {
    failed++;
    console.error(`${f} failed:`, e);
  }
}
process.exit(failed ? 1 : 0);
