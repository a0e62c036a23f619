// Where each response's row is in the class exports, kept beside them, so that an export after
// a change can tell from the changed responses alone whether the files would be written byte for
// byte as they are (a re-grade after a one-item scheme change: 9,351 of 67,500 responses' marks
// moved in evidence only, and listing and formatting the whole class again to write the same
// 12 MB was 1.6–3 s). A file's bytes are its header, then one row per response in id order, each
// made from that response's stored rows and the exam (marksTable, equationsTable), and for the
// gradebook each student's sum of totals. So the files are unchanged when: the exam is the same
// as far as a row can see it (exportView), no response was added or removed, and every response
// changed since (the workspace's change log, review_changes: triggers name a response whenever a
// row its line rests on changes) gives the row it has in the file and the same total. Anything
// else, or anything unreadable, means the files are written whole. Like the export stamp itself,
// this trusts the change log's numbers to grow: a workspace file put back from a copy older
// than the exports is another workspace only if its id differs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exam } from '../../../shared/exam.ts';
import type { ResponseSummary, Workspace } from '../store/workspace.ts';
import { effectiveTotal } from '../review/state.ts';
import { writeFileAtomic } from './csv/write.ts';

/** The record kept beside the exports (and their stamp's, export-stamp.ts). */
export const ROWS_FILE = '.equimark-export-rows.json';

/** The files whose rows are one per response, in id order. */
export const ROW_FILES = ['marks.csv', 'equations.csv'] as const;
type RowFile = (typeof ROW_FILES)[number];

/** Bump when what this record holds changes meaning. */
const ROWS_LAYOUT = 'export-rows.1';

export type ExportRows = {
  layout: string;
  /** The export stamp the files were written or found unchanged at (export-stamp.ts's exportStamp). */
  stamp: string;
  /** The workspace's id, and the number of its last change when the files were last known to be those of the workspace. */
  workspace: string;
  seq: number;
  /** exportView of the exam they were made under. */
  view: string;
  /** The files exported. */
  names: string[];
  /** Each response's id, in file order, and its total as the gradebook adds it. */
  ids: number[];
  totals: number[];
  /** For each file of ROW_FILES exported: where each response's row starts in its text (in UTF-16 units), then the text's length. */
  at: Partial<Record<RowFile, number[]>>;
};

/**
 * The exam as the exports' rows see it: all of it but the items' accepted forms, which only
 * marking reads (a mark they move is a change of the response's stored rows, and so in the
 * change log). The stored exam is part of it too (the class list reads from it whether the
 * exam declares follow-through).
 */
export function exportView(exam: Exam, stored: Exam | undefined): string {
  const strip = (e: Exam | undefined) =>
    e && { ...e, questions: e.questions.map((q) => ({ ...q, scheme: q.scheme.map((s) => ({ ...s, accept: undefined })) })) };
  return createHash('sha256')
    .update(JSON.stringify([strip(exam), strip(stored)]))
    .digest('hex');
}

/**
 * Where each row of CSV text ends (the index after its '\n'): csv-stringify quotes a cell holding
 * a line break or a quote and doubles the quotes inside, so a '\n' outside quotes ends a row.
 */
export function rowEnds(text: string): number[] {
  const ends: number[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) ends.push(i + 1);
  }
  return ends;
}

/** The record kept in `dir`, if readable and of this layout. */
export function readExportRows(dir: string): ExportRows | undefined {
  try {
    const r = JSON.parse(readFileSync(join(dir, ROWS_FILE), 'utf8')) as ExportRows;
    return r.layout === ROWS_LAYOUT && Array.isArray(r.ids) && Array.isArray(r.totals) && r.ids.length === r.totals.length ? r : undefined;
  } catch {
    return undefined;
  }
}

export function keepExportRows(dir: string, rec: Omit<ExportRows, 'layout'>): void {
  writeFileAtomic(join(dir, ROWS_FILE), `${JSON.stringify({ layout: ROWS_LAYOUT, ...rec })}\n`);
}

/** Collects a record while the files are written whole: each page's rows, in order. */
export class RowsCollector {
  readonly ids: number[] = [];
  readonly totals: number[] = [];
  readonly at: Partial<Record<RowFile, number[]>> = {};
  readonly #length: Partial<Record<RowFile, number>> = {};

  /** The header's text of `name` (the first row starts after it). */
  header(name: RowFile, text: string): void {
    this.at[name] = [];
    this.#length[name] = text.length;
  }

  /** A page of responses. */
  responses(page: readonly ResponseSummary[]): void {
    for (const r of page) {
      this.ids.push(r.id);
      this.totals.push(effectiveTotal(r) ?? 0);
    }
  }

  /** The text of a page's rows of `name`, one row per response of the page. */
  rows(name: RowFile, text: string): void {
    const at = this.at[name]!;
    const from = this.#length[name]!;
    let start = 0;
    for (const end of rowEnds(text)) {
      at.push(from + start);
      start = end;
    }
    this.#length[name] = from + text.length;
  }

  /** Each file's starts, closed by its length. */
  done(): Partial<Record<RowFile, number[]>> {
    for (const name of ROW_FILES) if (this.at[name]) this.at[name]!.push(this.#length[name]!);
    return this.at;
  }
}

/**
 * Whether the files in `dir` (as `rec` describes them: the caller has checked they are those it
 * was made with) are what writing them whole now would write: see the top of this file.
 * `rowsOf(name, page)` gives a page's rows of a file as the full export writes them.
 */
export function exportUnchanged(
  ws: Workspace,
  exam: Exam,
  dir: string,
  rec: ExportRows,
  names: readonly string[],
  view: string,
  rowsOf: (name: RowFile, page: readonly ResponseSummary[]) => string,
): boolean {
  if (rec.workspace !== ws.workspaceId() || rec.view !== view || JSON.stringify(rec.names) !== JSON.stringify(names)) return false;
  const files = ROW_FILES.filter((n) => names.includes(n));
  if (files.some((n) => rec.at[n]?.length !== rec.ids.length + 1)) return false;
  const changes = ws.reviewChangesSince(rec.seq);
  if (changes.last < rec.seq) return false;
  if (changes.responseIds.length === 0) return true;
  const position = new Map(rec.ids.map((id, i) => [id, i]));
  const changed = ws.listResponses(exam.id, { ids: changes.responseIds });
  // A response of this exam removed since (named by the change log, no longer listed), or added.
  const listed = new Set(changed.map((r) => r.id));
  if (changes.responseIds.some((id) => position.has(id) && !listed.has(id))) return false;
  if (changed.some((r) => !position.has(r.id) || (effectiveTotal(r) ?? 0) !== rec.totals[position.get(r.id)!])) return false;
  for (const name of files) {
    const old = readFileSync(join(dir, name), 'utf8');
    const at = rec.at[name]!;
    if (old.length !== at[at.length - 1]) return false;
    const text = rowsOf(name, changed);
    let start = 0;
    const ends = rowEnds(text);
    if (ends.length !== changed.length) return false;
    for (const [k, end] of ends.entries()) {
      const i = position.get(changed[k].id)!;
      if (old.slice(at[i], at[i + 1]) !== text.slice(start, end)) return false;
      start = end;
    }
  }
  return true;
}
