// A scheme change previewed before it is applied: every response of a question whose marking the
// edit changes is marked again under the edited exam with the marking step of a re-grade
// (grade.ts's marksOf, on the stored reading), and compared item by item with its stored marks.
// Nothing is stored: no marks, no audit, no exam. The verdicts it decides are kept in memory only,
// unless the caller asks to keep them in the workspace's `decided` table (a cache of proved and
// refuted pairs, which changes no mark), so that applying afterwards decides nothing twice; the
// verdicts decided before are reused either way, so a one-item change decides only that item's
// new pairs.
//
// Instructor overrides stay in force: a preview shows the automatic mark moving under an
// override, but the final mark (and the student's total) stays the override's. Each override of
// an automatic item is a regression case (review/override-cases.ts): the preview counts those the
// change would make the automatic mark disagree with, and those it would make it agree with.
import type { Exam, Question } from '../../shared/exam.ts';
import type { ResponseMarks } from '../../shared/marks.ts';
import type { ItemCount, PreviewOutcome, PreviewOverride, SchemeChange, SchemePreview, StudentTotal } from '../../shared/scheme-preview.ts';
import type { EntailmentEngine, VerdictStore } from './decide/entail/types.ts';
import type { LoadedExam } from './io/exam.ts';
import { breather, marksOf } from './grade.ts';
import { RecentRate } from './progress-rate.ts';
import { disagrees } from './review/override-cases.ts';
import type { ExamOverride, StoredItemMark } from './store/item-marks.ts';
import { KEPT_ON_EDIT, readsAgain, remarkedBy } from './store/exams.ts';
import type { ResponseSummary, Workspace } from './store/workspace.ts';

export type PreviewProgress = { done: number; total: number; perSecond: number | null; etaSeconds: number | null };

export type PreviewOptions = {
  workspace: Workspace;
  /** The edited exam (validated); its id names the stored exam it would replace. */
  edited: LoadedExam;
  engine: EntailmentEngine;
  /**
   * Keep the verdicts decided meanwhile in the workspace's `decided` table, so that applying the
   * change decides nothing twice (the app). Default: in memory only; the workspace is not written.
   */
  keepVerdicts?: boolean;
  /** Stop between responses: the preview then throws PreviewStopped. */
  signal?: AbortSignal;
  onProgress?: (p: PreviewProgress) => void;
};

/** The preview was stopped (discarded, or the exam saved meanwhile) before it finished. */
export class PreviewStopped extends Error {
  override name = 'PreviewStopped';
  constructor() {
    super('the preview was stopped before it finished');
  }
}

/** Responses whose readings are read from the store at once (one query). */
const READ_BATCH = 512;
/** Responses marked at once: their Z3 checks go to the pool's workers in parallel (as markPending). */
const LANES = 32;

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 500);

/** The final total of one response under a scheme: each item's override if any, else its automatic mark (open counts 0). */
function finalTotal(scheme: Question['scheme'], items: readonly { itemId: string; awarded: number | null }[], overrides: readonly ExamOverride[]): number {
  let t = 0;
  for (const s of scheme) t += overrides.find((o) => o.itemId === s.id)?.awarded ?? items.find((i) => i.itemId === s.id)?.awarded ?? 0;
  return t;
}

const automaticIn = (q: Question | undefined, itemId: string): boolean => {
  const s = q?.scheme.find((x) => x.id === itemId);
  return !!s && !s.manual;
};

/**
 * What saving `edited` over the stored exam would do to the marks, computed and stored nowhere.
 * Throws (before marking anything) when the stored exam is missing, or when the edit drops a
 * question that has responses (saving would be refused).
 */
export async function previewScheme(opts: PreviewOptions): Promise<SchemePreview> {
  const { workspace: ws, edited, engine, signal, onProgress } = opts;
  const examId = edited.exam.id;
  const stored = ws.getExam(examId);
  if (!stored) throw new Error(`exam '${examId}' is not in this workspace: there are no marks to compare with (grade it first)`);
  const editedQ = new Map(edited.exam.questions.map((q) => [q.id, q]));
  for (const q of stored.questions) {
    if (editedQ.has(q.id)) continue;
    const n = ws.countResponses(examId, q.id);
    if (n > 0) throw new Error(`exam '${examId}': question '${q.id}' has ${n} responses in this workspace and can't be removed`);
  }
  const storedQ = new Map(stored.questions.map((q) => [q.id, q]));

  // Which questions the edit re-marks, and which it makes read again: as importExam does (the
  // same rules, store/exams.ts: a question whose readings are dropped, corrections and imported lists kept).
  const changed = new Set(remarkedBy(stored, edited.exam).filter((id) => storedQ.has(id))); // a new question has no responses
  const readAgain = new Set(edited.exam.questions.filter((q) => storedQ.has(q.id) && readsAgain(storedQ.get(q.id)!, q)).map((q) => q.id));

  const list = ws.listResponses(examId);
  const storedMarks = ws.itemMarksOfExam(examId);
  const overrides = new Map<number, ExamOverride[]>();
  for (const o of ws.overridesOfExam(examId)) overrides.set(o.responseId, [...(overrides.get(o.responseId) ?? []), o]);
  const notPreviewed: SchemePreview['notPreviewed'] = [];
  const skip = (r: ResponseSummary, kind: SchemePreview['notPreviewed'][number]['kind'], reason: string) =>
    notPreviewed.push({ responseId: r.id, studentId: r.studentId, questionId: r.questionId, kind, reason });
  const toMark: ResponseSummary[] = [];
  for (const r of list) {
    if (!changed.has(r.questionId)) continue;
    if (!r.extraction) skip(r, 'not-graded', 'not read yet: grade the exam first');
    else if (!r.marks) skip(r, 'not-graded', 'not marked yet: grade the exam first');
    else if (readAgain.has(r.questionId) && !(KEPT_ON_EDIT as readonly string[]).includes(r.extraction.source))
      skip(r, 'read-again', "the question's variable names or descriptions change: applying reads this response again, so its marks can't be known before");
    else toMark.push(r);
  }

  // Mark. Verdicts decided before come from the workspace; new ones stay in memory unless kept.
  const memory = new Map<string, unknown>();
  const decided = ws.decidedStore();
  const store: VerdictStore = opts.keepVerdicts
    ? decided
    : { get: (k) => (memory.has(k) ? memory.get(k) : decided.get(k)), put: (k, v) => void memory.set(k, v) };
  engine.setVerdictStore?.(store);
  const after = new Map<number, ResponseMarks>();
  const rate = new RecentRate();
  const breathe = breather();
  let done = 0;
  let next = 0;
  let xs: ReturnType<Workspace['getExtractions']> = new Map();
  let texts: Map<number, string | null> = new Map(); // numeric items read numbers with units from the text
  let xsFrom = -READ_BATCH;
  const lane = async (): Promise<void> => {
    while (next < toMark.length && !signal?.aborted) {
      await breathe(); // let a status poll or a discard through between responses
      if (signal?.aborted || next >= toMark.length) break;
      const i = next++;
      if (i >= xsFrom + READ_BATCH || i < xsFrom) {
        xsFrom = i - (i % READ_BATCH);
        const ids = toMark.slice(xsFrom, xsFrom + READ_BATCH).map((r) => r.id);
        xs = ws.getExtractions(ids);
        texts = ws.textsOf(ids);
      }
      const r = toMark[i];
      const x = xs.get(r.id);
      if (!x || x.id !== r.extraction?.id) skip(r, 'reading-changed', 'its reading changed while the preview ran: preview again');
      else {
        try {
          after.set(r.id, await marksOf(engine, edited.questions.get(r.questionId), r.questionId, x, texts.get(r.id) ?? null));
        } catch (e) {
          skip(r, 'engine-error', `engine error while marking: ${errorText(e)}`);
        }
      }
      done++;
      rate.tick();
      onProgress?.({ done, total: toMark.length, perSecond: rate.perSecond(), etaSeconds: rate.etaSeconds(toMark.length - done) });
    }
  };
  try {
    onProgress?.({ done: 0, total: toMark.length, perSecond: null, etaSeconds: null });
    await Promise.all(Array.from({ length: Math.min(LANES, toMark.length) }, lane));
  } finally {
    if (opts.keepVerdicts) ws.flushDecided();
    else engine.setVerdictStore?.(undefined); // the in-memory store goes with this preview
  }
  if (signal?.aborted) throw new PreviewStopped();

  return compare({ examId, list, storedQ, editedQ, edited: edited.exam, changed, storedMarks, overrides, after, notPreviewed });
}

/** The comparison of stored and previewed marks: counts per item, changes, totals, overrides. */
function compare(c: {
  examId: string;
  list: ResponseSummary[];
  storedQ: Map<string, Question>;
  editedQ: Map<string, Question>;
  edited: Exam;
  changed: Set<string>;
  storedMarks: Map<number, StoredItemMark[]>;
  overrides: Map<number, ExamOverride[]>;
  after: Map<number, ResponseMarks>;
  notPreviewed: SchemePreview['notPreviewed'];
}): SchemePreview {
  const key = (q: string, i: string) => `${q}\u0000${i}`;
  // Items of the re-marked questions: the edited scheme's in order, then those it removes.
  const items = new Map<string, ItemCount>();
  const itemIds = new Map<string, string[]>();
  for (const q of c.edited.questions) {
    if (!c.changed.has(q.id)) continue;
    const old = c.storedQ.get(q.id)!.scheme.map((s) => s.id);
    const now = q.scheme.map((s) => s.id);
    const ids = [...now, ...old.filter((id) => !now.includes(id))];
    itemIds.set(q.id, ids);
    for (const id of ids)
      items.set(key(q.id, id), {
        questionId: q.id,
        itemId: id,
        gained: 0,
        lost: 0,
        unchanged: 0,
        outcomeOnly: 0,
        status: !old.includes(id) ? 'added' : !now.includes(id) ? 'removed' : 'kept',
      });
  }
  const changes: SchemeChange[] = [];
  const totals = new Map<string, StudentTotal>();
  const cases: PreviewOverride[] = [];
  const ov = { total: 0, disagreeBefore: 0, disagreeAfter: 0, newlyDisagree: 0, newlyAgree: 0 };
  for (const r of c.list) {
    const oldQ = c.storedQ.get(r.questionId);
    const newQ = c.editedQ.get(r.questionId);
    const own = c.overrides.get(r.id) ?? [];
    const before = c.storedMarks.get(r.id) ?? [];
    const remarked = c.after.get(r.id);
    // Unchanged questions keep their marks; a response of a changed question not re-marked is unknown after.
    const after = remarked ? remarked.items : c.changed.has(r.questionId) ? null : before;
    let t = totals.get(r.studentId);
    if (!t) totals.set(r.studentId, (t = { studentId: r.studentId, before: 0, after: 0, partial: false }));
    const b = oldQ ? finalTotal(oldQ.scheme, before, own) : 0;
    t.before += b;
    if (after && newQ) t.after += finalTotal(newQ.scheme, after, own);
    else {
      t.after += b;
      t.partial = true;
    }
    if (remarked) {
      for (const itemId of itemIds.get(r.questionId) ?? []) {
        const was = before.find((i) => i.itemId === itemId);
        const is = remarked.items.find((i) => i.itemId === itemId);
        const outcomeBefore: PreviewOutcome = was?.outcome ?? 'absent';
        const outcomeAfter: PreviewOutcome = is?.outcome ?? 'absent';
        const bv = was?.awarded ?? null;
        const av = is?.awarded ?? null;
        const direction = (av ?? 0) > (bv ?? 0) ? 'gain' : (av ?? 0) < (bv ?? 0) ? 'loss' : 'same';
        const count = items.get(key(r.questionId, itemId))!;
        if (direction === 'gain') count.gained++;
        else if (direction === 'loss') count.lost++;
        else {
          count.unchanged++;
          if (outcomeBefore !== outcomeAfter) count.outcomeOnly++;
        }
        if (bv !== av || outcomeBefore !== outcomeAfter)
          changes.push({
            responseId: r.id,
            studentId: r.studentId,
            questionId: r.questionId,
            itemId,
            before: bv,
            after: av,
            outcomeBefore,
            outcomeAfter,
            direction,
            override: own.find((o) => o.itemId === itemId)?.awarded ?? null,
          });
      }
    }
    // Overrides of automatic items as regression cases (only where the marks after are known).
    if (!after) continue;
    for (const o of own) {
      const wasAuto = automaticIn(oldQ, o.itemId);
      const isAuto = automaticIn(newQ, o.itemId);
      if (!wasAuto && !isAuto) continue;
      const automaticBefore = wasAuto ? (before.find((i) => i.itemId === o.itemId)?.awarded ?? null) : null;
      const automaticAfter = isAuto ? (after.find((i) => i.itemId === o.itemId)?.awarded ?? null) : null;
      const disagreesBefore = disagrees(automaticBefore, o.awarded);
      const disagreesAfter = disagrees(automaticAfter, o.awarded);
      ov.total++;
      if (disagreesBefore) ov.disagreeBefore++;
      if (disagreesAfter) ov.disagreeAfter++;
      if (disagreesAfter && !disagreesBefore) ov.newlyDisagree++;
      if (disagreesBefore && automaticAfter === o.awarded) ov.newlyAgree++;
      if (disagreesBefore || disagreesAfter)
        cases.push({
          responseId: r.id,
          studentId: r.studentId,
          questionId: r.questionId,
          itemId: o.itemId,
          override: o.awarded,
          comment: o.comment,
          automaticBefore,
          automaticAfter,
          disagreesBefore,
          disagreesAfter,
        });
    }
  }
  const byStudent = <T extends { studentId: string; questionId: string }>(a: T, b: T) =>
    a.studentId.localeCompare(b.studentId) || a.questionId.localeCompare(b.questionId);
  changes.sort(byStudent); // stable: items stay in scheme order
  cases.sort(byStudent);
  const all = [...totals.values()].sort((a, b) => a.studentId.localeCompare(b.studentId));
  const moved = all.filter((s) => Math.abs(s.after - s.before) > 1e-9);
  return {
    examId: c.examId,
    changedQuestions: c.edited.questions.filter((q) => c.changed.has(q.id)).map((q) => q.id),
    remarked: c.after.size,
    items: [...items.values()],
    changes,
    changesOmitted: 0,
    students: moved,
    studentsUnchanged: all.length - moved.length,
    overrides: { ...ov, cases },
    notPreviewed: c.notPreviewed,
  };
}
