// An Ollama-compatible HTTP server of our own, for tests, the desktop app's end-to-end tests and
// CLI demos. It speaks the parts of Ollama's API Equimark uses (/api/chat, /api/generate,
// /api/tags, /api/show, /api/pull, /api/version; NDJSON streaming, the default, and
// `"stream": false`; errors as `{"error": "..."}` with Ollama's status codes), replays scripted
// replies chosen by model and by text in the prompt, injects faults, and counts calls.
//
// Standalone: node --import tsx test/support/fake-ollama.ts --port 11434 --script file.json [--latency 50]
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';

export type FakeModel = {
  name: string;
  digest?: string;
  /** "7.6B" (details.parameter_size). */
  parameterSize?: string;
  /** model_info["general.parameter_count"]. */
  parameterCount?: number;
  family?: string;
  quantization?: string;
};

/** A reply: a list of equation strings (sent as {"equations": [...]}) or raw content, verbatim. */
export type FakeReply = string[] | { raw: string } | { json: unknown };

export type FakeRule = {
  /** Only for this model (any model when absent). */
  model?: string;
  /** Substring the last user message must contain (case-sensitive). */
  match?: string;
  /** Substring that must NOT be in the last user message. */
  unless?: string;
  /** One reply, or a sequence (the n-th matching call gets the n-th; the last one repeats). */
  reply?: FakeReply;
  replies?: FakeReply[];
  tokensIn?: number;
  tokensOut?: number;
  latencyMs?: number;
};

/**
 * refuse: the connection is closed at once; http-500: Ollama's JSON error; http-500-text: a plain
 * text 500 (a proxy's page); stall: no answer ever; truncate: the reply cut off mid-line;
 * drop: the connection dropped after the first line of a streamed reply; garbled: a reply line
 * (stream) or body that is not JSON; invalid-json / prose: well-formed reply whose content is
 * prose; off-schema: content that is JSON but not `{"equations": [...]}`; unknown-model: 404.
 */
export type FaultKind =
  'refuse' | 'http-500' | 'http-500-text' | 'stall' | 'truncate' | 'drop' | 'garbled' | 'invalid-json' | 'prose' | 'off-schema' | 'unknown-model';

export type FakeFault = {
  kind: FaultKind;
  /** How many matching requests get it (default 1; Infinity: until cleared). */
  times?: number;
  /** Only on this endpoint ("chat", "generate", "tags", ...; default chat and generate). */
  endpoint?: string;
  model?: string;
  match?: string;
};

export type FakeScript = {
  models?: FakeModel[];
  /** Models /api/pull can fetch (added to the installed list when pulled). */
  pullable?: FakeModel[];
  rules?: FakeRule[];
  /** Reply when no rule matches (default: an empty list). */
  fallback?: FakeReply;
  latencyMs?: number;
  /** Delay before each /api/pull progress line after the first (default: 1 ms between the layer's lines only), so progress can be watched. */
  pullDelayMs?: number;
  faults?: FakeFault[];
  version?: string;
  /** A persona: answers from the request itself (tried before the rules; undefined falls through to them). */
  respond?: (req: { model: string; text: string; messages: { role: string; content: string }[] }) => FakeReply | undefined;
};

export type FakeRequest = { endpoint: string; model?: string; body: Record<string, unknown>; at: number };

const DEFAULT_MODELS: FakeModel[] = [
  { name: 'fake-llm:7b', parameterSize: '7.6B', parameterCount: 7_615_616_512, family: 'qwen2', quantization: 'Q4_K_M' },
  { name: 'fake-llm-b:8b', parameterSize: '8.0B', parameterCount: 8_030_261_248, family: 'llama', quantization: 'Q4_K_M' },
];

const digestOf = (m: FakeModel) => m.digest ?? createHash('sha256').update(`fake:${m.name}`).digest('hex');

export class FakeOllama {
  port = 0;
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  script: FakeScript;
  installed: FakeModel[];
  /** Requests received, in order. */
  readonly requests: FakeRequest[] = [];
  /** Counts per endpoint ("chat") and per "endpoint:model". */
  readonly counts = new Map<string, number>();
  private ruleUses = new Map<FakeRule, number>();
  private faults: (FakeFault & { left: number })[] = [];

  constructor(script: FakeScript = {}) {
    this.script = script;
    this.installed = [...(script.models ?? DEFAULT_MODELS)];
    for (const f of script.faults ?? []) this.inject(f);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  count(endpoint: string, model?: string): number {
    return this.counts.get(model ? `${endpoint}:${model}` : endpoint) ?? 0;
  }

  digest(name: string): string {
    const m = this.installed.find((x) => x.name === name || x.name === `${name}:latest`);
    if (!m) throw new Error(`fake-ollama: no model ${name}`);
    return digestOf(m);
  }

  inject(f: FakeFault): void {
    this.faults.push({ ...f, left: f.times ?? 1 });
  }
  clearFaults(): void {
    this.faults = [];
  }
  addRule(r: FakeRule): void {
    (this.script.rules ??= []).push(r);
  }
  resetCounts(): void {
    this.requests.length = 0;
    this.counts.clear();
  }

  async start(port = 0): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 1000;
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port || this.port || 0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this;
  }

  /** Stop listening (connections are refused) but keep the port for `start()` again. */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    for (const sock of this.sockets) sock.destroy();
    await new Promise<void>((r) => s.close(() => r()));
  }

  close(): Promise<void> {
    return this.stop();
  }

  private takeFault(endpoint: string, model: string | undefined, text: string): FakeFault | null {
    for (const f of this.faults) {
      if (f.left <= 0) continue;
      if (f.endpoint ? f.endpoint !== endpoint : endpoint !== 'chat' && endpoint !== 'generate') continue;
      if (f.model && f.model !== model) continue;
      if (f.match && !text.includes(f.match)) continue;
      f.left--;
      return f;
    }
    return null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (url.pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Ollama is running');
      return;
    }
    const endpoint = url.pathname.replace(/^\/api\//, '');
    let body: Record<string, unknown> = {};
    if (raw.trim() !== '') {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return this.error(res, 400, 'invalid character in request body');
      }
    }
    const model = typeof body.model === 'string' ? body.model : typeof body.name === 'string' ? body.name : undefined;
    this.requests.push({ endpoint, model, body, at: Date.now() });
    this.bump(endpoint);
    if (model) this.bump(`${endpoint}:${model}`);
    const text = lastUserText(endpoint, body);
    const fault = this.takeFault(endpoint, model, text);
    if (fault?.kind === 'refuse') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'http-500') return this.error(res, 500, 'llama runner process has terminated: exit status 2');
    if (fault?.kind === 'http-500-text') {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal Server Error');
      return;
    }
    if (fault?.kind === 'stall') return; // never answers; the client's time-out must fire
    if (fault?.kind === 'unknown-model') return this.error(res, 404, `model '${model}' not found`);

    switch (`${req.method} ${url.pathname}`) {
      case 'GET /api/version':
        return this.json(res, 200, { version: this.script.version ?? '0.12.0' });
      case 'GET /api/tags':
        return this.json(res, 200, { models: this.installed.map(tagEntry) });
      case 'POST /api/show': {
        const m = this.find(model);
        if (!m) return this.error(res, 404, `model '${model}' not found`);
        return this.json(res, 200, showEntry(m));
      }
      case 'POST /api/pull':
        return this.pull(res, model ?? '', body.stream !== false);
      case 'POST /api/chat':
      case 'POST /api/generate': {
        const m = this.find(model);
        if (!m) return this.error(res, 404, `model '${model}' not found`);
        return this.generate(res, endpoint, m, body, text, fault);
      }
      default:
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    }
  }

  private bump(k: string): void {
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  private find(name: string | undefined): FakeModel | undefined {
    if (!name) return undefined;
    const full = name.includes(':') ? name : `${name}:latest`;
    return this.installed.find((m) => m.name === name || m.name === full);
  }

  private choose(model: string, text: string, body: Record<string, unknown> = {}): { content: string; rule?: FakeRule } {
    const persona = this.script.respond?.({
      model,
      text,
      messages: Array.isArray(body.messages) ? (body.messages as { role: string; content: string }[]) : [],
    });
    if (persona !== undefined) return { content: replyContent(persona) };
    for (const r of this.script.rules ?? []) {
      if (r.model && r.model !== model) continue;
      if (r.match !== undefined && !text.includes(r.match)) continue;
      if (r.unless !== undefined && text.includes(r.unless)) continue;
      const n = this.ruleUses.get(r) ?? 0;
      this.ruleUses.set(r, n + 1);
      const seq = r.replies ?? (r.reply ? [r.reply] : [[]]);
      return { content: replyContent(seq[Math.min(n, seq.length - 1)]), rule: r };
    }
    return { content: replyContent(this.script.fallback ?? []) };
  }

  private async generate(
    res: ServerResponse,
    endpoint: string,
    m: FakeModel,
    body: Record<string, unknown>,
    text: string,
    fault: FakeFault | null,
  ): Promise<void> {
    const { content: chosen, rule } = this.choose(m.name, text, body);
    const content =
      fault?.kind === 'invalid-json' || fault?.kind === 'prose'
        ? 'Sure! Here are the equations: v = u'
        : fault?.kind === 'off-schema'
          ? JSON.stringify({ answer: 'v = u', confidence: 0.9 })
          : chosen;
    const latency = rule?.latencyMs ?? this.script.latencyMs ?? 0;
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    const promptChars = JSON.stringify(endpoint === 'chat' ? (body.messages ?? []) : (body.prompt ?? '')).length;
    const tokensIn = rule?.tokensIn ?? Math.ceil(promptChars / 4);
    const tokensOut = rule?.tokensOut ?? Math.max(1, Math.ceil(content.length / 4));
    const ns = Math.round(latency * 1e6);
    const created_at = new Date().toISOString();
    const piece = (c: string, done: boolean) =>
      endpoint === 'chat' ? { model: m.name, created_at, message: { role: 'assistant', content: c }, done } : { model: m.name, created_at, response: c, done };
    const final = {
      ...piece('', true),
      done_reason: 'stop',
      total_duration: ns + 1_000_000,
      load_duration: 500_000,
      prompt_eval_count: tokensIn,
      prompt_eval_duration: Math.round(ns * 0.2),
      eval_count: tokensOut,
      eval_duration: Math.round(ns * 0.8),
      ...(endpoint === 'generate' ? { context: [1, 2, 3] } : {}),
    };
    if (body.stream === false) {
      const full = endpoint === 'chat' ? { ...final, message: { role: 'assistant', content } } : { ...final, response: content };
      const s = JSON.stringify(full);
      if (fault?.kind === 'garbled') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(`<html>${s.slice(0, 20)}`);
        return;
      }
      if (fault?.kind === 'truncate' || fault?.kind === 'drop') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(s.length) });
        res.write(s.slice(0, Math.floor(s.length / 2)));
        res.socket?.destroy();
        return;
      }
      return this.json(res, 200, full);
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' });
    const chunks = splitInto(content, 3);
    if (fault?.kind === 'garbled') {
      res.write(`${JSON.stringify(piece(chunks[0] ?? '', false))}\n`);
      res.end('data: {"model": not json}\n');
      return;
    }
    if (fault?.kind === 'drop') {
      res.write(`${JSON.stringify(piece(chunks[0] ?? '', false))}\n`);
      setTimeout(() => res.socket?.destroy(), 10);
      return;
    }
    if (fault?.kind === 'truncate') {
      res.write(`${JSON.stringify(piece(chunks[0] ?? '', false))}\n`);
      res.write('{"model":"trunc'); // half a line, then the connection ends
      res.end();
      return;
    }
    for (const c of chunks) res.write(`${JSON.stringify(piece(c, false))}\n`);
    res.end(`${JSON.stringify(final)}\n`);
  }

  private async pull(res: ServerResponse, name: string, stream: boolean): Promise<void> {
    const full = name.includes(':') ? name : `${name}:latest`;
    const m = (this.script.pullable ?? []).find((x) => x.name === name || x.name === full) ?? this.find(name);
    if (!stream) {
      if (!m) return this.error(res, 500, 'pull model manifest: file does not exist');
      if (!this.find(m.name)) this.installed.push(m);
      return this.json(res, 200, { status: 'success' });
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' });
    const line = (o: unknown) => res.write(`${JSON.stringify(o)}\n`);
    line({ status: 'pulling manifest' });
    if (!m) {
      res.end(`${JSON.stringify({ error: 'pull model manifest: file does not exist' })}\n`);
      return;
    }
    const digest = `sha256:${digestOf(m)}`;
    const total = 4_683_073_184;
    const delay = this.script.pullDelayMs;
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    if (delay) await wait(delay);
    for (const f of [0, 0.25, 0.5, 0.75, 1]) {
      line({ status: `pulling ${digestOf(m).slice(0, 12)}`, digest, total, completed: Math.round(total * f) });
      await wait(delay ?? 1);
    }
    for (const s of ['verifying sha256 digest', 'writing manifest', 'removing any unused layers']) {
      line({ status: s });
      if (delay) await wait(delay);
    }
    if (!this.find(m.name)) this.installed.push(m);
    res.end(`${JSON.stringify({ status: 'success' })}\n`);
  }

  private json(res: ServerResponse, status: number, o: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(o));
  }
  private error(res: ServerResponse, status: number, message: string): void {
    this.json(res, status, { error: message });
  }
}

function lastUserText(endpoint: string, body: Record<string, unknown>): string {
  if (endpoint === 'generate') return typeof body.prompt === 'string' ? body.prompt : '';
  const msgs = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: string }[]) : [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return String(msgs[i].content ?? '');
  return '';
}

function replyContent(r: FakeReply): string {
  if (Array.isArray(r)) return JSON.stringify({ equations: r });
  if ('raw' in r) return r.raw;
  return JSON.stringify(r.json);
}

function splitInto(s: string, n: number): string[] {
  if (s.length === 0) return [''];
  const size = Math.ceil(s.length / n);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function details(m: FakeModel) {
  return {
    parent_model: '',
    format: 'gguf',
    family: m.family ?? 'llama',
    families: [m.family ?? 'llama'],
    parameter_size: m.parameterSize ?? '7B',
    quantization_level: m.quantization ?? 'Q4_K_M',
  };
}

function tagEntry(m: FakeModel) {
  return { name: m.name, model: m.name, modified_at: '2025-01-01T00:00:00Z', size: 4_683_087_332, digest: digestOf(m), details: details(m) };
}

function showEntry(m: FakeModel) {
  return {
    modelfile: `FROM ${m.name}`,
    parameters: 'stop "<|im_end|>"',
    template: '{{ .Prompt }}',
    details: details(m),
    model_info: { 'general.architecture': m.family ?? 'llama', ...(m.parameterCount ? { 'general.parameter_count': m.parameterCount } : {}) },
    capabilities: ['completion'],
    modified_at: '2025-01-01T00:00:00Z',
  };
}

/** Start a fake server on 127.0.0.1 (random port unless given). */
export function startFakeOllama(script: FakeScript = {}, port = 0): Promise<FakeOllama> {
  return new FakeOllama(script).start(port);
}

async function cli(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes('--help')) {
    console.log('usage: node --import tsx test/support/fake-ollama.ts [--port N] [--script file.json] [--latency ms]');
    return;
  }
  const script: FakeScript = arg('script') ? (JSON.parse(readFileSync(arg('script')!, 'utf8')) as FakeScript) : {};
  if (arg('latency')) script.latencyMs = Number(arg('latency'));
  const fake = await startFakeOllama(script, Number(arg('port') ?? 0));
  console.log(`fake-ollama listening on ${fake.url} (models: ${fake.installed.map((m) => m.name).join(', ')})`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await cli(process.argv.slice(2));
