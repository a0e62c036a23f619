// Creates the entailment engine (electron/engine/entail/index.ts, `Entailer.create()`), loaded
// lazily so the CLI can report a clear error if it is missing or fails to start.
import type { EntailmentEngine } from './entail/types.ts';

export async function createEngine(): Promise<EntailmentEngine> {
  const path = './entail/index.ts';
  let mod: { Entailer?: { create(): Promise<EntailmentEngine> } };
  try {
    mod = (await import(path)) as typeof mod;
  } catch (e) {
    throw new Error(`the entailment engine could not be loaded (${(e as Error).message})`);
  }
  if (!mod.Entailer) throw new Error('the entailment engine module has no Entailer');
  return mod.Entailer.create();
}
