// Marks and their evidence: what the marking step produces for one response, and what the UI
// shows an instructor to explain why each scheme item was or wasn't awarded. The zod schemas are
// the source of the types: the API contract (shared/api.ts) reuses them.
import { z } from 'zod';
import { VerdictSchema } from './verdict.ts';

/** How one scheme item ended up. */
export const ItemOutcomeSchema = z.enum([
  /** Awarded automatically: some student equation satisfied the item's match rule. */
  'awarded',
  /** Withheld automatically: no student equation satisfied the match rule. */
  'withheld',
  /** Could not be decided (engine returned unknown for every candidate that mattered). */
  'undecided',
  /** Manual item: the instructor decides; never awarded automatically. */
  'manual',
]);
export type ItemOutcome = z.infer<typeof ItemOutcomeSchema>;

/** The rule an item was marked by (an exam item without `match`, or with `manual`, is 'manual'). */
export const ItemMatchSchema = z.enum(['implied', 'equivalent', 'answer', 'numeric', 'manual']);
export type ItemMatch = z.infer<typeof ItemMatchSchema>;

const Index = z.number().int().nonnegative();

/**
 * A follow-through (error carried forward) award: the student's equation follows from the
 * student's own earlier equations (with the accepted relations the item names), though their
 * result for `fromItem` is wrong.
 */
export const FollowThroughSchema = z.object({
  /** The scheme item whose wrong result was carried forward. */
  fromItem: z.string(),
  /** The student's own earlier equations (indices in the extraction's list) it follows from. */
  fromStudent: z.array(Index),
  /** The item's accepted relation with the student's own value put in (SymPy source): what the earning equation was checked against. */
  relation: z.string().optional(),
  note: z.string().optional(),
});
export type FollowThrough = z.infer<typeof FollowThroughSchema>;

/** How a number with a unit was compared for a `numeric` item (shown to the instructor as written). */
export const NumericEvidenceSchema = z.object({
  /** What the student wrote, or the symbolic answer the given values were substituted into. */
  written: z.string(),
  /** 'stated': a number with its unit in the text; 'substituted': the question's given values put into a symbolic answer. */
  source: z.enum(['stated', 'substituted']),
  /** The student's value in the expected unit (null when it can't be converted: wrong or no unit). */
  value: z.number().nullable(),
  expected: z.number(),
  unit: z.string(),
  /** The tolerance used, in words ("±2%", "±0.05 m"). */
  tolerance: z.string(),
  /** The conversion and checks in words ("3.2 kJ = 3200 J"; "given to 2 significant figures, 3 required"). */
  note: z.string(),
});
export type NumericEvidence = z.infer<typeof NumericEvidenceSchema>;

/** One (student equation, accepted form) check that the decision rests on. */
export const MarkEvidenceSchema = z.object({
  /** Index of the student equation in the extraction's list. */
  studentIndex: Index,
  /** Canonical SymPy source of the student equation. */
  student: z.string(),
  /** Index of the accepted form in the scheme item's `accept` list. */
  acceptIndex: Index,
  /** The accepted form, as written in the exam. */
  accepted: z.string(),
  /** Student equation entails accepted form. */
  forward: VerdictSchema,
  /** Accepted form entails student equation (only for equivalent/answer). */
  backward: VerdictSchema.optional(),
  /** For 'answer': whether the student equation has the target alone on one side and not on the other. */
  solvedForTarget: z.boolean().optional(),
  /** Set when the item was earned by follow-through from the student's own wrong earlier result. */
  followThrough: FollowThroughSchema.optional(),
  /** For 'numeric': how the number was read, converted and compared. */
  numeric: NumericEvidenceSchema.optional(),
});
export type MarkEvidence = z.infer<typeof MarkEvidenceSchema>;

export const ItemMarkSchema = z.object({
  itemId: z.string(),
  /** Marks available for the item. */
  available: z.number().nonnegative(),
  /** Marks awarded; null for manual items (open) and undecided items. */
  awarded: z.number().nonnegative().nullable(),
  outcome: ItemOutcomeSchema,
  match: ItemMatchSchema,
  /**
   * For an awarded item: the check that earned it (one entry). For a withheld or undecided item:
   * the closest checks considered (at most a few, best first), so an instructor can see why.
   */
  evidence: z.array(MarkEvidenceSchema),
  /** Plain-language explanation ("v = -u has no admissible solution: earns nothing"). */
  note: z.string().optional(),
});
export type ItemMark = z.infer<typeof ItemMarkSchema>;

/** A student equation that no admissible assignment satisfies: it earns nothing and is flagged. */
export const InconsistentEquationSchema = z.object({
  studentIndex: Index,
  student: z.string(),
  /** How it was found: the consistency check's method, or 'entailment' (a vacuous premise met while marking). */
  method: z.enum(['z3', 'numeric', 'unknown', 'entailment']),
  note: z.string().optional(),
});
export type InconsistentEquation = z.infer<typeof InconsistentEquationSchema>;

/** A student equation whose two sides have different dimensions (evidence beside the marks; changes no mark by itself). */
export const DimensionIssueSchema = z.object({
  studentIndex: Index,
  student: z.string(),
  /** Dimensions of each side as SI units ("m/s", "m^2/s"); for a function argument, the argument's. */
  left: z.string(),
  right: z.string(),
  /** Plain words: "left: m/s, right: m²/s", or "the argument of sin must be dimensionless, it is m". */
  note: z.string(),
});
export type DimensionIssue = z.infer<typeof DimensionIssueSchema>;

export const ResponseMarksSchema = z.object({
  items: z.array(ItemMarkSchema),
  /** Sum of awarded automatic marks (manual and undecided items count 0 until decided). */
  total: z.number(),
  /** Sum of marks available, manual included. */
  available: z.number(),
  /** Student equations found inconsistent under the question's assumptions. */
  inconsistent: z.array(InconsistentEquationSchema),
  /** 'complete': every automatic item decided; 'manual-open': manual items wait; 'undecided': some item undecided. */
  status: z.enum(['complete', 'manual-open', 'undecided']),
  /** Equations found dimensionally inconsistent (only where the exam declares units); flag `dimensions`. */
  dimensions: z.array(DimensionIssueSchema).optional(),
});
export type ResponseMarks = z.infer<typeof ResponseMarksSchema>;

/**
 * A response's total, marks available and status from its item marks: the one rule, for a
 * response marked whole (decide/marking.ts) and for one whose changed items only were marked
 * again (grade.ts, after a scheme change).
 */
export function resultOf(items: readonly Pick<ItemMark, 'available' | 'awarded' | 'outcome'>[]): Pick<ResponseMarks, 'total' | 'available' | 'status'> {
  const total = items.reduce((s, it) => s + (it.outcome === 'awarded' ? (it.awarded ?? 0) : 0), 0);
  const available = items.reduce((s, it) => s + it.available, 0);
  const status = items.some((it) => it.outcome === 'undecided') ? 'undecided' : items.some((it) => it.outcome === 'manual') ? 'manual-open' : 'complete';
  return { total, available, status };
}
