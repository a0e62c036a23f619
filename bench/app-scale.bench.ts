// App-scale benchmark (issue 14): the app's views with N graded responses (default 67,500: an
// olympiad's 1,500 students x 45 parts; BENCH_APP_N=6750 for a quick run), timed through the app
// service (electron/app/service.ts, through `dispatch` as the IPC handler and the HTTP server call
// it, each reply serialised to JSON as the transport does): the review list's first page, a
// filter, a search keystroke, scrolling far down, opening a response, a mark typed and the list
// again, the answer groups of a question, the summary. Each against the issue's goals (< 300 ms;
// groups < 1 s; summary < 1 s) and as a ratio against the unpaged full list computed the way the
// app did before (every row read and built for each call) — the baseline, measured in this run.
//
// The workspace is built fast, NOT by grading through Z3: the equation lists are the scale bench's
// (./scale-rows.ts: the development set's gold lists rewritten at random), written as readings in
// bulk through the store, and their marks are made up per canonical list (the same list, the same
// marks, so answer groups agree), with a realistic spread: awarded, withheld and undecided
// automatic items, open manual items, readings that are partial (ambiguous), addressed to the
// marker or blank, responses not graded yet, manual marks by hand, overrides with a reason and
// open regrade requests. The answer groups are the real ones: the engine (Z3, no SymPy) compares
// the lists, in the background from the list's first open (as the app does), beside the views
// timed after it; last, a fresh app on a copy of the workspace as built asks for a question's
// groups as soon as the list's first page comes (nothing compared before: the worker had only
// the list's first read to prepare them); then the same on a copy left as the command line's
// grade leaves a workspace (the answer groups' comparisons made as it ends,
// engine/review/prepare-groups.ts, timed on their own). SymPy's evidence is left out of opening a response (the
// app sends it later anyway).
// Run: npm run bench -- app-scale   (BENCH_APP_N=6750 npm run bench -- app-scale for a quick run)
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { AppService } from '../electron/app/service.ts';
import { createEngine } from '../electron/engine/decide/engine-factory.ts';
import { prepareAnswerGroups } from '../electron/engine/review/prepare-groups.ts';
import { Workspace } from '../electron/engine/store/workspace.ts';
import { chips, row } from '../electron/app/views.ts';
import { canonicalEquation } from '../electron/engine/decide/entail/canonical.ts';
import { mulberry32 } from '../electron/engine/decide/entail/rng.ts';
import { validateExam } from '../electron/engine/io/exam.ts';
import { effectiveTotal, overridesAutomatic, reviewOfResponse, schemeOf } from '../electron/engine/review/state.ts';
import { dispatch, type ApiMethod, type ApiRequest, type ApiResponse } from '../shared/api.ts';
import { parseEquation } from '../shared/equation/index.ts';
import type { Exam } from '../shared/exam.ts';
import type { Extraction } from '../shared/extraction.ts';
import type { ItemMark, ResponseMarks } from '../shared/marks.ts';
import { scaleRows } from './scale-rows.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = process.env.EQUIMARK_DATA ?? resolve(here, '../../shared/data');
const N = Number(process.env.BENCH_APP_N ?? 67500);
const PAGE = 200;

/** A 32-bit hash of a string (FNV-1a): marks made up per canonical list are the same for the same list. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const PHRASES = [
  'first I balance the forces on the block',
  'using conservation of energy between the two points',
  'the time of flight follows from the vertical motion',
  'by symmetry the two legs take the same time',
  'taking the ground frame',
  'so the answer is',
  'which gives, after simplifying,',
  'I think the question wants',
];

/** Made-up marks for a list (see the header): per item from the list's canonical key, so a group's members agree. */
function marksFor(q: Exam['questions'][number], key: string): ResponseMarks {
  const items: ItemMark[] = q.scheme.map((s) => {
    if (s.manual) return { itemId: s.id, available: s.marks, awarded: null, outcome: 'manual', match: 'manual', evidence: [] };
    const h = hash(`${key}\u0000${s.id}`) % 100;
    const outcome = h < 62 ? 'awarded' : h < 96 ? 'withheld' : 'undecided';
    return {
      itemId: s.id,
      available: s.marks,
      awarded: outcome === 'awarded' ? s.marks : outcome === 'withheld' ? 0 : null,
      outcome,
      match: s.match ?? 'implied',
      evidence: [],
    };
  });
  const undecided = items.some((i) => i.outcome === 'undecided');
  const manual = items.some((i) => i.outcome === 'manual');
  return {
    items,
    total: items.reduce((t, i) => t + (i.awarded ?? 0), 0),
    available: items.reduce((t, i) => t + i.available, 0),
    inconsistent: [],
    status: undecided ? 'undecided' : manual ? 'manual-open' : 'complete',
  };
}

/** Build the workspace: responses with texts, readings, marks, marks by hand, overrides, regrade requests. */
export function build(service: AppService, exam: Exam): { responses: number; overrides: number; manualMarks: number } {
  const ws = service.ws;
  ws.importExam(exam);
  const gen = scaleRows(DATA, N);
  const rows = parse(gen.csv, { columns: true }) as { student_id: string; question_id: string; equations: string }[];
  const rnd = mulberry32(1414);
  const texts = rows.map((r) => {
    const eqs = JSON.parse(r.equations) as string[];
    const p = PHRASES[Math.floor(rnd() * PHRASES.length)];
    const written = eqs.map((e) => e.replace(/^Eq\((.*), (.*)\)$/, '$1 = $2'));
    return { studentId: r.student_id, questionId: r.question_id, text: `${p}: ${written.join(', then ')}` };
  });
  ws.importResponses(exam.id, texts);
  const ids = ws.responseIds(exam.id);
  const questions = new Map(exam.questions.map((q) => [q.id, q]));
  const variables = new Map(exam.questions.map((q) => [q.id, q.variables.map((v) => v.name)]));
  const canon = new Map<string, string>();
  const keyOf = (q: string, src: string): string => {
    const k = `${q}\u0000${src}`;
    let c = canon.get(k);
    if (c === undefined) {
      const p = parseEquation(src, { variables: variables.get(q)! });
      canon.set(k, (c = p.ok ? canonicalEquation(p.value).key : src));
    }
    return c;
  };
  const BATCH = 2000;
  const notGraded = new Set<number>();
  for (let start = 0; start < rows.length; start += BATCH) {
    const part = rows.slice(start, start + BATCH);
    const readings = part.map((r, i) => {
      const u = rnd();
      const eqs = JSON.parse(r.equations) as string[];
      const blank = u < 0.03;
      const x: Extraction = {
        equations: blank ? [] : eqs.map((source) => ({ source })),
        status: blank ? 'blank' : u < 0.09 ? 'partial' : u < 0.11 ? 'needs-review' : 'read',
        source: 'embedded',
        flags: blank ? [] : u < 0.09 ? ['ambiguous-reading'] : u < 0.11 ? ['addresses-marker'] : [],
        unread: [],
        notes: [],
      };
      if (u > 0.97) notGraded.add(ids[start + i]);
      return { responseId: ids[start + i], extraction: x, reader: 'embedded' };
    });
    const xids = ws.saveExtractions(readings);
    const marks = readings.flatMap((rd, i) => {
      if (notGraded.has(rd.responseId)) return [];
      const q = part[i].question_id;
      const key = JSON.stringify([...new Set(rd.extraction.equations.map((e) => keyOf(q, e.source)))].sort());
      return [{ responseId: rd.responseId, extractionId: xids[i], marks: marksFor(questions.get(q)!, key) }];
    });
    const stale = ws.saveMarksBatch(marks);
    if (stale.length) throw new Error(`${stale.length} marks found their reading changed`);
  }
  // Marks by hand on 40% of the open manual items, overrides with a reason on 1% of the responses, 50 regrade requests.
  let manualMarks = 0;
  let overrides = 0;
  const list = ws.listResponses(exam.id);
  for (const r of list) {
    if (!r.marks) continue;
    const q = questions.get(r.questionId)!;
    const manual = q.scheme.find((s) => s.manual);
    if (manual && rnd() < 0.4) {
      ws.setOverride(r.id, manual.id, Math.floor(rnd() * (manual.marks + 1)));
      manualMarks++;
    }
    if (rnd() < 0.01) {
      const auto = q.scheme.find((s) => !s.manual)!;
      ws.setOverride(r.id, auto.id, auto.marks, 'the working shows it, written in words');
      overrides++;
    }
  }
  for (let i = 0; i < 50; i++) ws.addRegradeRequest(list[Math.floor(rnd() * list.length)].id, 'please look at my second line again', '2026-11-20');
  return { responses: rows.length, overrides, manualMarks };
}

/** The answer groups' comparisons a grade makes as it ends, on the workspace at `path`, with an engine as the command line's (Z3 at its first query). */
async function preparedAsGraded(path: string, exam: Exam): Promise<{ ms: number; compared: number }> {
  const ws = Workspace.open(path);
  const engine = await createEngine({ sympy: false, onNotice: () => {}, entailer: { z3Ahead: false } });
  try {
    const t0 = performance.now();
    const done = await prepareAnswerGroups(ws, exam, engine);
    if (done.failed) throw new Error(`the grade's answer groups failed: ${done.failed}`);
    return { ms: performance.now() - t0, compared: done.compared.length };
  } finally {
    await engine.close();
    ws.close();
  }
}

/** The answer groups' worker thread as the service reports it, in words. */
const said = (w: ReturnType<AppService['groupsWorker']>): string =>
  !w
    ? 'none (compared on the main thread)'
    : w.failure
      ? `failed (${w.failure}), compared on the main thread`
      : `${w.answered} requests answered by it, ${w.prepared} questions prepared in it before their rows were posted`;

type Timing = { name: string; ms: number; goal: number | null; note?: string };

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'equimark-app-scale-'));
  const openService = (file = 'w.sqlite'): AppService =>
    new AppService({
      workspacePath: join(dir, file),
      mode: 'browser',
      resourcesDir: resolve(here, '../resources'),
      // Options, not an engine: the answer groups' worker thread builds its engine from the same ones.
      engineOptions: { sympy: false },
    });
  let service = openService();
  try {
    const exam = validateExam(JSON.parse(readFileSync(join(DATA, 'exam.json'), 'utf8'))).exam;
    const examId = exam.id;
    const t = performance.now();
    const built = build(service, exam);
    const buildMs = performance.now() - t;
    // A copy of the workspace as built, before any list was read or group compared: the last
    // measure opens it in a fresh app (see there).
    await service.close();
    copyFileSync(join(dir, 'w.sqlite'), join(dir, 'fresh.sqlite'));
    // Another copy, left as a grade leaves it (the command line's `equimark grade`: the answer
    // groups' comparisons made as it ends, engine/review/prepare-groups.ts), for a fresh app on a
    // workspace graded elsewhere. Timed: what the grade's end adds (the scale bench counts it in its cold run).
    copyFileSync(join(dir, 'w.sqlite'), join(dir, 'graded.sqlite'));
    const gradedPrep = await preparedAsGraded(join(dir, 'graded.sqlite'), exam);
    service = openService();
    console.log(
      `workspace: ${built.responses} responses of ${exam.questions.length} questions, ${built.manualMarks} marks by hand, ${built.overrides} overrides, 50 regrade requests; built in ${(buildMs / 1000).toFixed(1)} s (bulk writes through the store, no grading)`,
    );
    console.log(
      `a copy prepared as a grade's end does (the answer groups' comparisons, ${gradedPrep.compared} questions): ${(gradedPrep.ms / 1000).toFixed(1)} s`,
    );

    let handlers = service.handlers();
    /** The longest a request waited for work already under way (the background's) before its handler ran. */
    let longestWait = { ms: 0, method: '' };
    /** One call as the UI makes it: validated by dispatch, its reply serialised as the transport does. */
    const call = async <M extends ApiMethod>(m: M, req: ApiRequest<M>): Promise<{ ms: number; value: ApiResponse<M> }> => {
      // Each request arrives as a new task (an IPC message, an HTTP request), so work the app
      // does in the background (answer groups) runs between requests, as it would in the app;
      // the time is counted from the request's arrival, so it includes the wait for the piece of
      // background work that runs before it.
      const t0 = performance.now();
      await new Promise((r) => setImmediate(r));
      const wait = performance.now() - t0;
      if (wait > longestWait.ms) longestWait = { ms: wait, method: m };
      const r = await dispatch(handlers, m, req);
      if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
      JSON.stringify(r.value);
      return { ms: performance.now() - t0, value: r.value as ApiResponse<M> };
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const timings: Timing[] = [];

    // Baseline: the whole list built for one call, the way the app did before (every row read, its text, its row).
    const ws = service.ws;
    const baselineList = (): number => {
      const t0 = performance.now();
      const list = ws.listResponses(examId);
      const texts = ws.textsOf(list.map((r) => r.id));
      const avail = new Map(exam.questions.map((q) => [q.id, q.scheme.reduce((s, i) => s + i.marks, 0)]));
      JSON.stringify({ rows: list.map((r) => row(r, exam, texts.get(r.id) ?? null, avail.get(r.questionId) ?? 0)) });
      return performance.now() - t0;
    };
    const baselineSummary = (): number => {
      const t0 = performance.now();
      const rows = ws.listResponses(examId);
      const counts: Record<string, number> = {};
      for (const r of rows) for (const c of chips(r, exam)) counts[c] = (counts[c] ?? 0) + 1;
      let n = 0;
      for (const r of rows) {
        if (reviewOfResponse(r, exam).needsReview) n++;
        if (overridesAutomatic(r, schemeOf(exam, r.questionId))) n++;
        if (effectiveTotal(r) !== null) n++;
      }
      JSON.stringify({ counts, n });
      return performance.now() - t0;
    };
    const base = median([baselineList(), baselineList(), baselineList()]);
    const baseSummary = median([baselineSummary(), baselineSummary(), baselineSummary()]);
    console.log(`baseline (before): the unpaged full list ${base.toFixed(0)} ms per call; the summary ${baseSummary.toFixed(0)} ms`);

    const first = { examId, limit: PAGE, sort: 'student' as const, dir: 1 as const };
    // The list's first open as the renderer makes it (renderer/views/Review.tsx): how long the
    // list is (one row), then its first page by student; what the instructor waits for is both.
    // Then, separately, until the list is read whole (every count known: review.ready).
    const openList = async (label: string): Promise<{ page: Awaited<ReturnType<typeof call<'review.list'>>>; from: number }> => {
      const from = performance.now();
      const length = await call('review.list', { examId, limit: 1 });
      const page = await call('review.list', first);
      timings.push({
        name: `${label}first page shown`,
        ms: length.ms + page.ms,
        goal: 300,
        note: `its length ${length.ms.toFixed(0)} ms, the page ${page.ms.toFixed(0)} ms; ${page.value.counting ? 'counts said to be counting' : 'every count'}`,
      });
      await call('review.ready', { examId });
      timings.push({ name: `${label}read whole (every count), from the first request`, ms: performance.now() - from, goal: null });
      return { page, from };
    };
    const opened = await openList('review list, first open: ');
    const r = opened.page;
    // The list's load starts the answer groups' preparation in the background (electron/app/answer-groups.ts)
    // once it is read: the views below run beside it, as they would in the app.
    const prepFrom = opened.from;
    let prepMs = NaN;
    void service.groupsPrepared().then(() => (prepMs = performance.now() - prepFrom));
    const total = r.value.total ?? 0;
    const again: number[] = [];
    for (let i = 0; i < 5; i++) again.push((await call('review.list', first)).ms);
    timings.push({ name: 'review list, first page', ms: median(again), goal: 300 });

    // Filters: each first time (a new filter; a new sort order is sorted once), then again.
    const q2 = exam.questions[1]?.id ?? exam.questions[0].id;
    const filters: [string, ApiRequest<'review.list'>][] = [
      ['filter: only those needing review', { ...first, onlyReview: true }],
      ['filter: status ambiguous reading', { ...first, chip: 'ambiguous-reading' }],
      [`filter: ${q2}, only open manual items`, { ...first, questionId: q2, onlyManual: true }],
      ['sort by total, first time', { ...first, sort: 'total', dir: -1 }],
      ['sort by total again', { ...first, sort: 'total', dir: -1 }],
      ['scroll: the page at row 40,000 of the list', { ...first, offset: Math.min(40_000, Math.max(0, total - PAGE)) }],
    ];
    for (const [name, req] of filters) timings.push({ name, ms: (await call('review.list', req)).ms, goal: 300 });

    // Search, one keystroke at a time (the box sends each).
    const student = r.value.rows[Math.min(r.value.rows.length - 1, 7)]?.studentId ?? 'S000001';
    const keys: number[] = [];
    for (let i = 1; i <= student.length; i++) keys.push((await call('review.list', { ...first, search: student.slice(0, i) })).ms);
    for (const word of ['e', 'en', 'ene', 'ener', 'energy']) keys.push((await call('review.list', { ...first, search: word })).ms);
    timings.push({ name: `search keystroke (median of ${keys.length})`, ms: median(keys), goal: 300 });
    timings.push({ name: 'search keystroke (slowest)', ms: Math.max(...keys), goal: 300 });

    // Opening a response: the first starts the engine (not counted); then five others.
    const ids = r.value.rows.map((x) => x.responseId);
    await call('response.get', { responseId: ids[0] });
    const opens: number[] = [];
    for (const id of ids.slice(1, 6)) opens.push((await call('response.get', { responseId: id })).ms);
    timings.push({ name: 'open a response (median of 5)', ms: median(opens), goal: 300 });

    // A mark typed in a response, then back to the list: only that row is read again.
    const q1 = exam.questions[0];
    const manual = q1.scheme.find((s) => s.manual);
    const open = (await call('review.list', { ...first, questionId: q1.id, onlyManual: true })).value.rows[0];
    if (manual && open) {
      timings.push({
        name: 'a mark typed in a response',
        ms: (await call('response.override', { responseId: open.responseId, itemId: manual.id, marks: 1 })).ms,
        goal: 300,
      });
      timings.push({ name: 'back to the list after it', ms: (await call('review.list', first)).ms, goal: 300 });
    }

    // Answer groups of a question: the first time (the engine compares the lists), again, and after a change in the question.
    const sinceOpen = performance.now() - prepFrom;
    const prepared = !Number.isNaN(prepMs);
    const g1 = await call('groups.list', { examId, questionId: q1.id });
    timings.push({
      name: `answer groups of ${q1.id}, first time`,
      ms: g1.ms,
      goal: 1000,
      note: `${g1.value.length} groups of ${g1.value.reduce((s, g) => s + g.responseIds.length, 0)} responses; opened ${(sinceOpen / 1000).toFixed(1)} s after the list's first open, ${prepared ? 'the background work done' : 'the background work still comparing'}`,
    });
    timings.push({ name: `answer groups of ${q1.id} again`, ms: (await call('groups.list', { examId, questionId: q1.id })).ms, goal: 1000 });
    if (manual && open) await call('response.override', { responseId: open.responseId, itemId: manual.id, marks: 0 });
    timings.push({ name: `answer groups of ${q1.id} after a mark changed`, ms: (await call('groups.list', { examId, questionId: q1.id })).ms, goal: 1000 });
    await service.groupsPrepared();
    const qLast = exam.questions[exam.questions.length - 1];
    const gLast = await call('groups.list', { examId, questionId: qLast.id });
    timings.push({
      name: `answer groups of ${qLast.id}, first time`,
      ms: gLast.ms,
      goal: 1000,
      note: `${gLast.value.length} groups of ${gLast.value.reduce((s, g) => s + g.responseIds.length, 0)} responses; prepared in the background, ${(prepMs / 1000).toFixed(1)} s for all ${exam.questions.length} questions after the list's first open`,
    });
    const gRows = await call('review.list', { examId, responseIds: g1.value.flatMap((g) => g.responseIds.slice(0, 200)) });
    timings.push({ name: 'the members the groups list (their rows)', ms: gRows.ms, goal: 300 });

    const s1 = await call('summary.get', { examId });
    timings.push({ name: 'summary', ms: s1.ms, goal: 1000 });
    timings.push({ name: 'summary again', ms: (await call('summary.get', { examId })).ms, goal: 1000 });

    // A restart: the app opens the same workspace again, with a new engine.
    const workerSaid = said(service.groupsWorker());
    await service.close();
    service = openService();
    handlers = service.handlers();
    const restartPrepFrom = (await openList('after a restart: review list, ')).from;
    let restartPrepMs = NaN;
    void service.groupsPrepared().then(() => (restartPrepMs = performance.now() - restartPrepFrom));
    await call('response.get', { responseId: ids[0] }); // starts the engine (not counted), as before the first groups
    timings.push({
      name: `after a restart: answer groups of ${q1.id}`,
      ms: (await call('groups.list', { examId, questionId: q1.id })).ms,
      goal: 1000,
      note: 'the pairs compared before are read from the workspace',
    });
    await service.groupsPrepared();
    console.log(`answer groups' worker thread before the restart: ${workerSaid}; after: ${said(service.groupsWorker())}`);
    console.log(
      `after a restart, the groups of all ${exam.questions.length} questions prepared in the background in ${(restartPrepMs / 1000).toFixed(1)} s after the list's first open`,
    );

    // A fresh app on the workspace as built (nothing compared yet), the groups of q1 asked as the
    // list's first page comes, as an instructor going straight to them would: the measure above
    // asks for them once the views are done (1 to 2 s later), when the background may have
    // compared them already.
    await service.close();
    service = openService('fresh.sqlite');
    handlers = service.handlers();
    const freshFrom = performance.now();
    const freshList = await call('review.list', first);
    const freshGroups = await call('groups.list', { examId, questionId: q1.id });
    timings.push({ name: 'fresh app: review list, first open', ms: freshList.ms, goal: null });
    timings.push({
      name: `fresh app: groups of ${q1.id} asked at the list's reply`,
      ms: freshGroups.ms,
      goal: 1000,
      note: `ready ${((performance.now() - freshFrom) / 1000).toFixed(1)} s after the list was asked for${service.groupsWorker()?.answeredEarly ? ', given before the list was read whole' : ''}`,
    });
    await service.groupsPrepared();

    // The same on a workspace graded by the command line (the copy prepared as its grade ends):
    // the groups are formed from the comparisons it kept.
    await service.close();
    service = openService('graded.sqlite');
    handlers = service.handlers();
    const gradedFrom = performance.now();
    const gradedList = await call('review.list', first);
    const gradedGroupsAsked = call('groups.list', { examId, questionId: q1.id });
    // Asked just after the groups: answered once the list is read whole (the groups' request
    // reads what is left of it at once, then waits for the worker), so it says how much of the
    // groups' time was the list's read.
    const listReadAt = call('review.ready', { examId }).then(() => performance.now() - gradedFrom);
    const gradedGroups = await gradedGroupsAsked;
    // Given before the list was read whole (app/early-groups.ts) or not, and the same groups,
    // totals included, as the list's rows give once it is read.
    const gradedListReadMs = await listReadAt;
    const early = service.groupsWorker()?.answeredEarly ?? 0;
    const once = (await call('groups.list', { examId, questionId: q1.id })).value;
    const sameAsRead =
      once.length === gradedGroups.value.length &&
      once.every(
        (g, i) =>
          g.key === gradedGroups.value[i].key && g.total === gradedGroups.value[i].total && g.responseIds.join() === gradedGroups.value[i].responseIds.join(),
      );
    timings.push({ name: 'fresh app, graded by the CLI: list, first open', ms: gradedList.ms, goal: null });
    timings.push({
      name: `fresh app, graded by the CLI: groups of ${q1.id} at the list's reply`,
      ms: gradedGroups.ms,
      goal: 1000,
      note: `${gradedGroups.value.length} groups, ${gradedGroups.value.length === freshGroups.value.length && gradedGroups.value.every((g, i) => g.key === freshGroups.value[i].key && g.responseIds.join() === freshGroups.value[i].responseIds.join()) ? 'the same as the never-compared copy' : 'NOT the same as the never-compared copy'}; ${early ? 'given before the list was read whole' : 'given from the list read whole'}, ${sameAsRead ? 'the same as once the list is read' : 'NOT the same as once the list is read'}; the list read whole at ${(gradedListReadMs / 1000).toFixed(1)} s after it was asked for`,
    });
    await service.groupsPrepared();

    console.log(`\n${'view'.padEnd(52)} ${'ms'.padStart(8)}  goal      vs the unpaged full list (${base.toFixed(0)} ms)`);
    for (const x of timings) {
      const verdict = x.goal === null ? '' : x.ms < x.goal ? `< ${x.goal} ok` : `> ${x.goal} OVER`;
      console.log(
        `${x.name.padEnd(52)} ${x.ms.toFixed(1).padStart(8)}  ${verdict.padEnd(9)} ${(base / Math.max(0.1, x.ms)).toFixed(1).padStart(7)}x${x.note ? `   (${x.note})` : ''}`,
      );
    }
    console.log(
      `the longest wait of a request for background work before its handler ran: ${longestWait.ms.toFixed(0)} ms (${longestWait.method}; included in its time above)`,
    );
    console.log(`summary vs the summary before (${baseSummary.toFixed(0)} ms): ${(baseSummary / Math.max(0.1, s1.ms)).toFixed(1)}x`);
    console.log(`peak memory (max RSS) ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
