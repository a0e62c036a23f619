// A question's answer groups as a grade's end formed them (review/prepare-groups.ts), or the
// app's worker as it prepared them (review/groups-worker.ts), kept in the
// workspace's `meta` table with the change number read before their lists were: an app opening
// the workspace gives them at once where no response of the question changed since
// (app/early-groups.ts, which checks the change log), instead of reading and grouping the lists
// again. Replaced each time the question's groups are formed.
import { metaValue, putMetaValue } from './meta.ts';
import type { Statements } from './statements.ts';

/** Groups as formed: each its list's key and its members' response ids, largest group first. */
export type FormedGroups = {
  /** The workspace's change number (review-changes.ts) read before the lists were. */
  seen: number;
  /** The question they were formed under, as JSON (its variables and domain decide the groups). */
  question: string;
  groups: { key: string; ids: number[] }[];
};

const keyOf = (examId: string, questionId: string): string => `answer-groups-formed:${examId}\u0000${questionId}`;

/** The groups kept for a question, if any (anything unreadable: none, and the app forms them as before). */
export function formedGroups(st: Statements, examId: string, questionId: string): FormedGroups | undefined {
  const value = metaValue(st, keyOf(examId, questionId));
  if (value === undefined) return undefined;
  try {
    const f = JSON.parse(value) as Partial<FormedGroups>;
    const wellFormed =
      Number.isInteger(f.seen) &&
      typeof f.question === 'string' &&
      Array.isArray(f.groups) &&
      f.groups.every((g) => typeof g?.key === 'string' && Array.isArray(g.ids) && g.ids.every((id) => Number.isInteger(id)));
    return wellFormed ? (f as FormedGroups) : undefined;
  } catch {
    return undefined;
  }
}

/** Keep a question's groups just formed (replacing any). */
export function putFormedGroups(st: Statements, examId: string, questionId: string, formed: FormedGroups): void {
  putMetaValue(st, keyOf(examId, questionId), JSON.stringify(formed));
}
