// The stamp of the last equations file imported whole into an exam (grade.ts, given-import.ts):
// kept in the workspace's `meta` table beside what the import left, so a re-run given the same
// file can tell, without reading it, that importing it again would change nothing.
import { metaValue, putMetaValue } from './meta.ts';
import type { Row, Statements } from './statements.ts';

/** What an import of a whole equations file left (given-import.ts decides what each part must be). */
export type GivenStamp = {
  /** The SHA-256 of the file's bytes. */
  sha256: string;
  /** What the import's parse rested on (the exam's questions and their variables, the parser's version). */
  questions: string;
  /** The exam's readings as the import left them (readingsFingerprint). */
  readings: string;
  /** The rows imported (each is `unchanged` in an import of the same file that changes nothing). */
  rows: number;
};

const keyOf = (examId: string): string => `given-import:${examId}`;

/**
 * The exam's responses and readings as a short string that changes whenever any of them is
 * inserted or deleted: their counts and the sums of their ids. Both tables' ids are AUTOINCREMENT
 * (never reused, each larger than every id before it), and a reading is never changed in place
 * (extractions.ts writeExtraction deletes and inserts), so a set of ids with the same count and
 * sum as before is the same set: rows added since would make the sum larger than the rows they
 * replaced. One indexed pass over the exam's responses (67,500: a few ms).
 */
export function readingsFingerprint(st: Statements, examId: string): string {
  const r = st
    .sql(
      'SELECT count(*) AS n, coalesce(sum(r.id), 0) AS rs, count(x.id) AS xn, coalesce(sum(x.id), 0) AS xs FROM responses r LEFT JOIN extractions x ON x.response_id = r.id WHERE r.exam_id = ?',
    )
    .get(examId) as Row;
  return `${Number(r.n)}:${String(r.rs)}:${Number(r.xn)}:${String(r.xs)}`;
}

/** The stamp kept for the exam, if any (anything unreadable: none). */
export function givenStamp(st: Statements, examId: string): GivenStamp | undefined {
  const value = metaValue(st, keyOf(examId));
  if (value === undefined) return undefined;
  try {
    const s = JSON.parse(value) as Partial<GivenStamp>;
    return typeof s.sha256 === 'string' && typeof s.questions === 'string' && typeof s.readings === 'string' && Number.isInteger(s.rows)
      ? { sha256: s.sha256, questions: s.questions, readings: s.readings, rows: s.rows! }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Keep `stamp` for the exam (replacing any), or drop it (undefined). */
export function putGivenStamp(st: Statements, examId: string, stamp: GivenStamp | undefined): void {
  putMetaValue(st, keyOf(examId), stamp ? JSON.stringify(stamp) : undefined);
}
