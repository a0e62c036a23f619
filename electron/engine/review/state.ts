// The review state of a response, decided here and only here: marks.csv, the per-student export,
// the app's review list and chips, the job's and the summary's counts all call reviewState(), so
// an export can never call `complete` a row that the app holds back for the instructor.
import type { Exam, Question } from '../../../shared/exam.ts';
import type { ResponseSummary } from '../store/workspace.ts';

/**
 * - `pending`: not read or not marked yet (waiting for a model included, once it has no marks);
 * - `needs-review`: the reading can't be trusted as it stands (its status, or a flag below);
 * - `blank`: nothing was written;
 * - `undecided`: an automatic item the engine couldn't decide;
 * - `manual-open`: manual items wait for the instructor;
 * - `complete`: every item has a mark.
 */
export type ReviewState = 'pending' | 'needs-review' | 'blank' | 'undecided' | 'manual-open' | 'complete';

/** Reading statuses an instructor must look at. */
export const REVIEW_STATUSES: ReadonlySet<string> = new Set(['needs-review', 'partial', 'abstained']);
/** Flags that make a reading doubtful whatever its status. */
export const REVIEW_FLAGS: ReadonlySet<string> = new Set([
  'models-disagree',
  'invented',
  'attachment',
  'unmapped-symbol',
  'parse-error',
  'waiting-for-model',
  'engine-error',
  'addresses-marker',
  'ambiguous-reading',
]);

export type Review = {
  state: ReviewState;
  /** The instructor must act: the reading is doubtful or an automatic mark is undecided. */
  needsReview: boolean;
  /** Why, in the words of the status and flags that decided it (empty when nothing is wrong). */
  reasons: string[];
};

type Reviewable = Pick<ResponseSummary, 'extraction' | 'marks' | 'effective'> & Partial<Pick<ResponseSummary, 'earlier'>>;

/** The reason given while a correction or override made on an earlier text (set aside by a re-import) waits for the instructor. */
export const EARLIER_TEXT = 'made-on-earlier-text';

/** The one rule. `scheme` is the response's question's scheme (manual items are open until marked). */
export function reviewState(r: Reviewable, scheme: Question['scheme']): Review {
  const x = r.extraction;
  if (!x || !r.marks) return { state: 'pending', needsReview: false, reasons: [] };
  // A correction by hand settles the reading: its status and flags no longer raise doubt, except
  // an engine error (marking the corrected list failed), which is not about the reading.
  const reasons =
    x.source !== 'manual'
      ? [...(REVIEW_STATUSES.has(x.status) ? [x.status] : []), ...x.flags.filter((f) => REVIEW_FLAGS.has(f))]
      : x.flags.filter((f) => f === 'engine-error');
  // A correction or override made on the text a re-import replaced is not applied: the instructor confirms or drops it.
  if (r.earlier) reasons.push(EARLIER_TEXT);
  if (reasons.length) return { state: 'needs-review', needsReview: true, reasons };
  if (x.status === 'blank') return { state: 'blank', needsReview: false, reasons: [] };
  const open = scheme.filter((s) => r.effective[s.id] === null || r.effective[s.id] === undefined);
  const undecided = open.filter((s) => !s.manual);
  if (undecided.length) return { state: 'undecided', needsReview: true, reasons: undecided.map((s) => `item ${s.id} undecided`) };
  if (open.length) return { state: 'manual-open', needsReview: false, reasons: [] };
  return { state: 'complete', needsReview: false, reasons: [] };
}

/** The scheme of a response's question (empty for a question the exam no longer has). */
export function schemeOf(exam: Exam, questionId: string): Question['scheme'] {
  return exam.questions.find((q) => q.id === questionId)?.scheme ?? [];
}

/** The review state of a stored response under its exam. */
export const reviewOfResponse = (r: ResponseSummary, exam: Exam): Review => reviewState(r, schemeOf(exam, r.questionId));

/** The total with the instructor's overrides applied; null until the response is marked. */
export function effectiveTotal(r: Pick<ResponseSummary, 'marks' | 'effective'>): number | null {
  if (!r.marks) return null;
  return effectiveSum(r.effective);
}

/** The sum of a marked response's effective marks (an open item counts 0): its total (effectiveTotal). */
export function effectiveSum(effective: Record<string, number | null>): number {
  return Object.values(effective).reduce<number>((s, v) => s + (v ?? 0), 0);
}

/** The manual items of a response still waiting for the instructor's mark (ids, in scheme order); none before it is marked. */
export function openManualItems(r: Pick<ResponseSummary, 'marks' | 'effective'>, scheme: Question['scheme']): string[] {
  if (!r.marks) return [];
  return scheme.filter((s) => s.manual && (r.effective[s.id] === null || r.effective[s.id] === undefined)).map((s) => s.id);
}

/**
 * Whether the instructor replaced an automatic mark (a manual item marked by hand is the
 * instructor's own mark, not an override of the engine's).
 */
export function overridesAutomatic(r: Pick<ResponseSummary, 'overrides' | 'overriddenItems'>, scheme: Question['scheme']): boolean {
  if (!r.overriddenItems) return r.overrides > 0;
  return r.overriddenItems.some((id) => !scheme.find((s) => s.id === id)?.manual);
}

/** Most urgent first: a student's state over several responses is the most urgent of theirs. */
const URGENCY: (ReviewState | 'missing')[] = ['pending', 'needs-review', 'undecided', 'missing', 'manual-open', 'complete'];

/** A student's state over their responses (`missing` for a question with no response); a blank answer is finished. */
export function combinedState(states: (ReviewState | 'missing')[]): ReviewState | 'missing' {
  let best = URGENCY.length - 1;
  for (const s of states) best = Math.min(best, URGENCY.indexOf(s === 'blank' ? 'complete' : s));
  return URGENCY[best];
}

/** Counts over a set of responses, for the job's progress and the summary. */
export function reviewCounts(rows: ResponseSummary[], exam: Exam): Record<ReviewState, number> & { needsReview: number } {
  const out = { pending: 0, 'needs-review': 0, blank: 0, undecided: 0, 'manual-open': 0, complete: 0, needsReview: 0 };
  for (const r of rows) {
    const v = reviewOfResponse(r, exam);
    out[v.state]++;
    if (v.needsReview) out.needsReview++;
  }
  return out;
}
