// Compute accounting per batch: tokens, wall time, estimated FLOPs (2 x parameters x tokens, the
// study's rule of thumb for a forward pass) and estimated energy on a GPU the user names
// (board power x time the model was busy). Both are estimates, and are labelled so.

/** Typical board power (W) of common GPUs: the manufacturer's TDP/TBP, not a measurement. */
export const GPU_BOARD_POWER_W: Record<string, number> = {
  'rtx 3060': 170,
  'rtx 3070': 220,
  'rtx 3080': 320,
  'rtx 3090': 350,
  'rtx 4060': 115,
  'rtx 4070': 200,
  'rtx 4080': 320,
  'rtx 4090': 450,
  'rtx 5090': 575,
  'rtx a6000': 300,
  l4: 72,
  l40s: 350,
  a10: 150,
  a100: 400,
  h100: 700,
  h200: 700,
  'apple m2': 40,
  'apple m3': 40,
  cpu: 65,
};

/** Board power for a GPU name ("RTX 4090", "nvidia-h100", "A100 80GB"), or null when unknown. */
export function gpuPower(name: string): number | null {
  const n = name
    .toLowerCase()
    .replace(/nvidia|geforce|[-_]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Longest key that occurs as a whole word sequence wins ("rtx 4090" before "rtx 40...").
  const keys = Object.keys(GPU_BOARD_POWER_W).sort((a, b) => b.length - a.length);
  for (const k of keys) {
    const re = new RegExp(`(^|\\s)${k.replace(/\s/g, '\\s?')}(\\s|$|\\d*gb|\\s*(sxm|pcie|ti|super))`);
    if (re.test(n)) return GPU_BOARD_POWER_W[k];
  }
  const w = /^(\d+(?:\.\d+)?)\s*w$/.exec(n);
  return w ? Number(w[1]) : null;
}

/** "7.6B" -> 7.6e9, "494.03M" -> 4.9403e8, "8x7B" -> 5.6e10; null when it can't be read. */
export function parseParameterSize(s: string | undefined | null): number | null {
  if (!s) return null;
  const m = /^\s*(?:(\d+)\s*x\s*)?(\d+(?:\.\d+)?)\s*([KMBT])?\s*$/i.exec(s);
  if (!m) return null;
  const mult = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[(m[3] ?? '').toUpperCase() as 'K'] ?? 1;
  return (m[1] ? Number(m[1]) : 1) * Number(m[2]) * mult;
}

/** Parameters of a model from an /api/show reply: model_info's general.parameter_count, else details.parameter_size. */
export function parameterCount(show: { details?: { parameter_size?: string }; model_info?: unknown }): number | null {
  const info = show.model_info as Record<string, unknown> | Map<string, unknown> | undefined;
  const v = info instanceof Map ? info.get('general.parameter_count') : info?.['general.parameter_count'];
  if (typeof v === 'number' && v > 0) return v;
  return parseParameterSize(show.details?.parameter_size);
}

/** What accounting needs from each model call. */
export type CallUsage = {
  model: string;
  digest: string;
  tokensIn: number;
  tokensOut: number;
  /** Client-side wall time of the call, ms. */
  wallMs: number;
  /** Start time (ms since epoch) — for the union of busy intervals. */
  startedAt: number;
  /** Served from the reply cache: it cost nothing now. */
  cached: boolean;
};

export type ModelAccounting = {
  model: string;
  digest: string;
  parameters: number | null;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  flops: number | null;
};

export type BatchAccounting = {
  /** Model calls actually made (not from the cache). */
  calls: number;
  cachedCalls: number;
  tokensIn: number;
  tokensOut: number;
  /** Tokens of replies replayed from the cache (not spent again). */
  cachedTokens: number;
  /** Tokens the technique needed, live + cached (what a cold run costs; for comparing techniques). */
  tokensNeeded: number;
  /** Model time the technique needed, ms: live calls + the original time of cached ones. */
  modelCallMsNeeded: number;
  /** Sum of the calls' wall times, ms (what the calls would take one after another). */
  modelCallMs: number;
  /** Time at least one model call was in flight, ms (the GPU's busy time as the client saw it). */
  modelBusyMs: number;
  /** Whole batch, start to end, ms. */
  batchWallMs: number;
  /** 2 x parameters x tokens, summed over models; null if a model's size is unknown. */
  estimatedFlops: number | null;
  /** Energy estimate for the named GPU: board power x busy time. */
  energy: { gpu: string; boardPowerW: number; joules: number; wattHours: number; note: string } | null;
  perModel: ModelAccounting[];
  note: string;
};

function busyUnion(calls: CallUsage[]): number {
  const iv = calls.map((c) => [c.startedAt, c.startedAt + c.wallMs] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let cur: [number, number] | null = null;
  for (const [s, e] of iv) {
    if (!cur || s > cur[1]) {
      if (cur) total += cur[1] - cur[0];
      cur = [s, e];
    } else if (e > cur[1]) cur[1] = e;
  }
  if (cur) total += cur[1] - cur[0];
  return total;
}

export function computeAccounting(
  usage: CallUsage[],
  opts: { batchWallMs: number; parameters?: Record<string, number | null>; gpu?: string | null; gpuPowerW?: number | null },
): BatchAccounting {
  const live = usage.filter((c) => !c.cached);
  const cached = usage.filter((c) => c.cached);
  const byModel = new Map<string, ModelAccounting>();
  for (const c of live) {
    const key = `${c.model}@${c.digest}`;
    let m = byModel.get(key);
    if (!m) {
      const p = opts.parameters?.[c.digest] ?? opts.parameters?.[c.model] ?? null;
      m = { model: c.model, digest: c.digest, parameters: p, calls: 0, tokensIn: 0, tokensOut: 0, flops: null };
      byModel.set(key, m);
    }
    m.calls++;
    m.tokensIn += c.tokensIn;
    m.tokensOut += c.tokensOut;
  }
  let flops: number | null = 0;
  for (const m of byModel.values()) {
    m.flops = m.parameters == null ? null : 2 * m.parameters * (m.tokensIn + m.tokensOut);
    flops = flops == null || m.flops == null ? null : flops + m.flops;
  }
  const busy = busyUnion(live);
  let energy: BatchAccounting['energy'] = null;
  const power = opts.gpuPowerW ?? (opts.gpu ? gpuPower(opts.gpu) : null);
  if (opts.gpu || opts.gpuPowerW) {
    if (power == null)
      throw new Error(`unknown GPU '${opts.gpu}': give its board power in watts (e.g. '320W') or one of: ${Object.keys(GPU_BOARD_POWER_W).join(', ')}`);
    const joules = (power * busy) / 1000;
    energy = {
      gpu: opts.gpu ?? `${power} W`,
      boardPowerW: power,
      joules,
      wattHours: joules / 3600,
      note: 'estimate: board power x time the model was busy; real draw is usually lower and excludes the rest of the machine',
    };
  }
  return {
    calls: live.length,
    cachedCalls: cached.length,
    tokensIn: live.reduce((s, c) => s + c.tokensIn, 0),
    tokensOut: live.reduce((s, c) => s + c.tokensOut, 0),
    cachedTokens: cached.reduce((s, c) => s + c.tokensIn + c.tokensOut, 0),
    tokensNeeded: usage.reduce((s, c) => s + c.tokensIn + c.tokensOut, 0),
    modelCallMsNeeded: usage.reduce((s, c) => s + c.wallMs, 0),
    modelCallMs: live.reduce((s, c) => s + c.wallMs, 0),
    modelBusyMs: busy,
    batchWallMs: opts.batchWallMs,
    estimatedFlops: byModel.size === 0 ? 0 : flops,
    energy,
    perModel: [...byModel.values()],
    note: 'FLOPs = 2 x parameters x (tokens in + out), an estimate; cached replies cost nothing and are counted apart',
  };
}
