// Reading techniques beyond the engine's own registry (electron/engine/grade.ts TECHNIQUES):
// the embedded extractor (shared/extract/) when its module exists in this build, and the Ollama
// pipeline (electron/engine/pipeline/) with the models the instructor chose.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Question } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import type { Technique } from '../../electron/engine/grade.ts';
import type { EntailmentEngine } from '../../electron/engine/entail/types.ts';
import type { ResponseRecord } from '../../electron/engine/pipeline/types.ts';

export type AppTechnique = Technique & { dispose?: () => Promise<void> };

export type TechniqueContext = {
  ollamaUrl: string;
  models: string[];
  engine?: EntailmentEngine;
  /** Called with each model record (tokens, readings) after a response is read. */
  onRecord?: (text: string, q: Question, record: ResponseRecord) => void;
};

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

type ExtractFn = (text: string, q: Question) => Extraction | Promise<Extraction>;

let embeddedFn: ExtractFn | null | undefined;
async function loadEmbedded(): Promise<ExtractFn | null> {
  if (embeddedFn !== undefined) return embeddedFn;
  embeddedFn = null;
  for (const p of ['../../shared/extract/index.ts', '../../shared/extract/embedded.ts']) {
    if (!existsSync(here(p))) continue;
    try {
      const mod = (await import(p)) as { extractEmbedded?: ExtractFn };
      if (typeof mod.extractEmbedded === 'function') {
        embeddedFn = mod.extractEmbedded;
        break;
      }
    } catch {
      /* not usable yet: not offered */
    }
  }
  return embeddedFn;
}

export async function extraTechniques(ctx: TechniqueContext): Promise<Record<string, () => Promise<AppTechnique>>> {
  const out: Record<string, () => Promise<AppTechnique>> = {};
  const embedded = await loadEmbedded();
  if (embedded) out.embedded = async () => ({ name: 'embedded', extractor: { name: 'embedded', extract: embedded } });
  if (existsSync(here('../../electron/engine/pipeline/batch.ts'))) {
    const model = (technique: 'llm-modulo' | 'consensus') => async (): Promise<AppTechnique> => {
      const { ollamaExtractor } = await import('../../electron/engine/pipeline/batch.ts');
      const [m1, m2] = ctx.models;
      if (!m1 || (technique === 'consensus' && !m2)) throw new Error(technique === 'consensus' ? 'choose two models for consensus' : 'choose a model');
      const ex = ollamaExtractor({
        model: m1,
        ...(technique === 'consensus' ? { model2: m2 } : {}),
        technique,
        url: ctx.ollamaUrl,
        cache: null,
        retries: 1,
        timeoutMs: 120_000,
        ...(ctx.engine ? { engine: ctx.engine } : {}),
        ...(embedded ? { embedded } : {}),
      });
      return {
        name: technique === 'consensus' ? 'consensus' : `model:${m1}`,
        extractor: {
          name: ex.name,
          async extract(text: string, q: Question) {
            const x = await ex.extract(text, q);
            if (ex.lastRecord) ctx.onRecord?.(text, q, ex.lastRecord);
            return x;
          },
        },
      };
    };
    out.ollama = model('llm-modulo');
    out.consensus = model('consensus');
  }
  return out;
}
