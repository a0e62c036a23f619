// Ollama connection settings: where the server is (as Ollama's own tools read OLLAMA_HOST),
// which models and technique a run uses, and how many requests go out at once.
import { checkModels, isModelTechnique, MODEL_TECHNIQUE_NAMES, type ModelTechniqueName } from '../../../../shared/techniques.ts';

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';
const DEFAULT_PORT = '11434';

export type OllamaSettings = {
  /** Base URL of the Ollama server (no trailing slash). */
  url: string;
  /** First model (every technique). */
  model: string;
  /** Second model (consensus; hybrid reads with two models that must agree when given). */
  model2?: string;
  technique: ModelTechniqueName;
  /** Model requests in flight at once (Ollama's OLLAMA_NUM_PARALLEL decides how many it serves together). */
  parallel: number;
  /** Seed sent with every request (temperature is always 0). */
  seed: number;
  /** Per-request time limit, ms (a model on a slow machine can take minutes). */
  timeoutMs: number;
  /** Retries after the first attempt, on connection errors, 5xx, time-outs and malformed replies. */
  retries: number;
  /** First back-off delay, ms; doubles on each retry (with jitter). */
  backoffMs: number;
  /** Use Ollama's NDJSON streaming for chat (default) or one JSON reply. */
  stream: boolean;
};

export const DEFAULT_SETTINGS: Omit<OllamaSettings, 'model'> = {
  url: DEFAULT_OLLAMA_URL,
  technique: 'hybrid',
  parallel: 1,
  seed: 42,
  timeoutMs: 300_000,
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

/** Warnings the user must see before a batch starts (empty when all is local). */
export function settingsWarnings(s: Pick<OllamaSettings, 'url'>): string[] {
  const out: string[] = [];
  if (!isLoopbackUrl(s.url)) {
    out.push(
      `Ollama at ${s.url} is not on this machine: student responses will be sent over the network to that host. ` +
        `Use a local Ollama (http://127.0.0.1:11434) unless that host is under your institution's control.`,
    );
  }
  if (s.url.startsWith('http://') && !isLoopbackUrl(s.url)) out.push(`Connection to ${s.url} is not encrypted (http).`);
  return out;
}

/** Full settings from partial input, the environment and the defaults; throws on invalid values. */
export function makeSettings(input: Partial<OllamaSettings> & { model: string }, env: Record<string, string | undefined> = process.env): OllamaSettings {
  const s = { ...DEFAULT_SETTINGS, ...stripUndefined(input), url: resolveOllamaUrl(input.url, env) } as OllamaSettings;
  if (!s.model || typeof s.model !== 'string') throw new Error('no model given: name an installed Ollama model (see the list of installed models)');
  if (!isModelTechnique(s.technique)) {
    throw new Error(`unknown technique '${s.technique}' (one of: ${MODEL_TECHNIQUE_NAMES.join(', ')})`);
  }
  const problem = checkModels(s.technique, s.model, s.model2);
  if (problem) throw new Error(problem);
  if (!Number.isInteger(s.parallel) || s.parallel < 1 || s.parallel > 64) throw new Error(`parallel must be a whole number from 1 to 64, got ${s.parallel}`);
  if (!Number.isInteger(s.retries) || s.retries < 0 || s.retries > 10) throw new Error(`retries must be 0..10, got ${s.retries}`);
  if (!(s.timeoutMs > 0)) throw new Error(`timeoutMs must be positive, got ${s.timeoutMs}`);
  return s;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
