// The answer groups' comparisons made as a grade ends (grade.ts), so that an app opening the
// workspace for the first time (graded by the command line, say) forms a question's groups from
// what is kept instead of comparing every list: the canonical keys of the lists' equations
// (table canonical_keys) and the answers of the pairs of lists compared (the engine's verdict
// store, table decided). It is answerGroupsOf itself, run on the question's lists as the app's
// worker reads them (store/group-lists.ts), so what it keeps is exactly what the app's grouping
// looks up. The groups it forms are kept too (store/formed-groups.ts), with the change number read
// before the lists: an app opening the workspace gives them at once where no response of the
// question changed since (app/early-groups.ts); else it forms them again from its own rows, in
// milliseconds once the comparisons are kept. It reads no mark and writes none.
//
// A question is compared again only when its lists changed since it was last prepared (the
// stamp, store/groups-stamp.ts: which readings its marked responses have, and its domain): a
// re-run with nothing to do, or a re-grade after a scheme change (marks move, lists don't),
// compares nothing. A question whose lists changed is grouped again, and only the pairs of lists
// not decided before are compared (a corrected reading: its list with the groups' lists).
import { createHash } from 'node:crypto';
import { questionDomain, type Exam } from '../../../shared/exam.ts';
import type { EntailmentEngine } from '../decide/entail/types.ts';
import type { Workspace } from '../store/workspace.ts';
import { answerGroupsOf, GroupsStopped, KEPT_KEYS_VERSION, type GroupEngine } from './groups.ts';

/**
 * Bump when what a prepare keeps changes (what answerGroupsOf compares or keeps, or which lists
 * group-lists.ts reads), so workspaces prepared before are prepared again by the next grade.
 */
const PREPARED_VERSION = 'prepared v1';

export type PreparedGroups = {
  /** Questions whose lists were compared now (they changed since the last prepare, or were never prepared). */
  compared: string[];
  /** Questions whose lists are those prepared before: nothing compared. */
  unchanged: string[];
  /** Why the comparisons stopped early, when they did (the engine failed): the app compares the rest when asked. */
  failed?: string;
};

type Prepare = {
  /** Stop between two comparisons of lists (what was decided is kept; the next grade goes on). */
  signal?: AbortSignal;
  /** Told as the comparisons start (0 done) and as each question is done (the command line's progress). */
  onQuestion?: (done: number, total: number) => void;
};

/** The stamp of a question's lists and domain: equal to the one kept when it was last prepared from the same lists. */
function stampOf(question: Exam['questions'][number], lists: string): string {
  return createHash('sha256')
    .update(JSON.stringify([PREPARED_VERSION, KEPT_KEYS_VERSION, questionDomain(question), lists]))
    .digest('hex');
}

/**
 * Compare the lists of each question of `exam` whose lists changed since it was last prepared, as
 * the answer groups will (see the header), keeping what they decide in the workspace. Never
 * throws for the engine's sake: a failure stops the comparisons and is given back as `failed`.
 */
export async function prepareAnswerGroups(
  ws: Workspace,
  exam: Exam,
  engine: GroupEngine & Pick<EntailmentEngine, 'setVerdictStore'>,
  opts: Prepare = {},
): Promise<PreparedGroups> {
  const out: PreparedGroups = { compared: [], unchanged: [] };
  const total = exam.questions.length;
  opts.onQuestion?.(0, total);
  engine.setVerdictStore?.(ws.decidedStore());
  const fingerprints = ws.markedListsFingerprints(exam.id);
  const keyStore = { canonicalKeys: (space: string) => ws.canonicalKeys(space), putCanonicalKeys: ws.putCanonicalKeys.bind(ws) };
  let done = 0;
  for (const q of exam.questions) {
    if (opts.signal?.aborted) break;
    const lists = fingerprints.get(q.id);
    const stamp = lists === undefined ? undefined : stampOf(q, lists);
    // (No stamp: the question has no read and marked response, so no group to prepare.)
    if (stamp !== undefined && ws.preparedGroupsStamp(exam.id, q.id) === stamp) out.unchanged.push(q.id);
    else if (stamp !== undefined) {
      try {
        const seen = ws.lastReviewChange();
        const groups = await answerGroupsOf(engine, q, ws.markedLists(exam.id, q.id), (r) => r.equations, keyStore, opts.signal ? { signal: opts.signal } : {});
        ws.putFormedGroups(exam.id, q.id, { seen, question: JSON.stringify(q), groups: groups.map((g) => ({ key: g.key, ids: g.members.map((m) => m.id) })) });
      } catch (e) {
        ws.flushDecided();
        if (e instanceof GroupsStopped) break;
        out.failed = e instanceof Error ? e.message : String(e);
        break;
      }
      // The verdicts first: a stamp kept without them would leave the app to compare again.
      ws.flushDecided();
      ws.putPreparedGroupsStamp(exam.id, q.id, stamp);
      out.compared.push(q.id);
    }
    opts.onQuestion?.(++done, total);
  }
  return out;
}
