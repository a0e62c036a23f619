// The app's reading techniques: the engine's registry (electron/engine/techniques.ts) under the
// same names the CLI uses (embedded, plain, direct, llm-modulo, consensus, per-line, hybrid),
// with the models the instructor chose. grade() reads model techniques in batches, so each
// response's model record (readings, calls, tokens) is stored in the workspace with its extraction.
import type { Question } from '../../shared/exam.ts';
import type { TechniqueName } from '../../shared/api.ts';
import type { EntailmentEngine } from '../engine/decide/entail/types.ts';
import type { ResponseRecord } from '../engine/read/model/types.ts';
import { MODEL_TECHNIQUES, resolveTechnique, TECHNIQUES, type Technique } from '../engine/read/registry.ts';

export type AppTechnique = Technique & { dispose?: () => Promise<void> };

export type TechniqueContext = {
  ollamaUrl: string;
  models: string[];
  /** The reply cache file (JSON lines); none when absent. */
  cachePath?: string | null;
  engine?: EntailmentEngine;
  /** Called with each model record (tokens, readings) after a response is read. */
  onRecord?: (text: string, q: Question, record: ResponseRecord) => void;
};

/** What each technique is, in an instructor's words, and how many models it takes. */
export const TECHNIQUE_INFO: Record<TechniqueName, { label: string; note: string; minModels: number; maxModels: number }> = {
  hybrid: {
    label: 'Hybrid: extractor first, a model for the rest',
    note: 'The embedded extractor reads what it can with confidence; a model reads the rest (with two models, they must agree). Recommended.',
    minModels: 1,
    maxModels: 2,
  },
  'llm-modulo': { label: 'A model, checked by the grammar', note: 'A model reads every response; equations our grammar rejects go back to it to repair.', minModels: 1, maxModels: 1 },
  consensus: { label: 'Two models must agree', note: 'Two models read each response and compare readings; where they still disagree, you decide.', minModels: 2, maxModels: 2 },
  'per-line': { label: 'A model, line by line', note: 'Long responses are read in pieces by a model, each piece on its own.', minModels: 1, maxModels: 1 },
  direct: { label: 'A model, one pass', note: 'A model reads each response once, with no repair round (the fastest model technique).', minModels: 1, maxModels: 1 },
  embedded: { label: 'Embedded extractor', note: 'Runs inside Equimark on this computer. Fast, no model needed; unclear passages are left for you.', minModels: 0, maxModels: 0 },
  plain: { label: 'Plain reader', note: 'Reads only responses written entirely as equations; everything else goes to you for review.', minModels: 0, maxModels: 0 },
};

/** Offered in this order. */
export const TECHNIQUE_ORDER: TechniqueName[] = ['hybrid', 'llm-modulo', 'consensus', 'per-line', 'direct', 'embedded', 'plain'];

export async function extraTechniques(ctx: TechniqueContext): Promise<Record<string, () => Promise<AppTechnique>>> {
  const out: Record<string, () => Promise<AppTechnique>> = { ...TECHNIQUES };
  for (const name of MODEL_TECHNIQUES) {
    out[name] = async (): Promise<AppTechnique> => {
      const [m1, m2] = ctx.models;
      const info = TECHNIQUE_INFO[name as TechniqueName];
      if (!m1 || ctx.models.length < info.minModels) throw new Error(info.minModels === 2 ? `choose two models for '${name}'` : `choose a model for '${name}'`);
      return resolveTechnique(name, {
        model: m1,
        ...(m2 && info.maxModels > 1 ? { model2: m2 } : {}),
        url: ctx.ollamaUrl,
        cache: ctx.cachePath ?? null,
        retries: 1,
        timeoutMs: 120_000,
        ...(ctx.engine ? { engine: ctx.engine } : {}),
        ...(ctx.onRecord ? { onRecord: ctx.onRecord } : {}),
      });
    };
  }
  return out;
}
