// Answer groups: responses to one question whose equation lists say the same thing, so the
// instructor can check (and correct or mark) them once. Same canonical list first (cheap), then
// lists of the same equations written differently (canonical.ts), then lists the engine proves
// equivalent under the question's assumptions are merged. Each list is parsed once.
import { parseEquation, type Equation } from '../../../shared/equation/index.ts';
import { canonicalEquation } from '../decide/entail/canonical.ts';
import { questionDomain, type Question } from '../../../shared/exam.ts';
import type { Domain, EntailmentEngine } from '../decide/entail/types.ts';
import type { ResponseSummary, Workspace } from '../store/workspace.ts';

export type AnswerGroup<R> = {
  /** The group's list: a JSON array of canonical sources, sorted (its first member's). */
  key: string;
  members: R[];
};

/** What grouping asks of the engine. */
export type GroupEngine = Pick<EntailmentEngine, 'compareLists' | 'equivalentLists' | 'warm'>;

/** Bounds on the proof work: lists longer than this, or more groups than this, are compared by their canonical text only. */
const MAX_LIST = 12;
const MAX_GROUPS = 400;
/** Lists decided at once (see answerGroupsOf): enough to keep the main thread busy while one waits for Z3. */
const AHEAD = 16;
/**
 * A run in the background asks for a pause (`between`, which gives a turn once its slice of time
 * is spent) after this many rows read into lists, and after this many lists keyed: a few ms of
 * work each, where the rows of a 22,500-response question in one piece (about 120 ms) and 1,000
 * lists keyed (up to 60 ms, their equations parsed the first time) made a view wait 215 ms.
 */
const ROWS_BETWEEN_PAUSES = 500;
const KEYS_BETWEEN_PAUSES = 50;

/**
 * A response's equation list as the answer groups are given it: its sources, sorted, as JSON (the
 * review list's row `group`, app/views.ts; the worker's own reading of a question's lists,
 * groups-worker.ts). One function, so the lists the worker prepares are those the app posts.
 */
export const groupList = (equations: readonly string[]): string => JSON.stringify([...equations].sort());

/** The key of an equation list: its distinct canonical sources, sorted, as JSON. */
export const listKey = (equations: readonly string[]): string => JSON.stringify([...new Set(equations)].sort());

/** Where the canonical keys of equation sources are kept across runs (the workspace). */
export type CanonicalKeyStore = Pick<Workspace, 'canonicalKeys' | 'putCanonicalKeys'>;

/**
 * The version of the canonical keys a workspace keeps: bump it when decide/entail/canonical.ts
 * changes what a key is (as the engine's store space is bumped for the verdicts keyed by them).
 */
export const KEPT_KEYS_VERSION = 'canonical v1';

/** Canonical keys of equation sources, by the question's variables and the source (null: the grammar rejects it). */
const canonicalKeys = new Map<string, string | null>();
const MAX_KEYS = 500_000;

/** The canonical key of one equation source (decide/entail/canonical.ts), or null when it does not parse. */
function canonicalKeyOf(source: string, variables: readonly string[]): string | null {
  const k = `${variables.join(',')}\u0000${source}`;
  let key = canonicalKeys.get(k);
  if (key === undefined) {
    const p = parseEquation(source, { variables });
    key = p.ok ? canonicalEquation(p.value).key : null;
    if (canonicalKeys.size >= MAX_KEYS) canonicalKeys.clear();
    canonicalKeys.set(k, key);
  }
  return key;
}

/**
 * Decisions already made between two lists, per engine (another engine, with other settings, may
 * decide otherwise) and per question domain: opening the groups again after one mark changed
 * re-decides only pairs involving a list not seen before (1.4 s at 67,500 responses before this).
 * A decision is a pure function of the two lists and the domain, so membership is what a fresh
 * run gives. Bounded: cleared when full.
 */
const decided = new WeakMap<object, Map<string, boolean>>();
const MAX_DECIDED = 200_000;

/**
 * The engine's list equivalence: only the pairs the answer needs where the engine can
 * (equivalentLists, pausing before each pair where `pause` is given), else compareLists's.
 */
const equivalent = async (engine: GroupEngine, a: Equation[], b: Equation[], domain: Domain, pause?: () => Promise<void>): Promise<boolean> =>
  engine.equivalentLists ? engine.equivalentLists(a, b, domain, pause) : (await engine.compareLists(a, b, domain)).equivalent;

/**
 * Comparisons of two lists in progress, per engine: a second run that needs the same pair (the
 * groups asked for while the background compares that question) waits for that comparison
 * instead of making it again beside it.
 */
const comparing = new WeakMap<object, Map<string, Promise<boolean>>>();

/**
 * Whether lists `a` and `b` are equivalent: from the memo, else from the comparison of them in
 * progress, else decided now. `before` runs only when the pair is not decided yet, before it is
 * compared (the background's pause and stop): while it waits, a comparison started by someone
 * else may decide the pair.
 */
async function sameLists(
  engine: GroupEngine,
  domainKey: string,
  a: string,
  b: string,
  decide: () => Promise<boolean>,
  before: () => Promise<void>,
): Promise<boolean> {
  let memo = decided.get(engine);
  if (!memo) decided.set(engine, (memo = new Map()));
  let inProgress = comparing.get(engine);
  if (!inProgress) comparing.set(engine, (inProgress = new Map()));
  const k = `${domainKey}\u0000${a}\u0000${b}`;
  let v = memo.get(k);
  if (v !== undefined) return v;
  await before();
  v = memo.get(k);
  if (v !== undefined) return v;
  let p = inProgress.get(k);
  if (!p) {
    const settled = decide()
      .then((x) => {
        if (memo.size >= MAX_DECIDED) memo.clear();
        memo.set(k, x);
        return x;
      })
      .finally(() => {
        if (inProgress.get(k) === settled) inProgress.delete(k);
      });
    inProgress.set(k, (p = settled));
  }
  return p;
}

/**
 * Comparisons of lists run one at a time, except that one waiting for something outside the
 * thread (Z3) lets the next start: a comparison's own work runs without a turn of the event loop,
 * so a turn passing while it is unsettled means it waits. Run all at once instead, the lists
 * decided together would interleave their steps and screen the same pairs of equations side by
 * side (the engine keeps a pair's screen only once it is done), which made a question slower.
 * The turns a comparison gives on purpose (`pause`, the background's turn once its slice of time
 * is spent, `turnIfDue`) are no such wait: the next comparison does not start during them.
 */
function oneAtATime(turnIfDue?: () => Promise<void>): <T>(work: (pause?: () => Promise<void>) => Promise<T>) => Promise<T> {
  let free: Promise<void> = Promise.resolve();
  return <T>(work: (pause?: () => Promise<void>) => Promise<T>): Promise<T> => {
    const turn = free;
    let release!: () => void;
    free = new Promise<void>((r) => (release = r));
    return turn.then(() => {
      let waiting = setImmediate(release);
      const pause = turnIfDue
        ? async () => {
            clearImmediate(waiting);
            await turnIfDue();
            clearImmediate(waiting);
            waiting = setImmediate(release);
          }
        : undefined;
      const p = work(pause);
      void p
        .then(
          () => {},
          () => {},
        )
        .finally(() => {
          clearImmediate(waiting);
          release();
        });
      return p;
    });
  };
}

/**
 * How a caller in the background runs the grouping: `signal` stops it between two comparisons of
 * lists (it then throws GroupsStopped; pairs decided so far are kept, as always), and `between`
 * is awaited before each comparison not decided before (a yield, so the work gives way to others;
 * a comparison of the same pair started meanwhile by another run is then waited for, not repeated).
 */
export type GroupRun = {
  signal?: AbortSignal;
  between?: () => Promise<void>;
  /**
   * Awaited as a comparison of two lists starts, and by the engine before each pair of equations
   * the comparison decides: a turn of the event loop once the run's slice of time is spent, and
   * never a wait for anything else (another run may be waiting for this comparison).
   */
  turnIfDue?: () => Promise<void>;
};

/** Thrown by answerGroupsOf when its run's signal stops it. */
export class GroupsStopped extends Error {
  constructor() {
    super('answer groups: stopped');
  }
}

/**
 * Group read and marked responses by what their lists say, largest group first. `rows` are the
 * question's responses (those not read or not marked are left out).
 */
export function answerGroups<R extends Pick<ResponseSummary, 'extraction' | 'marks'>>(
  engine: GroupEngine,
  question: Question,
  rows: readonly R[],
): Promise<AnswerGroup<R>[]> {
  return answerGroupsOf(engine, question, rows, (r) => (r.extraction && r.marks ? r.extraction.equations : null));
}

/**
 * answerGroups over rows of any shape (the app's review rows, kept in memory): `listOf` gives a
 * row's equation sources, or null for a row not read or not marked (left out). `rows` in the
 * order of their ids, as the workspace lists them: ties between groups of one size follow it.
 */
export async function answerGroupsOf<R>(
  engine: GroupEngine,
  question: Question,
  rows: readonly R[],
  listOf: (r: R) => readonly string[] | null,
  keyStore?: CanonicalKeyStore,
  run: GroupRun = {},
): Promise<AnswerGroup<R>[]> {
  const stopped = () => {
    if (run.signal?.aborted) throw new GroupsStopped();
  };
  const lane = oneAtATime(run.turnIfDue);
  // A comparison's turn in the lane starts with the run's check of its time (lists that need no
  // Z3 run back to back in one lane, so without it they ran as one long piece of work), and the
  // engine checks it again before each pair of equations the comparison decides (a comparison of
  // two long lists screened dozens of pairs, up to about 170 ms, in one piece).
  const decide = (a: Equation[], b: Equation[], domain: Domain) => (): Promise<boolean> =>
    lane(async (pause) => {
      await pause?.();
      // Stopped while this comparison waited for its turn in the lane (its check before it passed
      // earlier): it does not start. (Under load, comparisons queued before a grade or the app's
      // close began started after it.)
      stopped();
      return equivalent(engine, a, b, domain, pause);
    });
  const before = async (): Promise<void> => {
    await run.between?.();
    stopped();
  };
  const domain = questionDomain(question);
  const domainKey = `${question.id}\u0000${JSON.stringify(domain)}`;
  const variables = question.variables.map((v) => v.name);
  const parsedKeys = new Map<string, Equation[]>();
  const parse = (k: string): Equation[] => {
    let eqs = parsedKeys.get(k);
    if (!eqs) {
      eqs = (JSON.parse(k) as string[]).map((s) => parseEquation(s, { variables })).flatMap((p) => (p.ok ? [p.value] : []));
      parsedKeys.set(k, eqs);
    }
    return eqs;
  };
  // The canonical keys kept from an earlier grouping of these lists (see keyOf below).
  const space = `${KEPT_KEYS_VERSION}\u0000${variables.join(',')}`;
  const kept = keyStore?.canonicalKeys(space) ?? new Map<string, string | null>();
  // Z3 is started (engine.warm) as soon as a list holds an equation never grouped before, while
  // the rest of the rows are read: its worker's start (1.5 to 2 s on a loaded 2-core machine) is
  // then over before the first proof. Lists grouped before (after a restart) were compared
  // before, and their answers are kept: starting it then only took CPU from the look-ups (the
  // groups of a question after a restart took 0.37 to 0.65 s with it, 0.20 to 0.27 s without).
  // A pair whose answer is not kept starts it when the engine meets it (equivalentLists).
  let warmed = false;
  const warmIfNew = (sources: readonly string[]): void => {
    if (warmed || sources.every((s) => kept.has(s))) return;
    warmed = true;
    engine.warm?.();
  };
  // Same canonical list first; then lists written differently but made of the same equations
  // (moved to one side, both sides scaled, sides swapped: decide/entail/canonical.ts), without a proof.
  const buckets = new Map<string, R[]>();
  /** Each bucket's sources (its key parsed), kept so the key is not parsed again below. */
  const sourcesOf = new Map<string, string[]>();
  let read = 0;
  for (const r of rows) {
    if (run.between && ++read % ROWS_BETWEEN_PAUSES === 0) {
      await run.between();
      stopped();
    }
    const equations = listOf(r);
    if (!equations) continue;
    const sources = [...new Set(equations)].sort();
    const key = JSON.stringify(sources); // listKey(equations)
    const b = buckets.get(key);
    if (b) b.push(r);
    else {
      buckets.set(key, [r]);
      sourcesOf.set(key, sources);
      warmIfNew(sources);
    }
  }
  const bySize = (m: Map<string, R[]>) => [...m.keys()].sort((a, b) => m.get(b)!.length - m.get(a)!.length);
  // Each equation's canonical form once (lists written at random repeat their equations far
  // more than whole lists repeat): parsing every list's equations was most of a large question's
  // cost, and after a restart still was (about 4,000 sources for 22,000 lists), so the keys are kept.
  const added: [string, string | null][] = [];
  const keyOf = (src: string): string | null => {
    let key = kept.get(src);
    if (key === undefined) {
      kept.set(src, (key = canonicalKeyOf(src, variables)));
      added.push([src, key]);
    }
    return key;
  };
  const same = new Map<string, { key: string; members: R[] }>();
  let n = 0;
  for (const k of bySize(buckets)) {
    // In the background, a pause now and then: the first time, a large question's equations are
    // parsed here (about 0.3 s for 4,000 sources), which held up the views asked meanwhile.
    if (run.between && ++n % KEYS_BETWEEN_PAUSES === 0) {
      await run.between();
      stopped();
    }
    const keys = sourcesOf.get(k)!.map(keyOf);
    const ck = keys.every((x) => x !== null) ? listKey(keys as string[]) : `raw:${k}`;
    const home = same.get(ck);
    if (home) home.members.push(...buckets.get(k)!);
    else same.set(ck, { key: k, members: [...buckets.get(k)!] });
  }
  if (added.length) keyStore?.putCanonicalKeys(space, added);
  stopped();
  const firsts = [...same.values()].sort((a, b) => b.members.length - a.members.length);
  // Each list (largest first) joins the first group before it whose list is equivalent to its
  // own, else founds a group. Up to AHEAD lists are decided at once, each comparing itself with
  // the groups known when it started and then, in order, with the lists decided meanwhile that
  // found groups: the pairs of lists compared are exactly those of deciding one list after
  // another, and so are the groups, but a comparison waiting for Z3 (a worker starting, a proof)
  // no longer holds up the comparisons of the lists after it with the groups already known (at
  // 22,500 responses, about half of a question's time was Z3's, with the main thread idle).
  /** The lists decided so far (a prefix of firsts) that found groups, in order. */
  const founders: number[] = [];
  /** Where each list goes: the index of the list founding its group (its own index: it founds one). */
  const home: Promise<number>[] = [];
  /** Where list i goes, knowing the groups founded by the lists before `from` (`known`) and waiting for those after. */
  const homeOf = async (i: number, known: readonly number[], from: number): Promise<number> => {
    const mine = parse(firsts[i].key);
    if (!mine.length || mine.length > MAX_LIST) return i;
    const sameAs = async (j: number): Promise<boolean> => {
      const theirs = parse(firsts[j].key);
      return theirs.length > 0 && theirs.length <= MAX_LIST && sameLists(engine, domainKey, firsts[i].key, firsts[j].key, decide(mine, theirs, domain), before);
    };
    // Past MAX_GROUPS groups a list is compared with none (whether it is past needs the lists before it decided).
    let groupsBefore = known.length;
    if (groupsBefore + (i - from) >= MAX_GROUPS) for (let j = from; j < i; j++) if ((await home[j]) === j) groupsBefore++;
    if (groupsBefore >= MAX_GROUPS) return i;
    for (const j of known) if (await sameAs(j)) return j;
    for (let j = from; j < i; j++) if ((await home[j]) === j && (await sameAs(j))) return j;
    return i;
  };
  const homes: number[] = [];
  let failure: { reason: unknown } | undefined;
  for (let next = 0, c = 0; c < firsts.length; c++) {
    // Lists c .. c + AHEAD - 1 under way: those started now know the groups of the lists before c.
    for (const known = founders.slice(); next < firsts.length && next < c + AHEAD; next++) {
      const p = homeOf(next, known, c);
      p.catch(() => {}); // awaited in turn below, or settled after a failure: never an unhandled rejection
      home.push(p);
    }
    try {
      homes.push(await home[c]);
    } catch (e) {
      failure = { reason: e };
      break;
    }
    if (homes[c] === c) founders.push(c);
  }
  if (failure) {
    // Stopped (or the engine failed): every comparison under way ends before this returns.
    await Promise.allSettled(home);
    throw failure.reason;
  }
  const groups: AnswerGroup<R>[] = [];
  const groupAt = new Map<number, AnswerGroup<R>>();
  firsts.forEach(({ key, members }, i) => {
    if (homes[i] === i) {
      const g = { key, members: [...members] };
      groups.push(g);
      groupAt.set(i, g);
    } else groupAt.get(homes[i])!.members.push(...members);
  });
  return groups.sort((a, b) => b.members.length - a.members.length);
}

/**
 * Whom a correction of a group's equations may reach: only members whose own reading is the list
 * that was edited (the same canonical equations). A member merged into the group because its
 * list was proved equivalent, but written differently (a student who stopped at the quadratic,
 * where the list edited solves it), keeps its own reading: writing the edited list onto it would
 * give it equations it never wrote, and marks for them.
 */
export function correctionReach<R extends Pick<ResponseSummary, 'extraction'>>(members: readonly R[], edited: readonly string[]): { reached: R[]; kept: R[] } {
  const key = listKey(edited);
  const reached: R[] = [];
  const kept: R[] = [];
  for (const m of members) (m.extraction && listKey(m.extraction.equations) === key ? reached : kept).push(m);
  return { reached, kept };
}

/** Why a member is left out of a group correction, in words. */
export const NOT_REACHED = 'not changed: its own equations are written differently from the list edited (open it to correct it on its own)';
