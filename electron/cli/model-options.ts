// The technique and model options (--technique, --model, --model2, --ollama-url (several times for
// several servers), --model-timeout, --gpu, --cache, --parallel) resolved against the environment
// and Ollama: which techniques a run reads with, whether the models it needs are installed (the
// same digest on every server), and the Ollama server for `models` and `pull`.
import { ollamaReachable, resolveTechnique, type Technique } from '../engine/read/registry.ts';
import { checkModels, isModelTechnique, TECHNIQUE_NAMES } from '../../shared/techniques.ts';
import { gpuPower, GPU_BOARD_POWER_W } from '../engine/read/ollama/accounting.ts';
import { resolveOllamaUrl, resolveOllamaUrls, settingsWarnings } from '../engine/read/ollama/settings.ts';
import { DEFAULT_TIMEOUT_MS, OllamaClient, OllamaError, type InstalledModel } from '../engine/read/ollama/client.ts';
import type { EntailmentEngine } from '../engine/decide/entail/types.ts';
import { listOption, UsageError } from './args.ts';
import type { Io } from './io.ts';

export const MODEL_OPTIONS = ['technique', 'model', 'model2', 'ollama-url', 'model-timeout', 'gpu', 'cache', 'parallel'] as const;
/** Model options that may be given several times. */
export const MODEL_LIST_OPTIONS = ['ollama-url'] as const;

/** Most seconds --model-timeout accepts (an hour: a request longer than that is a stalled server). */
const MAX_TIMEOUT_S = 3600;

/** The techniques a run uses, and the model settings, from the options and the environment. */
export type Plan = {
  names: string[];
  /** A run that fell back to reading without a model: responses waiting for the model stay waiting. */
  keepWaiting: boolean;
  model?: string;
  model2?: string;
  /** The first server; `urls` are all of them. */
  url: string;
  urls: string[];
  /** Per-request model time-out, ms. */
  timeoutMs: number;
  gpu?: string;
  parallel?: number;
};

export async function planTechniques(opts: Record<string, string>, cmd: string, io: Io, probe: boolean): Promise<Plan> {
  const env = process.env;
  let urls: string[];
  try {
    urls = resolveOllamaUrls(listOption(opts, 'ollama-url'), env);
  } catch (e) {
    throw new UsageError(`${cmd}: ${(e as Error).message}`);
  }
  const url = urls[0];
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (opts['model-timeout'] !== undefined) {
    const s = Number(opts['model-timeout']);
    if (!Number.isFinite(s) || s <= 0 || s > MAX_TIMEOUT_S)
      throw new UsageError(`${cmd}: --model-timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_S}, got '${opts['model-timeout']}'`);
    timeoutMs = Math.max(1, Math.round(s * 1000));
  }
  const model = (opts.model ?? env.EQUIMARK_MODEL ?? '').trim() || undefined;
  const model2 = (opts.model2 ?? env.EQUIMARK_MODEL2 ?? '').trim() || undefined;
  const gpu = opts.gpu;
  if (gpu !== undefined && gpuPower(gpu) == null) {
    throw new UsageError(`${cmd}: unknown GPU '${gpu}': give its board power in watts (e.g. '320W') or one of: ${Object.keys(GPU_BOARD_POWER_W).join(', ')}`);
  }
  let parallel: number | undefined;
  if (opts.parallel !== undefined) {
    parallel = Number(opts.parallel);
    if (!Number.isInteger(parallel) || parallel < 1 || parallel > 64)
      throw new UsageError(`${cmd}: --parallel must be a whole number from 1 to 64, got '${opts.parallel}'`);
  }
  const base = { url, urls, timeoutMs, ...(model ? { model } : {}), ...(model2 ? { model2 } : {}), ...(gpu ? { gpu } : {}), ...(parallel ? { parallel } : {}) };
  const warn = () => {
    for (const w of settingsWarnings({ url, urls })) io.err(`warning: ${w}\n`);
  };
  if (opts.technique !== undefined) {
    const names = opts.technique
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length === 0) throw new UsageError(`${cmd}: --technique needs a name (available: ${TECHNIQUE_NAMES.join(', ')})`);
    if (cmd === 'grade' && names.length > 1) throw new UsageError('grade: give one technique (eval compares several)');
    for (const n of names) {
      if (!(TECHNIQUE_NAMES as readonly string[]).includes(n))
        throw new UsageError(`${cmd}: unknown technique '${n}' (available: ${TECHNIQUE_NAMES.join(', ')})`);
      const problem = checkModels(n, model, model2);
      if (problem)
        throw new UsageError(`${cmd}: ${problem}: ${model ? 'give --model2 NAME or set EQUIMARK_MODEL2' : 'give --model NAME or set EQUIMARK_MODEL'}`);
    }
    if (names.some(isModelTechnique)) warn();
    return { ...base, names: [...new Set(names)], keepWaiting: false };
  }
  if (!probe) return { ...base, names: ['embedded'], keepWaiting: true };
  if (!model) {
    io.err('no model configured: reading with the embedded extractor only (give --model NAME or set EQUIMARK_MODEL to have a model read what it cannot)\n');
    return { ...base, names: ['embedded'], keepWaiting: true };
  }
  warn();
  const reach = await Promise.all(urls.map((u) => ollamaReachable(u)));
  if (!reach.some((r) => r.ok)) {
    const why = reach.map((r, i) => (r.ok ? '' : `${urls[i]}: ${r.reason}`)).join('; ');
    io.err(
      `Ollama not reachable at ${urls.length === 1 ? `${url}: ${reach[0].ok ? '' : reach[0].reason}` : `any of its servers (${why})`}; reading with the embedded extractor only\n`,
    );
    return { ...base, names: ['embedded'], keepWaiting: true };
  }
  io.err(`reading with hybrid: the embedded extractor first, ${model}${model2 ? ` and ${model2} (they must agree)` : ''} at ${urls.join(', ')} for the rest\n`);
  return { ...base, names: ['hybrid'], keepWaiting: false };
}

/**
 * A model the run would read with that a server doesn't have, or has in another version than the
 * other servers, is a setup problem: said once, exit 1, before anything is stored (not one failed
 * reading per response). A server that can't be reached is left to the run: its responses go to
 * the other servers or wait for the model (exit 3).
 */
export async function requireInstalledModels(technique: string, plan: Plan): Promise<void> {
  if (!isModelTechnique(technique) || !plan.model) return;
  const names = [plan.model, ...(plan.model2 && (technique === 'consensus' || technique === 'hybrid') ? [plan.model2] : [])];
  const lists = await Promise.all(
    plan.urls.map(async (url) => {
      try {
        return { url, installed: await new OllamaClient({ url, retries: 0, timeoutMs: 10_000 }).listModels() };
      } catch {
        return { url, installed: null as InstalledModel[] | null };
      }
    }),
  );
  const live = lists.filter((l): l is { url: string; installed: InstalledModel[] } => l.installed !== null);
  for (const n of names) {
    const found = live.map((l) => {
      const m = OllamaClient.findModel(l.installed, n);
      if (!m)
        throw new OllamaError(
          'model-not-found',
          `model '${n}' is not installed in Ollama at ${l.url} (installed: ${l.installed.map((x) => x.name).join(', ') || 'none'}); pull it first`,
        );
      return { url: l.url, digest: m.digest };
    });
    if (new Set(found.map((f) => f.digest)).size > 1)
      throw new OllamaError(
        'request',
        `model '${n}' is not the same on every Ollama server: ${found.map((f) => `${f.url} has digest ${f.digest.replace(/^sha256:/, '').slice(0, 12)}`).join(', ')}; ` +
          'pull the same version on each (equimark models --ollama-url URL shows the digests); nothing was read',
      );
  }
}

export function makeTechnique(name: string, plan: Plan, engine: EntailmentEngine, cache: string | null): Promise<Technique> {
  return resolveTechnique(name, {
    url: plan.url,
    urls: plan.urls,
    timeoutMs: plan.timeoutMs,
    model: plan.model ?? null,
    model2: plan.model2 ?? null,
    gpu: plan.gpu ?? null,
    cache,
    engine,
    ...(plan.parallel ? { parallel: plan.parallel } : {}),
  });
}

/** The Ollama server of --ollama-url / OLLAMA_HOST, with the off-machine warning. */
export function ollamaAt(opts: Record<string, string>, cmd: string, io: Io): { url: string; client: OllamaClient } {
  let url: string;
  try {
    url = resolveOllamaUrl(opts['ollama-url'] ?? null, process.env);
  } catch (e) {
    throw new UsageError(`${cmd}: ${(e as Error).message}`);
  }
  for (const w of settingsWarnings({ url })) io.err(`warning: ${w}\n`);
  // A pull of several GB over a slow link can take hours: its limit is generous.
  return { url, client: new OllamaClient({ url, retries: 1, timeoutMs: cmd === 'pull' ? 6 * 3600_000 : 10_000 }) };
}
