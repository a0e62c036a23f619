// CSV output (csv-stringify): marks.csv and equations.csv from the workspace. Files are written
// to a temporary name and renamed, so a reader never sees half a file.
import { renameSync, writeFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import type { Exam } from '../../../shared/exam.ts';
import type { ResponseSummary, Workspace } from '../workspace/index.ts';

/** Scheme item ids over the whole exam: the union, in exam order (first appearance). */
export function itemColumns(exam: Exam): string[] {
  const out: string[] = [];
  for (const q of exam.questions) for (const s of q.scheme) if (!out.includes(s.id)) out.push(s.id);
  return out;
}

/**
 * The row status of marks.csv: 'pending' (not marked yet), 'needs-review' (the reading can't be
 * trusted: needs-review, partial, abstained), 'blank', 'undecided' (an automatic item the engine
 * couldn't decide), 'manual-open' (manual items wait for the instructor), 'complete'.
 */
export function rowStatus(r: ResponseSummary, exam: Exam): string {
  if (!r.extraction || !r.marks) return 'pending';
  const st = r.extraction.status;
  if (st === 'needs-review' || st === 'partial' || st === 'abstained') return 'needs-review';
  if (st === 'blank') return 'blank';
  const q = exam.questions.find((x) => x.id === r.questionId);
  const open = (q?.scheme ?? []).filter((s) => r.effective[s.id] === null || r.effective[s.id] === undefined);
  if (open.some((s) => !s.manual)) return 'undecided';
  if (open.length) return 'manual-open';
  return 'complete';
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000));

export function marksCsv(ws: Workspace, exam: Exam): string {
  const cols = itemColumns(exam);
  const rows: string[][] = [['student_id', 'question_id', ...cols, 'total', 'status']];
  for (const r of ws.listResponses(exam.id)) {
    const q = exam.questions.find((x) => x.id === r.questionId);
    const own = new Set((q?.scheme ?? []).map((s) => s.id));
    const cells = cols.map((c) => {
      const v = own.has(c) ? r.effective[c] : null;
      return v === null || v === undefined ? '' : fmt(v);
    });
    const total = r.marks ? Object.values(r.effective).reduce<number>((s, v) => s + (v ?? 0), 0) : null;
    rows.push([r.studentId, r.questionId, ...cells, total === null ? '' : fmt(total), rowStatus(r, exam)]);
  }
  return stringify(rows, { record_delimiter: '\n' });
}

export function equationsCsv(ws: Workspace, exam: Exam): string {
  const rows: string[][] = [['student_id', 'question_id', 'equations', 'source', 'status', 'flags']];
  for (const r of ws.listResponses(exam.id)) {
    const x = r.extraction;
    const flags = [...(x?.flags ?? [])];
    if (r.marks?.inconsistent.length && !flags.includes('inconsistent')) flags.push('inconsistent');
    rows.push([r.studentId, r.questionId, JSON.stringify(x?.equations ?? []), x?.source ?? '', x?.status ?? 'pending', flags.join(';')]);
  }
  return stringify(rows, { record_delimiter: '\n' });
}

export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
