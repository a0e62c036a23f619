// Ollama client: the `ollama` npm client with our own fetch (per-request time-out, abort), retries
// with back-off on connection errors, 5xx and malformed replies, a bound on requests in flight, and
// the reply cache. Every call reports tokens, wall time and attempts.
// A time-out is not retried: a stalled server costs one time-out per request, not one per attempt.
// Replies pass through `checkedResponse` before the library sees them, so a malformed reply is our
// own clear error and the library never prints its parse noise on the user's terminal.
import { Ollama } from 'ollama';
import { cacheKey, type ReplyCache, MemoryReplyCache } from './cache.ts';
import { parameterCount } from './accounting.ts';
import { checkedResponse, MalformedReply } from './checked-response.ts';

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type InstalledModel = {
  name: string;
  digest: string;
  size: number;
  family: string;
  parameterSize: string;
  quantization: string;
  modifiedAt: string;
};

export type ModelInfo = {
  name: string;
  digest: string;
  parameters: number | null;
  parameterSize: string;
  family: string;
  quantization: string;
  capabilities: string[];
};

export type PullProgress = { status: string; digest?: string; total?: number; completed?: number; fraction?: number };

export type ChatRequest = {
  model: string;
  /** Digest of the model (part of the cache key: a re-pulled model is a different model). */
  digest: string;
  messages: ChatMessage[];
  format?: object;
  options?: Record<string, unknown>;
  /** Reply check: return an error message when the content is malformed (it is then retried). */
  validate?: (content: string) => string | null;
};

export type ChatOutcome = {
  content: string;
  tokensIn: number;
  tokensOut: number;
  wallMs: number;
  startedAt: number;
  totalDurationNs: number;
  attempts: number;
  cached: boolean;
  /** Messages of failed attempts ("HTTP 500: ...", "timed out after 2000 ms"). */
  retried: string[];
};

export type ErrorKind = 'connection' | 'timeout' | 'server' | 'malformed' | 'model-not-found' | 'request' | 'aborted';

export class OllamaError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status?: number,
    readonly attempts = 1,
  ) {
    super(message);
    this.name = 'OllamaError';
  }
  /** Ollama could not be reached or kept failing: the response waits for the model. */
  get unavailable(): boolean {
    return this.kind === 'connection' || this.kind === 'timeout' || this.kind === 'server';
  }
  /** Worth another attempt: a connection error, a 5xx or a malformed reply (never a time-out: a stall would cost it again). */
  get retryable(): boolean {
    return this.kind === 'connection' || this.kind === 'server' || this.kind === 'malformed';
  }
}

export type ClientOptions = {
  url: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  stream?: boolean;
  /** Requests in flight at once. */
  parallel?: number;
  cache?: ReplyCache;
  /** Replaceable for tests. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
};

/** Per-request time-out when none is given: long enough for a big model on a slow machine to read one response. */
export const DEFAULT_TIMEOUT_MS = 120_000;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

function causeCode(e: unknown): string {
  const c = (e as { cause?: { code?: string; cause?: { code?: string } } })?.cause;
  return c?.code ?? c?.cause?.code ?? '';
}

export class OllamaClient {
  readonly url: string;
  readonly cache: ReplyCache;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly stream: boolean;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly ollama: Ollama;
  private readonly baseFetch: typeof fetch;
  private readonly batch = new AbortController();
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly parallel: number;
  private readonly showCache = new Map<string, Promise<ModelInfo>>();
  /** Requests sent (attempts, cache hits excluded). */
  requests = 0;

  constructor(opts: ClientOptions) {
    this.url = opts.url.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = opts.retries ?? 3;
    this.backoffMs = opts.backoffMs ?? 500;
    this.stream = opts.stream ?? true;
    this.parallel = Math.max(1, opts.parallel ?? 1);
    this.cache = opts.cache ?? new MemoryReplyCache();
    this.sleep = opts.sleep ?? defaultSleep;
    this.baseFetch = opts.fetch ?? globalThis.fetch;
    this.ollama = new Ollama({ host: this.url, fetch: this.baseFetch });
  }

  /** Stop everything in flight (pending calls fail with kind 'aborted'). */
  abort(): void {
    this.batch.abort();
    this.ollama.abort();
  }

  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.parallel) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }

  /** One attempt with its own time-out; the `ollama` client gets a fetch carrying our signal. */
  private async attempt<T>(body: (client: Ollama) => Promise<T>): Promise<T> {
    if (this.batch.signal.aborted) throw new OllamaError('aborted', 'the batch was stopped');
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort(new Error(`timed out after ${this.timeoutMs} ms`));
    }, this.timeoutMs);
    const onBatchAbort = () => ctl.abort(new Error('aborted'));
    this.batch.signal.addEventListener('abort', onBatchAbort, { once: true });
    const f: typeof fetch = (input, init) => {
      const signal = init?.signal ? AbortSignal.any([init.signal, ctl.signal]) : ctl.signal;
      return this.baseFetch(input, { ...init, signal }).then(checkedResponse);
    };
    this.requests++;
    try {
      return await body(new Ollama({ host: this.url, fetch: f }));
    } catch (e) {
      throw this.classify(e, timedOut);
    } finally {
      clearTimeout(timer);
      this.batch.signal.removeEventListener('abort', onBatchAbort);
    }
  }

  private classify(e: unknown, timedOut: boolean): OllamaError {
    if (e instanceof OllamaError) return e;
    const err = e as Error & { status_code?: number; error?: string };
    if (timedOut) return new OllamaError('timeout', `Ollama at ${this.url} did not answer within ${seconds(this.timeoutMs)} (the model time-out)`);
    if (this.batch.signal.aborted) return new OllamaError('aborted', 'the batch was stopped');
    if (err?.name === 'ResponseError' && typeof err.status_code === 'number') {
      const msg = err.error || err.message;
      if (err.status_code === 404 && /not found/i.test(msg)) return new OllamaError('model-not-found', `Ollama at ${this.url}: ${msg}`, 404);
      if (err.status_code >= 500) return new OllamaError('server', `Ollama at ${this.url} answered HTTP ${err.status_code}: ${msg}`, err.status_code);
      return new OllamaError('request', `Ollama refused the request (HTTP ${err.status_code}): ${msg}`, err.status_code);
    }
    if (err instanceof MalformedReply) return new OllamaError('malformed', `Ollama at ${this.url} sent a malformed reply: ${err.message}`);
    const code = causeCode(e);
    if (
      (err instanceof TypeError && /fetch failed|network/i.test(err.message)) ||
      /ECONN|EPIPE|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN|UND_ERR|socket/i.test(code + ' ' + (err?.message ?? ''))
    ) {
      const dropped = /terminated|other side closed|UND_ERR_SOCKET/i.test(code + ' ' + (err?.message ?? ''));
      return new OllamaError(
        'connection',
        dropped
          ? `connection to Ollama at ${this.url} dropped before the reply was complete${code ? ` (${code})` : ''}`
          : `cannot reach Ollama at ${this.url}${code ? ` (${code})` : ''}: ${err?.message ?? String(e)}`,
      );
    }
    if (err instanceof SyntaxError) return new OllamaError('malformed', `Ollama at ${this.url} sent a reply that is not valid JSON: ${err.message}`);
    if (err instanceof TypeError) return new OllamaError('malformed', `Ollama at ${this.url} sent a reply not shaped as expected: ${err.message}`);
    if (/did not receive done/i.test(err?.message ?? ''))
      return new OllamaError('malformed', `Ollama at ${this.url} ended the reply stream before it was complete (truncated)`);
    if (/terminated|aborted|premature close/i.test(err?.message ?? ''))
      return new OllamaError('connection', `connection to Ollama at ${this.url} dropped: ${err.message}`);
    // An `{"error": ...}` line inside a stream: the server failed mid-reply.
    return new OllamaError('server', `Ollama at ${this.url} failed: ${err?.message ?? String(e)}`);
  }

  /** Run `once` with retries and exponential back-off (with jitter) on retryable errors. */
  private async withRetries<T>(once: () => Promise<T>, retried: string[] = []): Promise<{ value: T; attempts: number }> {
    let last: OllamaError | null = null;
    for (let a = 0; a <= this.retries; a++) {
      if (a > 0) await this.sleep(this.backoffMs * 2 ** (a - 1) * (0.75 + Math.random() * 0.5));
      try {
        return { value: await once(), attempts: a + 1 };
      } catch (e) {
        const oe = e instanceof OllamaError ? e : this.classify(e, false);
        if (!oe.retryable) throw new OllamaError(oe.kind, oe.message, oe.status, a + 1);
        retried.push(oe.message);
        last = oe;
      }
    }
    throw new OllamaError(
      last!.kind,
      `${last!.message} (gave up after ${this.retries + 1} attempt${this.retries === 0 ? '' : 's'})`,
      last!.status,
      this.retries + 1,
    );
  }

  async version(): Promise<string> {
    return (await this.withRetries(() => this.attempt((c) => c.version()))).value.version;
  }

  /** Installed models with their digests (/api/tags). */
  async listModels(): Promise<InstalledModel[]> {
    const r = (await this.withRetries(() => this.attempt((c) => c.list()))).value;
    return r.models.map((m) => ({
      name: m.name ?? m.model,
      digest: m.digest,
      size: m.size,
      family: m.details?.family ?? '',
      parameterSize: m.details?.parameter_size ?? '',
      quantization: m.details?.quantization_level ?? '',
      modifiedAt: String(m.modified_at ?? ''),
    }));
  }

  /** The installed model a name refers to ("qwen2.5" means "qwen2.5:latest", as in Ollama). */
  static findModel(installed: InstalledModel[], name: string): InstalledModel | undefined {
    const full = name.includes(':') ? name : `${name}:latest`;
    return installed.find((m) => m.name === name) ?? installed.find((m) => m.name === full);
  }

  /** Model details and parameter count (/api/show), remembered per name. */
  show(name: string): Promise<ModelInfo> {
    let p = this.showCache.get(name);
    if (!p) {
      p = this.withRetries(() => this.attempt((c) => c.show({ model: name }))).then(({ value: s }) => ({
        name,
        digest: '',
        parameters: parameterCount(s as never),
        parameterSize: s.details?.parameter_size ?? '',
        family: s.details?.family ?? '',
        quantization: s.details?.quantization_level ?? '',
        capabilities: (s as { capabilities?: string[] }).capabilities ?? [],
      }));
      p.catch(() => this.showCache.delete(name));
      this.showCache.set(name, p);
    }
    return p;
  }

  /** Pull a model, reporting progress; resolves on "success", throws with Ollama's message otherwise. */
  async pull(name: string, onProgress?: (p: PullProgress) => void): Promise<void> {
    await this.attempt(async (c) => {
      const it = await c.pull({ model: name, stream: true });
      for await (const p of it) {
        const fraction = p.total ? Math.min(1, (p.completed ?? 0) / p.total) : undefined;
        onProgress?.({ status: p.status, digest: p.digest || undefined, total: p.total || undefined, completed: p.completed || undefined, fraction });
      }
    }).catch((e: OllamaError) => {
      throw new OllamaError(e.kind, `pulling '${name}' failed: ${e.message}`, e.status);
    });
  }

  /** A chat request, answered from the cache when the same (digest, messages, format, options) was asked before. */
  async chat(req: ChatRequest): Promise<ChatOutcome> {
    const key = cacheKey({ digest: req.digest, endpoint: 'chat', messages: req.messages, format: req.format ?? null, options: req.options ?? {} });
    const hit = this.cache.get(key);
    if (hit && !req.validate?.(hit.content)) {
      return {
        content: hit.content,
        tokensIn: hit.tokensIn,
        tokensOut: hit.tokensOut,
        wallMs: hit.wallMs,
        startedAt: Date.now(),
        totalDurationNs: hit.totalDurationNs,
        attempts: 0,
        cached: true,
        retried: [],
      };
    }
    return this.slot(async () => {
      const retried: string[] = [];
      let started = 0;
      const { value, attempts } = await this.withRetries(async () => {
        started = Date.now();
        const t0 = performance.now();
        const r = await this.attempt(async (c) => {
          if (this.stream) {
            const it = await c.chat({ model: req.model, messages: req.messages, format: req.format, options: req.options, stream: true });
            let content = '';
            let final: { prompt_eval_count?: number; eval_count?: number; total_duration?: number } = {};
            for await (const part of it) {
              content += part.message?.content ?? '';
              if (part.done) final = part;
            }
            return { content, final };
          }
          const r = await c.chat({ model: req.model, messages: req.messages, format: req.format, options: req.options, stream: false });
          if (!r || typeof r.message?.content !== 'string') throw new OllamaError('malformed', 'the reply has no message content');
          return { content: r.message.content, final: r };
        });
        const bad = req.validate?.(r.content);
        if (bad) throw new OllamaError('malformed', `${req.model} at ${this.url} replied outside the expected form: ${bad}`);
        return { ...r, wallMs: performance.now() - t0 };
      }, retried);
      const out: ChatOutcome = {
        content: value.content,
        tokensIn: value.final.prompt_eval_count ?? 0,
        tokensOut: value.final.eval_count ?? 0,
        wallMs: value.wallMs,
        startedAt: started,
        totalDurationNs: value.final.total_duration ?? 0,
        attempts,
        cached: false,
        retried,
      };
      this.cache.put(key, {
        content: out.content,
        tokensIn: out.tokensIn,
        tokensOut: out.tokensOut,
        wallMs: out.wallMs,
        totalDurationNs: out.totalDurationNs,
        at: new Date().toISOString(),
      });
      return out;
    });
  }
}
