// Navigation between the workflow's views: the types App.tsx provides and every view takes.
// Kept apart from App.tsx so that views never import the component that imports them.
import type { ReviewRow } from '../shared/api.ts';

export type View = 'exams' | 'responses' | 'grade' | 'review' | 'response' | 'groups' | 'summary' | 'regrades' | 'export' | 'settings';

export type Nav = {
  examId: string | null;
  setExam(id: string | null): void;
  go(view: View): void;
  openResponse(id: string, list?: ReviewRow[]): void;
  /** The review list the detail view walks through with the keyboard. */
  queue: ReviewRow[];
  responseId: string | null;
  refreshExams(): void;
};
