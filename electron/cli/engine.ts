// The entailment engine a command decides with, opened for the command and closed after it.
import { createEngine } from '../engine/decide/engine-factory.ts';
import type { EntailmentEngine } from '../engine/decide/entail/types.ts';

/**
 * Runs body with an entailment engine, closed afterwards. Z3 is prepared at its first query, not
 * as the engine is made: a command's re-grade or re-run whose pairs are all kept in the workspace
 * asks it nothing (the app, which makes its engine ahead of the lists it compares, prepares it ahead).
 */
export async function withEngine<T>(body: (engine: EntailmentEngine) => Promise<T>): Promise<T> {
  const engine = await createEngine({ entailer: { z3Ahead: false } });
  try {
    return await body(engine);
  } finally {
    await engine.close();
  }
}
