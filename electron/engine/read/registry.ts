// The reading techniques resolved into readers, one registry for the CLI and the app. The names,
// how many models each needs and what the app calls them are in shared/techniques.ts:
//   embedded    the embedded extractor (shared/extract/), inside Equimark, no model;
//   plain       the whole-text reader (responses written entirely as equations);
//   direct, llm-modulo, consensus, per-line, hybrid
//               the Ollama pipeline (read/model/, read/ollama/); hybrid lets the embedded
//               extractor read what it can with confidence and asks the model about the rest.
// A model technique also reads in batches (`batch`): records per response, accounting, and
// responses left waiting for the model when Ollama can't be reached (the embedded extractor's
// reading of those is kept, flagged 'waiting-for-model').
import type { Question } from '../../../shared/exam.ts';
import { note, type Extraction, type ExtractionFlag } from '../../../shared/extraction.ts';
import { extractEmbedded } from '../../../shared/extract/index.ts';
import type { EntailmentEngine } from '../decide/entail/types.ts';
import type { Extractor } from './types.ts';
import { plainExtractor } from './plain.ts';
import { openReplyCache, type ReplyCache } from './ollama/cache.ts';
import { DEFAULT_TIMEOUT_MS, OllamaClient } from './ollama/client.ts';
import { makeSettings, resolveOllamaUrls } from './ollama/settings.ts';
import { checkModels, isModelTechnique, modelsUsed, TECHNIQUE_INFO, type TechniqueName } from '../../../shared/techniques.ts';
import { readResponses, type BatchItem, type BatchResult, type ReadOptions } from './model/batch.ts';
import type { ResponseInput, ResponseRecord } from './model/types.ts';

export type BatchReadOptions = {
  signal?: AbortSignal;
  /** Each response as soon as it is read (store it here: a killed batch then loses nothing). */
  onItem?: (item: BatchItem) => void;
};

/** A technique resolved into a reader: how responses are read. */
export type Technique = {
  name: TechniqueName;
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
  /** Several Ollama servers (the batch spreads responses over them); overrides `url` when given. */
  urls?: readonly string[] | null;
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

/** The techniques that need no model, hence no settings. */
export const MODEL_FREE_TECHNIQUES: Record<'embedded' | 'plain', () => Promise<Technique>> = {
  embedded: async () => ({ name: 'embedded', extractor: embeddedExtractor, usesModel: false }),
  plain: async () => ({ name: 'plain', extractor: plainExtractor, usesModel: false }),
};

/** The reader name stored with a model technique's extractions: 'hybrid:qwen2.5:7b', 'consensus:a+b'. */
export function modelReaderName(technique: string, model: string, model2?: string | null): string {
  return `${technique}:${model}${model2 ? `+${model2}` : ''}`;
}

/** A waiting response keeps what the embedded extractor read (graded meanwhile), flagged. */
function waitingReading(emb: Extraction, reason: string): Extraction {
  return { ...emb, flags: [...new Set<ExtractionFlag>([...emb.flags, 'waiting-for-model'])], notes: [...emb.notes, note('waiting', reason)] };
}

export async function resolveTechnique(name: string = 'embedded', settings: ModelSettings = {}): Promise<Technique> {
  if (name === 'embedded' || name === 'plain') return MODEL_FREE_TECHNIQUES[name]();
  const problem = checkModels(name, settings.model, settings.model2);
  if (problem) throw new Error(problem);
  if (!isModelTechnique(name)) throw new Error(`unknown technique '${name}'`); // checkModels said so already
  const model = settings.model!.trim();
  const model2 = settings.model2?.trim() || undefined;
  const urls = resolveOllamaUrls(settings.urls?.length ? settings.urls : (settings.url ?? null));
  const base = {
    model,
    ...(model2 ? { model2 } : {}),
    technique: name,
    url: urls[0],
    urls,
    ...(settings.parallel !== undefined ? { parallel: settings.parallel } : {}),
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...(settings.backoffMs !== undefined ? { backoffMs: settings.backoffMs } : {}),
  };
  const s = makeSettings(base); // throws on bad settings (parallel out of range, ...)
  const cache = typeof settings.cache === 'string' || settings.cache == null ? openReplyCache(settings.cache as string | null) : settings.cache;
  const clients = settings.client
    ? [settings.client]
    : s.urls.map(
        (url) => new OllamaClient({ url, timeoutMs: s.timeoutMs, retries: s.retries, backoffMs: s.backoffMs, stream: s.stream, parallel: s.parallel, cache }),
      );
  const options: ReadOptions = {
    ...base,
    clients,
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
            item.extraction = waitingReading(emb, item.extraction.notes.at(-1)?.text ?? 'waiting for the model');
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
    name: modelReaderName(name, model, modelsUsed(name, model, model2)[1]),
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

/** What the app needs to resolve model techniques: the Ollama server, the models the instructor chose. */
export type TechniqueContext = {
  ollamaUrl: string;
  /** More servers besides ollamaUrl (the batch spreads responses over all of them). */
  ollamaMoreUrls?: readonly string[];
  /** Per-request model time-out, ms (default 120 s). */
  timeoutMs?: number;
  models: string[];
  /** The reply cache file (JSON lines); none when absent. */
  cachePath?: string | null;
  engine?: EntailmentEngine;
  /** Called with each model record (tokens, readings) after a response is read. */
  onRecord?: (text: string, q: Question, record: ResponseRecord) => void;
};

/**
 * The app's techniques: every name of shared/techniques.ts, model techniques with the models the
 * instructor chose (grade() reads them in batches, so each response's model record is stored with
 * its extraction).
 */
export async function extraTechniques(ctx: TechniqueContext): Promise<Record<TechniqueName, () => Promise<Technique>>> {
  const withModels = (name: TechniqueName) => async (): Promise<Technique> => {
    const [m1, m2] = ctx.models;
    const problem = checkModels(name, m1, m2);
    if (problem) throw new Error(`${problem}: choose ${TECHNIQUE_INFO[name].minModels === 2 ? 'two models' : 'a model'}`);
    const [model, model2] = modelsUsed(name, m1, m2);
    return resolveTechnique(name, {
      model,
      ...(model2 ? { model2 } : {}),
      url: ctx.ollamaUrl,
      ...(ctx.ollamaMoreUrls?.length ? { urls: [ctx.ollamaUrl, ...ctx.ollamaMoreUrls] } : {}),
      cache: ctx.cachePath ?? null,
      retries: 1,
      timeoutMs: ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(ctx.engine ? { engine: ctx.engine } : {}),
      ...(ctx.onRecord ? { onRecord: ctx.onRecord } : {}),
    });
  };
  return {
    ...MODEL_FREE_TECHNIQUES,
    direct: withModels('direct'),
    'llm-modulo': withModels('llm-modulo'),
    consensus: withModels('consensus'),
    'per-line': withModels('per-line'),
    hybrid: withModels('hybrid'),
  };
}
