// Evaluation of a reading technique against gold equation lists: list-equivalence accuracy
// (engine.compareLists over realDomain, as in ../shared/data/README.md) overall, per question
// and per tag, and agreement of the marks the extracted lists earn with those the gold lists earn.
import { parseEquation, type Equation } from '../../shared/equation/index.ts';
import { realDomain } from '../../shared/exam.ts';
import type { EntailmentEngine } from './entail/types.ts';
import type { LoadedExam } from './exam-io.ts';
import type { ResponseRow } from './csv/responses.ts';
import type { EquationsRow } from './csv/equations.ts';
import type { Technique } from './grade.ts';
import { markEquations } from './marking.ts';

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
};

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
  const report: EvalReport = { technique: technique.name, accuracy: { correct: 0, total: 0 }, byQuestion: {}, byTag: {}, marksAgreement: { correct: 0, total: 0 }, itemAgreement: { correct: 0, total: 0 }, rows: [], problems: [] };
  const goldKeys = new Set<string>();
  let done = 0;
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
    const x = await technique.extractor.extract(resp.text, cq.question);
    const extracted: Equation[] = [];
    for (const e of x.equations) {
      const p = parseEquation(e.source, { variables: cq.variables });
      if (p.ok) extracted.push(p.value);
    }
    const cmp = await engine.compareLists(extracted, g.equations, realDomain(cq.question));
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
    opts.onProgress?.(++done, gold.length);
  }
  for (const r of responses) if (!goldKeys.has(`${r.studentId}\u0000${r.questionId}`)) report.problems.push(`response line ${r.line}: ${r.studentId}/${r.questionId} has no gold row: not evaluated`);
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
  lines.push(`marks agreement with gold (whole response): ${pct(r.marksAgreement)}`);
  lines.push(`marks agreement with gold (per automatic item): ${pct(r.itemAgreement)}`);
  if (r.problems.length) {
    lines.push(`problems (${r.problems.length}):`);
    for (const p of r.problems.slice(0, 20)) lines.push(`  ${p}`);
    if (r.problems.length > 20) lines.push(`  ... and ${r.problems.length - 20} more`);
  }
  return lines.join('\n');
}
