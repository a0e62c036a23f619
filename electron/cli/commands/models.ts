// `equimark models`: the models installed in Ollama, with their digests.
import { parseArgs, UsageError } from '../args.ts';
import type { Io } from '../io.ts';
import { ollamaAt } from '../model-options.ts';
import { gb } from '../report.ts';

export async function cmdModels(argv: string[], io: Io): Promise<number> {
  const { opts, flags, positionals } = parseArgs(argv, { values: ['ollama-url'], flags: ['json'] });
  if (positionals.length) throw new UsageError(`models: unexpected argument '${positionals[0]}'`);
  const { url, client } = ollamaAt(opts, 'models', io);
  const models = await client.listModels();
  if (flags.has('json')) {
    io.out(`${JSON.stringify({ url, models }, null, 2)}\n`);
    return 0;
  }
  if (models.length === 0) {
    io.out(`Ollama at ${url} has no models installed (equimark pull NAME downloads one)\n`);
    return 0;
  }
  const rows = models.map((m) => [m.name, m.parameterSize || '?', gb(m.size), m.digest.replace(/^sha256:/, '').slice(0, 12)]);
  const head = ['model', 'parameters', 'size', 'digest'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows])
    io.out(
      `${r
        .map((c, i) => c.padEnd(w[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
  return 0;
}
