// The embedded extractor on the whole development set (../shared/data): no blank, attachment-only
// or words-only response gets an equation, and coverage / precision stay above the goals, measured
// with the real list comparator (the entailment engine). Skips cleanly when the data is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { entailerComparator, evaluateExtraction, formatExtractReport, loadDevSet, mustBeEmpty } from '../../electron/engine/eval/figures.ts';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { parseEquation } from '../../shared/equation/index.ts';

const set = loadDevSet(resolve('../shared/data'));
const skip = set ? false : 'development data (../shared/data) not present';

test('no blank, attachment-only or words-only response gets an equation', { skip }, () => {
  const qs = new Map(set!.exam.questions.map((q) => [q.id, q]));
  const gold = new Map(set!.gold.map((g) => [`${g.studentId}/${g.questionId}`, g]));
  let checked = 0;
  for (const r of set!.responses) {
    const g = gold.get(`${r.studentId}/${r.questionId}`)!;
    const x = extractEmbedded(r.text, qs.get(r.questionId)!);
    // Every emitted equation is in the strict grammar with the question's variables.
    for (const e of x.equations) assert.ok(parseEquation(e.source, { variables: qs.get(r.questionId)!.variables.map((v) => v.name) }).ok, e.source);
    if (!mustBeEmpty(g)) continue;
    checked++;
    assert.deepEqual(x.equations, [], `${r.studentId} ${r.questionId}`);
    if (g.tags.includes('blank')) assert.equal(x.status, 'blank');
    if (g.tags.includes('attachment')) assert.ok(x.flags.includes('attachment'));
    if (g.tags.includes('words-only')) assert.ok(x.flags.includes('words-only'));
  }
  assert.ok(checked >= 5);
});

test('coverage >= 60% and precision >= 98% against gold (entailment comparator)', { skip, timeout: 120_000 }, async () => {
  const { compare, close } = await entailerComparator();
  try {
    const r = await evaluateExtraction(set!.exam, set!.responses, set!.gold, compare);
    const msg = formatExtractReport(r, { wrong: true });
    assert.equal(r.violations.length, 0, msg);
    assert.ok(r.overall.coverage >= 0.6, msg);
    assert.ok(r.overall.precision >= 0.98, msg);
  } finally {
    await close();
  }
});
