// Shared test fixtures: an invented question (not from the development data) and a fake server.
import type { Question } from '../../shared/exam.ts';
import { OllamaClient } from '../../electron/engine/read/ollama/client.ts';
import { MemoryReplyCache, type ReplyCache } from '../../electron/engine/read/ollama/cache.ts';
import { startFakeOllama, type FakeScript, type FakeOllama } from '../support/fake-ollama.ts';

export const FALL: Question = {
  id: 'fall',
  title: 'Falling ball',
  prompt: 'A ball of mass m is dropped from height h. Find its speed v at the ground.',
  variables: [
    { name: 'm', description: 'mass of the ball', assumptions: ['positive'] },
    { name: 'h', description: 'drop height', assumptions: ['positive'] },
    { name: 'g', description: 'gravitational acceleration', assumptions: ['positive'] },
    { name: 't', description: 'fall time', assumptions: ['positive'] },
    { name: 'v', description: 'impact speed', assumptions: ['positive'] },
    { name: 'v_0', description: 'initial speed', assumptions: ['nonnegative'] },
    { name: 'theta', description: 'angle of the ramp', assumptions: ['positive'] },
  ],
  target: 'v',
  scheme: [{ id: 'a', description: '', marks: 1, match: 'answer', accept: ['Eq(v, sqrt(2*g*h))'] }],
  answer: 'Eq(v, sqrt(2*g*h))',
};

export const M1 = 'fake-llm:7b';
export const M2 = 'fake-llm-b:8b';

export async function fake(script: FakeScript = {}): Promise<FakeOllama> {
  return startFakeOllama(script);
}

/** A client with tiny time-outs and back-off, for fast tests. */
export function clientFor(
  f: FakeOllama,
  opts: { stream?: boolean; cache?: ReplyCache; timeoutMs?: number; retries?: number; parallel?: number } = {},
): OllamaClient {
  return new OllamaClient({
    url: f.url,
    stream: opts.stream ?? true,
    timeoutMs: opts.timeoutMs ?? 2000,
    retries: opts.retries ?? 2,
    backoffMs: 1,
    parallel: opts.parallel ?? 2,
    cache: opts.cache ?? new MemoryReplyCache(),
  });
}

export const baseOptions = (f: FakeOllama, extra: Record<string, unknown> = {}) => ({
  model: M1,
  url: f.url,
  backoffMs: 1,
  retries: 1,
  timeoutMs: 2000,
  ...extra,
});

/** A reply in the span-anchored form: [equation, span, mappings?] triples. */
export const spanned = (...items: [string, string, [string, string][]?][]) => ({
  json: { equations: items.map(([equation, span, maps]) => ({ equation, span, mappings: (maps ?? []).map(([from, to]) => ({ from, to })) })) },
});
