// Figures for the embedded extractor on the development set: coverage and precision overall and
// per tag, the blank/attachment/words-only check, and (with --wrong, --unread) the responses to
// look at. Run: node --import tsx scripts/extract-report.ts [--wrong] [--unread] [data-dir]
import { resolve } from 'node:path';
import { entailerComparator, evaluateExtraction, formatExtractReport, loadDevSet } from '../electron/engine/eval/figures.ts';

const args = process.argv.slice(2);
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? '../shared/data');
const set = loadDevSet(dir);
if (!set) {
  console.error(`no development set in ${dir}`);
  process.exit(1);
}
const { compare, close } = await entailerComparator();
try {
  const r = await evaluateExtraction(set.exam, set.responses, set.gold, compare);
  console.log(formatExtractReport(r, { wrong: args.includes('--wrong') }));
  if (args.includes('--unread')) {
    console.log('\nnot read with confidence:');
    for (const row of r.rows.filter((x) => x.extraction.status !== 'read' && x.extraction.status !== 'blank')) {
      console.log(`  ${row.studentId} ${row.questionId} ${row.extraction.status}`);
      for (const u of row.extraction.unread) console.log(`    ${JSON.stringify(u.text)}: ${u.reason}`);
    }
  }
} finally {
  await close();
}
