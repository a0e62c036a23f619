// Equations CSV (`student_id,question_id,equations`, equations a JSON array of SymPy strings;
// extra columns such as gold.csv's `ambiguous,tags` are ignored). Row-tolerant: a bad row (bad
// JSON, an equation outside the grammar or with a symbol that isn't a variable, an unknown
// question) is reported and graded as nothing; the rest of the batch goes on. The file itself
// must still be well-formed CSV (else CsvFileError).
import { readCsv, unneutraliseId } from './read.ts';
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
 * source) is parsed once per process. The trees are never changed after parsing, so sharing
 * them is safe; the memo is bounded.
 */
const memo = new Map<string, ReturnType<typeof parseEquation>>();
function parseMemo(src: string, variables: readonly string[] | undefined): ReturnType<typeof parseEquation> {
  const key = `${variables ? variables.join(',') : '*'}\u0000${src}`;
  let r = memo.get(key);
  if (!r) {
    r = parseEquation(src, variables ? { variables } : {});
    if (memo.size >= 100_000) memo.clear();
    memo.set(key, r);
  }
  return r;
}

/** Parse an equations list: a JSON array of strings, each in the grammar with the question's variables. */
export function parseEquationList(json: string, variables: readonly string[] | undefined): { equations: Equation[]; error?: string } {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    return { equations: [], error: `equations is not valid JSON: ${(e as Error).message}` };
  }
  if (!Array.isArray(data) || data.some((x) => typeof x !== 'string')) return { equations: [], error: 'equations must be a JSON array of strings' };
  const equations: Equation[] = [];
  const errors: string[] = [];
  (data as string[]).forEach((src, i) => {
    const r = parseMemo(src, variables);
    if (r.ok) equations.push(r.value);
    else errors.push(`equations[${i}] ${JSON.stringify(src)}: ${formatErrors(r.errors)}`);
  });
  return errors.length ? { equations: [], error: errors.join('; ') } : { equations };
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
  const table = readCsv(input, EQUATIONS_COLUMNS, file);
  const rows: EquationsRow[] = [];
  const problems: CsvProblem[] = [];
  const seen = new Map<string, number>();
  for (const { line, values } of table.rows) {
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
      const { equations, error } = parseEquationList(values.equations, variables);
      row = { line, studentId, questionId, equations, sources: equations.map(equationToSympy), error, extra };
    }
    if (row.error) problems.push({ line, message: `${row.error}: graded as nothing` });
    rows.push(row);
  }
  return { rows, problems };
}
