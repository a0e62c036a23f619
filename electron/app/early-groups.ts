// A question's answer groups given before the review list is read whole (review-index.ts
// `complete`: seconds at 67,500 responses, on this thread), as the list's first page is
// (review-early-page.ts). The groups are formed from the question's rows, as the review index
// gives them (answer-groups.ts); asking the index for them reads what is left of the list at once.
// Here they come instead from the groups' worker's own reading of the question's lists (the rows a
// prepare reads: store/group-lists.ts, each row's list built as the index's row builds it), with
// the members' totals read from the store for this question alone, while the worker works. That
// is exact only where the rows the worker read are the rows the index would give now, which the
// workspace's change log tells: a response not changed since the change numbers read before the
// worker's read and before the totals' is as they read it; one changed since is read again here,
// and its list, and whether it is marked, must be those the worker read (a mark typed changes
// neither: its total is taken from that read). Where they are not (a reading corrected meanwhile,
// a response imported or deleted), or the worker can't answer (it failed, or is not used), or the
// exam's question changed, this declines and the caller forms the groups from the index's rows
// as before. Nothing here writes.
import type { Question } from '../../shared/exam.ts';
import { groupList } from '../engine/review/groups.ts';
import type { GroupsAsRead, ThreadGroup } from '../engine/review/groups-thread.ts';
import { effectiveSum, effectiveTotal } from '../engine/review/state.ts';
import type { AppContext } from './context.ts';

/** Groups as the worker formed them, and each member's total now (a marked response's, by its id as the API gives it). */
export type EarlyGroups = { groups: ThreadGroup[]; totalOf: (responseId: string) => number | null };

/**
 * More responses changed since the worker's read than this: declined (a grade under way, say), as
 * checking each would cost what the list's read does.
 */
const MOST_CHANGED = 1000;

/** How many groups requests were answered here, per context (tests, the bench: answered, not declined). */
const answered = new WeakMap<AppContext, number>();

/** How many groups requests were answered before the list was read whole (not declined). */
export function groupsAnsweredEarly(ctx: AppContext): number {
  return answered.get(ctx) ?? 0;
}

/**
 * Whether a groups request should be answered early: the list is long and not read (the read due,
 * as the review handler decides), and the groups are compared in a worker that has not failed.
 */
export function answersGroupsEarly(ctx: AppContext, examId: string): boolean {
  const thread = ctx.groupsThread();
  if (!thread || thread.failure !== null) return false;
  const exam = ctx.ws.getExam(examId);
  if (!exam) return false;
  const held = ctx.reviews.held(examId);
  return !held.current(exam) && ctx.ws.countResponses(examId) > held.slicing.atOnceUpTo;
}

/**
 * The question's groups from the worker's reading of its lists, with its members' totals now;
 * null where that can't be exact (see the header): the caller then forms them as before.
 */
export async function earlyGroups(ctx: AppContext, examId: string, question: Question): Promise<EarlyGroups | null> {
  const kept = keptGroups(ctx, examId, question);
  if (kept) return kept;
  const thread = ctx.groupsThread();
  if (!thread || thread.failure !== null) return null;
  // Posted first: the worker reads and groups the lists on the other core while this thread reads
  // the totals. They are read as of `seenHere`, the lists as of the worker's `seen`: every response
  // changed since the earlier of the two is read again below.
  const asked = thread.groupsAsRead(examId, question);
  let read: GroupsAsRead;
  let seenHere: number;
  let totals: Map<string, number>;
  try {
    seenHere = ctx.ws.lastReviewChange();
    totals = questionTotals(ctx, examId, question.id);
    read = await asked;
  } catch (e) {
    // The worker failed (then the caller compares on this thread), or its engine did (the caller's
    // path meets that again, and says it as it always has).
    void asked.catch(() => undefined);
    if (process.env.EQUIMARK_DEBUG) console.error(e);
    return null;
  }
  // The question as it is now: a scheme change meanwhile may be another question to group.
  const now = ctx.ws.getExam(examId)?.questions.find((q) => q.id === question.id);
  if (!now || JSON.stringify(now) !== JSON.stringify(question)) return null;
  const changed = ctx.ws.reviewChangesSince(Math.min(seenHere, read.seen)).responseIds;
  if (changed.length > MOST_CHANGED) return null;
  if (changed.length > 0) {
    const wasList = new Map(read.ids.map((id, i) => [id, read.lists[i]]));
    const found = new Set<string>();
    for (const r of ctx.ws.listResponses(examId, { ids: changed })) {
      const id = String(r.id);
      found.add(id);
      if (r.questionId !== question.id) continue;
      // In the groups, as the index's row says (a list, and a total): with the list the worker read.
      const list = r.extraction && r.marks ? groupList(r.extraction.equations) : undefined;
      if (list !== wasList.get(id)) return null;
      const total = effectiveTotal(r);
      if (total === null) totals.delete(id);
      else totals.set(id, total);
    }
    // A response the worker read that is gone since (deleted, or its exam's list changed otherwise).
    for (const id of changed) if (!found.has(String(id)) && wasList.has(String(id))) return null;
  }
  // Every member marked now (the index's rule: a row with a list and a total), as checked above.
  if (read.ids.some((id) => !totals.has(id))) return null;
  answered.set(ctx, groupsAnsweredEarly(ctx) + 1);
  return { groups: read.groups, totalOf: (id) => totals.get(id) ?? null };
}

/** How many groups requests were answered from the groups a grade's end kept (keptGroups), per context. */
const answeredKept = new WeakMap<AppContext, number>();

/** How many groups requests were answered from the groups a grade's end kept. */
export function groupsAnsweredKept(ctx: AppContext): number {
  return answeredKept.get(ctx) ?? 0;
}

/**
 * The question's groups as a grade's end formed and kept them (review/prepare-groups.ts), with
 * its members' totals now: given where they were formed under this question and no response of
 * it changed since the change number read before their lists (the change log names every
 * response whose reading, marks, or presence changed: one imported into the question, or removed
 * from it, is there too). Anything else: null, and the worker's reading answers as before.
 */
function keptGroups(ctx: AppContext, examId: string, question: Question): EarlyGroups | null {
  const kept = ctx.ws.formedGroups(examId, question.id);
  if (!kept || kept.question !== JSON.stringify(question)) return null;
  const changed = ctx.ws.reviewChangesSince(kept.seen).responseIds;
  if (changed.length > MOST_CHANGED) return null;
  if (changed.length > 0) {
    const members = new Set(kept.groups.flatMap((g) => g.ids));
    if (changed.some((id) => members.has(id))) return null;
    if (ctx.ws.listResponses(examId, { ids: changed }).some((r) => r.questionId === question.id)) return null;
  }
  const totals = questionTotals(ctx, examId, question.id);
  const groups = kept.groups.map((g) => ({ key: g.key, responseIds: g.ids.map(String) }));
  if (groups.some((g) => g.responseIds.some((id) => !totals.has(id)))) return null;
  answeredKept.set(ctx, groupsAnsweredKept(ctx) + 1);
  answered.set(ctx, groupsAnsweredEarly(ctx) + 1);
  return { groups, totalOf: (id) => totals.get(id) ?? null };
}

/**
 * The question's marked responses' totals, by id as the API gives it: each summed from its
 * effective marks by review/state.ts `effectiveSum`, the one place a total is decided (a sum in
 * SQL was tried, 0.35 s quicker at 22,000 responses, but it was a second rule for the total; this
 * runs while the worker reads and groups the lists, which takes longer).
 */
function questionTotals(ctx: AppContext, examId: string, questionId: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, effective] of ctx.ws.questionEffectiveMarks(examId, questionId)) out.set(String(id), effectiveSum(effective));
  return out;
}
