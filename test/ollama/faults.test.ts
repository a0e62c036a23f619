// The fault matrix: every way an Ollama server can fail, against the scripted server. For each
// fault, grade() keeps every stored result, leaves the responses it could not read *waiting*
// (flag 'waiting-for-model', the fault named in the response's reason; never a finished reading
// with 'parse-error'), the `ollama` library prints nothing, and a re-run once the fault is gone
// reads only those and ends with exactly the marks of a clean run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { grade, type GradeSummary } from '../../electron/engine/grade.ts';
import { resolveTechnique } from '../../electron/engine/read/registry.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import type { EntailmentEngine } from '../../electron/engine/decide/entail/types.ts';
import type { FakeOllama, FakeFault, FaultKind } from '../support/fake-ollama.ts';
import { fake, FALL, M1 } from './helpers.ts';

const exam = validateExam({ format: 'exam.v1', id: 'fall-exam', title: 'Fall', questions: [FALL] });
const servers: FakeOllama[] = [];
let engineP: Promise<EntailmentEngine> | null = null;
const engine = () => (engineP ??= Entailer.create());
after(async () => {
  for (const s of servers) await s.close();
  if (engineP) await (await engineP).close();
});

/** Four responses, each with the model's reading scripted; the first two are graded before the fault. */
export const FAULT_TEXTS = [
  'the ball falls freely so v = sqrt(2gh)',
  'energy: mgh = 1/2 m v^2',
  'v^2 = 2gh hence v = sqrt(2gh)',
  'it falls for t = sqrt(2h/g)',
];
export const FAULT_READINGS = [['Eq(v, sqrt(2*g*h))'], ['Eq(m*g*h, m*v**2/2)'], ['Eq(v**2, 2*g*h)', 'Eq(v, sqrt(2*g*h))'], ['Eq(t, sqrt(2*h/g))']];
const script = () => ({ rules: FAULT_TEXTS.map((t, i) => ({ match: t, reply: FAULT_READINGS[i] })) });
const rows = (n: number) => FAULT_TEXTS.slice(0, n).map((text, i) => ({ line: i + 2, studentId: `s${i + 1}`, questionId: 'fall', text }));
// The model time-out where a stall is injected (each stall costs one), and where none is: the
// scripted server answers at once, but on a loaded machine not always within a fraction of a
// second (0.3 s here once made a clean run wait), so those runs are given ample time.
const STALL_TIMEOUT_MS = 1500;
const RELAXED_TIMEOUT_MS = 20_000;
const settings = (f: FakeOllama, timeoutMs: number) => ({ model: M1, url: f.url, retries: 1, backoffMs: 1, timeoutMs });

const start = async () => {
  const f = await fake(script());
  servers.push(f);
  return f;
};

async function run(ws: Workspace, f: FakeOllama, n: number | 'none', timeoutMs = RELAXED_TIMEOUT_MS): Promise<GradeSummary> {
  return grade({
    workspace: ws,
    exam,
    engine: await engine(),
    technique: await resolveTechnique('llm-modulo', settings(f, timeoutMs)),
    input: n === 'none' ? { kind: 'none' } : { kind: 'responses', rows: rows(n) },
  });
}

/** Per student: the reading's equations, status and flags, and the marks. */
function snapshot(ws: Workspace) {
  return ws.listResponses('fall-exam').map((r) => ({
    student: r.studentId,
    equations: r.extraction?.equations,
    status: r.extraction?.status,
    flags: [...(r.extraction?.flags ?? [])].sort(),
    total: r.marks?.total,
  }));
}

/** Calls to console.* while `fn` runs (the `ollama` library's parse noise would land there). */
async function quietly<T>(fn: () => Promise<T>): Promise<{ value: T; noise: string[] }> {
  const noise: string[] = [];
  const saved = { log: console.log, warn: console.warn, error: console.error };
  console.log = console.warn = console.error = (...a: unknown[]) => void noise.push(a.map(String).join(' '));
  try {
    return { value: await fn(), noise };
  } finally {
    Object.assign(console, saved);
  }
}

let cleanRun: ReturnType<typeof snapshot> | null = null;
async function clean(): Promise<ReturnType<typeof snapshot>> {
  if (cleanRun) return cleanRun;
  const f = await start();
  const ws = new Workspace(':memory:');
  const s = await run(ws, f, 4);
  assert.deepEqual(s.waiting, []);
  cleanRun = snapshot(ws);
  ws.close();
  assert.deepEqual(
    cleanRun.map((r) => r.total),
    [1, 0, 1, 0],
  );
  return cleanRun;
}

type Case = {
  name: string;
  /** A fault of the scripted server, or the server stopped (connection refused). */
  fault: FaultKind | 'stopped';
  times?: number;
  /** What the waiting responses' reason must say. */
  reason: RegExp;
  /** The server is taken out of the batch (the second response waits without a request). */
  serverOut: boolean;
  /** Requests the faulty run may make for the two new responses (retries 1). */
  requests?: number;
};

const URL_RE = 'Ollama at http://127\\.0\\.0\\.1:\\d+';
const CASES: Case[] = [
  {
    name: 'connection refused (server stopped)',
    fault: 'stopped',
    reason: /cannot reach Ollama at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    serverOut: true,
  },
  { name: 'connection closed at once', fault: 'refuse', reason: new RegExp(`connection to ${URL_RE} dropped before the reply was complete`), serverOut: true },
  { name: 'HTTP 500', fault: 'http-500', reason: new RegExp(`${URL_RE} answered HTTP 500: llama runner process has terminated`), serverOut: true, requests: 2 },
  {
    name: 'HTTP 500 as plain text',
    fault: 'http-500-text',
    reason: new RegExp(`${URL_RE} answered HTTP 500: Internal Server Error`),
    serverOut: true,
    requests: 2,
  },
  {
    name: 'invalid JSON on the wire',
    fault: 'garbled',
    reason: new RegExp(`${URL_RE} sent a malformed reply: line 2 of the reply stream is not JSON`),
    serverOut: false,
    requests: 4,
  },
  {
    name: 'truncated stream',
    fault: 'truncate',
    reason: new RegExp(`${URL_RE} sent a malformed reply: the reply stream was cut off in the middle of line 2 \\(truncated\\)`),
    serverOut: false,
    requests: 4,
  },
  { name: 'dropped connection', fault: 'drop', reason: new RegExp(`connection to ${URL_RE} dropped`), serverOut: true, requests: 2 },
  {
    name: 'reply outside the schema',
    fault: 'off-schema',
    reason: /fake-llm:7b at http:\/\/127\.0\.0\.1:\d+ replied outside the expected form: no "equations" list/,
    serverOut: false,
    requests: 4,
  },
  {
    name: 'prose instead of JSON',
    fault: 'prose',
    reason: /fake-llm:7b at http:\/\/127\.0\.0\.1:\d+ replied outside the expected form: not JSON/,
    serverOut: false,
    requests: 4,
  },
  { name: 'model not found', fault: 'unknown-model', reason: new RegExp(`${URL_RE}: model 'fake-llm:7b' not found`), serverOut: true, requests: 1 },
  // A stall costs one time-out per response, never one per retry; two in a row take the server out.
  { name: 'stall past the time-out', fault: 'stall', reason: new RegExp(`${URL_RE} did not answer within 1\\.5 s`), serverOut: true, requests: 2 },
];

for (const c of CASES) {
  test(`fault matrix: ${c.name} — stored results kept, unread responses wait (named, with the fault), a re-run gives the clean marks`, async () => {
    const want = await clean();
    const f = await start();
    const ws = new Workspace(':memory:');
    assert.deepEqual((await run(ws, f, 2)).waiting, []);
    const before = snapshot(ws).slice(0, 2);
    const ids = ws.listResponses('fall-exam').map((r) => ws.getExtraction(r.id)!.id);

    // The fault: the two new responses can't be read.
    if (c.fault === 'stopped') await f.stop();
    else f.inject({ kind: c.fault, times: c.times ?? Infinity } as FakeFault);
    f.resetCounts();
    const { value: s, noise } = await quietly(() => run(ws, f, 4, c.fault === 'stall' ? STALL_TIMEOUT_MS : RELAXED_TIMEOUT_MS));
    assert.deepEqual(noise, [], 'the ollama library printed nothing');
    assert.deepEqual(snapshot(ws).slice(0, 2), before, 'stored results are kept');
    assert.deepEqual(
      ws
        .listResponses('fall-exam')
        .slice(0, 2)
        .map((r) => ws.getExtraction(r.id)!.id),
      ids,
      'and not stored again',
    );
    assert.deepEqual(
      s.waiting.map((w) => w.studentId),
      ['s3', 's4'],
    );
    for (const w of s.waiting) {
      assert.match(w.reason ?? '', c.reason, `${w.studentId}: ${w.reason}`);
      const x = ws.getExtraction(ws.findResponse('fall-exam', w.studentId, 'fall')!)!;
      assert.ok(x.flags.includes('waiting-for-model'));
      assert.ok(!x.flags.includes('parse-error'), 'a failed read is not a reading with a parse error');
      assert.equal(x.source, 'embedded', 'the embedded reading is kept meanwhile');
      assert.equal(ws.getModelRecord(ws.findResponse('fall-exam', w.studentId, 'fall')!)!.waiting, true);
    }
    if (c.requests !== undefined) {
      const chats = f.count('chat');
      if (c.serverOut) assert.equal(chats, c.requests, `the server was taken out after the first response (${chats} requests)`);
      else assert.equal(chats, c.requests, `each response tried once plus its retry (${chats} requests)`);
    }

    // The fault is gone: the same run reads only the waiting responses and ends with the clean marks.
    if (c.fault === 'stopped') await f.start(f.port);
    else f.clearFaults();
    f.resetCounts();
    const again = await run(ws, f, 'none');
    assert.deepEqual(again.waiting, []);
    assert.equal(again.extractedNow, 2, 'only the waiting responses are read again');
    assert.equal(f.count('chat'), 2);
    assert.deepEqual(snapshot(ws), want);
    ws.close();
  });
}

test('fault matrix: flaky HTTP 500 (fails once, then answers) — nothing waits and the marks are the clean ones', async () => {
  const want = await clean();
  const f = await start();
  f.inject({ kind: 'http-500', times: 1 });
  const ws = new Workspace(':memory:');
  const { value: s, noise } = await quietly(() => run(ws, f, 4));
  assert.deepEqual(noise, []);
  assert.deepEqual(s.waiting, []);
  assert.deepEqual(snapshot(ws), want);
  const retried = ws.listResponses('fall-exam').flatMap((r) => ws.getModelRecord(r.id)!.record.calls.flatMap((k) => k.retried));
  assert.equal(retried.length, 1);
  assert.match(retried[0], /answered HTTP 500/);
  ws.close();
});

test('a single stall costs one time-out and the batch goes on; the stalled response waits', async () => {
  const f = await start();
  f.inject({ kind: 'stall', times: 1, match: FAULT_TEXTS[1] });
  const ws = new Workspace(':memory:');
  const s = await run(ws, f, 4, STALL_TIMEOUT_MS);
  assert.deepEqual(
    s.waiting.map((w) => w.studentId),
    ['s2'],
  );
  assert.equal(f.count('chat'), 4, 'no retry of the stalled request; the others were read');
  ws.close();
});
