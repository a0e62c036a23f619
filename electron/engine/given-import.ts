// A re-run given the equations file it imported last (a re-run with nothing to do, a re-grade
// after a scheme change): reading the file's 67,500 lists, parsing them and comparing each with
// the stored one (importGiven) found every list unchanged, 1 to 1.5 s of a 3 s re-run. Whether
// it would is known without reading the file: an import's result rests only on the file's bytes,
// on what parsing them rests on (the exam's questions and their variables, the parser) and on the
// exam's stored responses and readings. Once a file has been imported whole without a problem,
// its stored lists are exactly its own, so importing the same bytes again into the same readings
// under the same questions changes nothing. The workspace keeps the stamp of that import
// (store/given-stamp.ts); grade.ts skips the import when all three still match. Anything else (a
// changed byte, a question or its variables changed, a reading added, corrected or marked as an
// engine error, a response added or removed, a file read with problems) imports as before.
import { createHash } from 'node:crypto';
import type { LoadedExam } from './io/exam.ts';
import type { Workspace } from './store/workspace.ts';

/**
 * Bump whenever the same bytes could come to give other stored lists: the equation grammar, its
 * canonical printing (equationToSympy), io/csv/equations.ts or grade.ts's givenExtraction. A
 * stamp made by another version is never matched, so the file is read again.
 */
export const GIVEN_IMPORT_VERSION = 'given-import.1';

/** The rows of an equations file as the command line reads it, with what says they were read whole. */
export type GivenFile = {
  /** The SHA-256 of the file's bytes. */
  sha256: string;
  /**
   * Once the rows have been read: whether they were all read, without a problem (a bad row, a
   * duplicate, an unknown question: each is reported again by the next run), from bytes whose
   * SHA-256 is `sha256` (the file did not change between the two reads).
   */
  readWhole: () => boolean;
};

/** What parsing a file's lists rests on, besides its bytes: the exam's questions, each with its variables, and the parser's version. */
function questionsOf(exam: LoadedExam): string {
  const questions = [...exam.questions].map(([id, q]) => [id, q.variables]);
  return createHash('sha256')
    .update(JSON.stringify([GIVEN_IMPORT_VERSION, exam.exam.id, questions]))
    .digest('hex');
}

/**
 * The number of rows an import of the file would find unchanged, when importing it again is known
 * to change nothing (the stamp kept by stampGivenImport matches the file, the questions and the
 * exam's readings as they are now); undefined when it must be imported.
 */
export function unchangedGivenImport(ws: Workspace, exam: LoadedExam, sha256: string): number | undefined {
  const s = ws.givenStamp(exam.exam.id);
  if (!s || s.sha256 !== sha256 || s.questions !== questionsOf(exam)) return undefined;
  return s.readings === ws.readingsFingerprint(exam.exam.id) ? s.rows : undefined;
}

/**
 * Keep the stamp of a file just imported whole (`rows` rows imported, its read whole: see
 * GivenFile.readWhole), with the exam's readings as the import left them; a file not read whole
 * drops the stamp kept before.
 */
export function stampGivenImport(ws: Workspace, exam: LoadedExam, file: GivenFile, rows: number): void {
  const id = exam.exam.id;
  ws.putGivenStamp(id, file.readWhole() ? { sha256: file.sha256, questions: questionsOf(exam), readings: ws.readingsFingerprint(id), rows } : undefined);
}
