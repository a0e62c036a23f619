// Figures for the embedded extractor on the development set: coverage and precision overall and
// per tag, the blank/attachment/words-only check, and (with --wrong, --unread) the responses to
// look at. The same loop, loaders and engine as `equimark eval` (marks are not compared here).
// Run: node --import tsx scripts/extract-report.ts [--wrong] [--unread] [data-dir]
import { resolve } from 'node:path';
import { loadEvalDir } from '../electron/engine/eval/set.ts';
import { formatFiguresReport, runEval } from '../electron/engine/eval/run.ts';
import { createEngine } from '../electron/engine/decide/engine-factory.ts';
import { resolveTechnique } from '../electron/engine/read/registry.ts';

const args = process.argv.slice(2);
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? '../shared/data');
const set = loadEvalDir(dir);
if (!set) {
  console.error(`no development set in ${dir}`);
  process.exit(1);
}
const engine = await createEngine();
try {
  const { report, batch } = await runEval({
    exam: set.exam,
    engine,
    technique: await resolveTechnique('embedded'),
    responses: set.responses,
    gold: set.gold,
    marks: false,
  });
  console.log(formatFiguresReport(report, { wrong: args.includes('--wrong') }));
  if (args.includes('--unread')) {
    console.log('\nnot read with confidence:');
    for (const item of batch.items.filter((x) => x.extraction.status !== 'read' && x.extraction.status !== 'blank')) {
      const [studentId, questionId] = [item.id.slice(0, item.id.lastIndexOf('/')), item.question.id];
      console.log(`  ${studentId} ${questionId} ${item.extraction.status}`);
      for (const u of item.extraction.unread) console.log(`    ${JSON.stringify(u.text)}: ${u.reason}`);
    }
  }
} finally {
  await engine.close();
}
