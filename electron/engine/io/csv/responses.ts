// Responses CSV (`student_id,question_id,response`): read whole or not at all. A malformed file,
// a duplicate (student, question) pair or an unknown question id rejects the file, naming every
// problem by line, so nothing is stored from a file the instructor must fix first.
import { readCsv, CsvFileError, unneutraliseId } from './read.ts';

export type ResponseRow = { line: number; studentId: string; questionId: string; text: string };

/** A problem with one record: where it starts, what is wrong, and whose row it is (as far as it says). */
export type CsvProblem = { line: number; message: string; studentId?: string; questionId?: string };

export class ResponsesCsvError extends Error {
  constructor(
    readonly problems: CsvProblem[],
    readonly file?: string,
  ) {
    super(`${file ?? 'responses CSV'}: rejected, nothing imported:\n${problems.map((p) => `  line ${p.line}: ${p.message}`).join('\n')}`);
    this.name = 'ResponsesCsvError';
  }
}

export const RESPONSE_COLUMNS = ['student_id', 'question_id', 'response'] as const;

/**
 * Parse and check a responses CSV against the exam's question ids. Throws CsvFileError (malformed
 * CSV) or ResponsesCsvError (duplicates, unknown questions, empty ids), each naming lines.
 */
export function parseResponsesCsv(input: string | Buffer, questionIds: readonly string[], file?: string): ResponseRow[] {
  const table = readCsv(input, RESPONSE_COLUMNS, file);
  const known = new Set(questionIds);
  const seen = new Map<string, number>();
  const problems: CsvProblem[] = [];
  const rows: ResponseRow[] = [];
  for (const { line, values } of table.rows) {
    const studentId = unneutraliseId(values.student_id.trim());
    const questionId = unneutraliseId(values.question_id.trim());
    const who = { ...(studentId ? { studentId } : {}), ...(questionId ? { questionId } : {}) };
    if (!studentId) problems.push({ line, message: "empty student_id: give the row its student's id", ...who });
    if (!questionId) problems.push({ line, message: 'empty question_id: give the row its question id', ...who });
    else if (!known.has(questionId))
      problems.push({
        line,
        message: `unknown question id '${questionId}' (the exam has ${questionIds.join(', ')}): correct the id, or add the question to the exam`,
        ...who,
      });
    const key = `${studentId}\u0000${questionId}`;
    const first = seen.get(key);
    if (first !== undefined)
      problems.push({
        line,
        message: `duplicate response for student '${studentId}', question '${questionId}' (first on line ${first}): keep one of the two rows`,
        ...who,
      });
    else seen.set(key, line);
    rows.push({ line, studentId, questionId, text: values.response });
  }
  if (problems.length) throw new ResponsesCsvError(problems, file);
  return rows;
}

export { CsvFileError };
