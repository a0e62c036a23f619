// Embedded extractor throughput: development responses read per second (repeated for a stable
// figure), against a baseline measured in the same run (splitting the same texts into lines).
// Standalone: node --import tsx bench/extract.bench.ts
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadDevSet } from '../electron/engine/eval/figures.ts';
import { extractEmbedded } from '../shared/extract/index.ts';

export async function main(): Promise<void> {
  const set = loadDevSet(resolve('../shared/data'));
  if (!set) {
    console.log('extract bench: development data (../shared/data) not present, skipped');
    return;
  }
  const qs = new Map(set.exam.questions.map((q) => [q.id, q]));
  const work = set.responses.filter((r) => qs.has(r.questionId)).map((r) => ({ text: r.text, q: qs.get(r.questionId)! }));
  const time = (fn: () => void, minMs = 1500): { perSec: number; n: number } => {
    fn(); // warm up
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < minMs) {
      fn();
      n += work.length;
    }
    return { perSec: (n * 1000) / (performance.now() - t0), n };
  };
  let sink = 0;
  const base = time(() => {
    for (const w of work) sink += w.text.split('\n').length;
  }, 300);
  const ex = time(() => {
    for (const w of work) sink += extractEmbedded(w.text, w.q).equations.length;
  });
  console.log(`responses: ${work.length} (development set), ${ex.n} extractions`);
  console.log(`embedded extractor: ${Math.round(ex.perSec).toLocaleString('en')} responses/s (goal: well over 1,000/s)`);
  console.log(
    `baseline (split lines): ${Math.round(base.perSec).toLocaleString('en')} responses/s; ratio ${(base.perSec / ex.perSec).toFixed(0)}x slower than the baseline`,
  );
  if (sink < 0) console.log(sink);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
