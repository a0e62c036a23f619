// A labelled set for evaluation: an exam, typed responses and gold equation lists (the development
// set in ../shared/data, test/fixtures/heldout, test/fixtures/blind), read with the same io/
// loaders as grading (exam.v1 validation, RFC 4180 CSV, gold lists parsed with each question's
// variables). gold.csv's extra columns: `ambiguous` ("true" when two markers could read the
// response differently) and `tags` (semicolon-separated).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadExamFile, type LoadedExam } from '../io/exam.ts';
import { parseResponsesCsv, type CsvProblem, type ResponseRow } from '../io/csv/responses.ts';
import { parseEquationsCsv, type EquationsRow } from '../io/csv/equations.ts';

export type EvalSet = {
  exam: LoadedExam;
  responses: ResponseRow[];
  gold: EquationsRow[];
  /** Gold rows skipped or graded as nothing (bad JSON, unknown question, duplicate). */
  goldProblems: CsvProblem[];
};

/** Parse a set from its texts (file names only for messages). Throws ExamError / CsvFileError / ResponsesCsvError. */
export function parseEvalSet(
  exam: LoadedExam,
  responsesCsv: string | Buffer,
  goldCsv: string | Buffer,
  files: { responses?: string; gold?: string } = {},
): EvalSet {
  const responses = parseResponsesCsv(
    responsesCsv,
    exam.exam.questions.map((q) => q.id),
    files.responses,
  );
  const { rows: gold, problems: goldProblems } = parseEquationsCsv(goldCsv, (q) => exam.questions.get(q)?.variables, files.gold);
  return { exam, responses, gold, goldProblems };
}

/** Read a set from its three files. */
export function loadEvalSet(paths: { exam: string; responses: string; gold: string }): EvalSet {
  return parseEvalSet(loadExamFile(paths.exam), readFileSync(paths.responses), readFileSync(paths.gold), { responses: paths.responses, gold: paths.gold });
}

/** The set in `dir` (exam.json, responses.csv, gold.csv), or null when it has no gold.csv. */
export function loadEvalDir(dir: string): EvalSet | null {
  if (!existsSync(join(dir, 'gold.csv'))) return null;
  return loadEvalSet({ exam: join(dir, 'exam.json'), responses: join(dir, 'responses.csv'), gold: join(dir, 'gold.csv') });
}

/** A gold row's tags. */
export const goldTags = (g: Pick<EquationsRow, 'extra'>): string[] =>
  (g.extra.tags ?? '')
    .split(';')
    .map((t) => t.trim())
    .filter(Boolean);

/** Whether gold marks the row ambiguous. */
export const goldAmbiguous = (g: Pick<EquationsRow, 'extra'>): boolean => g.extra.ambiguous === 'true';

/** Gold rows that must get no equation: blank, words-only, and attachment-only (no gold equations). */
export const mustBeEmpty = (g: { tags: readonly string[]; equations: readonly unknown[] }): boolean =>
  g.tags.includes('blank') || g.tags.includes('words-only') || (g.tags.includes('attachment') && g.equations.length === 0);
