// The batch API the CLI and the app call: read many responses with a chosen technique, keep a
// record per response, account for the compute, and report which responses wait for the model
// (re-run to resume: the reply cache makes finished work free).
//
// A read that fails is never a reading: whatever the fault (server unreachable, HTTP 5xx, a reply
// that stays malformed past the retries, a model gone, a time-out), the response waits for the
// model (flag 'waiting-for-model', the fault in its 'waiting' note) and the next run reads it
// again. A server that can't be reached, fails, lost the model, or times out twice in a row is
// taken out of the batch: the responses it would have read go to the other servers, or wait.
//
// Several servers (`urls`): each gets `parallel` requests in flight and takes the next response
// as soon as it is free; every server must hold the same model digest, else the batch refuses.
import { parseEquation } from '../../../../shared/equation/index.ts';
import { extractEmbedded } from '../../../../shared/extract/index.ts';
import { realDomain, type Question } from '../../../../shared/exam.ts';
import { note, type Extraction, type ExtractionFlag, type ExtractionNote } from '../../../../shared/extraction.ts';
import type { EntailmentEngine } from '../../decide/entail/types.ts';
import type { Extractor } from '../types.ts';
import { computeAccounting, parseParameterSize, type BatchAccounting } from '../ollama/accounting.ts';
import { openReplyCache, type ReplyCache } from '../ollama/cache.ts';
import { OllamaClient, OllamaError, type InstalledModel } from '../ollama/client.ts';
import { makeSettings, settingsWarnings, type OllamaSettings } from '../ollama/settings.ts';
import { doubtEmptyReading } from './empty-reading.ts';
import { checkModels, modelsUsed, readsWithTwoModels, type ModelTechniqueName, type TechniqueName } from '../../../../shared/techniques.ts';
import { mentionsAttachment } from './guards.ts';
import {
  finishExtraction,
  MAX_CONSENSUS_ROUNDS,
  MAX_REPAIR_ROUNDS,
  readConsensus,
  readDirect,
  readingOf,
  readLlmModulo,
  readPerLine,
  syntacticComparer,
  type FinishExtras,
  type ListReading,
  type ReadContext,
} from './strategies.ts';
import type { ListComparer, ModelRef, ResponseInput, ResponseRecord } from './types.ts';

export type ReadOptions = Partial<Omit<OllamaSettings, 'model'>> & {
  model: string;
  /** Cache: a JSON-lines file path, a cache object, or none (in memory for this batch). */
  cache?: string | ReplyCache | null;
  /** The embedded extractor (hybrid). */
  embedded?: Extractor | ((text: string, q: Question) => Extraction | Promise<Extraction>);
  /** The entailment engine (consensus, hybrid agreement). Without one, lists are compared syntactically (a warning says so). */
  engine?: Pick<EntailmentEngine, 'compareLists'>;
  /** Hybrid: which technique reads what the embedded extractor did not ('llm-modulo', or 'consensus' when model2 is set). */
  hybridModelTechnique?: Exclude<ModelTechniqueName, 'hybrid'>;
  /** Hybrid: also ask the model about responses the embedded extractor read, and require agreement. */
  verifyEmbedded?: boolean;
  /** GPU for the energy estimate ("RTX 4090", or "320W"). */
  gpu?: string | null;
  maxRepairRounds?: number;
  maxConsensusRounds?: number;
  perLine?: { minChars?: number; maxPieceChars?: number };
  onProgress?: (p: BatchProgress) => void;
  /**
   * Each response as soon as it is read (before onProgress), e.g. to store it at once so a killed
   * batch loses nothing; it may change the item's extraction. An exception stops the batch.
   */
  onItem?: (item: BatchItem) => void | Promise<void>;
  /** Stops the batch: responses not read yet are reported as waiting. */
  signal?: AbortSignal;
  /** A client to reuse (tests, the app); otherwise one is made from the settings. */
  client?: OllamaClient;
  /** One client per server (several servers); otherwise one per URL of the settings. */
  clients?: OllamaClient[];
};

export type BatchProgress = { done: number; total: number; id: string; status: Extraction['status']; waiting: boolean; cached: boolean };

export type BatchItem = { id: string; question: Question; extraction: Extraction; record: ResponseRecord };

export type BatchResult = {
  /** A model technique, or embedded/plain when read without a model (eval reads those in the same shape). */
  technique: TechniqueName;
  models: ModelRef[];
  items: BatchItem[];
  /** Ids of responses waiting for the model (a fault, or the batch was stopped). */
  waiting: string[];
  /** Why they wait (the first fault), for the user; each response's own reason is in its 'waiting' note and `record.error`. */
  waitingReason?: string;
  accounting: BatchAccounting;
  warnings: string[];
  url: string;
  /** Every server of the batch, with the number of responses each read and the fault that took it out, if any (absent without a model). */
  servers?: { url: string; read: number; down?: string }[];
};

/** A server that times out this many times in a row (no reply between) is taken out of the batch. */
export const STALLS_BEFORE_DOWN = 2;

type Server = { url: string; client: OllamaClient; down: OllamaError | null; stalls: number; read: number };

/** A model that differs between servers, or is missing on one: the batch refuses before reading anything. */
export class ServerRefusal extends OllamaError {}

const toCompare = (engine?: Pick<EntailmentEngine, 'compareLists'>): ListComparer => (engine ? (a, b, d) => engine.compareLists(a, b, d) : syntacticComparer);

function waitingExtraction(embedded: Extraction | undefined, reason: string): Extraction {
  if (embedded) {
    return { ...embedded, flags: [...new Set<ExtractionFlag>([...embedded.flags, 'waiting-for-model'])], notes: [...embedded.notes, note('waiting', reason)] };
  }
  return { equations: [], status: 'abstained', source: 'embedded', flags: ['waiting-for-model'], unread: [], notes: [note('waiting', reason)] };
}

/** Read responses with the chosen technique. Never throws for one response's trouble; throws on bad settings or a model that isn't installed. */
export async function readResponses(responses: ResponseInput[], question: Question | null, options: ReadOptions): Promise<BatchResult> {
  const t0 = Date.now();
  const settings = makeSettings(options);
  const warnings = settingsWarnings(settings);
  const technique = settings.technique;
  const cache = typeof options.cache === 'string' || options.cache == null ? openReplyCache(options.cache as string | null) : options.cache;
  const clients =
    options.clients ??
    (options.client
      ? [options.client]
      : settings.urls.map(
          (url) =>
            new OllamaClient({
              url,
              timeoutMs: settings.timeoutMs,
              retries: settings.retries,
              backoffMs: settings.backoffMs,
              stream: settings.stream,
              parallel: settings.parallel,
              cache,
            }),
        ));
  const servers: Server[] = clients.map((client) => ({ url: client.url, client, down: null, stalls: 0, read: 0 }));
  const compare = toCompare(options.engine);
  const modelTechnique: Exclude<ModelTechniqueName, 'hybrid'> =
    options.hybridModelTechnique ?? (readsWithTwoModels('hybrid', settings.model, settings.model2) ? 'consensus' : 'llm-modulo');
  // The technique that reads with the model(s): hybrid hands what the embedded extractor left to modelTechnique.
  const modelReads = technique === 'hybrid' ? modelTechnique : technique;
  const problem = checkModels(modelReads, settings.model, settings.model2);
  if (problem) throw new Error(problem);
  const needsCompare = technique === 'consensus' || technique === 'hybrid';
  if (needsCompare && !options.engine) warnings.push('no entailment engine given: lists are compared by their canonical text only (stricter than entailment)');
  // Hybrid reads with the embedded extractor first (Equimark's own unless another is given).
  const embedded: (text: string, q: Question) => Extraction | Promise<Extraction> =
    typeof options.embedded === 'function' ? options.embedded : options.embedded ? (t, q) => (options.embedded as Extractor).extract(t, q) : extractEmbedded;

  // Models are resolved (digest, size) on first need, so a batch the embedded extractor reads alone never touches Ollama.
  let modelsPromise: Promise<ModelRef[]> | null = null;
  const parameters: Record<string, number | null> = {};
  let installed: InstalledModel[] = [];
  const names = modelsUsed(modelReads, settings.model, settings.model2);
  // Every server is asked for its models: one that can't be reached is out of the batch; one that
  // lacks a model or holds another version of it makes the batch refuse (its readings would differ).
  const resolveModels = () =>
    (modelsPromise ??= (async () => {
      const lists = await Promise.all(
        servers.map(async (s) => {
          try {
            return { s, models: await s.client.listModels() };
          } catch (e) {
            if (e instanceof OllamaError && e.unavailable) {
              s.down ??= e;
              return { s, models: null };
            }
            throw e;
          }
        }),
      );
      const live = lists.filter((x): x is { s: Server; models: InstalledModel[] } => x.models !== null);
      if (live.length === 0) throw servers[0].down!;
      installed = live[0].models;
      const refs = names.map((n) => {
        const found = live.map(({ s, models }) => {
          const m = OllamaClient.findModel(models, n);
          if (!m) {
            throw new ServerRefusal(
              'model-not-found',
              `model '${n}' is not installed in Ollama at ${s.url} (installed: ${models.map((x) => x.name).join(', ') || 'none'}); pull it first`,
            );
          }
          return { url: s.url, m };
        });
        if (new Set(found.map((f) => f.m.digest)).size > 1) {
          throw new ServerRefusal(
            'request',
            `model '${n}' is not the same on every Ollama server: ${found.map((f) => `${f.url} has digest ${f.m.digest.replace(/^sha256:/, '').slice(0, 12)}`).join(', ')}; ` +
              'pull the same version on each (equimark models --ollama-url URL shows the digests)',
          );
        }
        return { name: found[0].m.name, digest: found[0].m.digest };
      });
      const first = live[0].s.client;
      for (const r of refs) {
        try {
          parameters[r.digest] = (await first.show(r.name)).parameters;
        } catch {
          parameters[r.digest] = parseParameterSize(OllamaClient.findModel(installed, r.name)?.parameterSize);
        }
      }
      return refs;
    })());

  const items: BatchItem[] = new Array(responses.length);
  const waiting: string[] = [];
  let waitingReason: string | undefined;
  let fatal: Error | null = null;
  let done = 0;

  const readOne = async (r: ResponseInput, server: Server): Promise<BatchItem> => {
    const q = r.question ?? question;
    if (!q) throw new Error(`response ${r.id}: no question given`);
    const started = Date.now();
    const record: ResponseRecord = { id: r.id, questionId: q.id, technique, models: [], calls: [], readings: [], ungrounded: [], waiting: false, wallMs: 0 };
    const finish = (extraction: Extraction): BatchItem => {
      record.wallMs = Date.now() - started;
      return { id: r.id, question: q, extraction, record };
    };
    if (r.text.trim() === '') {
      return finish({
        equations: [],
        status: 'blank',
        source: technique === 'hybrid' ? 'embedded' : `model:${settings.model}`,
        flags: [],
        unread: [],
        notes: [],
      });
    }
    let emb: Extraction | undefined;
    if (technique === 'hybrid') {
      emb = await embedded(r.text, q);
      record.embedded = emb;
      record.readings.push({ reader: 'embedded', equations: emb.equations.map((e) => e.source) });
      // A reading choice (alternatives) makes the model a second reader: `read` then needs both to agree.
      const choice = emb.status === 'read' && (emb.alternatives?.length ?? 0) > 0;
      if (choice) record.secondReader = true;
      if ((emb.status === 'read' || emb.status === 'blank') && !options.verifyEmbedded && !choice) {
        if (mentionsAttachment(r.text) && !emb.flags.includes('attachment')) {
          emb = {
            ...emb,
            status: 'needs-review',
            flags: [...emb.flags, 'attachment'],
            notes: [...emb.notes, note('attachment', 'the response mentions an attachment: its working may not be in the text')],
          };
        }
        return finish(emb);
      }
    }
    const wait = (e: OllamaError | null): BatchItem => {
      const why = e?.message ?? 'the batch was stopped';
      if (e) waitingReason ??= why;
      record.waiting = true;
      record.error = why;
      return finish(waitingExtraction(emb, `waiting for the model: ${why}`));
    };
    if (options.signal?.aborted) return wait(null);
    let models: ModelRef[];
    try {
      models = await resolveModels();
    } catch (e) {
      if (e instanceof OllamaError && !(e instanceof ServerRefusal) && (e.unavailable || e.kind === 'aborted')) return wait(e.kind === 'aborted' ? null : e);
      fatal ??= e as Error;
      throw e;
    }
    // Not sent yet, so not failed: a response meant for a server that is out goes to one that is up.
    if (server.down) server = servers.find((s) => !s.down) ?? server;
    if (server.down) return wait(server.down);
    try {
      record.models = models;
      const ctx: ReadContext = {
        client: server.client,
        question: q,
        text: r.text,
        calls: record.calls,
        options: { temperature: 0, seed: settings.seed },
        maxRepairRounds: options.maxRepairRounds ?? MAX_REPAIR_ROUNDS,
        maxConsensusRounds: options.maxConsensusRounds ?? MAX_CONSENSUS_ROUNDS,
        compare,
      };
      const t = modelReads;
      let reading: ListReading;
      let source: Extraction['source'] = `model:${models[0].name}`;
      const flags: ExtractionFlag[] = [];
      const notes: ExtractionNote[] = [];
      let review = false;
      let weak: FinishExtras['weak'];
      if (t === 'consensus') {
        const c = await readConsensus(ctx, models[0], models[1]);
        record.readings.push(readingOf(`model:${models[0].name}`, c.a), readingOf(`model:${models[1].name}`, c.b));
        reading = { equations: c.equations, problems: [...c.a.problems, ...c.b.problems], rounds: c.rounds };
        record.agreement = { independent: c.adopted.length === 0, adopted: c.adopted };
        weak = { adopted: c.adopted, blind: [readingOf(`model:${models[0].name}`, c.a0), readingOf(`model:${models[1].name}`, c.b0)] };
        source = 'consensus';
        if (!c.agreed) {
          flags.push('models-disagree');
          review = true;
          notes.push(
            note(
              'disagreement',
              `the models still disagree after ${c.rounds} round(s); only equations both support are kept. ` +
                `${models[0].name}: ${JSON.stringify(c.a.equations.map((e) => e.source))}; ${models[1].name}: ${JSON.stringify(c.b.equations.map((e) => e.source))}`,
            ),
          );
        } else if (c.rounds > 0) notes.push(note('model', `the models agreed after ${c.rounds} consensus round(s)`));
      } else {
        reading =
          t === 'direct'
            ? await readDirect(ctx, models[0])
            : t === 'per-line'
              ? await readPerLine(ctx, models[0], options.perLine)
              : await readLlmModulo(ctx, models[0]);
        if ('note' in reading && typeof reading.note === 'string') notes.push(note('model', reading.note));
        record.readings.push(readingOf(`model:${models[0].name}`, reading));
      }
      if (emb && emb.equations.length > 0) {
        // Both read it: the embedded extractor's equations must be in the model's list (all of them when it read the whole response).
        const embParsed = emb.equations.flatMap((e) => {
          const p = parseEquation(e.source, { variables: q.variables.map((v) => v.name) });
          return p.ok ? [{ source: e.source, eq: p.value }] : [];
        });
        const embEqs = embParsed.map((e) => e.eq);
        const cmp = reading.equations.length
          ? await compare(
              embEqs,
              reading.equations.map((e) => e.eq),
              realDomain(q),
            )
          : { equivalent: false, aCoveredBy: embEqs.map(() => -1), bCoveredBy: [] };
        const agree = emb.status === 'read' ? cmp.equivalent : cmp.aCoveredBy.every((i) => i >= 0);
        if (!agree) {
          flags.push('models-disagree');
          review = true;
          notes.push(
            note(
              'disagreement',
              `the embedded extractor and the model read this response differently: embedded ${JSON.stringify(emb.equations.map((e) => e.source))}, model ${JSON.stringify(reading.equations.map((e) => e.source))}`,
            ),
          );
          const seen = new Set(reading.equations.map((e) => e.source));
          for (const e of embParsed) if (!seen.has(e.source)) reading.equations.push(e);
        }
      }
      const fin = await finishExtraction(q, r.text, reading, source, {
        flags,
        notes,
        review,
        compare,
        ...(emb ? { embedded: emb } : {}),
        ...(weak ? { weak } : {}),
      });
      record.ungrounded = fin.ungrounded;
      server.stalls = 0;
      server.read++;
      return finish(reading.equations.length === 0 ? doubtEmptyReading(fin.extraction, r.text, q, emb) : fin.extraction);
    } catch (e) {
      if (!(e instanceof OllamaError)) {
        // Our own failure (the entailment engine comparing lists, ...): an engine error for this response, read again next run.
        record.error = (e as Error).message;
        return finish({
          equations: [],
          status: 'needs-review',
          source: emb ? 'embedded' : `model:${settings.model}`,
          flags: ['engine-error'],
          unread: [],
          notes: [note('engine-error', `engine error while reading (${technique}): ${record.error}`)],
        });
      }
      if (e.kind === 'aborted') return wait(null);
      // The server is out of the batch when it can't serve at all; a reply that stayed malformed
      // (or one time-out) concerns this response only.
      if (e.kind === 'timeout') {
        if (++server.stalls >= STALLS_BEFORE_DOWN) server.down ??= e;
      } else if (e.kind === 'connection' || e.kind === 'server' || e.kind === 'model-not-found') server.down ??= e;
      return wait(e);
    }
  };

  let next = 0;
  // A worker belongs to a server: it stops taking responses when its server is out of the batch.
  const worker = async (server: Server | null) => {
    while (next < responses.length && !fatal && !(server?.down && servers.some((s) => !s.down))) {
      const i = next++;
      let item: BatchItem;
      try {
        item = await readOne(responses[i], server ?? servers.find((s) => !s.down) ?? servers[0]);
      } catch (e) {
        fatal ??= e as Error;
        return;
      }
      try {
        await options.onItem?.(item);
      } catch (e) {
        fatal ??= e as Error;
        return;
      }
      items[i] = item;
      if (item.record.waiting) waiting.push(item.id);
      done++;
      options.onProgress?.({
        done,
        total: responses.length,
        id: item.id,
        status: item.extraction.status,
        waiting: item.record.waiting,
        cached: item.record.calls.length > 0 && item.record.calls.every((c) => c.cached),
      });
    }
  };
  const perServer = Math.min(settings.parallel, Math.max(1, responses.length));
  await Promise.all(servers.flatMap((s) => Array.from({ length: perServer }, () => worker(s))));
  // Every server is out: what is left is handed over as waiting (or read by the embedded extractor, in hybrid).
  if (next < responses.length && !fatal) await worker(null);
  if (fatal) throw fatal;

  const mp = modelsPromise as Promise<ModelRef[]> | null;
  const models = mp ? await mp.catch(() => [] as ModelRef[]) : [];
  const usage = items.flatMap((it) => it.record.calls);
  return {
    technique,
    models,
    items,
    waiting,
    waitingReason,
    accounting: computeAccounting(usage, { batchWallMs: Date.now() - t0, parameters, gpu: options.gpu ?? null }),
    warnings,
    url: servers[0].url,
    servers: servers.map((s) => ({ url: s.url, read: s.read, ...(s.down ? { down: s.down.message } : {}) })),
  };
}
