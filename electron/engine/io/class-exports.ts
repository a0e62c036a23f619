// The class's files as `equimark grade` leaves them in its output folder (marks.csv,
// equations.csv, gradebook.csv), written from the workspace a page of responses at a time, each
// page's rows appended as it is read: the export holds one page of the class list, never all of
// it (67,500 responses' summaries were about 110 MB of heap, and their CSV text as much again).
// The gradebook keeps one total per student until the end, its rows sorted by student. Nothing is
// written when the files are already those of the workspace as it is now (export-stamp.ts).
import type { Exam } from '../../../shared/exam.ts';
import type { ResponseSummary, Workspace } from '../store/workspace.ts';
import { addToGradebook, equationsTable, gradebookRows, marksTable, safeCsv } from './csv/write.ts';
import { exportStamp, exportsUpToDate, restampExports, streamExports } from './export-stamp.ts';
import { exportUnchanged, exportView, keepExportRows, readExportRows, RowsCollector } from './export-rows.ts';

export const CLASS_EXPORTS = ['marks.csv', 'equations.csv', 'gradebook.csv'] as const;
export type ClassExport = (typeof CLASS_EXPORTS)[number];

/** Responses read per page: a few MB of summaries, and few enough queries (34 for 67,500). */
const PAGE = 2000;

/**
 * Write `names` (default: all three) into `dir` from the exam's responses in `ws`, unless they are
 * already up to date, or the responses changed since would give the rows they have in them
 * (export-rows.ts: the files are then left as they are and stamped anew); returns whether they
 * were written. The bytes are those of marksCsv, equationsCsv and gradebookCsv over the whole
 * class list (csv-stringify quotes cell by cell, so pages stringified one after another are the
 * file stringified at once).
 */
export function writeClassExports(
  ws: Workspace,
  exam: Exam,
  dir: string,
  names: readonly ClassExport[] = CLASS_EXPORTS,
  opts: { pageSize?: number } = {},
): { written: boolean } {
  const size = Math.max(1, opts.pageSize ?? PAGE);
  // The change log's number first: a change made while the files are read is looked at again next time.
  const seq = ws.lastReviewChange();
  const stamp = exportStamp(ws, exam);
  if (exportsUpToDate(dir, stamp, names)) return { written: false };
  const want = new Set<ClassExport>(names);
  const marks = marksTable(exam);
  const equations = equationsTable();
  const rowsOf = (name: 'marks.csv' | 'equations.csv', page: readonly ResponseSummary[]): string =>
    safeCsv(name === 'marks.csv' ? page.map(marks.row) : page.map(equations.row));
  const view = exportView(exam, ws.getExam(exam.id));
  const workspace = ws.workspaceId();
  const kept = readExportRows(dir);
  if (kept && exportsUpToDate(dir, kept.stamp, names) && exportUnchanged(ws, exam, dir, kept, names, view, rowsOf)) {
    // The record of the rows first: a run stopped before the stamp is restamped finds them apart and writes the files.
    keepExportRows(dir, { ...kept, stamp, seq, view });
    restampExports(dir, stamp);
    return { written: false };
  }
  const totals = new Map<string, number>();
  const rows = new RowsCollector();
  streamExports(dir, stamp, names, (write) => {
    const header = (name: 'marks.csv' | 'equations.csv', text: string): void => {
      rows.header(name, text);
      write(name, text);
    };
    if (want.has('marks.csv')) header('marks.csv', safeCsv([marks.header]));
    if (want.has('equations.csv')) header('equations.csv', safeCsv([equations.header]));
    for (let page = ws.listResponses(exam.id, { limit: size }); page.length; page = ws.listResponses(exam.id, { afterId: page.at(-1)!.id, limit: size })) {
      rows.responses(page);
      for (const name of ['marks.csv', 'equations.csv'] as const) {
        if (!want.has(name)) continue;
        const text = rowsOf(name, page);
        rows.rows(name, text);
        write(name, text);
      }
      if (want.has('gradebook.csv')) for (const r of page) addToGradebook(totals, r);
    }
    if (want.has('gradebook.csv')) write('gradebook.csv', safeCsv(gradebookRows(exam, totals)));
  });
  keepExportRows(dir, { stamp, workspace, seq, view, names: [...names], ids: rows.ids, totals: rows.totals, at: rows.done() });
  return { written: true };
}
