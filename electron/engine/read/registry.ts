// The reading techniques, one registry for the CLI and the app:
//   embedded    the embedded extractor (shared/extract/), inside Equimark, no model;
//   plain       the interim whole-text reader (responses written entirely as equations);
//   direct, llm-modulo, consensus, per-line, hybrid
//               the Ollama pipeline (electron/engine/pipeline/); hybrid lets the embedded
//               extractor read what it can with confidence and asks the model about the rest.
// A model technique also reads in batches (`batch`): records per response, accounting, and
// responses left waiting for the model when Ollama can't be reached (the embedded extractor's
// reading of those is kept, flagged 'waiting-for-model').
import type { Question } from '../../../shared/exam.ts';
import type { Extraction, ExtractionFlag } from '../../../shared/extraction.ts';
import { extractEmbedded } from '../../../shared/extract/index.ts';
import type { EntailmentEngine } from '../decide/entail/types.ts';
import type { Extractor } from './types.ts';
import { plainExtractor } from './plain.ts';
import { openReplyCache, type ReplyCache } from './ollama/cache.ts';
import { OllamaClient } from './ollama/client.ts';
import { makeSettings, resolveOllamaUrl, type Technique as ModelTechniqueName } from './ollama/settings.ts';
import { readResponses, type BatchItem, type BatchResult, type ReadOptions } from './model/batch.ts';
import type { ResponseInput, ResponseRecord } from './model/types.ts';

export const TECHNIQUE_NAMES = ['embedded', 'plain', 'direct', 'llm-modulo', 'consensus', 'per-line', 'hybrid'] as const;
export type TechniqueName = (typeof TECHNIQUE_NAMES)[number];
export const MODEL_TECHNIQUES: readonly ModelTechniqueName[] = ['direct', 'llm-modulo', 'consensus', 'per-line', 'hybrid'];

export const isModelTechnique = (name: string): name is ModelTechniqueName => (MODEL_TECHNIQUES as readonly string[]).includes(name);

export type BatchReadOptions = {
  signal?: AbortSignal;
  /** Each response as soon as it is read (store it here: a killed batch then loses nothing). */
  onItem?: (item: BatchItem) => void;
};

/** How responses are read. */
export type Technique = {
  name: string;
  extractor: Extractor;
  /** Model techniques: read many responses at once, with records, accounting and waiting responses. */
  batch?: (inputs: ResponseInput[], opts?: BatchReadOptions) => Promise<BatchResult>;
  /** Whether it may contact a model. */
  usesModel?: boolean;
  dispose?: () => Promise<void>;
};

/** Settings for model techniques (ignored by embedded and plain). */
export type ModelSettings = {
  /** First model (every model technique). */
  model?: string | null;
  /** Second model (consensus; hybrid reads with consensus when given). */
  model2?: string | null;
  /** Ollama URL; default OLLAMA_HOST as Ollama's tools read it, else http://127.0.0.1:11434. */
  url?: string | null;
  /** Reply cache: a JSON-lines file, a cache object, or none (in memory). */
  cache?: string | ReplyCache | null;
  /** GPU for the energy estimate ("RTX 4090", "h100", "320W"). */
  gpu?: string | null;
  parallel?: number;
  retries?: number;
  timeoutMs?: number;
  backoffMs?: number;
  /** The entailment engine: consensus and hybrid compare lists with it. */
  engine?: Pick<EntailmentEngine, 'compareLists'>;
  /** A client to reuse (tests); otherwise one is made from the settings. */
  client?: OllamaClient;
  /** Told of each response a model technique read. */
  onRecord?: (text: string, q: Question, record: ResponseRecord) => void;
};

export const embeddedExtractor: Extractor = { name: 'embedded', extract: extractEmbedded };

/** The techniques that need no settings (the app spreads these). */
export const TECHNIQUES: Record<string, () => Promise<Technique>> = {
  embedded: async () => ({ name: 'embedded', extractor: embeddedExtractor, usesModel: false }),
  plain: async () => ({ name: 'plain', extractor: plainExtractor, usesModel: false }),
};

/** The reader name stored with a model technique's extractions: 'hybrid:qwen2.5:7b', 'consensus:a+b'. */
export function modelReaderName(technique: string, model: string, model2?: string | null): string {
  return `${technique}:${model}${model2 ? `+${model2}` : ''}`;
}

/** A waiting response keeps what the embedded extractor read (graded meanwhile), flagged. */
function waitingReading(emb: Extraction, reason: string): Extraction {
  return { ...emb, flags: [...new Set<ExtractionFlag>([...emb.flags, 'waiting-for-model'])], notes: [...emb.notes, reason] };
}

export async function resolveTechnique(name: string = 'embedded', settings: ModelSettings = {}): Promise<Technique> {
  const basic = TECHNIQUES[name];
  if (basic) return basic();
  if (!isModelTechnique(name)) throw new Error(`unknown technique '${name}' (available: ${TECHNIQUE_NAMES.join(', ')})`);
  const model = settings.model?.trim();
  if (!model) throw new Error(`technique '${name}' needs a model (the name of a model installed in Ollama)`);
  const model2 = settings.model2?.trim() || undefined;
  const url = resolveOllamaUrl(settings.url ?? null);
  const base = {
    model,
    ...(model2 ? { model2 } : {}),
    technique: name,
    url,
    ...(settings.parallel !== undefined ? { parallel: settings.parallel } : {}),
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...(settings.backoffMs !== undefined ? { backoffMs: settings.backoffMs } : {}),
  };
  const s = makeSettings(base); // throws on bad settings (consensus without model2, ...)
  const cache = typeof settings.cache === 'string' || settings.cache == null ? openReplyCache(settings.cache as string | null) : settings.cache;
  const client =
    settings.client ?? new OllamaClient({ url: s.url, timeoutMs: s.timeoutMs, retries: s.retries, backoffMs: s.backoffMs, stream: s.stream, parallel: s.parallel, cache });
  const options: ReadOptions = {
    ...base,
    client,
    embedded: extractEmbedded,
    ...(settings.engine ? { engine: settings.engine } : {}),
    ...(settings.gpu ? { gpu: settings.gpu } : {}),
  };
  const batch = async (inputs: ResponseInput[], opts: BatchReadOptions = {}): Promise<BatchResult> =>
    readResponses(inputs, null, {
      ...options,
      ...(opts.signal ? { signal: opts.signal } : {}),
      onItem: (item) => {
        // Only hybrid runs the embedded extractor first; for the others, a response left waiting
        // still gets the embedded extractor's reading, graded until the model reads it.
        if (item.record.waiting && !item.record.embedded) {
          const input = inputs.find((x) => x.id === item.id);
          if (input) {
            const emb = extractEmbedded(input.text, item.question);
            item.record.embedded = emb;
            item.extraction = waitingReading(emb, item.extraction.notes.at(-1) ?? 'waiting for the model');
          }
        }
        if (settings.onRecord) {
          const input = inputs.find((x) => x.id === item.id);
          settings.onRecord(input?.text ?? '', item.question, item.record);
        }
        opts.onItem?.(item);
      },
    });
  const extractor: Extractor = {
    name: modelReaderName(name, model, name === 'consensus' || (name === 'hybrid' && model2) ? model2 : undefined),
    async extract(text: string, q: Question): Promise<Extraction> {
      const r = await batch([{ id: 'single', text, question: q }]);
      return r.items[0].extraction;
    },
  };
  return { name, extractor, batch, usesModel: true };
}

/** Whether Ollama answers at `url` (a short check before choosing a default technique). */
export async function ollamaReachable(url: string, timeoutMs = 2000): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  const client = new OllamaClient({ url, timeoutMs, retries: 0 });
  try {
    return { ok: true, version: await client.version() };
  } catch (e) {
    return { ok: false, reason: (e as Error).message.split('\n')[0] };
  }
}
