// The evaluation loop, one for `equimark eval`, the extractor figures (scripts/extract-report.ts,
// the dev-set and held-out tests) and Table I over several techniques: read every response that
// has a gold list with a technique, decide once per response whether its list is equivalent to
// gold (goldEquivalent: engine.compareLists over realDomain, as in ../shared/data/README.md), and
// tally from that one decision
//  - list-equivalence accuracy overall, per question and per tag;
//  - coverage (share of non-blank responses read with confidence, status 'read') and precision
//    (share of those equivalent to gold), overall, on gold not marked ambiguous, and per tag;
//  - agreement of the marks the extracted lists earn with those the gold lists earn (optional);
//  - the technique's row of the study's Table I (time, tokens, correct answers).
import { parseEquation, type Equation } from '../../../shared/equation/index.ts';
import { realDomain } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import type { EntailmentEngine } from '../decide/entail/types.ts';
import type { CompiledQuestion, LoadedExam } from '../io/exam.ts';
import type { ResponseRow } from '../io/csv/responses.ts';
import type { EquationsRow } from '../io/csv/equations.ts';
import type { Technique } from '../read/registry.ts';
import { markEquations } from '../decide/marking.ts';
import { settleAlternatives, type ChoiceEngine } from '../read/alternatives.ts';
import { checkedReading } from '../decide/reading-checks.ts';
import { figures, figuresByTag, figuresLine, type Figures } from './coverage.ts';
import { calibration, formatCalibration, type Calibration } from './calibration.ts';
import { goldAmbiguous, goldTags, mustBeEmpty } from './set.ts';
import { computeAccounting, type BatchAccounting } from '../read/ollama/accounting.ts';
import type { BatchItem, BatchResult } from '../read/model/batch.ts';
import { formatTableOne, tableOneRow, type TableOneRow } from './table-one.ts';

export type Tally = { correct: number; total: number };
export type EvalRow = {
  studentId: string;
  questionId: string;
  tags: string[];
  /** Gold marks the response ambiguous (two markers could read it differently). */
  ambiguous: boolean;
  extracted: string[];
  gold: string[];
  status: string;
  /** The reading's flags (as grading stores it: 'contradiction' included). */
  flags: string[];
  equivalent: boolean;
  /** Item id -> [mark from extraction, mark from gold]; auto items only (empty when marks were not compared). */
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
  /** Status against correctness, precision per status, errors of confidence (./calibration.ts). */
  calibration: Calibration;
  /** This technique's row of Table I (time, tokens, correct answers). */
  tableOne: TableOneRow;
  /** Responses left waiting for the model (Ollama unreachable): counted as not correct. */
  waiting: { studentId: string; questionId: string }[];
  waitingReason?: string;
  /** Model techniques: the models (name@digest) and the batch's accounting. */
  models?: string[];
  accounting?: BatchAccounting;
  /**
   * Hybrid: responses the embedded extractor read but where it made a reading choice, also read by
   * the model as a second reader, and the model calls that cost.
   */
  secondReader?: { responses: number; calls: number };
};

/** A report with what was read: the batch (each response's extraction and record, by id "student/question"). */
export type EvalRun = { report: EvalReport; batch: BatchResult };

/** What the loop compares with: the entailment engine (marks need all of it; the figures only compareLists). */
export type EvalEngine = EntailmentEngine | Pick<EntailmentEngine, 'compareLists'>;

export type EvalOptions = {
  exam: LoadedExam;
  engine: EvalEngine;
  technique: Pick<Technique, 'name' | 'extractor' | 'batch' | 'usesModel'>;
  responses: readonly ResponseRow[];
  gold: readonly EquationsRow[];
  /** Compare the marks the reading earns with those gold earns (default true; needs the whole engine). */
  marks?: boolean;
  onProgress?: (done: number, total: number) => void;
};

/**
 * The accuracy metric, the one list comparer of every figure: the extracted list (SymPy sources)
 * and the gold list are equivalent over the reals: each equation of either is entailed by one of
 * the other; empty matches only empty; an extracted item outside the grammar makes it not equivalent.
 */
export async function goldEquivalent(
  engine: Pick<EntailmentEngine, 'compareLists'>,
  extracted: readonly string[],
  gold: readonly Equation[],
  cq: CompiledQuestion,
): Promise<boolean> {
  const mine: Equation[] = [];
  for (const s of extracted) {
    const p = parseEquation(s, { variables: cq.variables });
    if (!p.ok) return false;
    mine.push(p.value);
  }
  return (await engine.compareLists(mine, [...gold], realDomain(cq.question))).equivalent;
}

type Job = { id: string; gold: EquationsRow; resp: ResponseRow; cq: CompiledQuestion };

/** Read every job with the technique: a model technique in one batch, others one by one (timed, so Table I has their time too). */
async function readAll(technique: EvalOptions['technique'], jobs: Job[], choices: ChoiceEngine | null, onRead?: () => void): Promise<BatchResult> {
  if (technique.batch) {
    return technique.batch(
      jobs.map((j) => ({ id: j.id, text: j.resp.text, question: j.cq.question })),
      { onItem: () => onRead?.() },
    );
  }
  const t0 = Date.now();
  const items: BatchItem[] = [];
  for (const j of jobs) {
    const started = Date.now();
    let extraction: Extraction = await technique.extractor.extract(j.resp.text, j.cq.question);
    // Choices settled as grade() settles them (needs the whole engine; otherwise they stay ambiguous).
    if (choices) extraction = await settleAlternatives(extraction, j.cq.question, choices);
    items.push({
      id: j.id,
      question: j.cq.question,
      extraction,
      record: {
        id: j.id,
        questionId: j.cq.question.id,
        technique: technique.name,
        models: [],
        calls: [],
        readings: [{ reader: technique.extractor.name, equations: extraction.equations.map((e) => e.source) }],
        ungrounded: [],
        waiting: false,
        wallMs: Date.now() - started,
      },
    });
    onRead?.();
  }
  // No model: no calls, no tokens; the same shape so Table I compares it with the model techniques.
  return {
    technique: technique.name,
    models: [],
    items,
    waiting: [],
    accounting: computeAccounting([], { batchWallMs: Date.now() - t0 }),
    warnings: [],
    url: '',
  };
}

const add = (m: Record<string, Tally>, k: string, ok: boolean): void => {
  const t = (m[k] ??= { correct: 0, total: 0 });
  t.total++;
  if (ok) t.correct++;
};

/** The loop: read, compare with gold once per response, tally. */
export async function runEval(opts: EvalOptions): Promise<EvalRun> {
  const { exam, engine, technique, responses, gold } = opts;
  const marker = opts.marks === false ? null : 'entails' in engine ? engine : null;
  if (opts.marks !== false && !marker) throw new Error('comparing marks needs the whole entailment engine (or pass marks: false)');
  const byKey = new Map(responses.map((r) => [`${r.studentId}\u0000${r.questionId}`, r]));
  const accuracy: Tally = { correct: 0, total: 0 };
  const byQuestion: Record<string, Tally> = {};
  const byTag: Record<string, Tally> = {};
  const marksAgreement: Tally = { correct: 0, total: 0 };
  const itemAgreement: Tally = { correct: 0, total: 0 };
  const rows: EvalRow[] = [];
  const problems: string[] = [];
  const goldKeys = new Set<string>();
  const jobs: Job[] = [];
  for (const g of gold) {
    const key = `${g.studentId}\u0000${g.questionId}`;
    goldKeys.add(key);
    const cq = exam.questions.get(g.questionId);
    if (!cq || g.error) {
      problems.push(`gold line ${g.line}: ${g.error ?? 'unknown question'}: not evaluated`);
      continue;
    }
    const resp = byKey.get(key);
    if (!resp) {
      problems.push(`gold line ${g.line}: no response for ${g.studentId}/${g.questionId}: not evaluated`);
      continue;
    }
    jobs.push({ id: `${g.studentId}/${g.questionId}`, gold: g, resp, cq });
  }
  let done = 0;
  const total = jobs.length * 2;
  const batch = await readAll(technique, jobs, 'entails' in engine ? engine : null, () => opts.onProgress?.(++done, total));
  const byId = new Map(batch.items.map((it) => [it.id, it]));
  // A response waiting for the model was not read: not correct, not read with confidence.
  const waitingIds = new Set(batch.waiting);
  for (const { id, gold: g, cq, resp } of jobs) {
    // As grading stores it: a contradiction inside the reading lowers its status (decide/contradictions.ts).
    const read = byId.get(id)!.extraction;
    const x = 'consistent' in engine ? await checkedReading(engine, cq.question, read, resp.text) : read;
    const waiting = waitingIds.has(id);
    const sources = x.equations.map((e) => e.source);
    const equivalent = waiting ? false : await goldEquivalent(engine, sources, g.equations, cq);
    const marks: EvalRow['marks'] = {};
    let agree = true;
    if (marker) {
      const extracted = sources.flatMap((s) => {
        const p = parseEquation(s, { variables: cq.variables });
        return p.ok ? [p.value] : [];
      });
      // Numeric items read the text itself, the same for both lists.
      const mx = await markEquations(marker, cq, extracted, { text: resp.text });
      const mg = await markEquations(marker, cq, g.equations, { text: resp.text });
      mx.items.forEach((it, i) => {
        if (it.outcome === 'manual') return;
        const a = it.awarded;
        const b = mg.items[i].awarded;
        marks[it.itemId] = [a, b];
        itemAgreement.total++;
        if (a === b) itemAgreement.correct++;
        else agree = false;
      });
      marksAgreement.total++;
      if (agree) marksAgreement.correct++;
    }
    const tags = goldTags(g);
    add({ all: accuracy }, 'all', equivalent);
    add(byQuestion, g.questionId, equivalent);
    for (const t of tags) add(byTag, t, equivalent);
    rows.push({
      studentId: g.studentId,
      questionId: g.questionId,
      tags,
      ambiguous: goldAmbiguous(g),
      extracted: sources,
      gold: g.sources,
      status: x.status,
      flags: [...x.flags],
      equivalent,
      marks,
      marksAgree: agree,
    });
    opts.onProgress?.(++done, total);
  }
  for (const r of responses)
    if (!goldKeys.has(`${r.studentId}\u0000${r.questionId}`))
      problems.push(`response line ${r.line}: ${r.studentId}/${r.questionId} has no gold row: not evaluated`);

  const figRows = rows.map((r) => ({
    status: waitingIds.has(`${r.studentId}/${r.questionId}`) ? ('abstained' as const) : (r.status as Extraction['status']),
    tags: r.tags,
    equivalent: r.equivalent,
    ambiguous: r.ambiguous,
  }));
  const f = figuresByTag(figRows);
  const report: EvalReport = {
    technique: technique.name,
    accuracy,
    byQuestion,
    byTag,
    marksAgreement,
    itemAgreement,
    rows,
    problems,
    coverage: f.overall,
    coverageUnambiguous: figures(figRows.filter((r) => !r.ambiguous)),
    coverageByTag: f.perTag,
    calibration: calibration(figRows.map((r, i) => ({ ...r, flags: rows[i].flags }))),
    tableOne: tableOneRow(technique.name, batch, { scored: jobs.length, correct: accuracy.correct }),
    waiting: batch.waiting.map((id) => ({ studentId: id.slice(0, id.lastIndexOf('/')), questionId: id.slice(id.lastIndexOf('/') + 1) })),
  };
  if (batch.waitingReason) report.waitingReason = batch.waitingReason;
  if (technique.usesModel) {
    report.models = batch.models.map((m) => `${m.name}@${m.digest}`);
    report.accounting = batch.accounting;
    const second = batch.items.filter((it) => it?.record.secondReader);
    if (technique.name === 'hybrid') report.secondReader = { responses: second.length, calls: second.reduce((n, it) => n + it.record.calls.length, 0) };
  }
  return { report, batch };
}

export async function evaluate(opts: EvalOptions): Promise<EvalReport> {
  return (await runEval(opts)).report;
}

/** Each technique over the same set, one after the other (the study's comparison): the reports and Table I. */
export async function evaluateTechniques(
  opts: Omit<EvalOptions, 'technique'> & { techniques: readonly EvalOptions['technique'][] },
): Promise<{ runs: EvalRun[]; tableOne: TableOneRow[] }> {
  const runs: EvalRun[] = [];
  for (const technique of opts.techniques) runs.push(await runEval({ ...opts, technique }));
  return { runs, tableOne: runs.map((r) => r.report.tableOne) };
}

/** Rows that must have no equation (blank, words-only, attachment-only) but were given some. */
export const emptyViolations = (r: EvalReport): EvalRow[] =>
  r.rows.filter((row) => mustBeEmpty({ tags: row.tags, equations: row.gold }) && row.extracted.length > 0);

/** Rows read with confidence but not equivalent to gold. */
export const confidentMisses = (r: EvalReport): EvalRow[] =>
  r.rows.filter((row) => row.status === 'read' && !row.equivalent && !r.waiting.some((w) => w.studentId === row.studentId && w.questionId === row.questionId));

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
  lines.push(formatCalibration(r.calibration));
  lines.push(`marks agreement with gold (whole response): ${pct(r.marksAgreement)}`);
  lines.push(`marks agreement with gold (per automatic item): ${pct(r.itemAgreement)}`);
  if (r.models?.length) lines.push(`models: ${r.models.join(' + ')}`);
  if (r.secondReader) {
    lines.push(
      `second reader (hybrid): the model also read ${r.secondReader.responses} response(s) the embedded extractor read with a reading choice: ${r.secondReader.calls} extra model call(s)`,
    );
  }
  if (r.waiting.length) lines.push(`waiting for the model (counted as not correct): ${r.waiting.length}${r.waitingReason ? ` (${r.waitingReason})` : ''}`);
  if (r.problems.length) {
    lines.push(`problems (${r.problems.length}):`);
    for (const p of r.problems.slice(0, 20)) lines.push(`  ${p}`);
    if (r.problems.length > 20) lines.push(`  ... and ${r.problems.length - 20} more`);
  }
  return lines.join('\n');
}

/**
 * The extractor's figures (scripts/extract-report.ts, the dev-set and held-out tests): coverage
 * and precision overall, on unambiguous gold and per tag; the blank/attachment-only/words-only
 * check; with `wrong`, the responses read with confidence but not equivalent to gold.
 */
export function formatFiguresReport(r: EvalReport, opts: { wrong?: boolean } = {}): string {
  const out = [figuresLine('overall', r.coverage), figuresLine('unambiguous gold', r.coverageUnambiguous), '', 'per tag:'];
  for (const [t, f] of Object.entries(r.coverageByTag)) out.push(`  ${figuresLine(t, f)}`);
  const violations = emptyViolations(r);
  out.push('', `blank/attachment-only/words-only responses given equations: ${violations.length}`);
  for (const v of violations) out.push(`  ${v.studentId} ${v.questionId}: ${v.extracted.join(' ; ')}`);
  if (opts.wrong) {
    const wrong = confidentMisses(r);
    out.push('', `read with confidence but not equivalent to gold: ${wrong.length}`);
    for (const w of wrong) {
      out.push(`  ${w.studentId} ${w.questionId}${w.ambiguous ? ' (gold ambiguous)' : ''}`);
      out.push(`    mine: ${w.extracted.join(' ; ')}`);
      out.push(`    gold: ${w.gold.join(' ; ')}`);
    }
  }
  return out.join('\n');
}

/** Table I over several reports (one row per technique). */
export function formatTableOneOf(reports: readonly EvalReport[]): string {
  return formatTableOne(reports.map((r) => r.tableOne));
}
