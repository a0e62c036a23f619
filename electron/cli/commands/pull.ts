// `equimark pull NAME`: download a model into Ollama, showing progress.
import { OllamaClient } from '../../engine/read/ollama/client.ts';
import { parseArgs, UsageError } from '../args.ts';
import type { Io } from '../io.ts';
import { ollamaAt } from '../model-options.ts';
import { gb } from '../report.ts';

export async function cmdPull(argv: string[], io: Io): Promise<number> {
  const { opts, positionals } = parseArgs(argv, { values: ['ollama-url'], flags: [] });
  if (positionals.length !== 1) throw new UsageError(`pull: give one model name, got ${positionals.length}`);
  const name = positionals[0];
  const { url, client } = ollamaAt(opts, 'pull', io);
  let lastStatus = '';
  let lastDraw = 0;
  await client.pull(name, (p) => {
    const pct = p.fraction !== undefined ? ` ${(100 * p.fraction).toFixed(0)}%${p.total ? ` of ${gb(p.total)}` : ''}` : '';
    if (io.isTTY) {
      const t = Date.now();
      if (p.status === lastStatus && t - lastDraw < 200) return;
      lastDraw = t;
      io.err(`\r\x1b[K${p.status}${pct}`);
    } else if (p.status !== lastStatus) io.err(`${p.status}${pct}\n`);
    lastStatus = p.status;
  });
  if (io.isTTY) io.err('\n');
  const m = OllamaClient.findModel(await client.listModels(), name);
  io.out(`pulled ${name} into Ollama at ${url}${m ? ` (digest ${m.digest.replace(/^sha256:/, '').slice(0, 12)})` : ''}\n`);
  return 0;
}
