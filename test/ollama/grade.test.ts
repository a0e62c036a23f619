// grade() with model techniques from the engine's registry, against the fake Ollama server:
// possibly invented equations earn nothing, a response left waiting keeps the embedded reading
// (whatever the technique) and is the only one read again, a stopped batch stores nothing it did
// not read, and the app's techniques store their records through the same path.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { grade } from '../../electron/engine/grade.ts';
import { extraTechniques, resolveTechnique } from '../../electron/engine/read/registry.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { extractEmbedded } from '../../shared/extract/index.ts';
import type { EntailmentEngine } from '../../electron/engine/decide/entail/types.ts';
import { fake, FALL, M1 } from './helpers.ts';
import type { FakeOllama } from '../support/fake-ollama.ts';

const exam = validateExam({ format: 'exam.v1', id: 'fall-exam', title: 'Fall', questions: [FALL] });
const servers: FakeOllama[] = [];
let engineP: Promise<EntailmentEngine> | null = null;
const engine = () => (engineP ??= Entailer.create());
after(async () => {
  for (const s of servers) await s.close();
  if (engineP) await (await engineP).close();
});
const start = async (...a: Parameters<typeof fake>) => {
  const f = await fake(...a);
  servers.push(f);
  return f;
};
const quick = (f: FakeOllama) => ({ model: M1, url: f.url, retries: 0, backoffMs: 1, timeoutMs: 2000 });
const rows = (texts: string[]) => texts.map((text, i) => ({ line: i + 2, studentId: `s${i + 1}`, questionId: 'fall', text }));

test('possibly invented equations earn no marks: held back, flagged, kept in the record until the instructor accepts them', async () => {
  const f = await start({ rules: [{ reply: ['Eq(v, sqrt(2*g*h))'] }] });
  const ws = new Workspace(':memory:');
  const technique = await resolveTechnique('llm-modulo', { ...quick(f), engine: await engine() });
  await grade({
    workspace: ws,
    exam,
    engine: await engine(),
    technique,
    input: { kind: 'responses', rows: rows(['so v = sqrt(2gh)', 'the ball is fast when it lands']) },
  });
  const [grounded, invented] = ws.listResponses('fall-exam');
  assert.equal(grounded.extraction!.source, `model:${M1}`);
  assert.deepEqual(grounded.extraction!.equations, ['Eq(v, sqrt(2*g*h))']);
  assert.equal(grounded.marks!.total, 1, 'the same equation, written by the student, earns the mark');
  assert.deepEqual(invented.extraction!.equations, [], 'the invented equation is not among those marked');
  assert.ok(invented.extraction!.flags.includes('invented'));
  assert.equal(invented.extraction!.status, 'needs-review');
  assert.equal(invented.marks!.total, 0);
  const rec = ws.getModelRecord(invented.id)!;
  assert.deepEqual(
    rec.record.ungrounded.map((u) => u.source),
    ['Eq(v, sqrt(2*g*h))'],
  );
  assert.match(
    ws
      .getExtraction(invented.id)!
      .notes.map((n) => n.text)
      .join('\n'),
    /possibly invented, held back until accepted: Eq\(v, sqrt\(2\*g\*h\)\)/,
  );
  assert.deepEqual(rec.models, [{ name: M1, digest: f.digest(M1) }]);
  ws.close();
});

test('Ollama down with a non-hybrid technique: the waiting response keeps the embedded reading, is graded on it, and is the only one read again', async () => {
  const f = await start({ rules: [{ match: 'v = sqrt(2gh)', reply: ['Eq(v, sqrt(2*g*h))', 'Eq(t, sqrt(2*h/g))'] }] });
  const port = f.port;
  await f.stop();
  const ws = new Workspace(':memory:');
  const text = 'v = sqrt(2gh)\nand t = sqrt(2h/g)';
  let s = await grade({
    workspace: ws,
    exam,
    engine: await engine(),
    technique: await resolveTechnique('direct', quick(f)),
    input: { kind: 'responses', rows: rows([text, '']) },
  });
  assert.deepEqual(
    s.waiting.map((w) => [w.studentId, w.questionId]),
    [['s1', 'fall']],
  );
  assert.match(s.waiting[0].reason ?? '', /cannot reach Ollama at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  assert.match(s.waitingReason ?? '', /cannot reach Ollama/);
  const id = ws.findResponse('fall-exam', 's1', 'fall')!;
  const x = ws.getExtraction(id)!;
  const emb = extractEmbedded(text, FALL);
  assert.deepEqual(
    x.equations.map((e) => e.source),
    emb.equations.map((e) => e.source),
  );
  assert.ok(emb.equations.length > 0);
  assert.ok(x.flags.includes('waiting-for-model'));
  assert.equal(x.source, 'embedded');
  assert.equal(ws.getMarks(id)!.total, 1, 'graded on the embedded reading meanwhile');
  assert.equal(ws.getModelRecord(id)!.waiting, true);

  await f.start(port);
  s = await grade({ workspace: ws, exam, engine: await engine(), technique: await resolveTechnique('direct', quick(f)), input: { kind: 'none' } });
  assert.equal(f.count('chat'), 1, 'only the waiting response is read');
  assert.equal(s.extractedNow, 1);
  assert.deepEqual(s.waiting, []);
  assert.equal(ws.getExtraction(id)!.source, `model:${M1}`);
  assert.equal(ws.getModelRecord(id)!.current, true);
  ws.close();
});

test('a stopped batch stores only what was read; the next run reads the rest', async () => {
  const texts = ['v = 1 first', 'v = 2 second', 'v = 3 third', 'v = 4 fourth'];
  const f = await start({ rules: texts.map((t, i) => ({ match: t, reply: [`Eq(v, ${i + 1})`] })), latencyMs: 30 });
  const ws = new Workspace(':memory:');
  const ctl = new AbortController();
  await grade({
    workspace: ws,
    exam,
    engine: await engine(),
    technique: await resolveTechnique('direct', quick(f)),
    input: { kind: 'responses', rows: rows(texts) },
    signal: ctl.signal,
    onProgress: (p) => p.phase === 'extract' && p.done === 1 && ctl.abort(),
  });
  const stored = ws.listResponses('fall-exam').filter((r) => r.extraction);
  assert.ok(stored.length >= 1 && stored.length < 4, `stored ${stored.length}`);
  assert.ok(
    stored.every((r) => !r.extraction!.flags.includes('waiting-for-model')),
    'nothing stored as waiting because the batch was stopped',
  );
  const left = ws.pending('fall-exam', 'extract').length;
  assert.equal(left, 4 - stored.length);
  f.resetCounts();
  await grade({ workspace: ws, exam, engine: await engine(), technique: await resolveTechnique('direct', quick(f)), input: { kind: 'none' } });
  assert.equal(f.count('chat'), left);
  assert.deepEqual(
    ws.listResponses('fall-exam').map((r) => r.extraction!.equations),
    [['Eq(v, 1)'], ['Eq(v, 2)'], ['Eq(v, 3)'], ['Eq(v, 4)']],
  );
  ws.close();
});

test("the app's model technique (from the engine registry) stores records and reports each one", async () => {
  const f = await start({ rules: [{ reply: ['Eq(v, sqrt(2*g*h))'], tokensIn: 50, tokensOut: 5 }] });
  const ws = new Workspace(':memory:');
  const seen: string[] = [];
  const techs = await extraTechniques({ ollamaUrl: f.url, models: [M1], onRecord: (text, _q, rec) => seen.push(`${text}|${rec.calls.length}`) });
  assert.deepEqual(Object.keys(techs).sort(), ['consensus', 'direct', 'embedded', 'hybrid', 'llm-modulo', 'per-line', 'plain']);
  await assert.rejects((await extraTechniques({ ollamaUrl: f.url, models: [M1] })).consensus(), /choose two models/);
  const technique = await techs['llm-modulo']();
  const s = await grade({
    workspace: ws,
    exam,
    engine: await engine(),
    technique,
    input: { kind: 'responses', rows: rows(['v = sqrt(2gh)', 'v=sqrt(2*g*h)']) },
  });
  assert.deepEqual(seen.sort(), ['v = sqrt(2gh)|1', 'v=sqrt(2*g*h)|1']);
  assert.equal(s.model!.accounting.tokensIn, 100);
  for (const r of ws.listResponses('fall-exam')) assert.equal(ws.getModelRecord(r.id)!.record.calls[0].tokensOut, 5);
  assert.equal(ws.getExtraction(ws.responseIds('fall-exam')[0])!.reader, `llm-modulo:${M1}`);
  ws.close();
});

test("the app's model techniques keep replies in the cache file they are given: the same responses again cost no model call", async () => {
  const { mkdtempSync, rmSync, existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'eqm-app-cache-'));
  try {
    const f = await start({ rules: [{ reply: ['Eq(v, sqrt(2*g*h))'], tokensIn: 50, tokensOut: 5 }] });
    const cachePath = join(dir, 'w.ollama-replies.jsonl');
    const gradeOnce = async () => {
      const ws = new Workspace(':memory:');
      const techs = await extraTechniques({ ollamaUrl: f.url, models: [M1], cachePath });
      await grade({
        workspace: ws,
        exam,
        engine: await engine(),
        technique: await techs['llm-modulo'](),
        input: { kind: 'responses', rows: rows(['v = sqrt(2gh)', 'v=sqrt(2*g*h)']) },
      });
      const eqs = ws.listResponses('fall-exam').map((r) => r.extraction!.equations);
      ws.close();
      return eqs;
    };
    const first = await gradeOnce();
    assert.equal(f.count('chat'), 2);
    assert.ok(existsSync(cachePath));
    f.resetCounts();
    assert.deepEqual(await gradeOnce(), first);
    assert.equal(f.count('chat'), 0, 'every reply came from the cache');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
