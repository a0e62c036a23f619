// Ollama pipeline bench (standalone: `node --import tsx bench/ollama.bench.ts`, or `npm run bench -- ollama`).
// 1. Pipeline overhead per response: LLM-Modulo against an instant fake server (prompt building,
//    HTTP on loopback, NDJSON parsing, our parser, grounding). Goal: < 5 ms per response.
// 2. Parallel requests: a server with fixed latency; N requests in flight should give close to
//    N x the throughput of 1 (ratio measured in the same run).
import type { Question } from '../shared/exam.ts';
import { readResponses } from '../electron/engine/read/model/batch.ts';
import { MemoryReplyCache } from '../electron/engine/read/ollama/cache.ts';
import { OllamaClient } from '../electron/engine/read/ollama/client.ts';
import { startFakeOllama } from '../test/support/fake-ollama.ts';

const Q: Question = {
  id: 'bench',
  title: '',
  prompt: 'A ball is dropped from height h; find its speed v.',
  variables: ['m', 'h', 'g', 't', 'v'].map((name) => ({ name, description: name === 'v' ? 'impact speed' : '', assumptions: ['positive' as const] })),
  target: 'v',
  scheme: [],
};

const responses = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, text: `Energy: mgh = 1/2 m v^2, so v = sqrt(2gh). (Attempt ${i}.)` }));

export async function main(): Promise<void> {
  // Each equation with the span it was read from (the reply form the guard verifies).
  const instant = await startFakeOllama({
    fallback: {
      json: {
        equations: [
          { equation: 'Eq(m*g*h, m*v**2/2)', span: 'mgh = 1/2 m v^2', mappings: [] },
          { equation: 'Eq(v, sqrt(2*g*h))', span: 'v = sqrt(2gh)', mappings: [] },
        ],
      },
    },
  });
  try {
    const opts = { model: 'fake-llm:7b', url: instant.url, technique: 'llm-modulo' as const, retries: 0 };
    await readResponses(responses(20), Q, { ...opts, cache: new MemoryReplyCache() }); // warm-up
    const n = 300;
    const t0 = performance.now();
    const r = await readResponses(responses(n), Q, { ...opts, cache: new MemoryReplyCache() });
    if (r.waiting.length || r.items.some((it) => it.extraction.status !== 'read')) throw new Error('bench run did not read every response');
    const per = (performance.now() - t0) / n;
    const t1 = performance.now();
    await readResponses(responses(n), Q, { ...opts, cache: new MemoryReplyCache(), stream: false });
    const perNoStream = (performance.now() - t1) / n;
    const cache = new MemoryReplyCache();
    await readResponses(responses(n), Q, { ...opts, cache });
    const t2 = performance.now();
    await readResponses(responses(n), Q, { ...opts, cache });
    const perCached = (performance.now() - t2) / n;
    // The bare HTTP round trip of the same request (fetch + the fake server, same process), for reference.
    const body = JSON.stringify(r.items[0].record.calls[0].messages);
    const t3 = performance.now();
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${instant.url}/api/chat`, { method: 'POST', body: `{"model":"fake-llm:7b","stream":false,"messages":${body}}` });
      await res.json();
    }
    const bare = (performance.now() - t3) / n;
    // The pipeline alone: the same client with a fetch that answers in-process (no sockets, no server).
    const canned = r.items[0].record.calls[0].reply;
    const tags = await (await fetch(`${instant.url}/api/tags`)).text();
    const show = await (await fetch(`${instant.url}/api/show`, { method: 'POST', body: '{"model":"fake-llm:7b"}' })).text();
    const stubFetch: typeof fetch = async (input) => {
      const u = String(input);
      if (u.endsWith('/api/tags')) return new Response(tags, { status: 200, headers: { 'content-type': 'application/json' } });
      if (u.endsWith('/api/show')) return new Response(show, { status: 200, headers: { 'content-type': 'application/json' } });
      const lines = [
        { model: 'fake-llm:7b', created_at: '', message: { role: 'assistant', content: canned }, done: false },
        {
          model: 'fake-llm:7b',
          created_at: '',
          message: { role: 'assistant', content: '' },
          done: true,
          prompt_eval_count: 900,
          eval_count: 20,
          total_duration: 1,
        },
      ];
      return new Response(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
    };
    const stubClient = new OllamaClient({ url: instant.url, fetch: stubFetch, cache: new MemoryReplyCache(), retries: 0 });
    await readResponses(responses(50), Q, { ...opts, client: stubClient });
    const t4 = performance.now();
    const ownRun = await readResponses(responses(n), Q, {
      ...opts,
      client: new OllamaClient({ url: instant.url, fetch: stubFetch, cache: new MemoryReplyCache(), retries: 0 }),
    });
    if (ownRun.waiting.length || ownRun.accounting.calls !== n) throw new Error(`bench run did not read every response (${ownRun.waitingReason ?? ''})`);
    const own = (performance.now() - t4) / n;
    console.log(`per response, LLM-Modulo, ${n} responses one at a time (${r.accounting.calls} model calls):`);
    console.log(`  end to end, instant server, NDJSON stream   ${per.toFixed(2)} ms  (goal < 5 ms: ${per < 5 ? 'met' : 'NOT met'})`);
    console.log(`  pipeline's own work (in-process fetch)      ${own.toFixed(2)} ms`);
    console.log(`  end to end, instant server, single JSON     ${perNoStream.toFixed(2)} ms`);
    console.log(`  bare fetch round trip to the same server    ${bare.toFixed(2)} ms  (reference: HTTP + fake server, same process)`);
    console.log(`  cached re-run                               ${perCached.toFixed(3)} ms`);
  } finally {
    await instant.close();
  }

  const latency = 100;
  const slow = await startFakeOllama({ fallback: ['Eq(v, sqrt(2*g*h))'], latencyMs: latency });
  try {
    const n = 64;
    const rate: Record<number, number> = {};
    for (const p of [1, 2, 4, 8]) {
      const t0 = performance.now();
      await readResponses(responses(n), Q, { model: 'fake-llm:7b', url: slow.url, technique: 'direct', parallel: p, cache: new MemoryReplyCache() });
      rate[p] = n / ((performance.now() - t0) / 1000);
    }
    console.log(`parallel requests (server latency ${latency} ms, ${n} responses):`);
    for (const p of [1, 2, 4, 8])
      console.log(`  parallel ${p}: ${rate[p].toFixed(1)} responses/s, ${(rate[p] / rate[1]).toFixed(2)}x of parallel 1 (ideal ${p}x)`);
  } finally {
    await slow.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
