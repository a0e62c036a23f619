// The answer groups' worker thread (client: ./groups-thread.ts): the comparisons of a question's
// equation lists (./groups.ts `answerGroupsOf`, the same code as on the main thread) run here, off
// the thread that answers the app's views. It builds its own engine from options that can cross a
// thread (decide/engine-factory.ts) and opens its own connection to the workspace (WAL), through
// which the engine reads and writes its kept verdicts and the lists' canonical keys (each write
// one short transaction). It is given the rows' lists (response ids and lists, in the order of the
// ids) and answers with the groups' keys and member ids; it reads no mark and writes none.
//
// It can also be asked to prepare an exam's groups before any rows are posted (`prepare`, posted
// as the exam's list is first asked for, while the app's thread reads it): it then reads each
// question's read and marked lists itself (store/group-lists.ts; a row's list built by groups.ts
// `groupList`, as the review list's row builds it) and compares them, in the background. The rows
// posted afterwards are still what a question's groups are formed from: the same rows (ids and
// lists) are answered with the groups the prepare formed, other rows (a reading corrected
// meanwhile) are grouped again, the pairs of lists the prepare decided found in the engine's memo.
//
// Requests asked for (not the background's) run at once; the background's give way to them
// between two comparisons of lists, as on the main thread (a comparison of the same pair of lists
// is then waited for, never made twice: the engine's memo in groups.ts). Every 30 ms of work it
// gives a turn of its event loop, so a request or a stop posted meanwhile is read.
// No top-level await: the same file is bundled as CommonJS (scripts/build-electron.mjs).
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Question } from '../../../shared/exam.ts';
import { createEngine, type Engine, type EngineOptions } from '../decide/engine-factory.ts';
import { compiledZ3 } from '../decide/entail/z3-pool.ts';
import type { SympyOptions } from '../decide/sympy/index.ts';
import { Workspace } from '../store/workspace.ts';
import { answerGroupsOf, groupList, GroupsStopped } from './groups.ts';
import type { ThreadReply, ThreadRequest, ThreadStart } from './groups-thread-messages.ts';

/** How long a piece of work runs before a turn of the event loop (messages posted meanwhile are read then). */
const SLICE_MS = 30;

/**
 * How much lower than the thread that starts it this thread runs (its nice value raised by this
 * much): the views are answered first, and the comparisons have the cores the views leave.
 */
const NICER = 4;

/** This thread (and the Z3 threads it starts, which inherit it) below the app's main thread, where the system lets a thread be named (Linux). */
function runBelowTheViews(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + NICER));
  } catch {
    /* no /proc (macOS, Windows), or not allowed: the thread runs as it is */
  }
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('groups-worker.ts runs as a worker thread (groups-thread.ts)');
  const post = (m: ThreadReply): void => port.postMessage(m);
  runBelowTheViews();
  const start = workerData as ThreadStart;
  let engine: Engine;
  let ws: Workspace;
  try {
    const options: EngineOptions = { ...start.engine, onNotice: (message) => post({ type: 'notice', message }) };
    engine = await createEngine(options);
    ws = Workspace.open(start.workspacePath);
    engine.setVerdictStore?.(ws.decidedStore());
  } catch (e) {
    post({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }

  let sliceFrom = performance.now();
  const turnIfDue = async (): Promise<void> => {
    if (performance.now() - sliceFrom < SLICE_MS) return;
    await new Promise((r) => setImmediate(r));
    sliceFrom = performance.now();
  };
  /**
   * Requests asked for under way, and the background's runs waiting for them to end; of those
   * asked, how many wait for the prepare of their question (see groupsOf): the background does
   * not give way to them.
   */
  let asked = 0;
  let waitingForPrepare = 0;
  let idle: (() => void)[] = [];
  const wake = (): void => {
    const w = idle;
    idle = [];
    for (const r of w) r();
  };
  const giveWay = async (): Promise<void> => {
    await turnIfDue();
    while (asked - waitingForPrepare > 0) await new Promise<void>((r) => idle.push(r));
  };
  const stops = new Map<number, AbortController>();
  /**
   * What the worker keeps in the workspace (verdicts, canonical keys) is a cache: a write that
   * can't be made (the app's connection holding the write lock past busy_timeout, a grade's long
   * transaction) fails no request. Verdicts not written stay buffered for the next flush.
   */
  const kept = (write: () => void): void => {
    try {
      write();
    } catch (e) {
      console.warn(`equimark: answer groups' worker: a write to the workspace was put off (${e instanceof Error ? e.message : String(e)})`);
    }
  };
  const keyStore = {
    canonicalKeys: (space: string) => ws.canonicalKeys(space),
    putCanonicalKeys: (space: string, keys: Iterable<readonly [string, string | null]>) => kept(() => ws.putCanonicalKeys(space, keys)),
  };

  /**
   * A question's rows as posted (or as the worker read them): `ids[i]`'s list is `lists[i]`;
   * `seen`, where this thread read them itself, the workspace's change number read before them.
   */
  type Input = { question: Question; ids: string[]; lists: string[]; seen?: number };
  type Grouped = { key: string; responseIds: string[] }[];
  /**
   * The last groups formed per question (by the question's JSON), with the rows they were formed
   * from: rows posted that are exactly these (the same ids, the same lists, in the same order)
   * are answered with them, without bucketing again. Any other rows are grouped afresh, their
   * pairs of lists found decided in the engine's memo where they were.
   */
  const latest = new Map<string, Input & { groups: Grouped }>();
  const MAX_LATEST = 64;
  /**
   * The questions a prepare will compare (or is comparing), settled once it has: a request of the
   * background for one of them waits for it and is then answered from `latest` (its rows are
   * those the prepare read unless a reading changed meanwhile); one asked for waits only for the
   * question the prepare is comparing now (`preparingNow`), and runs at once for the others.
   */
  const preparing = new Map<string, Promise<void>>();
  /** The question the prepare is comparing now (its JSON), or null. */
  let preparingNow: string | null = null;
  const sameInput = (a: Input, b: Input): boolean =>
    a.ids.length === b.ids.length && a.ids.every((id, i) => id === b.ids[i]) && a.lists.every((l, i) => l === b.lists[i]);

  /**
   * Asked for the question the prepare is comparing now: it goes on without giving way, and the
   * request takes its groups (or, for other rows, the pairs it decided) when it ends, instead of
   * reading and keying the same lists beside it.
   */
  const prepareOf = async (key: string): Promise<void> => {
    waitingForPrepare++;
    wake();
    try {
      await preparing.get(key);
    } finally {
      waitingForPrepare--;
    }
  };

  /** A question's rows as this thread reads them now (the rows a prepare reads), with the change number read before them. */
  const readInput = (examId: string, question: Question): Input & { seen: number } => {
    const seen = ws.lastReviewChange();
    const rows = ws.markedLists(examId, question.id);
    return { question, ids: rows.map((r) => String(r.id)), lists: rows.map((r) => groupList(r.equations)), seen };
  };

  /** The groups of `input`, compared here; `background`: at low priority, stopped by `signal`. */
  const groupsOf = async (input: Input, background: boolean, signal: AbortSignal, waitForPrepare: boolean): Promise<Grouped> => {
    const key = JSON.stringify(input.question);
    if (waitForPrepare) await preparing.get(key);
    else if (!background && preparingNow === key) await prepareOf(key);
    const last = latest.get(key);
    if (last && sameInput(last, input)) return last.groups;
    const rows = input.ids.map((_, i) => i);
    const parsed: (string[] | undefined)[] = [];
    const listOf = (i: number): string[] => (parsed[i] ??= JSON.parse(input.lists[i]) as string[]);
    const run = background ? { signal, between: giveWay, turnIfDue } : { turnIfDue };
    let groups: Awaited<ReturnType<typeof answerGroupsOf<number>>>;
    try {
      groups = await answerGroupsOf(engine, input.question, rows, listOf, keyStore, run);
    } finally {
      kept(() => ws.flushDecided());
    }
    const out = groups.map((g) => ({ key: g.key, responseIds: g.members.map((i) => input.ids[i]) }));
    if (latest.size >= MAX_LATEST && !latest.has(key)) latest.clear();
    latest.set(key, { ...input, groups: out });
    return out;
  };

  /** Runs a request: counted as asked (the background gives way to it) unless `background`; its stop registered at once. */
  const request = async (id: number, background: boolean, work: (signal: AbortSignal) => Promise<ThreadReply>): Promise<void> => {
    const controller = new AbortController();
    if (background) stops.set(id, controller);
    else asked++;
    try {
      post(await work(controller.signal));
    } catch (e) {
      if (e instanceof GroupsStopped) post({ type: 'stopped', id });
      else post({ type: 'failed', id, message: e instanceof Error ? e.message : String(e) });
    } finally {
      stops.delete(id);
      if (!background && --asked === 0) wake();
      handZ3();
    }
  };
  // Z3's WASM, compiled here once the first request is answered (compiled at the start, its CPU
  // came while that request's lists were read and grouped, which need no Z3 when the comparisons
  // are kept), handed to the app's thread too: its engine (started when a response is opened)
  // then compiles it no second time. A comparison that needs Z3 before then compiles it at once.
  let handed = false;
  const handZ3 = (): void => {
    if (handed) return;
    handed = true;
    void compiledZ3().then((wasm) => wasm && post({ type: 'z3', wasm }));
  };

  const group = (m: Extract<ThreadRequest, { type: 'group' }>): Promise<void> =>
    request(m.id, m.background, async (signal) => {
      const groups = await groupsOf({ question: m.question as Question, ids: m.ids, lists: m.lists }, m.background, signal, m.background);
      return { type: 'groups', id: m.id, groups, stats: engine.stats() };
    });

  /**
   * A question's groups from this thread's own reading of its lists, asked for (the app answers
   * them before it has read its review list: app/early-groups.ts, which checks what changed since
   * `seen`). The change number is read before the lists, so a change made while they are read is
   * after it and checked there. The rows read are those a prepare reads, so where the prepare
   * compared this question and nothing changed, its groups are answered as they are.
   */
  const groupsAsRead = (m: Extract<ThreadRequest, { type: 'groupsAsRead' }>): Promise<void> =>
    request(m.id, false, async (signal) => {
      const question = m.question as Question;
      const key = JSON.stringify(question);
      // The prepare comparing this question now read its lists a moment ago: its groups are
      // answered as it read them, where nothing changed since (a second read of 22,000 lists took
      // this thread 0.1 to 0.25 s, with the prepare held up meanwhile).
      if (preparingNow === key) await prepareOf(key);
      const last = latest.get(key);
      if (last?.seen !== undefined && last.seen === ws.lastReviewChange())
        return { type: 'groupsAsRead', id: m.id, groups: last.groups, ids: last.ids, lists: last.lists, seen: last.seen, reread: false, stats: engine.stats() };
      const input = readInput(m.examId, question);
      const groups = await groupsOf(input, false, signal, false);
      return { type: 'groupsAsRead', id: m.id, groups, ids: input.ids, lists: input.lists, seen: input.seen, reread: true, stats: engine.stats() };
    });

  /**
   * The groups of the exam's questions prepared before anyone posts their rows: each question's
   * lists read here, through this thread's connection (store/group-lists.ts, the lists the review
   * list's rows give: app/views.ts and this both build them with groups.ts `groupList`), while the
   * app's main thread reads its review list. Pairs decided stay in the engine's memo and the
   * workspace; the groups formed answer the rows posted later if they are the same rows.
   */
  const prepare = (m: Extract<ThreadRequest, { type: 'prepare' }>): Promise<void> => {
    // Registered now, before the first turn: the background's requests for these questions,
    // posted behind this one, wait for it.
    const done = new Map<string, () => void>();
    for (const q of m.questions) {
      const key = JSON.stringify(q);
      const settled = new Promise<void>((r) => done.set(key, r));
      const before = preparing.get(key);
      const entry = before ? before.then(() => settled) : settled;
      preparing.set(key, entry);
      void entry.then(() => {
        if (preparing.get(key) === entry) preparing.delete(key);
      });
    }
    return request(m.id, true, async (signal) => {
      let n = 0;
      try {
        for (const q of m.questions) {
          await giveWay();
          if (signal.aborted) throw new GroupsStopped();
          const key = JSON.stringify(q);
          preparingNow = key;
          try {
            const input = readInput(m.examId, q);
            const groups = await groupsOf(input, true, signal, false);
            // Kept as a grade's end keeps them (store/formed-groups.ts): the next app to open the
            // workspace gives them at once where nothing of the question changed since.
            kept(() =>
              ws.putFormedGroups(m.examId, q.id, {
                seen: input.seen,
                question: key,
                groups: groups.map((g) => ({ key: g.key, ids: g.responseIds.map(Number) })),
              }),
            );
          } finally {
            preparingNow = null;
          }
          done.get(key)?.();
          n++;
        }
      } finally {
        for (const r of done.values()) r();
      }
      return { type: 'prepared', id: m.id, questions: n, stats: engine.stats() };
    });
  };

  /** The requests under way: closing waits for them (the background's are stopped first). */
  const jobs = new Set<Promise<void>>();
  let closing: Promise<void> | null = null;
  port.on('message', (m: ThreadRequest) => {
    if (m.type === 'group' || m.type === 'prepare' || m.type === 'groupsAsRead') {
      const job = m.type === 'group' ? group(m) : m.type === 'prepare' ? prepare(m) : groupsAsRead(m);
      jobs.add(job);
      void job.finally(() => jobs.delete(job));
    } else if (m.type === 'stop') stops.get(m.id)?.abort();
    else if (m.type === 'setSympy') void engine.setSympy(m.options as SympyOptions | false);
    else if (m.type === 'close')
      closing ??= (async () => {
        for (const c of stops.values()) c.abort();
        await Promise.allSettled(jobs);
        try {
          await engine.close();
        } finally {
          ws.close();
          post({ type: 'closed' });
          port.close();
        }
      })();
  });
  post({ type: 'ready' });
}

void main();
