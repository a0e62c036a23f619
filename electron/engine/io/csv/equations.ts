// Equations CSV (`student_id,question_id,equations`, equations a JSON array of SymPy strings;
// extra columns such as gold.csv's `ambiguous,tags` are ignored). Row-tolerant: a bad row (bad
// JSON, an equation outside the grammar or with a symbol that isn't a variable, an unknown
// question) is reported and graded as nothing; the rest of the batch goes on. The file itself
// must still be well-formed CSV (else CsvFileError).
import { readCsv, unneutraliseId, type CsvRow } from './read.ts';
import { readCsvPieces, type ByteSource } from './csv-pieces.ts';
import { parseEquation, formatErrors, equationToSympy, type Equation } from '../../../../shared/equation/index.ts';
import type { CsvProblem } from './responses.ts';

export type EquationsRow = {
  line: number;
  studentId: string;
  questionId: string;
  /** Parsed equations (empty when the row is bad). */
  equations: Equation[];
  /** Canonical SymPy source of each equation. */
  sources: string[];
  /** Why the row is graded as nothing, if it is. */
  error?: string;
  /** The other columns of the row (tags, ambiguous...), for eval. */
  extra: Record<string, string>;
};

export const EQUATIONS_COLUMNS = ['student_id', 'question_id', 'equations'] as const;

/**
 * One file's lists repeat their equations (a class writes the same lines): each (variables,
 * source) is parsed, and printed canonically, once per process. The trees are never changed after
 * parsing, so sharing them is safe; the memo is bounded. Keyed by the variables array itself (a
 * question's, the same array for all its rows), then by source.
 */
type Parsed = { r: ReturnType<typeof parseEquation>; sympy?: string };
const memo = new Map<readonly string[] | undefined, Map<string, Parsed>>();
let memoSize = 0;
function parseMemo(src: string, variables: readonly string[] | undefined): Parsed {
  let bySrc = memo.get(variables);
  if (!bySrc) memo.set(variables, (bySrc = new Map()));
  let p = bySrc.get(src);
  if (!p) {
    if (memoSize >= 100_000) {
      memo.clear();
      memoSize = 0;
      memo.set(variables, (bySrc = new Map()));
    }
    p = { r: parseEquation(src, variables ? { variables } : {}) };
    bySrc.set(src, p);
    memoSize++;
  }
  return p;
}

/** The canonical SymPy source of a memoised parse (printed once). */
const sympyOf = (p: Parsed & { r: { ok: true; value: Equation } }): string => (p.sympy ??= equationToSympy(p.r.value));

/** Parse a list, keeping each equation's canonical source beside it. */
function parseListWithSources(json: string, variables: readonly string[] | undefined): { equations: Equation[]; sources: string[]; error?: string } {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    return { equations: [], sources: [], error: `equations is not valid JSON: ${(e as Error).message}` };
  }
  if (!Array.isArray(data) || data.some((x) => typeof x !== 'string'))
    return { equations: [], sources: [], error: 'equations must be a JSON array of strings' };
  const equations: Equation[] = [];
  const sources: string[] = [];
  const errors: string[] = [];
  (data as string[]).forEach((src, i) => {
    const p = parseMemo(src, variables);
    if (p.r.ok) {
      equations.push(p.r.value);
      sources.push(sympyOf(p as Parsed & { r: { ok: true; value: Equation } }));
    } else errors.push(`equations[${i}] ${JSON.stringify(src)}: ${formatErrors(p.r.errors)}`);
  });
  return errors.length ? { equations: [], sources: [], error: errors.join('; ') } : { equations, sources };
}

/** Parse an equations list: a JSON array of strings, each in the grammar with the question's variables. */
export function parseEquationList(json: string, variables: readonly string[] | undefined): { equations: Equation[]; error?: string } {
  const { equations, error } = parseListWithSources(json, variables);
  return error ? { equations, error } : { equations };
}

/**
 * The rows of an equations CSV from its records, one record at a time, in file order: a
 * duplicate is found against every row before it (the file's (student, question) keys are the
 * one thing kept per row).
 */
function equationsRows(
  variablesOf: (questionId: string) => readonly string[] | undefined,
): (records: readonly CsvRow[]) => { rows: EquationsRow[]; problems: CsvProblem[] } {
  const seen = new Map<string, number>();
  return (records) => {
    const rows: EquationsRow[] = [];
    const problems: CsvProblem[] = [];
    for (const { line, values } of records) {
      const studentId = unneutraliseId(values.student_id.trim());
      const questionId = unneutraliseId(values.question_id.trim());
      const extra: Record<string, string> = {};
      for (const [k, v] of Object.entries(values)) if (!(EQUATIONS_COLUMNS as readonly string[]).includes(k)) extra[k] = v;
      const key = `${studentId}\u0000${questionId}`;
      if (!studentId || !questionId) {
        problems.push({ line, message: `empty ${!studentId ? 'student_id' : 'question_id'}: row skipped` });
        continue;
      }
      if (seen.has(key)) {
        problems.push({ line, message: `duplicate row for student '${studentId}', question '${questionId}' (first on line ${seen.get(key)}): row skipped` });
        continue;
      }
      seen.set(key, line);
      const variables = variablesOf(questionId);
      let row: EquationsRow;
      if (!variables) {
        row = { line, studentId, questionId, equations: [], sources: [], error: `unknown question id '${questionId}'`, extra };
      } else {
        const { equations, sources, error } = parseListWithSources(values.equations, variables);
        row = { line, studentId, questionId, equations, sources, error, extra };
      }
      if (row.error) problems.push({ line, message: `${row.error}: graded as nothing` });
      rows.push(row);
    }
    return { rows, problems };
  };
}

/**
 * Read an equations CSV. `variablesOf(questionId)` gives the question's variable names, or
 * undefined for an unknown question. Returns every row (bad ones with `error`) and the problems.
 */
export function parseEquationsCsv(
  input: string | Buffer,
  variablesOf: (questionId: string) => readonly string[] | undefined,
  file?: string,
): { rows: EquationsRow[]; problems: CsvProblem[] } {
  return equationsRows(variablesOf)(readCsv(input, EQUATIONS_COLUMNS, file).rows);
}

/**
 * Read an equations CSV a piece at a time (csv-pieces.ts): the rows and problems of each piece,
 * as parseEquationsCsv gives them for the whole file, so a class's file is never held whole. A
 * malformed file throws CsvFileError at the piece where it goes wrong, after the pieces before it.
 */
export async function* readEquationsCsvPieces(
  source: ByteSource,
  variablesOf: (questionId: string) => readonly string[] | undefined,
  file?: string,
  pieceChars?: number,
): AsyncGenerator<{ rows: EquationsRow[]; problems: CsvProblem[] }> {
  const next = equationsRows(variablesOf);
  for await (const table of readCsvPieces(source, EQUATIONS_COLUMNS, file, pieceChars)) yield next(table.rows);
}

/**
 * Read an equations CSV through once as CSV (records only, nothing kept), so a file malformed
 * anywhere throws CsvFileError before any of its lists is stored: an import that would fail at a
 * late line must not first replace earlier lists and move their marks.
 */
export async function checkEquationsCsvRecords(source: ByteSource, file?: string, pieceChars?: number): Promise<void> {
  for await (const table of readCsvPieces(source, EQUATIONS_COLUMNS, file, pieceChars)) void table;
}
