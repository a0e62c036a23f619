// The study's Table I: per technique, time, tokens and correct answers against gold lists.
// "Correct" is the extraction accuracy metric of ../shared/data/README.md: the extracted list and
// the gold list are equivalent over the reals (each equation of either is entailed by one of the
// other; empty only matches empty), decided by the entailment engine passed in.
import { parseEquation, type Equation } from '../../../shared/equation/index.ts';
import { realDomain, type Question } from '../../../shared/exam.ts';
import { readResponses, type BatchResult, type ReadOptions } from '../read/model/batch.ts';
import type { ListComparer, ResponseInput } from '../read/model/types.ts';
import type { Technique } from '../read/ollama/settings.ts';

export type TableOneRow = {
  technique: string;
  models: string;
  responses: number;
  /** Responses with a gold list. */
  scored: number;
  correct: number;
  accuracy: number;
  needsReview: number;
  waiting: number;
  /** Batch wall time, s (this run; cached replies make re-runs faster). */
  wallSeconds: number;
  /** Model time the technique needs, s (live calls + original time of cached replies). */
  modelSeconds: number;
  tokensIn: number;
  tokensOut: number;
  /** Tokens the technique needs (live + cached). */
  tokens: number;
  calls: number;
  cachedCalls: number;
  estimatedFlops: number | null;
};

/** gold(id) -> SymPy sources, or undefined when the response has no gold list. */
export type GoldLookup = (id: string, questionId: string) => string[] | undefined;

export async function listsEquivalent(extracted: string[], gold: string[], q: Question, compare: ListComparer): Promise<boolean> {
  const vars = q.variables.map((v) => v.name);
  const parse = (l: string[]): Equation[] | null => {
    const out: Equation[] = [];
    for (const s of l) {
      const r = parseEquation(s, { variables: vars });
      if (!r.ok) return null;
      out.push(r.value);
    }
    return out;
  };
  const a = parse(extracted);
  const b = parse(gold);
  if (!a || !b) return false;
  if (a.length === 0 || b.length === 0) return a.length === 0 && b.length === 0;
  return (await compare(a, b, realDomain(q))).equivalent;
}

export async function tableOne(runs: { technique: string; result: BatchResult }[], gold: GoldLookup, compare: ListComparer): Promise<TableOneRow[]> {
  const rows: TableOneRow[] = [];
  for (const { technique, result } of runs) {
    let scored = 0;
    let correct = 0;
    for (const it of result.items) {
      const g = gold(it.id, it.question.id);
      if (!g) continue;
      scored++;
      if (it.record.waiting) continue;
      if (await listsEquivalent(it.extraction.equations.map((e) => e.source), g, it.question, compare)) correct++;
    }
    const a = result.accounting;
    rows.push({
      technique,
      models: result.models.map((m) => `${m.name}@${m.digest.slice(0, 12)}`).join(' + '),
      responses: result.items.length,
      scored,
      correct,
      accuracy: scored ? correct / scored : 0,
      needsReview: result.items.filter((i) => i.extraction.status === 'needs-review').length,
      waiting: result.waiting.length,
      wallSeconds: a.batchWallMs / 1000,
      modelSeconds: a.modelCallMsNeeded / 1000,
      tokensIn: a.tokensIn,
      tokensOut: a.tokensOut,
      tokens: a.tokensNeeded,
      calls: a.calls,
      cachedCalls: a.cachedCalls,
      estimatedFlops: a.estimatedFlops,
    });
  }
  return rows;
}

/** Run each technique over the same responses and build Table I. */
export async function evaluateTechniques(
  responses: ResponseInput[],
  question: Question | null,
  techniques: Technique[],
  options: ReadOptions,
  gold: GoldLookup,
  compare: ListComparer,
): Promise<{ rows: TableOneRow[]; results: Record<string, BatchResult> }> {
  const results: Record<string, BatchResult> = {};
  for (const t of techniques) results[t] = await readResponses(responses, question, { ...options, technique: t });
  const rows = await tableOne(techniques.map((t) => ({ technique: t, result: results[t] })), gold, compare);
  return { rows, results };
}

/** Table I as aligned text (for the CLI). */
export function formatTableOne(rows: TableOneRow[]): string {
  const head = ['technique', 'correct', 'accuracy', 'review', 'waiting', 'model time (s)', 'wall time (s)', 'tokens', 'calls', 'est. FLOPs'];
  const body = rows.map((r) => [
    r.technique,
    `${r.correct}/${r.scored}`,
    `${(r.accuracy * 100).toFixed(1)}%`,
    String(r.needsReview),
    String(r.waiting),
    r.modelSeconds.toFixed(1),
    r.wallSeconds.toFixed(1),
    String(r.tokens),
    `${r.calls}${r.cachedCalls ? ` (+${r.cachedCalls} cached)` : ''}`,
    r.estimatedFlops == null ? 'n/a' : r.estimatedFlops === 0 ? '0' : r.estimatedFlops.toExponential(2),
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(w[i])).join('  ');
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...body.map(line)].join('\n');
}
