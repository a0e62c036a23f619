// Marks and their evidence: what the marking step produces for one response, and what the UI
// shows an instructor to explain why each scheme item was or wasn't awarded.
import type { Verdict } from './verdict.ts';

/** How one scheme item ended up. */
export type ItemOutcome =
  /** Awarded automatically: some student equation satisfied the item's match rule. */
  | 'awarded'
  /** Withheld automatically: no student equation satisfied the match rule. */
  | 'withheld'
  /** Could not be decided (engine returned unknown for every candidate that mattered). */
  | 'undecided'
  /** Manual item: the instructor decides; never awarded automatically. */
  | 'manual';

/** One (student equation, accepted form) check that the decision rests on. */
export type MarkEvidence = {
  /** Index of the student equation in the extraction's list. */
  studentIndex: number;
  /** Canonical SymPy source of the student equation. */
  student: string;
  /** Index of the accepted form in the scheme item's `accept` list. */
  acceptIndex: number;
  /** The accepted form, as written in the exam. */
  accepted: string;
  /** Student equation entails accepted form. */
  forward: Verdict;
  /** Accepted form entails student equation (only for equivalent/answer). */
  backward?: Verdict;
  /** For 'answer': whether the student equation has the target alone on one side and not on the other. */
  solvedForTarget?: boolean;
};

export type ItemMark = {
  itemId: string;
  /** Marks available for the item. */
  available: number;
  /** Marks awarded; null for manual items (open) and undecided items. */
  awarded: number | null;
  outcome: ItemOutcome;
  match: 'implied' | 'equivalent' | 'answer' | 'manual';
  /**
   * For an awarded item: the check that earned it (one entry). For a withheld or undecided item:
   * the closest checks considered (at most a few, best first), so an instructor can see why.
   */
  evidence: MarkEvidence[];
  /** Plain-language explanation ("v = -u has no admissible solution: earns nothing"). */
  note?: string;
};

/** A student equation that no admissible assignment satisfies: it earns nothing and is flagged. */
export type InconsistentEquation = { studentIndex: number; student: string; method: string; note?: string };

export type ResponseMarks = {
  items: ItemMark[];
  /** Sum of awarded automatic marks (manual and undecided items count 0 until decided). */
  total: number;
  /** Sum of marks available, manual included. */
  available: number;
  /** Student equations found inconsistent under the question's assumptions. */
  inconsistent: InconsistentEquation[];
  /** 'complete': every automatic item decided; 'manual-open': manual items wait; 'undecided': some item undecided. */
  status: 'complete' | 'manual-open' | 'undecided';
};
