// Figures for the embedded extractor on a labelled set (the development data in ../shared/data):
// coverage (share of non-blank responses read with confidence, status 'read') and precision (share
// of those whose equation list is equivalent to gold), overall and per gold tag, plus the check
// that no blank, attachment-only or words-only response is given an equation.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parseEquation, type Equation } from '../../../shared/equation/index.ts';
import { ExamSchema, realDomain, type Domain, type Exam, type Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { extractEmbedded } from '../../../shared/extract/index.ts';

export type ListComparator = (a: Equation[], b: Equation[], domain: Domain) => Promise<boolean>;

export type ResponseIn = { studentId: string; questionId: string; text: string };
export type GoldIn = { studentId: string; questionId: string; equations: string[]; ambiguous: boolean; tags: string[] };

export type Figures = { responses: number; nonBlank: number; read: number; correct: number; coverage: number; precision: number };

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
export const mustBeEmpty = (g: GoldIn): boolean =>
  g.tags.includes('blank') || g.tags.includes('words-only') || (g.tags.includes('attachment') && g.equations.length === 0);

/** A row as coverage/precision need it: the extraction's status, the gold tags, equivalence to gold (for rows read with confidence). */
export type FigureRow = { extraction: { status: Extraction['status'] }; tags: string[]; equivalent?: boolean };

/** Coverage (share of non-blank responses read with confidence, status 'read') and precision (share of those equivalent to gold). */
export function figures(rows: readonly FigureRow[]): Figures {
  const nonBlank = rows.filter((r) => r.extraction.status !== 'blank' && !r.tags.includes('blank'));
  const read = nonBlank.filter((r) => r.extraction.status === 'read');
  const correct = read.filter((r) => r.equivalent === true).length;
  return {
    responses: rows.length,
    nonBlank: nonBlank.length,
    read: read.length,
    correct,
    coverage: nonBlank.length ? read.length / nonBlank.length : 1,
    precision: read.length ? correct / read.length : 1,
  };
}

function parseList(list: string[], q: Question): Equation[] {
  return list.map((s) => {
    const r = parseEquation(s, { variables: q.variables.map((v) => v.name) });
    if (!r.ok) throw new Error(`gold equation ${JSON.stringify(s)} for ${q.id}: ${r.errors.map((e) => e.message).join('; ')}`);
    return r.value;
  });
}

/** Coverage and precision overall and per tag (sorted) of a set of rows. */
export function figuresByTag(rows: readonly FigureRow[]): { overall: Figures; perTag: Record<string, Figures> } {
  const tags = [...new Set(rows.flatMap((r) => r.tags))].sort();
  const perTag: Record<string, Figures> = {};
  for (const t of tags) perTag[t] = figures(rows.filter((r) => r.tags.includes(t)));
  return { overall: figures(rows), perTag };
}

/** Any reader (default: the embedded extractor). */
export type ExtractFn = (text: string, q: Question) => Extraction | Promise<Extraction>;

export async function evaluateExtraction(exam: Exam, responses: ResponseIn[], gold: GoldIn[], compare: ListComparator, extract: ExtractFn = extractEmbedded): Promise<ExtractEvalReport> {
  const questions = new Map(exam.questions.map((q) => [q.id, q]));
  const goldBy = new Map(gold.map((g) => [`${g.studentId}\u0000${g.questionId}`, g]));
  const rows: ExtractEvalRow[] = [];
  for (const r of responses) {
    const q = questions.get(r.questionId);
    const g = goldBy.get(`${r.studentId}\u0000${r.questionId}`);
    if (!q || !g) continue;
    const extraction = await extract(r.text, q);
    const row: ExtractEvalRow = { studentId: r.studentId, questionId: r.questionId, tags: g.tags, ambiguous: g.ambiguous, extraction, gold: g.equations };
    if (extraction.status === 'read') {
      const mine = parseList(extraction.equations.map((e) => e.source), q);
      row.equivalent = await compare(mine, parseList(g.equations, q), realDomain(q));
    }
    rows.push(row);
  }
  const { overall, perTag } = figuresByTag(rows);
  return {
    overall,
    unambiguous: figures(rows.filter((r) => !r.ambiguous)),
    perTag,
    violations: rows.filter((r) => mustBeEmpty({ ...r, equations: r.gold }) && r.extraction.equations.length > 0),
    wrong: rows.filter((r) => r.equivalent === false),
    rows,
  };
}

export type DevSet = { exam: Exam; responses: ResponseIn[]; gold: GoldIn[] };

/** The development set in `dir` (exam.json, responses.csv, gold.csv), or null when absent. */
export function loadDevSet(dir: string): DevSet | null {
  if (!existsSync(join(dir, 'gold.csv'))) return null;
  const exam = ExamSchema.parse(JSON.parse(readFileSync(join(dir, 'exam.json'), 'utf8')));
  const csv = (f: string): Record<string, string>[] => parse(readFileSync(join(dir, f), 'utf8'), { columns: true, skip_empty_lines: false, relax_column_count: false });
  const responses = csv('responses.csv').map((r) => ({ studentId: r.student_id, questionId: r.question_id, text: r.response ?? '' }));
  const gold = csv('gold.csv').map((r) => ({
    studentId: r.student_id,
    questionId: r.question_id,
    equations: JSON.parse(r.equations || '[]') as string[],
    ambiguous: r.ambiguous === 'true',
    tags: (r.tags ?? '').split(';').filter(Boolean),
  }));
  return { exam, responses, gold };
}

/** The product comparator: the entailment engine's list equivalence (README "Accuracy metric"). */
export async function entailerComparator(): Promise<{ compare: ListComparator; close: () => Promise<void> }> {
  const { Entailer } = await import('../decide/entail/index.ts');
  const e = await Entailer.create();
  return { compare: async (a, b, d) => (await e.compareLists(a, b, d)).equivalent, close: () => e.close() };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
export const figuresLine = (name: string, f: Figures): string =>
  `${name.padEnd(18)} coverage ${pct(f.coverage).padStart(6)} (${f.read}/${f.nonBlank})   precision ${pct(f.precision).padStart(6)} (${f.correct}/${f.read})`;

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
