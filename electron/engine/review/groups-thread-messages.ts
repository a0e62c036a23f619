// What the answer groups' worker thread (groups-worker.ts) and its client (groups-thread.ts) say
// to each other: everything here crosses a thread, so it is plain data.
import type { Question } from '../../../shared/exam.ts';
import type { EngineOptions } from '../decide/engine-factory.ts';
import type { EntailerStats } from '../decide/entail/types.ts';

/** The engine's options that can cross a thread (no callbacks: notices come back as messages). */
export type ThreadEngineOptions = Omit<EngineOptions, 'onNotice'>;

/** Given to the worker as it starts (workerData). */
export type ThreadStart = { workspacePath: string; engine: ThreadEngineOptions };

export type ThreadRequest =
  /** A question's rows, in the order of their ids: `ids[i]`'s list is `lists[i]` (its sources, sorted, as JSON). */
  | { type: 'group'; id: number; question: Question; ids: string[]; lists: string[]; background: boolean }
  /**
   * Prepare the groups of these questions of the exam ahead of any request: the worker reads their
   * lists itself (store/group-lists.ts) and compares them, in the background, one question after
   * another; answered 'prepared' (or 'stopped', 'failed').
   */
  | { type: 'prepare'; id: number; examId: string; questions: Question[] }
  /**
   * A question's groups from the worker's own reading of its lists, now (as a prepare reads them),
   * for the app to answer before its review list is read whole (app/early-groups.ts); answered
   * 'groupsAsRead', with the rows read and the change number before the read.
   */
  | { type: 'groupsAsRead'; id: number; examId: string; question: Question }
  | { type: 'stop'; id: number }
  | { type: 'setSympy'; options: ThreadEngineOptions['sympy'] }
  | { type: 'close' };

export type ThreadReply =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'notice'; message: string }
  /** Z3's WASM as the worker compiled it, for this thread's engine (z3-pool.ts provideCompiledZ3). */
  | { type: 'z3'; wasm: WebAssembly.Module }
  /** `stats`: the worker's engine's counts so far (what it decided, what it found kept). */
  | { type: 'groups'; id: number; groups: { key: string; responseIds: string[] }[]; stats: EntailerStats }
  /**
   * The groups of the rows the worker read (`ids[i]`'s list is `lists[i]`, in import order);
   * `seen`: the workspace's change number read before them (store/review-changes.ts), so a row
   * not changed since is as it was read; `reread`: read for this request (else they are the rows
   * a prepare read, nothing changed since).
   */
  | {
      type: 'groupsAsRead';
      id: number;
      groups: { key: string; responseIds: string[] }[];
      ids: string[];
      lists: string[];
      seen: number;
      reread: boolean;
      stats: EntailerStats;
    }
  /** A prepare done: `questions` of them compared. */
  | { type: 'prepared'; id: number; questions: number; stats: EntailerStats }
  | { type: 'stopped'; id: number }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed' };
