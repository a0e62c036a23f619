// A question's answer groups as a grade's end formed them (review/prepare-groups.ts), or the
// app's worker as it prepared them (review/groups-worker.ts), kept in the
// workspace's `meta` table with the change number read before their lists were: an app opening
// the workspace gives them at once where no response of the question changed since
// (app/early-groups.ts, which checks the change log), instead of reading and grouping the lists
// again. Replaced each time the question's groups are formed.
import type { Row, Statements } from './statements.ts';

/** Groups as formed: each its list's key and its members' response ids, largest group first. */
export type FormedGroups = {
  /** The workspace's change number (review-changes.ts) read before the lists were. */
  seen: number;
  /** The question they were formed under, as JSON (its variables and domain decide the groups). */
  question: string;
  groups: { key: string; ids: number[] }[];
};

const keyOf = (examId: string, questionId: string): string => `answer-groups-formed:${examId}\u0000${questionId}`;

/** The groups kept for a question, if any. */
export function formedGroups(st: Statements, examId: string, questionId: string): FormedGroups | undefined {
  const r = st.sql('SELECT value FROM meta WHERE key = ?').get(keyOf(examId, questionId)) as Row | undefined;
  return r ? (JSON.parse(String(r.value)) as FormedGroups) : undefined;
}

/** Keep a question's groups just formed (replacing any). */
export function putFormedGroups(st: Statements, examId: string, questionId: string, formed: FormedGroups): void {
  st.sql('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    keyOf(examId, questionId),
    JSON.stringify(formed),
  );
}
