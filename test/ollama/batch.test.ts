import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readResponses } from '../../electron/engine/read/model/batch.ts';
import { formatTableOne } from '../../electron/engine/eval/table-one.ts';
import { evaluateTechniques, goldEquivalent, runEval } from '../../electron/engine/eval/run.ts';
import { parseEvalSet } from '../../electron/engine/eval/set.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { resolveTechnique } from '../../electron/engine/read/registry.ts';
import { MemoryReplyCache } from '../../electron/engine/read/ollama/cache.ts';
import { syntacticComparer } from '../../electron/engine/read/model/strategies.ts';
import { computeAccounting, gpuPower, parseParameterSize } from '../../electron/engine/read/ollama/accounting.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { fake, FALL, M1, M2, baseOptions, spanned } from './helpers.ts';
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
const responses = Array.from({ length: 6 }, (_, i) => ({ id: `r${i}`, text: `answer ${i}: v = sqrt(2gh) and t = ${i}` }));
const rules = responses.map((r, i) => ({
  match: r.text,
  reply: spanned(['Eq(v, sqrt(2*g*h))', 'v = sqrt(2gh)'], [`Eq(t, ${i})`, `t = ${i}`]),
  tokensIn: 100,
  tokensOut: 10,
}));

test('Ollama unreachable mid-batch: the rest wait, keeping what the embedded extractor read; a re-run resumes from the cache', async () => {
  const f = await start({ rules });
  const cache = join(tempDir('eqm-resume-'), 'cache.jsonl');
  const embedded = (text: string) =>
    ({
      equations: [{ source: 'Eq(v, sqrt(2*g*h))' }],
      status: 'partial',
      source: 'embedded',
      flags: [],
      unread: [{ span: { start: 0, end: 3 }, text: text.slice(0, 3), reason: 'words' }],
      notes: [],
    }) as const;
  const opts = baseOptions(f, { technique: 'hybrid', embedded: (t: string) => ({ ...embedded(t), flags: [], unread: [...embedded(t).unread] }), cache });
  let seen = 0;
  const first = await readResponses(responses, FALL, {
    ...opts,
    onProgress: (p) => {
      seen++;
      if (p.done === 3) void f.stop();
    },
  });
  assert.equal(seen, 6);
  assert.ok(first.waiting.length >= 2 && first.waiting.length <= 3, `waiting: ${first.waiting}`);
  assert.match(first.waitingReason ?? '', /cannot reach Ollama|connection/);
  for (const id of first.waiting) {
    const it = first.items.find((x) => x.id === id)!;
    assert.ok(it.extraction.flags.includes('waiting-for-model'));
    assert.deepEqual(it.extraction.equations, [{ source: 'Eq(v, sqrt(2*g*h))' }], 'the embedded reading is kept');
    assert.equal(it.extraction.status, 'partial');
  }
  const doneIds = first.items.filter((x) => !x.record.waiting).map((x) => x.id);
  assert.ok(doneIds.every((id) => first.items.find((x) => x.id === id)!.extraction.status === 'read'));
  await f.start();
  f.resetCounts();
  const again = await readResponses(responses, FALL, opts);
  assert.deepEqual(again.waiting, []);
  assert.equal(f.count('chat'), first.waiting.length, 'only the waiting responses cost model calls');
  assert.equal(again.accounting.cachedCalls, 6 - first.waiting.length);
  assert.ok(again.items.every((x) => x.extraction.status === 'read'));
});

test('a model that is not installed stops the batch with a clear message', async () => {
  const f = await start();
  await assert.rejects(
    readResponses([{ id: 'a', text: 'v = 1' }], FALL, baseOptions(f, { model: 'llama-missing', technique: 'direct' })),
    /model 'llama-missing' is not installed.*installed: fake-llm:7b, fake-llm-b:8b.*pull it first/,
  );
});

test('accounting: tokens, busy time, FLOPs = 2 x parameters x tokens, energy for a named GPU; a cached re-run costs nothing', async () => {
  const f = await start({ rules, latencyMs: 20 });
  const cache = join(tempDir('eqm-acc-'), 'c.jsonl');
  const r = await readResponses(responses, FALL, baseOptions(f, { technique: 'direct', gpu: 'RTX 4090', parallel: 3, cache }));
  const a = r.accounting;
  assert.equal(a.calls, 6);
  assert.equal(a.tokensIn, 600);
  assert.equal(a.tokensOut, 60);
  assert.equal(a.estimatedFlops, 2 * 7_615_616_512 * 660);
  assert.equal(a.perModel[0].digest, f.digest(M1));
  assert.ok(a.modelBusyMs >= 40 && a.modelBusyMs <= a.modelCallMs, `busy ${a.modelBusyMs} vs sum ${a.modelCallMs}`);
  assert.ok(a.modelCallMs >= 6 * 20);
  assert.equal(a.energy!.boardPowerW, 450);
  assert.equal(a.energy!.joules, (450 * a.modelBusyMs) / 1000);
  assert.match(a.energy!.note, /estimate/);
  // Every record says which model (name + digest) read it.
  assert.ok(r.items.every((it) => it.record.calls.every((c) => c.model === M1 && c.digest === f.digest(M1))));
  const again = await readResponses(responses, FALL, baseOptions(f, { technique: 'direct', gpu: 'RTX 4090', cache }));
  assert.equal(again.accounting.calls, 0);
  assert.equal(again.accounting.tokensIn, 0);
  assert.equal(again.accounting.estimatedFlops, 0);
  assert.equal(again.accounting.cachedTokens, 660);
  assert.equal(again.accounting.tokensNeeded, 660);
  assert.equal(again.accounting.energy!.joules, 0);
});

test('accounting helpers: parameter sizes and GPU names', () => {
  assert.equal(parseParameterSize('7.6B'), 7.6e9);
  assert.equal(parseParameterSize('494.03M'), 494.03e6);
  assert.equal(parseParameterSize('8x7B'), 56e9);
  assert.equal(parseParameterSize('big'), null);
  assert.equal(gpuPower('NVIDIA GeForce RTX 4080'), 320);
  assert.equal(gpuPower('A100 80GB'), 400);
  assert.equal(gpuPower('nvidia-h100'), 700);
  assert.equal(gpuPower('250W'), 250);
  assert.equal(gpuPower('toaster'), null);
  assert.throws(() => computeAccounting([], { batchWallMs: 1, gpu: 'toaster' }), /unknown GPU 'toaster'/);
  const two = computeAccounting(
    [
      { model: 'a', digest: 'x', tokensIn: 10, tokensOut: 5, wallMs: 100, startedAt: 1000, cached: false },
      { model: 'a', digest: 'x', tokensIn: 10, tokensOut: 5, wallMs: 100, startedAt: 1050, cached: false },
      { model: 'b', digest: 'y', tokensIn: 1, tokensOut: 1, wallMs: 50, startedAt: 5000, cached: false },
    ],
    { batchWallMs: 5000, parameters: { x: 1e9, y: null }, gpuPowerW: 100 },
  );
  assert.equal(two.modelBusyMs, 200);
  assert.equal(two.modelCallMs, 250);
  assert.equal(two.estimatedFlops, null, 'unknown size for one model: no total');
  assert.equal(two.perModel[0].flops, 2 * 1e9 * 30);
});

test('Table I: per technique time, tokens and correct answers against gold (the real entailment engine)', async () => {
  const f = await start({
    rules: [
      { match: 'Two readers', reply: ['Eq(v**2, 2*g*h)'] },
      { match: 'not valid', reply: ['Eq(v**2/2, g*h)'] },
      { model: M1, match: 'speed squared', reply: ['v^2 = 2gh'], tokensIn: 200, tokensOut: 20 },
      { model: M2, match: 'speed squared', reply: ['Eq(v**2, 2*g*h)'], tokensIn: 200, tokensOut: 20 },
      { match: 'empty', reply: [] },
    ],
  });
  const engine = await Entailer.create();
  try {
    // The set as the CLI reads it: an exam, a responses CSV and a gold CSV (extra columns ambiguous, tags).
    const exam = validateExam({ format: 'exam.v1', id: 'fall-exam', title: 'Fall', questions: [FALL] });
    const set = parseEvalSet(
      exam,
      'student_id,question_id,response\nx1,fall,the speed squared: v^2 = 2gh\nx2,fall,empty words only\n',
      'student_id,question_id,equations,ambiguous,tags\nx1,fall,"[""Eq(v**2, 2*g*h)""]",false,chain\nx2,fall,[],false,words-only\n',
    );
    const settings = { url: f.url, model: M1, model2: M2, engine, retries: 1, backoffMs: 1, timeoutMs: 2000, cache: new MemoryReplyCache() };
    const techniques = [
      await resolveTechnique('direct', settings),
      await resolveTechnique('llm-modulo', settings),
      await resolveTechnique('consensus', settings),
    ];
    const { runs, tableOne: rows } = await evaluateTechniques({ exam: set.exam, engine, techniques, responses: set.responses, gold: set.gold });
    const by = Object.fromEntries(rows.map((r) => [r.technique, r]));
    assert.equal(by.direct.correct, 1, 'direct: the unparsed v^2 is dropped, x1 wrong; x2 right');
    assert.equal(by['llm-modulo'].correct, 2);
    // Consensus: M1 repaired to v**2/2 = g*h, M2 said v**2 = 2*g*h: equivalent by entailment, so they agree at once.
    assert.equal(by.consensus.correct, 2);
    const consensus = runs[2];
    assert.equal(consensus.batch.items[0].extraction.status, 'read');
    assert.ok(by.consensus.tokens > by['llm-modulo'].tokens);
    assert.equal(by.direct.scored, 2);
    // Table I counts exactly the responses the report calls equivalent (one decision per response).
    for (const r of runs) assert.equal(r.report.tableOne.correct, r.report.rows.filter((x) => x.equivalent).length);
    assert.equal(runs[1].report.accuracy.correct, 2);
    assert.deepEqual(runs[1].report.byTag, { chain: { correct: 1, total: 1 }, 'words-only': { correct: 1, total: 1 } });
    assert.equal(runs[1].report.marksAgreement.correct, 2, 'llm-modulo earns the marks gold earns');
    const text = formatTableOne(rows);
    assert.match(text, /technique\s+correct\s+accuracy/);
    assert.match(text, /llm-modulo\s+2\/2\s+100\.0%/);
    // The loop with only a list comparer (the syntactic stand-in): no marks compared.
    const syn = await runEval({
      exam: set.exam,
      engine: { compareLists: syntacticComparer },
      technique: techniques[0],
      responses: set.responses,
      gold: set.gold,
      marks: false,
    });
    assert.equal(syn.report.tableOne.correct, 1);
    assert.equal(syn.report.marksAgreement.total, 0);
    await assert.rejects(
      runEval({ exam: set.exam, engine: { compareLists: syntacticComparer }, technique: techniques[0], responses: set.responses, gold: set.gold }),
      /whole entailment engine/,
    );
    // The comparer: empty matches only empty; an item outside the grammar is not equivalent.
    const cq = set.exam.questions.get('fall')!;
    assert.equal(await goldEquivalent(engine, [], [], cq), true);
    assert.equal(await goldEquivalent(engine, ['Eq(v, 1)'], [], cq), false);
    assert.equal(await goldEquivalent(engine, ['v^2 = 2gh'], set.gold[0].equations, cq), false);
    assert.equal(await goldEquivalent(engine, ['Eq(v**2/2, g*h)'], set.gold[0].equations, cq), true);
  } finally {
    await engine.close();
  }
});
