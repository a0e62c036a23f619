// The extractor's figures in the shape older callers use (test/extract/heldout.test.ts,
// bench/extract.bench.ts): a set as plain rows (loadDevSet), a boolean list comparator
// (entailerComparator) and evaluateExtraction's report. Everything here goes through the one
// evaluation loop (eval/run.ts runEval, its goldEquivalent comparer), the io/ loaders (eval/set.ts)
// and the engine factory; new code should call those directly (see scripts/extract-report.ts).
import { equationToSympy, type Equation } from '../../../shared/equation/index.ts';
import type { Domain, Exam, Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { extractEmbedded } from '../../../shared/extract/index.ts';
import { createEngine } from '../decide/engine-factory.ts';
import { validateExam } from '../io/exam.ts';
import { parseEquationList, type EquationsRow } from '../io/csv/equations.ts';
import { figuresLine, type Figures } from './coverage.ts';
import { loadEvalDir, mustBeEmpty as mustBeEmptyRow, type EvalSet } from './set.ts';
import { confidentMisses, emptyViolations, runEval } from './run.ts';

export { figures, figuresByTag, figuresLine, type Figures, type FigureRow } from './coverage.ts';

export type ListComparator = (a: Equation[], b: Equation[], domain: Domain) => Promise<boolean>;

export type ResponseIn = { studentId: string; questionId: string; text: string };
export type GoldIn = { studentId: string; questionId: string; equations: string[]; ambiguous: boolean; tags: string[] };
export type DevSet = { exam: Exam; responses: ResponseIn[]; gold: GoldIn[]; /** The same set as the io/ loaders read it. */ set: EvalSet };

export type ExtractEvalRow = {
  studentId: string;
  questionId: string;
  tags: string[];
  ambiguous: boolean;
  extraction: Extraction;
  gold: string[];
  /** Only for rows read with confidence. */
  equivalent?: boolean;
};

export type ExtractEvalReport = {
  overall: Figures;
  /** Excluding rows gold marks ambiguous. */
  unambiguous: Figures;
  perTag: Record<string, Figures>;
  /** Blank, attachment-only or words-only responses that were given equations (must be empty). */
  violations: ExtractEvalRow[];
  /** Read with confidence but not equivalent to gold. */
  wrong: ExtractEvalRow[];
  rows: ExtractEvalRow[];
};

/** Gold rows that must get no equation: blank, words-only, and attachment-only (no gold equations). */
export const mustBeEmpty = (g: GoldIn): boolean => mustBeEmptyRow(g);

/** The set in `dir` (exam.json, responses.csv, gold.csv) as plain rows, or null when absent. */
export function loadDevSet(dir: string): DevSet | null {
  const set = loadEvalDir(dir);
  if (!set) return null;
  return {
    exam: set.exam.exam,
    responses: set.responses.map((r) => ({ studentId: r.studentId, questionId: r.questionId, text: r.text })),
    gold: set.gold.map((g) => ({
      studentId: g.studentId,
      questionId: g.questionId,
      equations: g.sources,
      ambiguous: g.extra.ambiguous === 'true',
      tags: (g.extra.tags ?? '').split(';').filter(Boolean),
    })),
    set,
  };
}

/** The product comparator: the engine factory's entailment engine, list equivalence (README "Accuracy metric"). */
export async function entailerComparator(): Promise<{ compare: ListComparator; close: () => Promise<void> }> {
  const e = await createEngine();
  return { compare: async (a, b, d) => (await e.compareLists(a, b, d)).equivalent, close: () => e.close() };
}

/** Any reader (default: the embedded extractor). */
export type ExtractFn = (text: string, q: Question) => Extraction | Promise<Extraction>;

/** evaluateExtraction's report, from the evaluation loop. */
export async function evaluateExtraction(
  exam: Exam,
  responses: ResponseIn[],
  gold: GoldIn[],
  compare: ListComparator,
  extract: ExtractFn = extractEmbedded,
): Promise<ExtractEvalReport> {
  const loaded = validateExam(exam);
  const goldRows: EquationsRow[] = gold.map((g, i) => {
    const variables = loaded.questions.get(g.questionId)?.variables;
    const { equations, error } = variables
      ? parseEquationList(JSON.stringify(g.equations), variables)
      : { equations: [], error: `unknown question id '${g.questionId}'` };
    return {
      line: i + 2,
      studentId: g.studentId,
      questionId: g.questionId,
      equations,
      sources: equations.map(equationToSympy),
      ...(error ? { error } : {}),
      extra: { ambiguous: String(g.ambiguous), tags: g.tags.join(';') },
    };
  });
  const { report, batch } = await runEval({
    exam: loaded,
    engine: { compareLists: async (a, b, d) => ({ equivalent: await compare(a, b, d), aCoveredBy: [], bCoveredBy: [] }) },
    technique: { name: 'embedded', extractor: { name: 'embedded', extract }, usesModel: false },
    responses: responses.map((r, i) => ({ line: i + 2, ...r })),
    gold: goldRows,
    marks: false,
  });
  const extractionOf = new Map(batch.items.map((it) => [it.id, it.extraction]));
  const goldOf = new Map(gold.map((g) => [`${g.studentId}/${g.questionId}`, g.equations]));
  const project = (r: (typeof report.rows)[number]): ExtractEvalRow => {
    const key = `${r.studentId}/${r.questionId}`;
    const extraction = extractionOf.get(key)!;
    return {
      studentId: r.studentId,
      questionId: r.questionId,
      tags: r.tags,
      ambiguous: r.ambiguous,
      extraction,
      gold: goldOf.get(key) ?? r.gold,
      ...(extraction.status === 'read' ? { equivalent: r.equivalent } : {}),
    };
  };
  return {
    overall: report.coverage,
    unambiguous: report.coverageUnambiguous,
    perTag: report.coverageByTag,
    violations: emptyViolations(report).map(project),
    wrong: confidentMisses(report).map(project),
    rows: report.rows.map(project),
  };
}

export function formatExtractReport(r: ExtractEvalReport, opts: { wrong?: boolean } = {}): string {
  const out = [figuresLine('overall', r.overall), figuresLine('unambiguous gold', r.unambiguous), '', 'per tag:'];
  for (const [t, f] of Object.entries(r.perTag)) out.push(`  ${figuresLine(t, f)}`);
  out.push('', `blank/attachment-only/words-only responses given equations: ${r.violations.length}`);
  for (const v of r.violations) out.push(`  ${v.studentId} ${v.questionId}: ${v.extraction.equations.map((e) => e.source).join(' ; ')}`);
  if (opts.wrong) {
    out.push('', `read with confidence but not equivalent to gold: ${r.wrong.length}`);
    for (const w of r.wrong) {
      out.push(`  ${w.studentId} ${w.questionId}${w.ambiguous ? ' (gold ambiguous)' : ''}`);
      out.push(`    mine: ${w.extraction.equations.map((e) => e.source).join(' ; ')}`);
      out.push(`    gold: ${w.gold.join(' ; ')}`);
    }
  }
  return out.join('\n');
}
