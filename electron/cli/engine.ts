// The entailment engine a command decides with, opened for the command and closed after it.
import { createEngine } from '../engine/decide/engine-factory.ts';
import type { EntailmentEngine } from '../engine/decide/entail/types.ts';

/** Runs body with an entailment engine, closed afterwards. */
export async function withEngine<T>(body: (engine: EntailmentEngine) => Promise<T>): Promise<T> {
  const engine = await createEngine();
  try {
    return await body(engine);
  } finally {
    await engine.close();
  }
}
