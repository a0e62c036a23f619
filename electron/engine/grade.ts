// Grade orchestration: import the exam and the responses (or given equation lists), extract
// every response not yet extracted, mark every extraction not yet marked. Each step is its own
// transaction in the workspace, and the to-do lists are read back from it, so a run killed at
// any moment (even SIGKILL) and started again finishes with exactly the marks of an
// uninterrupted run without redoing finished work.
import { parseEquation, type Equation } from '../../shared/equation/index.ts';
import type { Extraction } from '../../shared/extraction.ts';
import type { EntailmentEngine } from './entail/types.ts';
import type { LoadedExam } from './exam-io.ts';
import type { Extractor } from './extract/types.ts';
import { plainExtractor } from './extract/plain.ts';
import { markEquations } from './marking.ts';
import type { ResponseRow } from './csv/responses.ts';
import type { EquationsRow } from './csv/equations.ts';
import type { Workspace } from './workspace/index.ts';

/** How responses are read. Only 'plain' exists today; 'embedded' and model techniques plug in here. */
export type Technique = { name: string; extractor: Extractor };

export const TECHNIQUES: Record<string, () => Promise<Technique>> = {
  plain: async () => ({ name: 'plain', extractor: plainExtractor }),
};

export async function resolveTechnique(name = 'plain'): Promise<Technique> {
  const make = TECHNIQUES[name];
  if (!make) throw new Error(`unknown technique '${name}' (available: ${Object.keys(TECHNIQUES).join(', ')})`);
  return make();
}

export type GradeInput =
  /** Typed responses to extract and mark. */
  | { kind: 'responses'; rows: readonly ResponseRow[] }
  /** Given equation lists (source 'given'): marked as they are. */
  | { kind: 'given'; rows: readonly EquationsRow[] }
  /** Nothing new: finish what the workspace holds. */
  | { kind: 'none' };

export type GradeProgress = {
  phase: 'import' | 'extract' | 'mark';
  /** Done in this phase so far (this run), and the phase's size (this run). */
  done: number;
  total: number;
  studentId?: string;
  questionId?: string;
};

export type GradeOptions = {
  workspace: Workspace;
  exam: LoadedExam;
  engine: EntailmentEngine;
  input: GradeInput;
  technique?: Technique;
  onProgress?: (p: GradeProgress) => void;
  /** Stop between steps (the work done so far stays; a later run finishes it). */
  signal?: AbortSignal;
};

export type GradeSummary = {
  examId: string;
  responses: number;
  imported: { inserted: number; updated: number; unchanged: number };
  /** Work done by this run (finished work from earlier runs is not redone). */
  extractedNow: number;
  markedNow: number;
  /** Extraction status -> count, over the whole exam. */
  byExtraction: Record<string, number>;
  /** Responses with at least one inconsistent equation. */
  inconsistent: number;
  /** Sum of automatic marks awarded, and of marks available, over all responses. */
  awarded: number;
  available: number;
  /** Undecided items (the engine could not decide). */
  undecidedItems: number;
};

/** Extraction for a given list (source 'given'); a bad row becomes an empty list needing review. */
export function givenExtraction(row: EquationsRow): Extraction {
  if (row.error) return { equations: [], status: 'needs-review', source: 'given', flags: ['parse-error'], unread: [], notes: [row.error] };
  return { equations: row.sources.map((source) => ({ source })), status: 'read', source: 'given', flags: [], unread: [], notes: [] };
}

export async function grade(opts: GradeOptions): Promise<GradeSummary> {
  const { workspace: ws, exam, engine, input, onProgress, signal } = opts;
  const technique = opts.technique ?? (await resolveTechnique('plain'));
  const examId = exam.exam.id;

  onProgress?.({ phase: 'import', done: 0, total: 1 });
  ws.importExam(exam.exam);
  let imported = { inserted: 0, updated: 0, unchanged: 0 };
  if (input.kind === 'responses') imported = ws.importResponses(examId, input.rows);
  else if (input.kind === 'given') {
    const known = input.rows.filter((r) => exam.questions.has(r.questionId));
    imported = ws.importGiven(examId, known.map((r) => ({ studentId: r.studentId, questionId: r.questionId, extraction: givenExtraction(r) })));
  }
  onProgress?.({ phase: 'import', done: 1, total: 1 });

  // Extract.
  const toExtract = ws.pending(examId, 'extract');
  let extractedNow = 0;
  for (const r of toExtract) {
    if (signal?.aborted) break;
    const cq = exam.questions.get(r.questionId);
    if (!cq) throw new Error(`response ${r.studentId}/${r.questionId}: question not in the exam`);
    const x = r.text === null ? { equations: [], status: 'needs-review' as const, source: 'manual' as const, flags: [], unread: [], notes: ['no text and no equations'] } : await technique.extractor.extract(r.text, cq.question);
    ws.saveExtraction(r.id, x, technique.extractor.name);
    extractedNow++;
    onProgress?.({ phase: 'extract', done: extractedNow, total: toExtract.length, studentId: r.studentId, questionId: r.questionId });
  }

  // Mark.
  const toMark = ws.pending(examId, 'mark');
  let markedNow = 0;
  for (const r of toMark) {
    if (signal?.aborted) break;
    const cq = exam.questions.get(r.questionId);
    const x = ws.getExtraction(r.id);
    if (!cq || !x) continue;
    const equations: Equation[] = [];
    for (const e of x.equations) {
      const p = parseEquation(e.source, { variables: cq.variables });
      if (p.ok) equations.push(p.value); // stored sources were parsed on the way in; a failure means the exam's variables changed
    }
    const marks = await markEquations(engine, cq, equations);
    ws.saveMarks(r.id, x.id, marks);
    markedNow++;
    onProgress?.({ phase: 'mark', done: markedNow, total: toMark.length, studentId: r.studentId, questionId: r.questionId });
  }

  // Summary over the whole exam.
  const all = ws.listResponses(examId);
  const byExtraction: Record<string, number> = {};
  let inconsistent = 0;
  let awarded = 0;
  let available = 0;
  let undecidedItems = 0;
  for (const r of all) {
    const k = r.extraction?.status ?? 'pending';
    byExtraction[k] = (byExtraction[k] ?? 0) + 1;
    if (r.marks?.inconsistent.length) inconsistent++;
    if (r.marks) {
      awarded += r.marks.total;
      available += r.marks.available;
    }
  }
  undecidedItems = Number((ws.db.prepare("SELECT count(*) AS n FROM marks m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ? AND m.outcome = 'undecided'").get(examId) as { n: number }).n);
  return { examId, responses: all.length, imported, extractedNow, markedNow, byExtraction, inconsistent, awarded, available, undecidedItems };
}
