// CSV output (csv-stringify): marks.csv and equations.csv from the workspace. Files are written
// to a temporary name and renamed, so a reader never sees half a file. Every cell that a
// spreadsheet would take for a formula (it starts with = + - @, a tab or a CR: a student id like
// `=HYPERLINK(...)` is the realistic vector) is prefixed with a single quote, as OWASP's "CSV
// injection" guidance recommends; csv-stringify then quotes it as needed.
import { renameSync, writeFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import type { Exam } from '../../../../shared/exam.ts';
import type { ResponseSummary, Workspace } from '../../store/workspace.ts';
import { combinedState, effectiveTotal, reviewOfResponse } from '../../review/state.ts';

/** Scheme item ids over the whole exam: the union, in exam order (first appearance). */
export function itemColumns(exam: Exam): string[] {
  const out: string[] = [];
  for (const q of exam.questions) for (const s of q.scheme) if (!out.includes(s.id)) out.push(s.id);
  return out;
}

/** A cell a spreadsheet would run as a formula gets a leading single quote (OWASP CSV injection). */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** CSV text of rows, every cell neutralised against formula injection, LF line endings. */
export function safeCsv(rows: readonly (readonly string[])[]): string {
  return stringify(
    rows.map((r) => r.map(neutraliseFormula)),
    { record_delimiter: '\n' },
  );
}

/** Whether some scheme item declares follow-through: only then do the marks files have a `follow_through` column. */
export const hasFollowThrough = (exam: Exam): boolean => exam.questions.some((q) => q.scheme.some((s) => (s.follow_through ?? []).length > 0));

/**
 * The items of a response whose mark stands by follow-through (error carried forward): earned so
 * by the engine and not overridden by the instructor. A moderator sees them in the marks files.
 */
export function followThroughItems(r: Pick<ResponseSummary, 'followThrough' | 'overriddenItems'>): string[] {
  return (r.followThrough ?? []).filter((i) => !(r.overriddenItems ?? []).includes(i));
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000));

/**
 * The `dimensions` cell: each dimensionally inconsistent equation with both sides' dimensions
 * (`2: Eq(R, ...): left: Ω, right: 1/Ω`), ` | `-separated; empty when there is none or the exam
 * declares no units. Evidence beside the marks: it changes no mark by itself.
 */
export function dimensionsCell(marks: { dimensions?: readonly { studentIndex: number; student: string; note: string }[] } | null | undefined): string {
  return (marks?.dimensions ?? []).map((d) => `${d.studentIndex + 1}: ${d.student}: ${d.note}`).join(' | ');
}

/** The header and the cells of one response's row of marks.csv (the whole file here, or streamed a page at a time: class-exports.ts). */
export function marksTable(exam: Exam): { header: string[]; row: (r: ResponseSummary) => string[] } {
  const cols = itemColumns(exam);
  const ft = hasFollowThrough(exam);
  const questions = new Map(exam.questions.map((q) => [q.id, { q, own: new Set(q.scheme.map((s) => s.id)) }]));
  return {
    header: ['student_id', 'question_id', ...cols, 'total', 'status', 'dimensions', ...(ft ? ['follow_through'] : [])],
    row: (r) => {
      const own = questions.get(r.questionId)?.own ?? new Set<string>();
      const cells = cols.map((c) => {
        const v = own.has(c) ? r.effective[c] : null;
        return v === null || v === undefined ? '' : fmt(v);
      });
      const total = effectiveTotal(r);
      const extra = ft ? [followThroughItems(r).join(';')] : [];
      return [r.studentId, r.questionId, ...cells, total === null ? '' : fmt(total), reviewOfResponse(r, exam).state, dimensionsCell(r.marks), ...extra];
    },
  };
}

/** marks.csv; `list` is the class list when the caller has read it already (one read for both files). */
export function marksCsv(ws: Workspace, exam: Exam, list: readonly ResponseSummary[] = ws.listResponses(exam.id)): string {
  const t = marksTable(exam);
  return safeCsv([t.header, ...list.map(t.row)]);
}

/** One row per student: each question's items, each question's total, and the overall total. */
export function studentMarksCsv(ws: Workspace, exam: Exam): string {
  const cols = exam.questions.flatMap((q) => [...q.scheme.map((s) => `${q.id}.${s.id}`), `${q.id}.total`]);
  const by = new Map<string, Map<string, ResponseSummary>>();
  for (const r of ws.listResponses(exam.id)) {
    if (!by.has(r.studentId)) by.set(r.studentId, new Map());
    by.get(r.studentId)!.set(r.questionId, r);
  }
  const cell = (n: number | null | undefined): string => (n === null || n === undefined ? '' : fmt(n));
  const ft = hasFollowThrough(exam);
  const rows: string[][] = [['student_id', ...cols, 'total', 'status', ...(ft ? ['follow_through'] : [])]];
  for (const [sid, qs] of [...by.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const cells: string[] = [];
    let total = 0;
    const states: Parameters<typeof combinedState>[0] = [];
    for (const q of exam.questions) {
      const r = qs.get(q.id);
      for (const s of q.scheme) cells.push(cell(r?.marks ? r.effective[s.id] : null));
      const t = r ? effectiveTotal(r) : null;
      cells.push(cell(t));
      total += t ?? 0;
      states.push(r ? reviewOfResponse(r, exam).state : 'missing');
    }
    const carried = exam.questions.flatMap((q) => (qs.get(q.id) ? followThroughItems(qs.get(q.id)!).map((i) => `${q.id}.${i}`) : []));
    rows.push([sid, ...cells, cell(total), combinedState(states), ...(ft ? [carried.join(';')] : [])]);
  }
  return safeCsv(rows);
}

/**
 * One row per answer (student, question) for the app's export: item columns named by question
 * (`q1.a`; a question's row leaves the others' empty), total, available, the review state and
 * its reasons (review/state.ts, the one rule), the items the instructor overrode, every comment
 * (corrections, overrides with their reasons), the regrade requests still open and, when the
 * exam declares follow-through, the items whose mark stands by it.
 */
export function answersCsv(ws: Workspace, exam: Exam): string {
  const cols = exam.questions.flatMap((q) => q.scheme.map((s) => ({ q: q.id, item: s.id })));
  const ft = hasFollowThrough(exam);
  const rows: string[][] = [
    [
      'student_id',
      'question_id',
      ...cols.map((c) => `${c.q}.${c.item}`),
      'total',
      'available',
      'status',
      'review_reasons',
      'overridden',
      'comments',
      'open_regrade_requests',
      'dimensions',
      ...(ft ? ['follow_through'] : []),
    ],
  ];
  for (const r of ws.listResponses(exam.id)) {
    const d = ws.getResponseDetail(r.id)!;
    const review = reviewOfResponse(r, exam);
    const cells = cols.map((c) => {
      const v = c.q === r.questionId && r.marks ? r.effective[c.item] : null;
      return v === null || v === undefined ? '' : fmt(v);
    });
    const total = effectiveTotal(r);
    const available = (exam.questions.find((q) => q.id === r.questionId)?.scheme ?? []).reduce((s, i) => s + i.marks, 0);
    const comments = [...d.overridesList.map((o) => `${r.questionId}.${o.itemId}: ${o.comment}`), ...d.comments.map((c) => c.body)];
    rows.push([
      r.studentId,
      r.questionId,
      ...cells,
      total === null ? '' : fmt(total),
      fmt(available),
      review.state,
      review.reasons.join('; '),
      d.overridesList.map((o) => `${r.questionId}.${o.itemId}`).join(';'),
      comments.join(' | '),
      String(r.openRegrades ?? 0),
      dimensionsCell(r.marks),
      ...(ft
        ? [
            followThroughItems(r)
              .map((i) => `${r.questionId}.${i}`)
              .join(';'),
          ]
        : []),
    ]);
  }
  return safeCsv(rows);
}

/**
 * A gradebook CSV that Canvas and Moodle import as it is: one row per student, the columns of
 * Canvas's gradebook export (`Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`) and one
 * column for the exam, headed by its title, holding the student's total. Canvas matches a row by
 * `SIS User ID` (the student id here; `ID`, Canvas's own number, is left empty) and makes a new
 * assignment of a column it doesn't know; Moodle's CSV import maps `SIS User ID` to the user's ID
 * number. Parentheses are kept out of the heading (Canvas reads "Name (123)" as assignment 123).
 */
export function gradebookCsv(ws: Workspace, exam: Exam, list: readonly ResponseSummary[] = ws.listResponses(exam.id)): string {
  const by = new Map<string, number>();
  for (const r of list) addToGradebook(by, r);
  return safeCsv(gradebookRows(exam, by));
}

/** A response's total added to its student's (the gradebook's sums, kept while the class is read). */
export function addToGradebook(totals: Map<string, number>, r: ResponseSummary): void {
  totals.set(r.studentId, (totals.get(r.studentId) ?? 0) + (effectiveTotal(r) ?? 0));
}

/** The gradebook's rows (header first) from each student's total. */
export function gradebookRows(exam: Exam, totals: ReadonlyMap<string, number>): string[][] {
  const heading = (exam.title || exam.id).replace(/[()]/g, ' ').replace(/\s+/g, ' ').trim();
  const rows: string[][] = [['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', heading]];
  for (const [sid, total] of [...totals.entries()].sort(([a], [b]) => a.localeCompare(b))) rows.push([sid, '', sid, '', '', fmt(total)]);
  return rows;
}

/** Every regrade request and its reply, oldest first. */
export function regradesCsv(ws: Workspace, exam: Exam): string {
  const rows: string[][] = [['student_id', 'question_id', 'requested_on', 'request', 'state', 'reply', 'resolved_at', 'marks_changed']];
  const list = [...ws.regradeRequests({ examId: exam.id })].sort((a, b) => a.requestedOn.localeCompare(b.requestedOn) || a.id - b.id);
  for (const q of list)
    rows.push([
      q.studentId,
      q.questionId,
      q.requestedOn,
      q.body,
      q.reply === null ? 'open' : 'resolved',
      q.reply ?? '',
      q.resolvedAt ?? '',
      q.changes.map((c) => `${q.questionId}.${c.itemId}: ${c.from ?? 'open'} -> ${c.to}`).join('; '),
    ]);
  return safeCsv(rows);
}

/** The header and the cells of one response's row of equations.csv (see marksTable). */
export function equationsTable(): { header: string[]; row: (r: ResponseSummary) => string[] } {
  return {
    header: ['student_id', 'question_id', 'equations', 'source', 'status', 'flags'],
    row: (r) => {
      const x = r.extraction;
      const flags = [...(x?.flags ?? [])];
      if (r.marks?.inconsistent.length && !flags.includes('inconsistent')) flags.push('inconsistent');
      if (r.marks?.dimensions?.length && !flags.includes('dimensions')) flags.push('dimensions');
      return [r.studentId, r.questionId, JSON.stringify(x?.equations ?? []), x?.source ?? '', x?.status ?? 'pending', flags.join(';')];
    },
  };
}

export function equationsCsv(ws: Workspace, exam: Exam, list: readonly ResponseSummary[] = ws.listResponses(exam.id)): string {
  const t = equationsTable();
  return safeCsv([t.header, ...list.map(t.row)]);
}

export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
