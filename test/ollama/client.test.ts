import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveOllamaUrl, isLoopbackUrl, settingsWarnings, makeSettings, DEFAULT_OLLAMA_URL } from '../../electron/engine/read/ollama/settings.ts';
import { OllamaClient, OllamaError } from '../../electron/engine/read/ollama/client.ts';
import { JsonlReplyCache } from '../../electron/engine/read/ollama/cache.ts';
import { fake, clientFor, M1 } from './helpers.ts';
import type { FakeOllama } from '../support/fake-ollama.ts';
import { tempDir } from '../support/temp-dir.ts';

const servers: FakeOllama[] = [];
after(async () => {
  for (const s of servers) await s.close();
});
const start = async (...a: Parameters<typeof fake>) => {
  const f = await fake(...a);
  servers.push(f);
  return f;
};
const chatReq = (text: string) => ({
  model: M1,
  digest: 'd',
  messages: [{ role: 'user' as const, content: text }],
  format: { type: 'object' },
  options: { temperature: 0, seed: 42 },
});

test('OLLAMA_HOST is read the way Ollama reads it; explicit URL wins', () => {
  assert.equal(resolveOllamaUrl(undefined, {}), DEFAULT_OLLAMA_URL);
  assert.equal(resolveOllamaUrl(undefined, { OLLAMA_HOST: '0.0.0.0' }), 'http://0.0.0.0:11434');
  assert.equal(resolveOllamaUrl(undefined, { OLLAMA_HOST: ':8080' }), 'http://127.0.0.1:8080');
  assert.equal(resolveOllamaUrl(undefined, { OLLAMA_HOST: 'gpu-box:9000' }), 'http://gpu-box:9000');
  assert.equal(resolveOllamaUrl(undefined, { OLLAMA_HOST: 'https://ollama.example.org' }), 'https://ollama.example.org:443');
  assert.equal(resolveOllamaUrl('http://localhost:1234/', { OLLAMA_HOST: 'elsewhere' }), 'http://localhost:1234');
  assert.throws(() => resolveOllamaUrl('ftp://x'), /only http and https/);
});

test('a non-loopback URL warns that student data would leave the machine', () => {
  assert.ok(isLoopbackUrl('http://127.0.0.1:11434'));
  assert.ok(isLoopbackUrl('http://localhost:11434'));
  assert.ok(isLoopbackUrl('http://[::1]:11434'));
  assert.ok(!isLoopbackUrl('http://192.168.1.20:11434'));
  assert.deepEqual(settingsWarnings({ url: 'http://127.0.0.1:11434' }), []);
  const w = settingsWarnings({ url: 'http://192.168.1.20:11434' });
  assert.match(w[0], /not on this machine.*sent over the network/);
  assert.throws(() => makeSettings({ model: 'x', technique: 'consensus' }, {}), /second model/);
  assert.throws(() => makeSettings({ model: 'x', technique: 'magic' as never }, {}), /unknown technique/);
  assert.throws(() => makeSettings({ model: 'x', parallel: 0 }, {}), /parallel/);
});

test('lists installed models with digests, shows parameter count, pulls with progress', async () => {
  const f = await start({ pullable: [{ name: 'new-model:1b', parameterSize: '1.2B' }] });
  const c = clientFor(f);
  const models = await c.listModels();
  assert.deepEqual(
    models.map((m) => m.name),
    [M1, 'fake-llm-b:8b'],
  );
  assert.equal(models[0].digest, f.digest(M1));
  assert.match(models[0].digest, /^[0-9a-f]{64}$/);
  assert.equal(OllamaClient.findModel(models, 'fake-llm:7b')?.digest, models[0].digest);
  assert.equal((await c.show(M1)).parameters, 7_615_616_512);
  assert.match(await c.version(), /^\d+\.\d+/);
  const progress: number[] = [];
  const statuses: string[] = [];
  await c.pull('new-model:1b', (p) => {
    statuses.push(p.status);
    if (p.fraction !== undefined) progress.push(p.fraction);
  });
  assert.deepEqual(progress, [0, 0.25, 0.5, 0.75, 1]);
  assert.equal(statuses.at(-1), 'success');
  assert.ok((await c.listModels()).some((m) => m.name === 'new-model:1b'));
  await assert.rejects(c.pull('no-such-model'), /pulling 'no-such-model' failed: .*file does not exist/);
});

for (const stream of [true, false]) {
  test(`chat (${stream ? 'NDJSON stream' : 'single JSON'}): content, tokens, duration`, async () => {
    const f = await start({ rules: [{ match: 'hello', reply: ['Eq(v, 2)'], tokensIn: 120, tokensOut: 9 }] });
    const c = clientFor(f, { stream });
    const r = await c.chat(chatReq('hello'));
    assert.equal(r.content, '{"equations":["Eq(v, 2)"]}');
    assert.equal(r.tokensIn, 120);
    assert.equal(r.tokensOut, 9);
    assert.equal(r.cached, false);
    assert.equal(r.attempts, 1);
    assert.equal(f.requests[0].body.stream, stream);
    assert.deepEqual(f.requests[0].body.options, { temperature: 0, seed: 42 });
    assert.deepEqual(f.requests[0].body.format, { type: 'object' });
  });
}

for (const kind of ['refuse', 'http-500', 'truncate', 'invalid-json'] as const) {
  test(`retries with back-off after a fault: ${kind}`, async () => {
    const f = await start({ rules: [{ reply: ['Eq(v, 1)'] }], faults: [{ kind, times: 2 }] });
    // (These faults answer at once: the time-out is ample so that a loaded machine can't turn the last, good answer into a stall.)
    const c = clientFor(f, { timeoutMs: 10_000, retries: 2 });
    const r = await c.chat({ ...chatReq('x'), validate: (s) => (s.startsWith('{') ? null : 'not JSON') });
    assert.equal(r.content, '{"equations":["Eq(v, 1)"]}');
    assert.equal(r.attempts, 3);
    assert.equal(r.retried.length, 2);
    assert.equal(f.count('chat'), 3);
  });
}

test('a stall is not retried: it costs one time-out, and says which server and how long', async () => {
  const f = await start({ rules: [{ reply: ['Eq(v, 1)'] }], faults: [{ kind: 'stall', times: Infinity }] });
  const c = clientFor(f, { timeoutMs: 150, retries: 3 });
  await assert.rejects(
    c.chat(chatReq('x')),
    (e: OllamaError) => e.kind === 'timeout' && e.attempts === 1 && e.message.includes(f.url) && /did not answer within 0\.1 s/.test(e.message),
  );
  assert.equal(f.count('chat'), 1);
});

test('gives up after the retries, classifying the failure', async () => {
  const f = await start({ faults: [{ kind: 'http-500', times: Infinity }] });
  const c = clientFor(f, { retries: 1 });
  await assert.rejects(c.chat(chatReq('x')), (e: OllamaError) => e.kind === 'server' && e.unavailable && /gave up after 2 attempts/.test(e.message));
  assert.equal(f.count('chat'), 2);
  await f.stop();
  await assert.rejects(c.listModels(), (e: OllamaError) => e.kind === 'connection' && e.unavailable);
});

test("an unknown model is Ollama's 404 and is not retried", async () => {
  const f = await start();
  const c = clientFor(f);
  await assert.rejects(
    c.chat({ ...chatReq('x'), model: 'nope' }),
    (e: OllamaError) => e.kind === 'model-not-found' && e.status === 404 && /model 'nope' not found/.test(e.message),
  );
  assert.equal(f.count('chat'), 1);
});

test('cache: the same (digest, prompt, options) is answered without a request, and persists as JSON lines', async () => {
  const f = await start({ rules: [{ reply: ['Eq(v, 3)'], tokensIn: 50, tokensOut: 5 }] });
  const path = join(tempDir('eqm-cache-'), 'sub', 'replies.jsonl');
  const c = clientFor(f, { cache: new JsonlReplyCache(path) });
  await c.chat(chatReq('a'));
  const again = await c.chat(chatReq('a'));
  assert.equal(again.cached, true);
  assert.equal(again.tokensIn, 50);
  assert.equal(f.count('chat'), 1);
  await c.chat({ ...chatReq('a'), digest: 'other-digest' });
  await c.chat({ ...chatReq('a'), options: { temperature: 0, seed: 7 } });
  assert.equal(f.count('chat'), 3, 'a different digest or options is a different key');
  // A torn last line (a crash mid-write) is skipped and the next entry starts on a fresh line.
  appendFileSync(path, '{"k":"torn","v":{"con');
  const reopened = new JsonlReplyCache(path);
  assert.equal(reopened.size, 3);
  assert.equal(reopened.skippedLines, 1);
  const c2 = clientFor(f, { cache: reopened });
  assert.equal((await c2.chat(chatReq('a'))).cached, true);
  await c2.chat(chatReq('b'));
  assert.equal(new JsonlReplyCache(path).size, 4);
  assert.equal(readFileSync(path, 'utf8').split('\n').filter(Boolean).length, 5);
});

test('the fake server starts standalone with a script (for CLI demos and the app end-to-end tests)', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/fake-ollama.ts', '--port', '0', '--script', 'test/support/ollama-fixtures/demo-script.json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
    });
    const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: { name: string }[] };
    assert.deepEqual(
      tags.models.map((m) => m.name),
      ['demo-reader:7b', 'demo-checker:8b'],
    );
    const res = await fetch(`${url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'missing', messages: [] }) });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: "model 'missing' not found" });
  } finally {
    child.kill('SIGTERM');
  }
});
