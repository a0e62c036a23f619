// The app's reading techniques, from the engine's registry (electron/engine/techniques.ts), under
// the names the app offers: 'embedded', 'ollama' (LLM-Modulo with the first chosen model) and
// 'consensus' (the two chosen models must agree). grade() reads model techniques in batches, so
// each response's model record is stored in the workspace with its extraction.
import type { Question } from '../../shared/exam.ts';
import type { EntailmentEngine } from '../../electron/engine/entail/types.ts';
import type { ResponseRecord } from '../../electron/engine/pipeline/types.ts';
import { resolveTechnique, TECHNIQUES, type Technique } from '../../electron/engine/techniques.ts';

export type AppTechnique = Technique & { dispose?: () => Promise<void> };

export type TechniqueContext = {
  ollamaUrl: string;
  models: string[];
  engine?: EntailmentEngine;
  /** Called with each model record (tokens, readings) after a response is read. */
  onRecord?: (text: string, q: Question, record: ResponseRecord) => void;
};

export async function extraTechniques(ctx: TechniqueContext): Promise<Record<string, () => Promise<AppTechnique>>> {
  const model = (technique: 'llm-modulo' | 'consensus') => async (): Promise<AppTechnique> => {
    const [m1, m2] = ctx.models;
    if (!m1 || (technique === 'consensus' && !m2)) throw new Error(technique === 'consensus' ? 'choose two models for consensus' : 'choose a model');
    return resolveTechnique(technique, {
      model: m1,
      ...(technique === 'consensus' ? { model2: m2 } : {}),
      url: ctx.ollamaUrl,
      cache: null,
      retries: 1,
      timeoutMs: 120_000,
      ...(ctx.engine ? { engine: ctx.engine } : {}),
      ...(ctx.onRecord ? { onRecord: ctx.onRecord } : {}),
    });
  };
  return { embedded: TECHNIQUES.embedded, ollama: model('llm-modulo'), consensus: model('consensus') };
}
