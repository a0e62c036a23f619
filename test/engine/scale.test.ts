// Issue 14: grading at scale gives exactly the marks of the sequential method; the verdicts kept
// in the workspace survive a reopen, so a re-grade after a restart decides nothing twice; a
// scheme change re-decides only pairs with the changed accepted form; a correction only that
// response's pairs; the class list read in bulk equals the per-response reads; canonical forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEquationOrThrow, equationToSympy } from '../../shared/equation/index.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { canonicalEquation } from '../../electron/engine/decide/entail/canonical.ts';
import type { VerdictStore } from '../../electron/engine/decide/entail/types.ts';
import { grade, markResponse } from '../../electron/engine/grade.ts';
import { loadExamFile, validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { RecentRate } from '../../electron/engine/progress-rate.ts';
import { answerGroups } from '../../electron/engine/review/groups.ts';
import { scaleRows } from '../../bench/scale-rows.ts';

const DATA = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/data');
const hasData = existsSync(join(DATA, 'exam.json')) && existsSync(join(DATA, 'gold.csv'));

const exam: LoadedExam = validateExam({
  format: 'exam.v1',
  id: 'scale',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
        { name: 'w', assumptions: ['positive'] },
        { name: 't', assumptions: ['positive'] },
        { name: 'S', assumptions: ['positive'] },
      ],
      target: 'v',
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(t, 2*S/u)'] },
        { id: 'b', marks: 1, match: 'equivalent', accept: ['Eq(v - u, w)'] },
        { id: 'c', marks: 2, match: 'answer', accept: ['Eq(v, u + w)'] },
      ],
    },
  ],
});

const LISTS = [
  ['Eq(t, 2*S/u)', 'Eq(v, u + w)'],
  ['Eq(2*(t), 2*(2*S/u))', 'Eq(v - u - w, 0)'],
  ['Eq(u + w, v)', 'Eq(t*u, 2*S)'],
  ['Eq(v, u - w)', 'Eq(t, S/u)'],
  ['Eq(3*(v - u), 3*(w))'],
  ['Eq(v, 2*u)', 'Eq(t, 2*S/v)'],
];
const csv = (lists: string[][], prefix = 'S'): string =>
  `student_id,question_id,equations\n${lists.map((l, i) => `${prefix}${i},q1,"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;
const given = (text: string, ex: LoadedExam = exam) => ({
  kind: 'given' as const,
  rows: parseEquationsCsv(text, (q) => ex.questions.get(q)?.variables).rows,
});

/** Every automatic outcome of the exam's responses, by student/question/item. */
function outcomes(ws: Workspace, examId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of ws.listResponses(examId)) {
    const m = ws.getMarks(r.id);
    out[`${r.studentId}/${r.questionId}`] = `${m?.status}:${m?.total}`;
    for (const it of m?.items ?? []) out[`${r.studentId}/${r.questionId}/${it.itemId}`] = `${it.outcome}:${it.awarded}`;
  }
  return out;
}

/** A verdict store that records the keys written (to see which pairs were decided). */
function spying(inner: VerdictStore): VerdictStore & { puts: string[] } {
  const puts: string[] = [];
  return {
    puts,
    get: (k) => inner.get(k),
    put: (k, v) => {
      puts.push(k);
      inner.put(k, v);
    },
  };
}

const decided = (e: Entailer): number => e.stats().pairs - e.stats().cacheHits;

test('canonical forms: moved to one side, both sides scaled, sides swapped are one equation; x/x is not cancelled', () => {
  const k = (s: string) => canonicalEquation(parseEquationOrThrow(s)).key;
  assert.equal(k('Eq(v - u, 0)'), k('Eq(v, u)'));
  assert.equal(k('Eq(0, v - u)'), k('Eq(u, v)'));
  assert.equal(k('Eq(3*(v - u), 3*(w))'), k('Eq(w, v - u)'));
  assert.equal(k('Eq(2*(v) - 2*(u), 0)'), k('Eq(v, u)'));
  assert.equal(k('Eq(-v, -u)'), k('Eq(u, v)'));
  assert.equal(k('Eq(4*v*t/S, 4*u)'), k('Eq(v*t/S, u)'));
  assert.notEqual(k('Eq(4*v*t/S, 5*u)'), k('Eq(v*t/S, u)'));
  assert.notEqual(k('Eq(v*4*t, 4*u)'), k('Eq(v*t, u)'));
  assert.notEqual(k('Eq(0*v, 0*u)'), k('Eq(v, u)'));
  assert.notEqual(k('Eq(2*v, 3*u)'), k('Eq(v, u)'));
  assert.notEqual(k('Eq(v/v, 1)'), k('Eq(1, 1)'));
  assert.equal(equationToSympy(canonicalEquation(parseEquationOrThrow('Eq(v, u)')).eq), 'Eq(u, v)');
});

test('the batched, concurrent marking gives the marks of the sequential method, and the class list read in bulk equals the per-response reads', async () => {
  const rows = hasData ? scaleRows(DATA, 240).csv : csv(LISTS);
  const ex = hasData ? loadExamFile(join(DATA, 'exam.json')) : exam;
  const marksBy: Record<string, string>[] = [];
  for (const sequential of [true, false]) {
    const ws = new Workspace(':memory:');
    // The sequential method as it was: equations decided as written, one response at a time.
    const engine = await Entailer.create({ canonical: !sequential });
    try {
      await grade({ workspace: ws, exam: ex, engine, input: given(rows, ex), sequential });
      marksBy.push(outcomes(ws, ex.exam.id));
      if (!sequential) {
        const first = ws.listResponses(ex.exam.id)[0];
        const item = ws.getMarks(first.id)!.items[0];
        ws.setOverride(first.id, item.itemId, 0, 'checked by hand');
        for (const r of ws.listResponses(ex.exam.id)) {
          const m = ws.getMarks(r.id);
          const x = ws.getExtraction(r.id);
          const effective: Record<string, number | null> = {};
          for (const it of m?.items ?? []) effective[it.itemId] = it.awarded;
          if (r.id === first.id) effective[item.itemId] = 0;
          assert.deepEqual(r.effective, effective);
          assert.equal(r.overrides, r.id === first.id ? 1 : 0);
          assert.deepEqual(
            r.extraction?.equations,
            x?.equations.map((e) => e.source),
          );
          assert.deepEqual(r.marks, m ? { total: m.total, available: m.available, status: m.status, inconsistent: m.inconsistent } : null);
        }
      }
    } finally {
      await engine.close();
      ws.close();
    }
  }
  assert.ok(Object.keys(marksBy[0]).length > 0);
  assert.deepEqual(marksBy[1], marksBy[0]);
});

test('verdicts kept in the workspace survive a reopen: a re-grade after a restart decides nothing twice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-scale-'));
  const path = join(dir, 'w.sqlite');
  try {
    const ex = hasData ? loadExamFile(join(DATA, 'exam.json')) : exam;
    const rows = hasData ? readFileSync(join(DATA, 'gold.csv'), 'utf8') : csv(LISTS);
    let ws = new Workspace(path);
    let engine = await Entailer.create();
    await grade({ workspace: ws, exam: ex, engine, input: given(rows, ex) });
    const before = outcomes(ws, ex.exam.id);
    const kept = ws.decidedCount();
    assert.ok(kept > 0 && decided(engine) > 0);
    await engine.close();
    ws.close();

    // Restart: a new engine, the workspace reopened, every mark dropped (something exam-wide
    // changed: an empty list of constants where there was none; a new title alone re-marks nothing).
    ws = new Workspace(path);
    engine = await Entailer.create();
    assert.equal(ws.decidedCount(), kept);
    const retitled: LoadedExam = { ...ex, exam: { ...ex.exam, constants: [] } };
    const origin = ws.decidedStore();
    const putAgain: string[] = [];
    const wrapped = Object.create(engine) as Entailer;
    wrapped.setVerdictStore = () =>
      engine.setVerdictStore({
        get: (k) => origin.get(k),
        put: (k, v) => {
          if (origin.get(k) !== undefined) putAgain.push(k);
          origin.put(k, v);
        },
      });
    const summary = await grade({ workspace: ws, exam: retitled, engine: wrapped, input: { kind: 'none' } });
    assert.equal(summary.markedNow, summary.responses, 'every response marked again');
    assert.deepEqual(putAgain, [], 'no kept verdict decided again');
    assert.deepEqual(outcomes(ws, ex.exam.id), before);
    assert.ok(engine.stats().storeHits! > 0);
    if (!hasData) assert.equal(decided(engine), 0);
    await engine.close();
    ws.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a scheme change re-decides only pairs with the changed accepted form; a correction only that response', async () => {
  const ws = new Workspace(':memory:');
  let engine = await Entailer.create();
  try {
    await grade({ workspace: ws, exam, engine, input: given(csv(LISTS)) });
    await engine.close();

    // One accepted form added to item a (equivalent to the first): after a restart, only its pairs are decided.
    const changed = validateExam({
      ...exam.exam,
      questions: [
        { ...exam.exam.questions[0], scheme: exam.exam.questions[0].scheme.map((s) => (s.id === 'a' ? { ...s, accept: [...s.accept, 'Eq(S, u*t/2)'] } : s)) },
      ],
    });
    engine = await Entailer.create();
    const store = spying(ws.decidedStore());
    const wrapped = Object.create(engine) as Entailer;
    wrapped.setVerdictStore = () => engine.setVerdictStore(store);
    const before = outcomes(ws, 'scale');
    await grade({ workspace: ws, exam: changed, engine: wrapped, input: { kind: 'none' } });
    const newForm = canonicalEquation(parseEquationOrThrow('Eq(S, u*t/2)')).key;
    const pairs = store.puts.filter((k) => k.startsWith('p\u0000'));
    assert.ok(pairs.length > 0, 'the new form was checked');
    assert.deepEqual(
      pairs.filter((k) => !k.includes(newForm)),
      [],
    );
    assert.deepEqual(outcomes(ws, 'scale'), before, 'an equivalent form changes no mark');

    // A correction: only the corrected response's new equation is decided.
    store.puts.length = 0;
    const id = ws.findResponse('scale', 'S3', 'q1')!;
    const other = ws.findResponse('scale', 'S0', 'q1')!;
    const otherAt = ws.getMarks(other)!.markedAt;
    ws.saveExtraction(id, { equations: [{ source: 'Eq(v, u + 2*w)' }], status: 'read', source: 'manual', flags: [], unread: [], notes: [] }, 'instructor');
    const d0 = decided(engine);
    await markResponse(ws, wrapped, changed.questions.get('q1'), { id, studentId: 'S3', questionId: 'q1' });
    const fresh = canonicalEquation(parseEquationOrThrow('Eq(v, u + 2*w)')).key;
    assert.ok(decided(engine) > d0);
    assert.deepEqual(
      store.puts.filter((k) => !k.includes(fresh)),
      [],
    );
    assert.equal(ws.getMarks(other)!.markedAt, otherAt, 'no other response re-marked');
  } finally {
    await engine.close();
    ws.close();
  }
});

test('the time-left estimate uses the rate of the recent window', () => {
  let now = 0;
  const r = new RecentRate(1000, () => now);
  assert.equal(r.etaSeconds(10), null);
  for (let i = 0; i < 10; i++) {
    now += 500; // slow start: 2 per second
    r.tick();
  }
  for (let i = 0; i < 20; i++) {
    now += 50; // now 20 per second
    r.tick();
  }
  assert.ok(Math.abs(r.perSecond()! - 20) < 0.01, String(r.perSecond()));
  assert.ok(Math.abs(r.etaSeconds(100)! - 5) < 0.01);
  assert.equal(r.etaSeconds(0), 0);
});

test('answer groups: lists of the same equations written differently are one group without a proof', async () => {
  const ws = new Workspace(':memory:');
  const engine = await Entailer.create();
  try {
    const lists = [['Eq(t, 2*S/u)', 'Eq(v, u + w)'], ['Eq(u + w, v)', 'Eq(3*(t), 3*(2*S/u))', 'Eq(v, u + w)'], ['Eq(v - u - w, 0)'], ['Eq(v, 2*u)']];
    await grade({ workspace: ws, exam, engine, input: given(csv(lists)) });
    const never = { compareLists: async () => ({ equivalent: false, aCoveredBy: [], bCoveredBy: [] }) };
    const groups = await answerGroups(never, exam.exam.questions[0], ws.listResponses('scale'));
    const ids = (sid: string) => ws.findResponse('scale', sid, 'q1');
    const sizes = groups.map((g) => g.members.map((m) => m.id).sort());
    assert.deepEqual(sizes, [[ids('S0'), ids('S1')], [ids('S2')], [ids('S3')]]);
  } finally {
    await engine.close();
    ws.close();
  }
});

test('answer groups: a pair of lists is decided once per engine; opening again gives the same groups without a proof', async () => {
  const ws = new Workspace(':memory:');
  const engine = await Entailer.create();
  try {
    // v = u + w said three ways the canonical form can't join (solved for another variable), and one list that differs.
    const lists = [['Eq(v, u + w)'], ['Eq(u, v - w)'], ['Eq(w, v - u)'], ['Eq(v, 2*u)']];
    await grade({ workspace: ws, exam, engine, input: given(csv(lists)) });
    let calls = 0;
    const counting = {
      compareLists: (a: Parameters<Entailer['compareLists']>[0], b: Parameters<Entailer['compareLists']>[1], d: Parameters<Entailer['compareLists']>[2]) => {
        calls++;
        return engine.compareLists(a, b, d);
      },
    };
    const q = exam.exam.questions[0];
    const ids = (g: { members: { id: number }[] }[]) => g.map((x) => x.members.map((m) => m.id).sort((a, b) => a - b));
    const first = await answerGroups(counting, q, ws.listResponses('scale'));
    assert.ok(calls > 0);
    const sid = (s: string) => ws.findResponse('scale', s, 'q1');
    assert.deepEqual(ids(first), [[sid('S0'), sid('S1'), sid('S2')].sort((a, b) => a! - b!), [sid('S3')]]);
    const before = calls;
    const again = await answerGroups(counting, q, ws.listResponses('scale'));
    assert.equal(calls, before, 'no pair decided twice');
    assert.deepEqual(ids(again), ids(first));
    // Another engine (other settings may decide otherwise) decides afresh.
    let other = 0;
    const fresh = { compareLists: counting.compareLists };
    const wrapped = { compareLists: (...a: Parameters<typeof fresh.compareLists>) => (other++, fresh.compareLists(...a)) };
    assert.deepEqual(ids(await answerGroups(wrapped, q, ws.listResponses('scale'))), ids(first));
    assert.ok(other > 0);
  } finally {
    await engine.close();
    ws.close();
  }
});

test('answer groups after a restart: the lists compared are kept in the workspace, so a new engine decides no pair again', async () => {
  const ws = new Workspace(':memory:');
  let engine = await Entailer.create();
  try {
    const lists = [['Eq(v, u + w)'], ['Eq(u, v - w)'], ['Eq(w, v - u)'], ['Eq(v, 2*u)']];
    await grade({ workspace: ws, exam, engine, input: given(csv(lists)) });
    const q = exam.exam.questions[0];
    const ids = (g: { members: { id: number }[] }[]) => g.map((x) => x.members.map((m) => m.id).sort((a, b) => a - b));
    engine.setVerdictStore(ws.decidedStore());
    const first = await answerGroups(engine, q, ws.listResponses('scale'));
    ws.flushDecided();
    await engine.close();
    engine = await Entailer.create();
    engine.setVerdictStore(ws.decidedStore());
    const again = await answerGroups(engine, q, ws.listResponses('scale'));
    assert.deepEqual(ids(again), ids(first));
    // Each pair of lists compared is one look-up (equivalentLists keeps the answer), not a pair of equations decided.
    assert.ok(engine.stats().storeHits! > 0, 'the lists compared are read from the workspace');
    assert.equal(engine.stats().pairs, 0, 'no pair decided again');
    assert.equal(engine.stats().z3Calls, 0);
  } finally {
    await engine.close();
    ws.close();
  }
});

test('a page of the class list is that slice of the whole list; counts come from the store', async () => {
  const ws = new Workspace(':memory:');
  const engine = await Entailer.create();
  try {
    await grade({ workspace: ws, exam, engine, input: given(csv(LISTS)) });
    const all = ws.listResponses('scale');
    ws.setOverride(all[3].id, 'a', 1, 'by hand');
    const whole = ws.listResponses('scale');
    assert.deepEqual(ws.listResponses('scale', { offset: 2, limit: 3 }), whole.slice(2, 5));
    assert.deepEqual(ws.listResponses('scale', { offset: 4 }), whole.slice(4));
    assert.equal(ws.countResponses('scale'), LISTS.length);
    const c = ws.examCounts('scale');
    assert.equal(c.responses, LISTS.length);
    assert.equal(
      c.awarded,
      whole.reduce((s, r) => s + (r.marks?.total ?? 0), 0),
    );
    assert.equal(c.inconsistent, whole.filter((r) => r.marks?.inconsistent.length).length);
  } finally {
    await engine.close();
    ws.close();
  }
});
