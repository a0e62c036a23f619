// Several Ollama servers in one batch: responses are spread over them (each with its own requests
// in flight), the model must have the same digest on every server (else the batch refuses, naming
// the hosts and digests), a server that fails is taken out (what it failed on waits, the others
// read the rest), and every server not on this machine is warned about.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readResponses } from '../../electron/engine/read/model/batch.ts';
import { MemoryReplyCache } from '../../electron/engine/read/ollama/cache.ts';
import { resolveOllamaUrls, settingsWarnings } from '../../electron/engine/read/ollama/settings.ts';
import type { FakeOllama, FakeScript } from '../support/fake-ollama.ts';
import { fake, FALL, M1 } from './helpers.ts';

const servers: FakeOllama[] = [];
after(async () => {
  for (const s of servers) await s.close();
});
const start = async (script: FakeScript = {}) => {
  const f = await fake(script);
  servers.push(f);
  return f;
};

const N = 12;
const responses = Array.from({ length: N }, (_, i) => ({ id: `r${i + 1}`, text: `v = ${i + 1} (response ${i + 1})` }));
const rules = responses.map((r, i) => ({ match: r.text, reply: [`Eq(v, ${i + 1})`], latencyMs: 15 }));
const opts = (urls: string[], extra: Record<string, unknown> = {}) => ({
  model: M1,
  urls,
  technique: 'llm-modulo' as const,
  retries: 1,
  backoffMs: 1,
  timeoutMs: 2000,
  parallel: 2,
  cache: new MemoryReplyCache(),
  ...extra,
});

test('two servers both get work, each with its own requests in flight; the readings are those of one server', async () => {
  const a = await start({ rules });
  const b = await start({ rules });
  const r = await readResponses(responses, FALL, opts([a.url, b.url]));
  assert.deepEqual(r.waiting, []);
  assert.equal(a.count('chat') + b.count('chat'), N);
  assert.ok(a.count('chat') >= 2 && b.count('chat') >= 2, `a ${a.count('chat')}, b ${b.count('chat')}`);
  assert.deepEqual(
    r.items.map((it) => it.extraction.equations.map((e) => e.source)),
    responses.map((_, i) => [`Eq(v, ${i + 1})`]),
  );
  assert.deepEqual(
    r.servers?.map((s) => [s.url, s.read]),
    [
      [a.url, a.count('chat')],
      [b.url, b.count('chat')],
    ],
  );
  assert.ok(r.items.every((it) => it.record.models[0].digest === a.digest(M1)));
});

test('a model with another digest on one server: the batch refuses before reading, naming the hosts and digests', async () => {
  const a = await start({ rules });
  const b = await start({ rules, models: [{ name: M1, digest: 'b'.repeat(64), parameterSize: '7.6B' }] });
  await assert.rejects(readResponses(responses, FALL, opts([a.url, b.url])), (e: Error) => {
    assert.match(e.message, /model 'fake-llm:7b' is not the same on every Ollama server/);
    assert.ok(e.message.includes(`${a.url} has digest ${a.digest(M1).slice(0, 12)}`), e.message);
    assert.ok(e.message.includes(`${b.url} has digest bbbbbbbbbbbb`), e.message);
    return true;
  });
  assert.equal(a.count('chat') + b.count('chat'), 0, 'nothing was read');
});

test('a server missing the model: the batch refuses, naming that server', async () => {
  const a = await start({ rules });
  const b = await start({ rules, models: [] });
  await assert.rejects(
    readResponses(responses, FALL, opts([a.url, b.url])),
    new RegExp(`model 'fake-llm:7b' is not installed in Ollama at ${b.url.replace(/\./g, '\\.')}`),
  );
});

test('one server failing: the responses it failed on wait (with its fault), the other server reads the rest', async () => {
  const a = await start({ rules });
  const b = await start({ rules, faults: [{ kind: 'http-500', times: Infinity }] });
  const r = await readResponses(responses, FALL, opts([a.url, b.url]));
  assert.ok(r.waiting.length >= 1 && r.waiting.length <= 2, `waiting ${r.waiting}`);
  for (const id of r.waiting) {
    const it = r.items.find((x) => x.id === id)!;
    assert.ok(it.extraction.flags.includes('waiting-for-model'));
    assert.ok(it.record.error?.includes(`Ollama at ${b.url} answered HTTP 500`), String(it.record.error));
  }
  const read = r.items.filter((x) => !x.record.waiting);
  assert.equal(read.length, N - r.waiting.length);
  assert.ok(read.every((x) => x.extraction.status === 'read'));
  const sb = r.servers!.find((s) => s.url === b.url)!;
  assert.equal(sb.read, 0);
  assert.match(sb.down ?? '', /HTTP 500/);
  assert.equal(r.servers!.find((s) => s.url === a.url)!.read, read.length);
});

test('a server down from the start: the other reads everything', async () => {
  const a = await start({ rules });
  const b = await start({ rules });
  await b.stop();
  const r = await readResponses(responses, FALL, opts([a.url, b.url]));
  assert.deepEqual(r.waiting, []);
  assert.equal(a.count('chat'), N);
  assert.match(r.servers!.find((s) => s.url === b.url)!.down ?? '', /ECONNREFUSED/);
});

test('every server off this machine is warned about; a server given twice is an error', () => {
  const w = settingsWarnings({
    url: 'http://gpu1.example.edu:11434',
    urls: ['http://gpu1.example.edu:11434', 'http://127.0.0.1:11434', 'https://gpu2.example.edu:443'],
  });
  assert.equal(w.filter((x) => /is not on this machine/.test(x)).length, 2);
  assert.ok(w.some((x) => x.startsWith('Ollama at http://gpu1.example.edu:11434 is not on this machine')));
  assert.ok(w.some((x) => x.startsWith('Ollama at https://gpu2.example.edu:443 is not on this machine')));
  assert.ok(w.some((x) => x === 'Connection to http://gpu1.example.edu:11434 is not encrypted (http).'));
  assert.ok(!w.some((x) => x.startsWith('Ollama at http://127.0.0.1')));
  assert.throws(() => resolveOllamaUrls(['gpu1:11434', 'http://gpu1:11434'], {}), /Ollama server http:\/\/gpu1:11434 is given twice/);
  assert.deepEqual(resolveOllamaUrls([], { OLLAMA_HOST: ':9000' }), ['http://127.0.0.1:9000']);
});
