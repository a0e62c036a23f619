// Settings: Ollama's address (and more servers a batch spreads over), the model time-out,
// preferred models, the Python for SymPy, the GPU for the energy estimate; kept in the file beside
// the workspace (settings-file.ts).
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import { GPU_BOARD_POWER_W, gpuPower } from '../../engine/read/ollama/accounting.ts';
import { resolveOllamaUrls } from '../../engine/read/ollama/settings.ts';
import type { AppContext } from '../context.ts';
import { saveSettings } from '../settings-file.ts';

type Handlers = Pick<ApiHandlers, 'settings.get' | 'settings.set'>;

export function settingsHandlers(ctx: AppContext): Handlers {
  return {
    'settings.get': async () => ctx.settings,

    'settings.set': async (s) => {
      if (s.gpu?.trim() && gpuPower(s.gpu) == null) {
        throw new ApiFailure({
          code: 'invalid-request',
          message: `unknown GPU '${s.gpu.trim()}': give its board power in watts (e.g. '320W') or one of: ${Object.keys(GPU_BOARD_POWER_W).join(', ')}`,
        });
      }
      // The servers of a batch: each address once, read as Ollama's tools read it.
      try {
        resolveOllamaUrls([s.ollamaUrl, ...(s.ollamaMoreUrls ?? [])]);
      } catch (e) {
        throw new ApiFailure({ code: 'invalid-request', message: (e as Error).message });
      }
      const pythonChanged = s.pythonPath.trim() !== ctx.settings.pythonPath.trim();
      ctx.settings = s;
      // A new Python path takes effect at once, grading or not: the engine swaps its SymPy worker
      // and decides its cached sampling verdicts again; the SymPy evidence is recomputed.
      if (pythonChanged) {
        ctx.engineNotice = null;
        ctx.sympyDetails.clear();
        // The answer groups' worker builds its engine from the same options: it swaps too.
        ctx.startedGroupsThread()?.setSympy(ctx.sympyOptions());
        const e = await ctx.startedEngine();
        if (e) {
          await e.setSympy(ctx.sympyOptions());
          // Try the new path now, so Settings can say at once whether it works (a few hundred ms;
          // bounded, and a failure is what the status then reports).
          if (e.sympy) await Promise.race([e.sympy.start().catch(() => null), new Promise((ok) => setTimeout(ok, 8000))]);
        }
      }
      saveSettings(ctx.settingsPath, s);
      ctx.settingsProblem = null;
      return s;
    },
  };
}
