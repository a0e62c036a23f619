// The answer groups' worker thread (client: ./groups-thread.ts): the comparisons of a question's
// equation lists (./groups.ts `answerGroupsOf`, the same code as on the main thread) run here, off
// the thread that answers the app's views. It builds its own engine from options that can cross a
// thread (decide/engine-factory.ts) and opens its own connection to the workspace (WAL), through
// which the engine reads and writes its kept verdicts and the lists' canonical keys (each write
// one short transaction). It is given the rows' lists (response ids and lists, in the order of the
// ids) and answers with the groups' keys and member ids; it reads no mark and writes none.
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
import type { SympyOptions } from '../decide/sympy/index.ts';
import { Workspace } from '../store/workspace.ts';
import { answerGroupsOf, GroupsStopped } from './groups.ts';
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
  /** Requests asked for under way, and the background's runs waiting for them to end. */
  let asked = 0;
  let idle: (() => void)[] = [];
  const giveWay = async (): Promise<void> => {
    await turnIfDue();
    while (asked > 0) await new Promise<void>((r) => idle.push(r));
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

  const group = async (m: Extract<ThreadRequest, { type: 'group' }>): Promise<void> => {
    const background = m.background;
    const controller = new AbortController();
    if (background) stops.set(m.id, controller);
    else asked++;
    try {
      const rows = m.ids.map((_, i) => i);
      const lists = m.lists.map((l) => JSON.parse(l) as string[]);
      const run = background ? { signal: controller.signal, between: giveWay, turnIfDue } : { turnIfDue };
      let groups: Awaited<ReturnType<typeof answerGroupsOf<number>>>;
      try {
        groups = await answerGroupsOf(engine, m.question as Question, rows, (i) => lists[i], keyStore, run);
      } finally {
        kept(() => ws.flushDecided());
      }
      post({ type: 'groups', id: m.id, groups: groups.map((g) => ({ key: g.key, responseIds: g.members.map((i) => m.ids[i]) })), stats: engine.stats() });
    } catch (e) {
      if (e instanceof GroupsStopped) post({ type: 'stopped', id: m.id });
      else post({ type: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
    } finally {
      stops.delete(m.id);
      if (!background && --asked === 0) {
        const w = idle;
        idle = [];
        for (const r of w) r();
      }
    }
  };

  /** The requests under way: closing waits for them (the background's are stopped first). */
  const jobs = new Set<Promise<void>>();
  let closing: Promise<void> | null = null;
  port.on('message', (m: ThreadRequest) => {
    if (m.type === 'group') {
      const job = group(m);
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
