// What this build can do (app.info), the reading techniques and models on offer, and model
// downloads into Ollama.
import type { ApiHandlers } from '../../../shared/api.ts';
import { OllamaClient } from '../../engine/read/ollama/client.ts';
import { settingsWarnings } from '../../engine/read/ollama/settings.ts';
import { TECHNIQUE_INFO, TECHNIQUE_ORDER } from '../../../shared/techniques.ts';
import type { AppContext } from '../context.ts';

type Handlers = Pick<ApiHandlers, 'app.info' | 'grade.options' | 'ollama.pull' | 'ollama.pullStatus'>;

type OllamaState = { reachable: boolean; models: { name: string; size: number | null; digest: string | null; parameterSize: string | null }[]; note: string };

/** Whether Ollama answers at the configured address, and its installed models (a quick probe, no retries). */
async function ollamaState(ctx: AppContext): Promise<OllamaState> {
  const client = new OllamaClient({ url: ctx.settings.ollamaUrl, timeoutMs: 1500, retries: 0 });
  try {
    const models = (await client.listModels()).map((m) => ({
      name: m.name,
      size: m.size ?? null,
      digest: m.digest ? m.digest.replace(/^sha256:/, '') : null,
      parameterSize: m.parameterSize || null,
    }));
    return { reachable: true, models, note: '' };
  } catch (e) {
    return { reachable: false, models: [], note: `(${(e as Error).message.split('\n')[0]})` };
  }
}

/** The model pipeline's state for Settings: usable only when Ollama answers with a model installed. */
async function ollamaFeature(ctx: AppContext): Promise<{ available: boolean; note: string }> {
  const { reachable, models } = await ollamaState(ctx);
  const techniques = TECHNIQUE_ORDER.filter((t) => TECHNIQUE_INFO[t].minModels > 0).join(', ');
  if (!reachable) return { available: false, note: `Ollama is not running at ${ctx.settings.ollamaUrl}: responses are read by the embedded extractor alone` };
  if (models.length === 0) return { available: false, note: `Ollama at ${ctx.settings.ollamaUrl} has no models installed` };
  const more = ctx.settings.ollamaMoreUrls ?? [];
  // Every server off this machine is said, since student responses would be sent there.
  const warnings = settingsWarnings({ url: ctx.settings.ollamaUrl, urls: [ctx.settings.ollamaUrl, ...more] }).map((w) => ` Warning: ${w}`);
  return {
    available: true,
    note:
      `${models.length} model${models.length > 1 ? 's' : ''} at ${ctx.settings.ollamaUrl}${more.length ? ` (and ${more.length} more server${more.length > 1 ? 's' : ''}: ${more.join(', ')})` : ''} (techniques: ${techniques})` +
      warnings.join(''),
  };
}

/** The SymPy prover's state for Settings: known once the engine has started. */
async function sympyFeature(ctx: AppContext): Promise<{ available: boolean; note: string }> {
  const e = await ctx.startedEngine();
  const st = e?.sympyStatus() ?? null;
  if (!e)
    return { available: true, note: `starts with the first grading${ctx.settings.pythonPath.trim() ? ` (Python: ${ctx.settings.pythonPath.trim()})` : ''}` };
  if (!st) return { available: false, note: 'not used in this build' };
  const ok = st.state !== 'unavailable';
  return { available: ok, note: `${st.message}${ctx.engineNotice && !ok ? ` (${ctx.engineNotice})` : ''}` };
}

/** Where the answer groups' lists are compared: in a worker thread, or on the main thread (and why). */
function groupsWorkerFeature(ctx: AppContext): { available: boolean; note: string } {
  const t = ctx.startedGroupsThread();
  if (t?.failure)
    return { available: false, note: `${t.failure}: the answer groups are compared on the main thread, so the views may be slower while they are` };
  if (t) return { available: true, note: 'the answer groups are compared in a worker thread, beside the views' };
  return ctx.wantsGroupsThread()
    ? { available: true, note: 'the answer groups will be compared in a worker thread (it starts when they are first prepared)' }
    : { available: false, note: 'the answer groups are compared on the main thread (a workspace in memory, or an engine given by the caller)' };
}

export function modelHandlers(ctx: AppContext): Handlers {
  return {
    'app.info': async () => {
      const techs = await ctx.techniques();
      return {
        version: ctx.opts.version ?? '0.1.0',
        mode: ctx.opts.mode,
        workspace: ctx.opts.workspacePath,
        features: {
          workspace: { available: true, note: `SQLite workspace at ${ctx.opts.workspacePath}` },
          'embedded extractor': techs.embedded
            ? { available: true, note: 'reads responses inside Equimark, no model needed' }
            : { available: false, note: 'not in this build: only responses written entirely as equations are read (the plain reader)' },
          'Ollama models': techs.hybrid ? await ollamaFeature(ctx) : { available: false, note: 'the model pipeline is not in this build' },
          'symbolic engine': { available: true, note: 'Z3 with a numeric fast path decides every mark' },
          'SymPy checker': await sympyFeature(ctx),
          'answer groups worker': groupsWorkerFeature(ctx),
          // A settings file that could not be read: the defaults are used, and this says why.
          ...(ctx.settingsProblem ? { settings: { available: false, note: ctx.settingsProblem } } : {}),
        },
      };
    },

    'grade.options': async () => {
      const techs = await ctx.techniques();
      const { reachable, models, note } = await ollamaState(ctx);
      const ready = reachable && models.length > 0;
      const why = !reachable ? `Ollama is not running at ${ctx.settings.ollamaUrl}.` : models.length === 0 ? 'Ollama has no models installed.' : null;
      const techniques = TECHNIQUE_ORDER.filter((id) => techs[id]).map((id) => {
        const info = TECHNIQUE_INFO[id];
        const available = info.minModels === 0 || (ready && models.length >= info.minModels);
        // Without Ollama the banner says why once; here only a missing second model is worth saying.
        const note = info.minModels === 0 || available || why ? info.note : `${info.note} Needs ${info.minModels} installed models.`;
        return { id, label: info.label, available, note, minModels: info.minModels, maxModels: info.maxModels };
      });
      // Hybrid with the preferred model (Settings) or the first installed one; else the embedded extractor.
      const preferred = ctx.settings.models.filter((m) => models.some((x) => x.name === m));
      const recommended =
        ready && techs.hybrid
          ? { technique: 'hybrid' as const, models: [preferred[0] ?? models[0].name] }
          : { technique: techs.embedded ? ('embedded' as const) : ('plain' as const), models: [] };
      return {
        embedded: { available: Boolean(techs.embedded), note: TECHNIQUE_INFO.embedded.note },
        ollama: { reachable, url: ctx.settings.ollamaUrl, models, note },
        techniques,
        recommended,
      };
    },

    'ollama.pull': async ({ model }) => ctx.downloads.start(model, ctx.settings.ollamaUrl),
    'ollama.pullStatus': async () => ctx.downloads.progress(),
  };
}
