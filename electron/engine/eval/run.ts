// Evaluation of a reading technique against gold equation lists: list-equivalence accuracy
// (engine.compareLists over realDomain, as in ../shared/data/README.md) overall, per question
// and per tag; coverage (share of non-blank responses read with confidence, status 'read') and
// precision (share of those equivalent to gold), overall and per tag; agreement of the marks the
// extracted lists earn with those the gold lists earn; and the technique's row of the study's
// Table I (time, tokens, correct answers; pipeline/eval.ts tableOne).
import { parseEquation, type Equation } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import { realDomain } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import type { EntailmentEngine } from '../decide/entail/types.ts';
import type { LoadedExam } from '../io/exam.ts';
import type { ResponseRow } from '../io/csv/responses.ts';
import type { EquationsRow } from '../io/csv/equations.ts';
import type { Technique } from '../read/registry.ts';
import { markEquations } from '../decide/marking.ts';
import { figures, figuresByTag, figuresLine, type Figures } from './figures.ts';
import { computeAccounting, type BatchAccounting } from '../read/ollama/accounting.ts';
import type { BatchItem, BatchResult } from '../read/model/batch.ts';
import { formatTableOne, tableOne, type TableOneRow } from './table-one.ts';

export type Tally = { correct: number; total: number };
export type EvalRow = {
  studentId: string;
  questionId: string;
  tags: string[];
  extracted: string[];
  gold: string[];
  status: string;
  equivalent: boolean;
  /** Item id -> [mark from extraction, mark from gold]; auto items only. */
  marks: Record<string, [number | null, number | null]>;
  marksAgree: boolean;
};

export type EvalReport = {
  technique: string;
  accuracy: Tally;
  byQuestion: Record<string, Tally>;
  byTag: Record<string, Tally>;
  /** Responses whose automatic marks (every item) equal those of the gold list. */
  marksAgreement: Tally;
  /** Automatic scheme items whose mark equals the gold list's mark. */
  itemAgreement: Tally;
  rows: EvalRow[];
  /** Gold rows with no response, bad gold rows, responses with no gold row. */
  problems: string[];
  /** Coverage and precision overall, on gold not marked ambiguous, and per tag. */
  coverage: Figures;
  coverageUnambiguous: Figures;
  coverageByTag: Record<string, Figures>;
  /** This technique's row of Table I (time, tokens, correct answers). */
  tableOne: TableOneRow;
  /** Responses left waiting for the model (Ollama unreachable): counted as not correct. */
  waiting: { studentId: string; questionId: string }[];
  waitingReason?: string;
  /** Model techniques: the models (name@digest) and the batch's accounting. */
  models?: string[];
  accounting?: BatchAccounting;
};

type Job = { id: string; gold: EquationsRow; resp: ResponseRow; question: Question };

/** Read every job with the technique: a model technique in one batch, others one by one (timed, so Table I has their time too). */
async function readAll(technique: Technique, jobs: Job[], onRead?: () => void): Promise<BatchResult> {
  if (technique.batch) {
    return technique.batch(
      jobs.map((j) => ({ id: j.id, text: j.resp.text, question: j.question })),
      { onItem: () => onRead?.() },
    );
  }
  const t0 = Date.now();
  const items: BatchItem[] = [];
  for (const j of jobs) {
    const started = Date.now();
    const extraction: Extraction = await technique.extractor.extract(j.resp.text, j.question);
    items.push({
      id: j.id,
      question: j.question,
      extraction,
      record: {
        id: j.id, questionId: j.question.id, technique: technique.name as BatchResult['technique'], models: [], calls: [],
        readings: [{ reader: technique.extractor.name, equations: extraction.equations.map((e) => e.source) }], ungrounded: [], waiting: false, wallMs: Date.now() - started,
      },
    });
    onRead?.();
  }
  // No model: no calls, no tokens; the same shape so Table I compares it with the model techniques.
  return { technique: technique.name as BatchResult['technique'], models: [], items, waiting: [], accounting: computeAccounting([], { batchWallMs: Date.now() - t0 }), warnings: [], url: '' };
}

const add = (m: Record<string, Tally>, k: string, ok: boolean): void => {
  const t = (m[k] ??= { correct: 0, total: 0 });
  t.total++;
  if (ok) t.correct++;
};

export async function evaluate(opts: {
  exam: LoadedExam;
  engine: EntailmentEngine;
  technique: Technique;
  responses: readonly ResponseRow[];
  gold: readonly EquationsRow[];
  onProgress?: (done: number, total: number) => void;
}): Promise<EvalReport> {
  const { exam, engine, technique, responses, gold } = opts;
  const byKey = new Map(responses.map((r) => [`${r.studentId}\u0000${r.questionId}`, r]));
  const report = {
    technique: technique.name, accuracy: { correct: 0, total: 0 }, byQuestion: {}, byTag: {}, marksAgreement: { correct: 0, total: 0 }, itemAgreement: { correct: 0, total: 0 }, rows: [], problems: [],
  } as unknown as EvalReport;
  const goldKeys = new Set<string>();
  const jobs: Job[] = [];
  for (const g of gold) {
    const key = `${g.studentId}\u0000${g.questionId}`;
    goldKeys.add(key);
    const cq = exam.questions.get(g.questionId);
    if (!cq || g.error) {
      report.problems.push(`gold line ${g.line}: ${g.error ?? 'unknown question'}: not evaluated`);
      continue;
    }
    const resp = byKey.get(key);
    if (!resp) {
      report.problems.push(`gold line ${g.line}: no response for ${g.studentId}/${g.questionId}: not evaluated`);
      continue;
    }
    jobs.push({ id: `${g.studentId}/${g.questionId}`, gold: g, resp, question: cq.question });
  }
  let done = 0;
  const total = jobs.length * 2;
  const batch = await readAll(technique, jobs, () => opts.onProgress?.(++done, total));
  const byId = new Map(batch.items.map((it) => [it.id, it]));
  // A response waiting for the model was not read: not correct, not read with confidence.
  const waitingIds = new Set(batch.waiting);
  const ambiguous = new Map<string, boolean>();
  for (const { id, gold: g } of jobs) {
    const cq = exam.questions.get(g.questionId)!;
    const item = byId.get(id)!;
    const x = item.extraction;
    ambiguous.set(id, g.extra.ambiguous === 'true');
    const extracted: Equation[] = [];
    for (const e of x.equations) {
      const p = parseEquation(e.source, { variables: cq.variables });
      if (p.ok) extracted.push(p.value);
    }
    const cmp = waitingIds.has(id) ? { equivalent: false } : await engine.compareLists(extracted, g.equations, realDomain(cq.question));
    const mx = await markEquations(engine, cq, extracted);
    const mg = await markEquations(engine, cq, g.equations);
    const marks: EvalRow['marks'] = {};
    let agree = true;
    mx.items.forEach((it, i) => {
      if (it.outcome === 'manual') return;
      const a = it.awarded;
      const b = mg.items[i].awarded;
      marks[it.itemId] = [a, b];
      report.itemAgreement.total++;
      if (a === b) report.itemAgreement.correct++;
      else agree = false;
    });
    const tags = (g.extra.tags ?? '').split(';').map((t) => t.trim()).filter(Boolean);
    add({ all: report.accuracy }, 'all', cmp.equivalent);
    add(report.byQuestion, g.questionId, cmp.equivalent);
    for (const t of tags) add(report.byTag, t, cmp.equivalent);
    report.marksAgreement.total++;
    if (agree) report.marksAgreement.correct++;
    report.rows.push({ studentId: g.studentId, questionId: g.questionId, tags, extracted: x.equations.map((e) => e.source), gold: g.sources, status: x.status, equivalent: cmp.equivalent, marks, marksAgree: agree });
    opts.onProgress?.(++done, total);
  }
  for (const r of responses) if (!goldKeys.has(`${r.studentId}\u0000${r.questionId}`)) report.problems.push(`response line ${r.line}: ${r.studentId}/${r.questionId} has no gold row: not evaluated`);

  const figRows = report.rows.map((r) => ({
    extraction: { status: waitingIds.has(`${r.studentId}/${r.questionId}`) ? ('abstained' as const) : (r.status as Extraction['status']) },
    tags: r.tags,
    equivalent: r.equivalent,
    ambiguous: ambiguous.get(`${r.studentId}/${r.questionId}`) ?? false,
  }));
  const f = figuresByTag(figRows);
  report.coverage = f.overall;
  report.coverageUnambiguous = figures(figRows.filter((r) => !r.ambiguous));
  report.coverageByTag = f.perTag;
  const goldOf = new Map(jobs.map((j) => [j.id, j.gold.sources]));
  [report.tableOne] = await tableOne([{ technique: technique.name, result: batch }], (id) => goldOf.get(id), (a, b, d) => engine.compareLists(a, b, d));
  report.waiting = batch.waiting.map((id) => {
    const [studentId, questionId] = [id.slice(0, id.lastIndexOf('/')), id.slice(id.lastIndexOf('/') + 1)];
    return { studentId, questionId };
  });
  if (batch.waitingReason) report.waitingReason = batch.waitingReason;
  if (technique.usesModel) {
    report.models = batch.models.map((m) => `${m.name}@${m.digest}`);
    report.accounting = batch.accounting;
  }
  return report;
}

const pct = (t: Tally): string => `${t.total ? ((100 * t.correct) / t.total).toFixed(1) : '0.0'}% (${t.correct}/${t.total})`;

export function formatEvalReport(r: EvalReport): string {
  const lines: string[] = [];
  lines.push(`technique: ${r.technique}`);
  lines.push(`list-equivalence accuracy: ${pct(r.accuracy)}`);
  lines.push('by question:');
  for (const [k, t] of Object.entries(r.byQuestion)) lines.push(`  ${k.padEnd(24)} ${pct(t)}`);
  lines.push('by tag:');
  for (const [k, t] of Object.entries(r.byTag).sort(([a], [b]) => a.localeCompare(b))) lines.push(`  ${k.padEnd(24)} ${pct(t)}`);
  lines.push('coverage (non-blank responses read with confidence) and precision (of those, equivalent to gold):');
  lines.push(`  ${figuresLine('overall', r.coverage)}`);
  lines.push(`  ${figuresLine('unambiguous gold', r.coverageUnambiguous)}`);
  lines.push('coverage and precision by tag:');
  for (const [k, f] of Object.entries(r.coverageByTag)) lines.push(`  ${figuresLine(k, f)}`);
  lines.push(`marks agreement with gold (whole response): ${pct(r.marksAgreement)}`);
  lines.push(`marks agreement with gold (per automatic item): ${pct(r.itemAgreement)}`);
  if (r.models?.length) lines.push(`models: ${r.models.join(' + ')}`);
  if (r.waiting.length) lines.push(`waiting for the model (counted as not correct): ${r.waiting.length}${r.waitingReason ? ` (${r.waitingReason})` : ''}`);
  if (r.problems.length) {
    lines.push(`problems (${r.problems.length}):`);
    for (const p of r.problems.slice(0, 20)) lines.push(`  ${p}`);
    if (r.problems.length > 20) lines.push(`  ... and ${r.problems.length - 20} more`);
  }
  return lines.join('\n');
}

/** Table I over several reports (one row per technique). */
export function formatTableOneOf(reports: readonly EvalReport[]): string {
  return formatTableOne(reports.map((r) => r.tableOne));
}
