// The instructor's overrides kept as regression cases. An override of an automatic item says what
// that response's mark should be; after a scheme change (or any re-mark) the automatic mark may
// come to disagree with it. The override stays in force either way (the final mark is the
// instructor's), but a disagreement is listed, so the instructor sees where the scheme and their
// own judgement part. Decided here and only here: the app's list, the CLI and the scheme-change
// preview (preview-scheme.ts) all use `disagrees`.
import type { Exam } from '../../../shared/exam.ts';
import type { OverrideCase, OverrideCases } from '../../../shared/scheme-preview.ts';
import type { Workspace } from '../store/workspace.ts';

/**
 * Whether an automatic mark disagrees with the instructor's override: only a mark can (an open or
 * undecided item has none; the override decides it).
 */
export function disagrees(automatic: number | null | undefined, override: number): boolean {
  return automatic !== null && automatic !== undefined && automatic !== override;
}

/** Whether an item of the exam's question is marked automatically (an override of it can disagree with the engine). */
export function isAutomaticItem(exam: Exam, questionId: string, itemId: string): boolean {
  const item = exam.questions.find((q) => q.id === questionId)?.scheme.find((s) => s.id === itemId);
  return !!item && !item.manual;
}

/**
 * Every override of an automatic item of the exam, compared with the stored automatic mark: how
 * many agree, how many have no automatic mark to compare (undecided, or not marked yet), and the
 * ones that disagree, each saying whether the exam changed after the override was made (a
 * regression the change brought, or a disagreement the instructor already knew).
 */
export function overrideCases(ws: Workspace, examId: string): OverrideCases {
  const exam = ws.getExam(examId);
  if (!exam) throw new Error(`no exam '${examId}' in this workspace`);
  const changedAt = ws.listExams().find((e) => e.id === examId)?.importedAt ?? '';
  const overrides = ws.overridesOfExam(examId);
  // Every item mark of the exam (67,500 responses: about 0.5 s) only when there is an override to compare.
  const marks = overrides.length ? ws.itemMarksOfExam(examId) : new Map<number, never[]>();
  const out: OverrideCases = { examId, overrides: 0, agreeing: 0, open: 0, disagreeing: [] };
  for (const o of overrides) {
    if (!isAutomaticItem(exam, o.questionId, o.itemId)) continue;
    out.overrides++;
    const m = marks.get(o.responseId)?.find((i) => i.itemId === o.itemId);
    const automatic = m?.awarded ?? null;
    if (automatic === null) out.open++;
    else if (!disagrees(automatic, o.awarded)) out.agreeing++;
    else {
      const c: OverrideCase = {
        responseId: o.responseId,
        studentId: o.studentId,
        questionId: o.questionId,
        itemId: o.itemId,
        override: o.awarded,
        comment: o.comment,
        at: o.createdAt,
        automatic,
        outcome: m?.outcome ?? null,
        schemeChangedSince: changedAt > o.createdAt,
      };
      out.disagreeing.push(c);
    }
  }
  // The ones a scheme change brought first: those are what the instructor has not seen.
  out.disagreeing.sort((a, b) => Number(b.schemeChangedSince) - Number(a.schemeChangedSince));
  return out;
}
