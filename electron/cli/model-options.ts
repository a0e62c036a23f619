// The technique and model options (--technique, --model, --model2, --ollama-url, --gpu, --cache,
// --parallel) resolved against the environment and Ollama: which techniques a run reads with,
// whether the models it needs are installed, and the Ollama server for `models` and `pull`.
import { ollamaReachable, resolveTechnique, type Technique } from '../engine/read/registry.ts';
import { checkModels, isModelTechnique, TECHNIQUE_NAMES } from '../../shared/techniques.ts';
import { gpuPower, GPU_BOARD_POWER_W } from '../engine/read/ollama/accounting.ts';
import { resolveOllamaUrl, settingsWarnings } from '../engine/read/ollama/settings.ts';
import { OllamaClient, OllamaError } from '../engine/read/ollama/client.ts';
import type { EntailmentEngine } from '../engine/decide/entail/types.ts';
import { UsageError } from './args.ts';
import type { Io } from './io.ts';

export const MODEL_OPTIONS = ['technique', 'model', 'model2', 'ollama-url', 'gpu', 'cache', 'parallel'] as const;

/** The techniques a run uses, and the model settings, from the options and the environment. */
export type Plan = {
  names: string[];
  /** A run that fell back to reading without a model: responses waiting for the model stay waiting. */
  keepWaiting: boolean;
  model?: string;
  model2?: string;
  url: string;
  gpu?: string;
  parallel?: number;
};

export async function planTechniques(opts: Record<string, string>, cmd: string, io: Io, probe: boolean): Promise<Plan> {
  const env = process.env;
  let url: string;
  try {
    url = resolveOllamaUrl(opts['ollama-url'] ?? null, env);
  } catch (e) {
    throw new UsageError(`${cmd}: ${(e as Error).message}`);
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
  const base = { url, ...(model ? { model } : {}), ...(model2 ? { model2 } : {}), ...(gpu ? { gpu } : {}), ...(parallel ? { parallel } : {}) };
  const warn = () => {
    for (const w of settingsWarnings({ url })) io.err(`warning: ${w}\n`);
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
  const reach = await ollamaReachable(url);
  if (!reach.ok) {
    io.err(`Ollama not reachable at ${url}: ${reach.reason}; reading with the embedded extractor only\n`);
    return { ...base, names: ['embedded'], keepWaiting: true };
  }
  io.err(`reading with hybrid: the embedded extractor first, ${model}${model2 ? ` and ${model2} (they must agree)` : ''} at ${url} for the rest\n`);
  return { ...base, names: ['hybrid'], keepWaiting: false };
}

/**
 * A model the run would read with that Ollama doesn't have is a setup problem: said once, exit 1,
 * before anything is stored (not one failed reading per response). When Ollama can't be reached
 * the run goes on and its responses wait for the model (exit 3), as before.
 */
export async function requireInstalledModels(technique: string, plan: Plan): Promise<void> {
  if (!isModelTechnique(technique) || !plan.model) return;
  const names = [plan.model, ...(plan.model2 && (technique === 'consensus' || technique === 'hybrid') ? [plan.model2] : [])];
  let installed: Awaited<ReturnType<OllamaClient['listModels']>>;
  try {
    installed = await new OllamaClient({ url: plan.url, retries: 0, timeoutMs: 10_000 }).listModels();
  } catch {
    return;
  }
  const missing = names.find((n) => !OllamaClient.findModel(installed, n));
  if (missing)
    throw new OllamaError(
      'model-not-found',
      `model '${missing}' is not installed in Ollama at ${plan.url} (installed: ${installed.map((m) => m.name).join(', ') || 'none'}); pull it first`,
    );
}

export function makeTechnique(name: string, plan: Plan, engine: EntailmentEngine, cache: string | null): Promise<Technique> {
  return resolveTechnique(name, {
    url: plan.url,
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
