// A scheme change previewed before it is applied, and the instructor's overrides kept as
// regression cases: the shapes the engine computes (electron/engine/preview-scheme.ts,
// electron/engine/review/override-cases.ts), the API carries and the renderer and the CLI show.
// Pure zod schemas: the types come from them.
import { z } from 'zod';
import { ItemOutcomeSchema } from './marks.ts';

/** How an item stood in one version of the scheme: its outcome, or 'absent' (the item is not in that version). */
export const PreviewOutcomeSchema = z.union([ItemOutcomeSchema, z.literal('absent')]);
export type PreviewOutcome = z.infer<typeof PreviewOutcomeSchema>;

/** One (student, question, item) whose automatic mark or outcome the change moves. */
export const SchemeChangeSchema = z.object({
  responseId: z.number(),
  studentId: z.string(),
  questionId: z.string(),
  itemId: z.string(),
  /** Automatic marks awarded under the stored scheme and under the edited one (null: open, undecided or absent). */
  before: z.number().nullable(),
  after: z.number().nullable(),
  outcomeBefore: PreviewOutcomeSchema,
  outcomeAfter: PreviewOutcomeSchema,
  /** 'gain' or 'loss' of automatic marks (an open mark counts 0); 'same': only the outcome moves (say undecided to withheld). */
  direction: z.enum(['gain', 'loss', 'same']),
  /** The instructor's override of the item: it stays in force, so the final mark stays the override's. */
  override: z.number().nullable(),
});
export type SchemeChange = z.infer<typeof SchemeChangeSchema>;

/** Per scheme item of a question the change re-marks: how many of its responses gain, lose or keep the item's automatic mark. */
export const ItemCountSchema = z.object({
  questionId: z.string(),
  itemId: z.string(),
  gained: z.number(),
  lost: z.number(),
  unchanged: z.number(),
  /** Of the unchanged, those whose outcome moves without a change of marks (undecided to withheld, ...). */
  outcomeOnly: z.number(),
  /** 'added' or 'removed' by the edit; 'kept' otherwise. */
  status: z.enum(['kept', 'added', 'removed']),
});
export type ItemCount = z.infer<typeof ItemCountSchema>;

/** A student's total over the exam before and after, the final marks (overrides in force). */
export const StudentTotalSchema = z.object({
  studentId: z.string(),
  before: z.number(),
  after: z.number(),
  /** Some of the student's responses could not be previewed (see notPreviewed): their marks are counted as before. */
  partial: z.boolean(),
});
export type StudentTotal = z.infer<typeof StudentTotalSchema>;

/**
 * An instructor's override of an automatic item seen as a regression case: the override says
 * what the mark should be; the automatic mark disagrees when it is a mark (not open or
 * undecided) and differs from it.
 */
export const OverrideCaseSchema = z.object({
  responseId: z.number(),
  studentId: z.string(),
  questionId: z.string(),
  itemId: z.string(),
  override: z.number(),
  comment: z.string(),
  /** When the override was made. */
  at: z.string(),
  /** The automatic mark (null: undecided, not marked yet, or the item is no longer automatic). */
  automatic: z.number().nullable(),
  outcome: PreviewOutcomeSchema.nullable(),
  /** The exam (its scheme) was changed after the override was made. */
  schemeChangedSince: z.boolean(),
});
export type OverrideCase = z.infer<typeof OverrideCaseSchema>;

/** Overrides as regression cases over an exam, after the last change: those the automatic marks disagree with, listed. */
export const OverrideCasesSchema = z.object({
  examId: z.string(),
  /** Overrides of automatic items (manual items marked by hand are not cases). */
  overrides: z.number(),
  /** Of those, how many the automatic mark agrees with, and how many have no automatic mark to compare (undecided, not marked). */
  agreeing: z.number(),
  open: z.number(),
  disagreeing: z.array(OverrideCaseSchema),
});
export type OverrideCases = z.infer<typeof OverrideCasesSchema>;

/** An override in a preview: the automatic mark it is compared with before and after the change. */
export const PreviewOverrideSchema = z.object({
  responseId: z.number(),
  studentId: z.string(),
  questionId: z.string(),
  itemId: z.string(),
  override: z.number(),
  comment: z.string(),
  automaticBefore: z.number().nullable(),
  automaticAfter: z.number().nullable(),
  disagreesBefore: z.boolean(),
  disagreesAfter: z.boolean(),
});
export type PreviewOverride = z.infer<typeof PreviewOverrideSchema>;

/** What applying an edited exam would do to the marks, computed with the marking code of a re-grade and stored nowhere. */
export const SchemePreviewSchema = z.object({
  examId: z.string(),
  /** Questions whose marking the edit changes (their responses were re-marked); the others keep their marks as they are. */
  changedQuestions: z.array(z.string()),
  /** Responses re-marked with the edited scheme. */
  remarked: z.number(),
  items: z.array(ItemCountSchema),
  /** Every (student, question, item) whose automatic mark or outcome moves, by student. */
  changes: z.array(SchemeChangeSchema),
  /** How many changes the list leaves out (the API bounds it; the CLI's diff CSV has them all). */
  changesOmitted: z.number(),
  /** Students whose total (final marks, overrides in force) moves; `studentsUnchanged` counts the rest. */
  students: z.array(StudentTotalSchema),
  studentsUnchanged: z.number(),
  overrides: z.object({
    /** Overrides of automatic items compared (on responses previewed or unchanged). */
    total: z.number(),
    disagreeBefore: z.number(),
    disagreeAfter: z.number(),
    /** The change would make the automatic mark disagree with these (it agreed or was open before) ... */
    newlyDisagree: z.number(),
    /** ... and agree with these (it disagreed before). */
    newlyAgree: z.number(),
    /** The overrides that disagree before or after, or whose agreement moves. */
    cases: z.array(PreviewOverrideSchema),
  }),
  /** Responses the preview could not re-mark, with why (not marked yet, read again when applied, an engine error). */
  notPreviewed: z.array(
    z.object({
      responseId: z.number(),
      studentId: z.string(),
      questionId: z.string(),
      kind: z.enum(['not-graded', 'read-again', 'reading-changed', 'engine-error']),
      reason: z.string(),
    }),
  ),
});
export type SchemePreview = z.infer<typeof SchemePreviewSchema>;

/** A preview in the app: it runs in the background, its progress polled like grading's. */
export const SchemePreviewStatusSchema = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed', 'invalid']),
  examId: z.string().nullable(),
  /** Responses re-marked so far, of `total` to re-mark. */
  done: z.number(),
  total: z.number(),
  etaSeconds: z.number().nullable(),
  /** Why it failed, in plain words. */
  message: z.string().nullable(),
  /** With state 'invalid': what is wrong with the edited exam, by path. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  result: SchemePreviewSchema.nullable(),
});
export type SchemePreviewStatus = z.infer<typeof SchemePreviewStatusSchema>;
