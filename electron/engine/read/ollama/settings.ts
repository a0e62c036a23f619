// Ollama connection settings: where the servers are (as Ollama's own tools read OLLAMA_HOST; a
// batch may spread its responses over several), which models and technique a run uses, how many
// requests go out at once per server, and how long one request may take.
import { DEFAULT_TIMEOUT_MS } from './client.ts';
import { checkModels, isModelTechnique, MODEL_TECHNIQUE_NAMES, type ModelTechniqueName } from '../../../../shared/techniques.ts';

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';
const DEFAULT_PORT = '11434';

export type OllamaSettings = {
  /** Base URL of the (first) Ollama server (no trailing slash). */
  url: string;
  /**
   * Every server the batch reads with (the first is `url`): responses are spread over them, each
   * with `parallel` requests in flight; each must have the same model digest.
   */
  urls: string[];
  /** First model (every technique). */
  model: string;
  /** Second model (consensus; hybrid reads with two models that must agree when given). */
  model2?: string;
  technique: ModelTechniqueName;
  /** Model requests in flight at once, per server (Ollama's OLLAMA_NUM_PARALLEL decides how many it serves together). */
  parallel: number;
  /** Seed sent with every request (temperature is always 0). */
  seed: number;
  /** Per-request time limit, ms (a model on a slow machine can take minutes); a time-out is not retried. */
  timeoutMs: number;
  /** Retries after the first attempt, on connection errors, 5xx and malformed replies. */
  retries: number;
  /** First back-off delay, ms; doubles on each retry (with jitter). */
  backoffMs: number;
  /** Use Ollama's NDJSON streaming for chat (default) or one JSON reply. */
  stream: boolean;
};

export const DEFAULT_SETTINGS: Omit<OllamaSettings, 'model'> = {
  url: DEFAULT_OLLAMA_URL,
  urls: [DEFAULT_OLLAMA_URL],
  technique: 'hybrid',
  parallel: 1,
  seed: 42,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  retries: 3,
  backoffMs: 500,
  stream: true,
};

/**
 * The server URL the way Ollama's own tools resolve OLLAMA_HOST: scheme defaults to http, host to
 * 127.0.0.1, port to 11434 (to 80/443 when a scheme is given without a port, as Ollama does);
 * ":8080" means 127.0.0.1:8080. An explicit `url` wins over the environment.
 */
export function resolveOllamaUrl(explicit?: string | null, env: Record<string, string | undefined> = process.env): string {
  const raw = (explicit ?? env.OLLAMA_HOST ?? '').trim();
  if (raw === '') return DEFAULT_OLLAMA_URL;
  let s = raw;
  let hasScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(s);
  if (s.startsWith(':')) {
    s = `http://127.0.0.1${s}`;
    hasScheme = true;
  }
  if (!hasScheme) s = `http://${s}`;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new Error(`Ollama URL '${raw}' is not a valid address (expected e.g. http://127.0.0.1:11434)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`Ollama URL '${raw}': only http and https are supported`);
  const host = u.hostname === '' ? '127.0.0.1' : u.hostname;
  const port = u.port || (hasScheme && raw.includes('://') ? (u.protocol === 'https:' ? '443' : '80') : DEFAULT_PORT);
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${host}:${port}${path}`;
}

/** Whether the host is this machine (student text sent there never leaves it). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  // 0.0.0.0 as a destination reaches the local machine (it is what OLLAMA_HOST=0.0.0.0 servers print).
  if (host === '0.0.0.0') return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(host)) return true;
  if (/^::ffff:127\./.test(host)) return true;
  return false;
}

/** Warnings the user must see before a batch starts, for every server not on this machine (empty when all is local). */
export function settingsWarnings(s: { url: string; urls?: readonly string[] }): string[] {
  const out: string[] = [];
  for (const url of s.urls?.length ? s.urls : [s.url]) {
    if (isLoopbackUrl(url)) continue;
    out.push(
      `Ollama at ${url} is not on this machine: student responses will be sent over the network to that host. ` +
        `Use a local Ollama (http://127.0.0.1:11434) unless that host is under your institution's control.`,
    );
    if (url.startsWith('http://')) out.push(`Connection to ${url} is not encrypted (http).`);
  }
  return out;
}

/** The servers of a run, resolved, in order; the same server given twice is an error. */
export function resolveOllamaUrls(explicit: readonly string[] | string | null | undefined, env: Record<string, string | undefined> = process.env): string[] {
  const given = typeof explicit === 'string' ? [explicit] : (explicit ?? []).filter((u) => u.trim() !== '');
  if (given.length === 0) return [resolveOllamaUrl(null, env)];
  const out: string[] = [];
  for (const raw of given) {
    const url = resolveOllamaUrl(raw, env);
    if (out.includes(url)) throw new Error(`Ollama server ${url} is given twice`);
    out.push(url);
  }
  return out;
}

/** Full settings from partial input, the environment and the defaults; throws on invalid values. */
export function makeSettings(input: Partial<OllamaSettings> & { model: string }, env: Record<string, string | undefined> = process.env): OllamaSettings {
  const urls = resolveOllamaUrls(input.urls?.length ? input.urls : (input.url ?? null), env);
  const s = { ...DEFAULT_SETTINGS, ...stripUndefined(input), url: urls[0], urls } as OllamaSettings;
  if (!s.model || typeof s.model !== 'string') throw new Error('no model given: name an installed Ollama model (see the list of installed models)');
  if (!isModelTechnique(s.technique)) {
    throw new Error(`unknown technique '${s.technique}' (one of: ${MODEL_TECHNIQUE_NAMES.join(', ')})`);
  }
  const problem = checkModels(s.technique, s.model, s.model2);
  if (problem) throw new Error(problem);
  if (!Number.isInteger(s.parallel) || s.parallel < 1 || s.parallel > 64) throw new Error(`parallel must be a whole number from 1 to 64, got ${s.parallel}`);
  if (!Number.isInteger(s.retries) || s.retries < 0 || s.retries > 10) throw new Error(`retries must be 0..10, got ${s.retries}`);
  if (!(s.timeoutMs > 0)) throw new Error(`timeoutMs must be positive, got ${s.timeoutMs}`);
  if (s.urls.length > 32) throw new Error(`at most 32 Ollama servers, got ${s.urls.length}`);
  return s;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
