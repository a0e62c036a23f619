// The test files under a folder (recursively): names ending .test.ts, .test.tsx or .test.mjs,
// sorted. Shared by run-tests.mjs and soak.mjs.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (/\.test\.(ts|tsx|mjs)$/.test(name)) out.push(p);
  }
  return out.sort();
}
