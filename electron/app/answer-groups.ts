// A question's answer groups as groups.list gives them, kept per question version
// (ctx.groupCache), and prepared in the background once an exam's marks are there (a grading job
// done, or the exam's review list first loaded), so opening a question's groups reads them
// instead of waiting for the engine to compare its lists (about 2 s for 22,000 responses).
//
// The groups are the engine's (review/groups.ts `answerGroupsOf`), the same whoever asks: the
// background work only asks earlier, at low priority (it gives a turn of the event loop once it
// has worked 30 ms, checked before each comparison of two lists, before each pair of equations
// inside it and every few hundred rows, and waits while a comparison someone asked for runs), and
// never writes a mark. The engine is
// started as the exam's list is first asked for, so Z3 loads while the list is read; where the
// groups are compared in the worker thread, the worker is asked then to prepare the exam's groups
// from its own reading of the lists (engine/review/groups-worker.ts), on the other core while
// this thread reads the list, and answers this thread's rows from them when they are the same. It
// stops when a grade starts, when a scheme preview starts and when the app closes; what it
// decided is kept (the engine's memo and the workspace's verdict store), so stopping loses
// nothing but time. Which responses a group holds depends only on the question's lists (and
// which rows are marked), so a request for a question whose lists the background work is
// comparing waits for that comparison, even after a mark was typed in the question meanwhile,
// and reads the totals as they are now. Asked for before a long review list is read whole, a
// question's groups come from the worker's own reading of its lists where those are still the
// rows (early-groups.ts), instead of reading the rest of the list at once.
import type { ApiResponse, ReviewRow } from '../../shared/api.ts';
import { equationToLatex, parseEquation } from '../../shared/equation/index.ts';
import { answerGroupsOf, GroupsStopped, type GroupRun } from '../engine/review/groups.ts';
import { GroupsThread, GroupsThreadFailed } from '../engine/review/groups-thread.ts';
import type { Engine } from '../engine/decide/engine-factory.ts';
import { notFound, type AppContext } from './context.ts';
import { answersGroupsEarly, earlyGroups } from './early-groups.ts';
import { previewRunning } from './handlers/scheme-preview.ts';

type Groups = ApiResponse<'groups.list'>;

/**
 * A question's groups as the engine forms them, without their totals: kept per lists version
 * (review-index.ts `listsVersion`), so a mark typed in the question reads the totals again and
 * compares nothing.
 */
type Grouping = Omit<Groups[number], 'total'>[];

/** What compares a question's lists: the worker thread, or (without one, or once it failed) the app's engine. */
type Comparer = GroupsThread | Engine;

/** The worker thread where one is used and has not failed, else the app's engine (started if need be). */
const comparer = async (ctx: AppContext): Promise<Comparer> => {
  const thread = ctx.groupsThread();
  return thread && thread.failure === null ? thread : ctx.engine();
};

/** Comparisons in progress, per question (`exam\0question`), with the lists they were started on. */
const running = new WeakMap<AppContext, Map<string, { lists: string; by: Comparer; grouping: Promise<Grouping> }>>();

/** The background preparation in progress, per context. */
const prep = new WeakMap<AppContext, { examId: string; controller: AbortController; run: Promise<void> }>();

/** The exams whose list was loaded (or graded) in this service: their groups were prepared once. */
const loaded = new WeakMap<AppContext, Set<string>>();

/** One turn of the event loop: requests waiting (a list page, a keystroke) go first. */
const yieldTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Comparisons someone is waiting for (not the background's), per context, and who waits for them to end. */
const asked = new WeakMap<AppContext, { n: number; idle: (() => void)[] }>();

/** The background's turns, one after another, per context (see giveWay). */
const turns = new WeakMap<AppContext, Promise<void>>();

/**
 * How long the background works before it gives a turn of the event loop (giveWay): a request
 * arriving meanwhile (a list page, a keystroke) waits at most about this long, plus one step that
 * can't be cut (one pair of equations screened or decided: a premise sampled, counterexamples
 * checked exactly, up to about 70 ms in a CPU profile at 67,500 responses; it was a comparison's
 * whole part between two waits for Z3, up to about 170 ms, before the engine paused inside a
 * comparison, equivalentLists's `pause`). A turn before every comparison of two lists (a few ms
 * each) let the background compare about one pair per request while requests came back to back,
 * so groups asked a second later still waited for most of the comparison (2.4 s at 67,500
 * responses, load 3 to 5); much more than this and a keystroke waits visibly (50 ms, with the
 * pauses inside a comparison: no gain for the groups at load 5 to 6, slowest keystroke 198-458 ms).
 */
const SLICE_MS = 30;

/** When the background's current piece of work began, per context. */
const sliceStart = new WeakMap<AppContext, number>();

/** A turn of the event loop if the background's slice of time is spent. */
async function turnIfDue(ctx: AppContext): Promise<void> {
  const from = sliceStart.get(ctx);
  if (from !== undefined && performance.now() - from < SLICE_MS) return;
  await yieldTurn();
  sliceStart.set(ctx, performance.now());
}

/**
 * The background's pause before a piece of work (a comparison of two lists, some rows bucketed):
 * a turn of the event loop once its slice of time is spent, and none while a comparison someone
 * asked for runs. The background decides several lists at once (groups.ts), so the pauses are
 * taken one after another: a request waiting runs between two slices, never after all of them.
 */
function giveWay(ctx: AppContext): Promise<void> {
  const mine = (turns.get(ctx) ?? Promise.resolve()).then(async () => {
    await turnIfDue(ctx);
    const a = asked.get(ctx);
    if (a && a.n > 0) {
      await new Promise<void>((r) => a.idle.push(r));
      sliceStart.delete(ctx);
    }
  });
  turns.set(ctx, mine);
  return mine;
}

/** The answer groups of one question, as groups.list gives them; `run` for the background's pace and stop. */
export async function questionGroups(ctx: AppContext, examId: string, questionId: string, run: GroupRun = {}): Promise<Groups> {
  const exam = ctx.exam(examId);
  const q = exam.questions.find((x) => x.id === questionId) ?? notFound(`no question '${questionId}'`);
  // Asked for while a long list is not read whole: from the worker's own reading of the
  // question's lists where those are still the rows (early-groups.ts), instead of reading the
  // rest of the list now; else as below. (The background waits for the list's read: never here.)
  if (!run.signal && answersGroupsEarly(ctx, examId)) {
    const early = await earlyGroups(ctx, examId, q);
    if (early) {
      const variables = q.variables.map((v) => v.name);
      return early.groups.map((g) => ({
        key: g.key,
        equations: shown(g.key, variables),
        responseIds: g.responseIds,
        total: sharedTotal(g.responseIds, early.totalOf),
      }));
    }
  }
  // Kept while no row of the question changes: opening the view again, or another question
  // and back, costs nothing; the first time reads the question's rows in bulk (one index).
  // While only marks changed (the lists and which rows are marked did not), the groups stand
  // and only their totals are read again. (And while the engine is the same one: another
  // engine, with other settings, may prove other lists equivalent. The worker thread's is built
  // from the same options as the app's, but a worker that failed is replaced by the app's engine,
  // whose groups are formed again.)
  const index = ctx.reviewIndex(examId);
  const lists = index.listsVersion(questionId);
  const by = await comparer(ctx);
  const cacheKey = `${examId}\u0000${questionId}`;
  const cached = ctx.groupCache.get(cacheKey);
  if (cached?.by === by && cached.lists === lists) {
    if (cached.version === index.questionVersion(questionId)) return cached.groups as Groups;
    return withTotals(ctx, examId, questionId, lists, by, cached.grouping as Grouping);
  }
  let inFlight = running.get(ctx);
  if (!inFlight) running.set(ctx, (inFlight = new Map()));
  const other = inFlight.get(cacheKey);
  if (other && other.by === by && other.lists === lists) {
    // A comparison of these lists in progress (the background's, begun before a mark was typed
    // in the question, say): its groups are this one's, with the totals as they are now.
    try {
      return withTotals(ctx, examId, questionId, lists, by, await other.grouping);
    } catch (e) {
      // The background's comparison was stopped (a grade started): this request compares on its own.
      if (!(e instanceof GroupsStopped) || run.signal?.aborted) throw e;
    }
    return questionGroups(ctx, examId, questionId, run);
  }
  // A comparison of lists since changed (a reading corrected) is not waited for: this one starts
  // now, and the pairs of lists that one decided, or is deciding, are not decided again
  // (review/groups.ts keeps them per engine); the background gives way to it.
  // Asked for (not the background's): the background waits while it runs.
  const foreground = !run.signal;
  let a = asked.get(ctx);
  if (!a) asked.set(ctx, (a = { n: 0, idle: [] }));
  if (foreground) a.n++;
  const grouping = compare(ctx, by, examId, q, run);
  if (foreground)
    void grouping
      .catch(() => {})
      .finally(() => {
        if (--a.n === 0) for (const r of a.idle.splice(0)) r();
      });
  const mine = { lists, by, grouping };
  inFlight.set(cacheKey, mine);
  try {
    return withTotals(ctx, examId, questionId, lists, by, await grouping);
  } finally {
    if (inFlight.get(cacheKey) === mine) inFlight.delete(cacheKey);
  }
}

/**
 * The groups with each one's total as the rows give it now (the total its members share, or
 * null), kept while the question's rows stay as they are; a grouping of lists since changed
 * is given as it is and not kept (a grading job may be marking).
 */
function withTotals(ctx: AppContext, examId: string, questionId: string, lists: string, by: Comparer, grouping: Grouping): Groups {
  const index = ctx.reviewIndex(examId);
  const out = grouping.map((g) => ({ ...g, total: sharedTotal(g.responseIds, (id) => index.row(id)?.total ?? null) }));
  if (index.listsVersion(questionId) === lists)
    ctx.groupCache.set(`${examId}\u0000${questionId}`, { version: index.questionVersion(questionId), lists, by, grouping, groups: out });
  return out;
}

/** A group's total: the one its members share, or null (they differ, or none is marked). */
const sharedTotal = (responseIds: readonly string[], totalOf: (responseId: string) => number | null): number | null => {
  const totals = new Set(responseIds.map(totalOf));
  return totals.size === 1 ? [...totals][0] : null;
};

async function compare(
  ctx: AppContext,
  by: Comparer,
  examId: string,
  q: ReturnType<AppContext['exam']>['questions'][number],
  run: GroupRun,
): Promise<Grouping> {
  // Z3 starts while the lists are read, once one of them is new (review/groups.ts: after a
  // restart, lists grouped before are look-ups and need no Z3; its workers stop when idle).
  const variables = q.variables.map((v) => v.name);
  // The question's rows from the review index (kept current from the change log), not read
  // again from the workspace: each row's list is its `group` (the sources, sorted), and a row
  // with no total is not marked yet (effectiveTotal).
  const rows = ctx
    .reviewIndex(examId)
    .rows()
    .filter((r) => r.questionId === q.id);
  // In the background, a turn after reading the rows (the first time, with the index's order
  // sorted, about 80 ms at 67,500 responses): views asked meanwhile go first.
  await run.between?.();
  if (by instanceof GroupsThread) {
    // The comparisons in the worker thread: the rows' lists go in, the groups' keys and member
    // ids come back (the totals are read here, by withTotals, when the answer comes).
    const ids: string[] = [];
    const lists: string[] = [];
    for (const r of rows)
      if (r.group !== null && r.total !== null) {
        ids.push(r.responseId);
        lists.push(r.group);
      }
    try {
      const groups = await by.group(q, ids, lists, { background: !!run.signal, ...(run.signal ? { signal: run.signal } : {}) });
      return groups.map((g) => ({ key: g.key, equations: shown(g.key, variables), responseIds: g.responseIds }));
    } catch (e) {
      // A worker that failed (said in the log and in app.info): compared here, as without one.
      if (!(e instanceof GroupsThreadFailed)) throw e;
    }
  }
  // The pairs the lists' comparison decides, and the answers for pairs of lists, are kept in the
  // workspace (as marking keeps its own), so opening the groups after a restart proves nothing
  // decided before; so are the canonical keys of the lists' equations.
  const engine = by instanceof GroupsThread ? await ctx.engine() : by;
  engine.setVerdictStore?.(ctx.ws.decidedStore());
  let groups: Awaited<ReturnType<typeof answerGroupsOf<ReviewRow>>>;
  try {
    groups = await answerGroupsOf(engine, q, rows, listOf, ctx.ws, run);
  } finally {
    ctx.ws.flushDecided();
  }
  return groups.map((g) => ({ key: g.key, equations: shown(g.key, variables), responseIds: g.members.map((m) => m.responseId) }));
}

/** A group's list as shown: each equation's LaTeX (one the grammar can't parse is shown as it is written). */
const shown = (key: string, variables: string[]): Grouping[number]['equations'] =>
  (JSON.parse(key) as string[]).map((s) => {
    const p = parseEquation(s, { variables });
    return { source: s, latex: p.ok ? equationToLatex(p.value) : s };
  });

/** A row's list (its sources, sorted), or null for a row not read or not marked. */
const listOf = (r: ReviewRow): string[] | null => (r.group !== null && r.total !== null ? (JSON.parse(r.group) as string[]) : null);

/**
 * Prepare the answer groups of every question of the exam in the background (see the header),
 * unless a grading job is running or the exam has nothing marked. Returns at once; a preparation
 * already running for another exam is stopped first.
 */
export function prepareGroups(ctx: AppContext, examId: string, why: 'graded' | 'loaded', rowsRead?: Promise<unknown>): void {
  if (ctx.grading() || ctx.closing || previewRunning(ctx)) return;
  let seen = loaded.get(ctx);
  if (!seen) loaded.set(ctx, (seen = new Set()));
  // A list loaded again (each page, each filter asks) prepares nothing more: a question changed
  // since is compared when it is opened (a few hundred ms: its other lists' pairs are decided).
  if (why === 'loaded' && seen.has(examId)) return;
  seen.add(examId);
  // The engine now, before the caller reads the exam's list (2 to 3 s at 67,500 responses, the
  // main thread busy): its construction sends Z3's WASM to be read and compiled off the main
  // thread meanwhile, so the first comparison that needs Z3 does not wait for its start (an exam
  // with nothing marked starts it for nothing; opening a response would start it anyway).
  // Where the groups are compared in a worker thread, the worker starts instead: it builds its
  // own engine meanwhile, and the app's starts when a response is opened.
  const thread = ctx.groupsThread();
  if (!thread) void ctx.engine().catch(() => undefined);
  const current = prep.get(ctx);
  if (current && !current.controller.signal.aborted && current.examId === examId && why === 'loaded') return;
  current?.controller.abort();
  const controller = new AbortController();
  const signal = controller.signal;
  // The worker prepares the exam's groups now, before this thread reads the list (2 to 3.5 s at
  // 67,500 responses, this thread busy): it reads the questions' lists through its own
  // connection and compares them on the other core meanwhile. The rows this thread posts below
  // (the review index's, the one place that says what a row's list is) are still what the groups
  // are formed from: the worker answers them from what it prepared where they are the rows it
  // read, else forms them again with the pairs it decided (a reading corrected meanwhile).
  const exam = thread && thread.failure === null ? ctx.ws.getExam(examId) : null;
  const prepared =
    thread && exam
      ? thread.prepare(examId, exam.questions, signal).catch((e: unknown) => {
          // Stopped, or the worker failed (the requests below are then compared here).
          if (!(e instanceof GroupsStopped) && !(e instanceof GroupsThreadFailed) && process.env.EQUIMARK_DEBUG) console.error(e);
        })
      : null;
  const run = (async () => {
    try {
      await background();
    } finally {
      // The worker's prepare ends too (stopped with the rest): a grade waits for it.
      await prepared;
    }
  })();
  async function background(): Promise<void> {
    await current?.run;
    // A long list read in slices (review-index.ts `complete`): its rows are this thread's to
    // compare once read; asking for them before would read the rest at once, holding the views.
    // (The worker's prepare above needs none of them and has begun.)
    await rowsRead?.catch(() => undefined);
    await yieldTurn(); // after the reply that asked for it
    if (signal.aborted || ctx.grading()) return;
    const exam = ctx.ws.getExam(examId);
    if (!exam) return;
    // Nothing marked: no groups to prepare, and no Z3 worker to start for them.
    if (
      !ctx
        .reviewIndex(examId)
        .rows()
        .some((r) => listOf(r) !== null)
    )
      return;
    // An engine that can't start is said when the groups are opened, not tried again for each question here.
    const by = await comparer(ctx).then(
      (e) => e,
      () => null,
    );
    if (!by) return;
    for (const q of exam.questions) {
      // A turn between two pieces of work: a view asked meanwhile waits for none of them whole.
      await giveWay(ctx);
      if (signal.aborted || ctx.grading()) return;
      try {
        await questionGroups(ctx, examId, q.id, { signal, between: () => giveWay(ctx), turnIfDue: () => turnIfDue(ctx) });
      } catch (e) {
        // Stopped, or the engine failed: the groups are compared when they are opened, as before.
        if (!(e instanceof GroupsStopped) && process.env.EQUIMARK_DEBUG) console.error(e);
        if (signal.aborted) return;
      }
    }
  }
  prep.set(ctx, { examId, controller, run });
  void run.finally(() => {
    if (prep.get(ctx)?.run === run) prep.delete(ctx);
  });
}

/** Stop the background preparation (a grade or a scheme preview starts, the app closes); resolves once it has stopped. */
export async function stopGroupPrep(ctx: AppContext): Promise<void> {
  const p = prep.get(ctx);
  if (!p) return;
  p.controller.abort();
  await p.run;
}

/** The background preparation's end (now if none runs): for tests and the bench. */
export async function groupPrepDone(ctx: AppContext): Promise<void> {
  await prep.get(ctx)?.run;
}
