// The study's Table I: per technique, time, tokens and correct answers against gold lists.
// "Correct" is the extraction accuracy metric of ../shared/data/README.md, decided once per
// response by the evaluation loop (eval/run.ts, goldEquivalent); this module only tallies a
// batch's accounting beside it and prints the table.
import type { BatchResult } from '../read/model/batch.ts';

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

/** A technique's row: its batch (time, tokens, review) and how many of the scored responses were correct. */
export function tableOneRow(technique: string, result: BatchResult, tally: { scored: number; correct: number }): TableOneRow {
  const a = result.accounting;
  return {
    technique,
    models: result.models.map((m) => `${m.name}@${m.digest.slice(0, 12)}`).join(' + '),
    responses: result.items.length,
    scored: tally.scored,
    correct: tally.correct,
    accuracy: tally.scored ? tally.correct / tally.scored : 0,
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
  };
}

/** Table I as aligned text (for the CLI). */
export function formatTableOne(rows: readonly TableOneRow[]): string {
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
