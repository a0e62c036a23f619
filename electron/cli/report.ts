// The lines the commands print about a run: progress, model use (calls, tokens, time, compute,
// energy), responses waiting for the model, and responses that hit an engine error.
import type { GradeProgress } from '../engine/grade.ts';
import type { BatchAccounting } from '../engine/read/ollama/accounting.ts';
import { oneLine, type Io } from './io.ts';

/** A response the engine failed on (the grade result's `engineErrors`). */
export type EngineErrorEntry = { studentId: string; questionId: string; message: string };

/** The engine errors of a grade result, read defensively (absent on results that don't carry them). */
export function engineErrorsOf(result: unknown): EngineErrorEntry[] {
  const list = (result as { engineErrors?: unknown } | null | undefined)?.engineErrors;
  if (!Array.isArray(list)) return [];
  return list.map((e: { studentId?: unknown; questionId?: unknown; message?: unknown }) => ({
    studentId: String(e?.studentId ?? '?'),
    questionId: String(e?.questionId ?? '?'),
    message: String(e?.message ?? 'unknown error'),
  }));
}

/** Lines on stderr for responses that hit an engine error, each named; one message said once for all it hit. */
export function engineErrorLines(list: readonly EngineErrorEntry[]): string[] {
  if (list.length === 0) return [];
  const byMessage = new Map<string, string[]>();
  for (const e of list) {
    const m = oneLine(e.message);
    if (!byMessage.has(m)) byMessage.set(m, []);
    byMessage.get(m)!.push(`${e.studentId}/${e.questionId}`);
  }
  return [
    `${list.length} response${list.length === 1 ? '' : 's'} hit an engine error (left ungraded; the rest is graded and written):`,
    ...[...byMessage].map(([m, who]) => `  ${who.join(', ')}: ${m}`),
    'Run the same command again to retry them; if they fail again, report the messages above.',
  ];
}

/** Progress on stderr, redrawn in place; only on a terminal. */
export function progressPrinter(io: Io): (p: GradeProgress) => void {
  let last = 0;
  return (p) => {
    if (!io.isTTY) return;
    const t = Date.now();
    if (p.done !== p.total && t - last < 100) return;
    last = t;
    const who = p.studentId ? ` ${p.studentId}/${p.questionId}` : '';
    // Time left at the rate of the recent window (grade()'s estimate), once there is one.
    const left = p.etaSeconds != null && p.done < p.total ? `, about ${Math.ceil(p.etaSeconds)} s left` : '';
    io.err(`\r\x1b[K${p.phase} ${p.done}/${p.total}${left}${who}${p.done === p.total ? '\n' : ''}`);
  };
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Lines on a batch's model use: calls, tokens, time, estimated FLOPs and energy. */
export function accountingLines(technique: string, models: string[], a: BatchAccounting, gpu?: string, unreachable?: string): string[] {
  if (a.calls === 0 && a.cachedCalls === 0)
    return [`model (${technique}): ${unreachable ? `no call could be made (${unreachable})` : 'no call was needed this run'}`];
  const out = [
    `model (${technique}, ${models.join(' + ') || 'unresolved'}): ${a.calls} calls${a.cachedCalls ? ` (+${a.cachedCalls} replayed from the reply cache, ${a.cachedTokens} tokens not spent again)` : ''}, ` +
      `tokens ${a.tokensIn} in / ${a.tokensOut} out; model busy ${secs(a.modelBusyMs)}, batch ${secs(a.batchWallMs)}`,
    `estimated compute: ${a.estimatedFlops == null ? 'unknown (a model did not report its size)' : `${a.estimatedFlops.toExponential(2)} FLOPs`} (2 x parameters x tokens, an estimate)`,
  ];
  if (a.energy)
    out.push(
      `estimated energy: ${a.energy.wattHours.toFixed(3)} Wh (${Math.round(a.energy.joules)} J) on ${a.energy.gpu} at ${a.energy.boardPowerW} W board power x busy time; an estimate`,
    );
  else if (!gpu) out.push('estimated energy: give --gpu NAME (e.g. "RTX 4090") for an estimate');
  return out;
}

/**
 * Lines on stderr for the responses that wait for the model, each named with its fault (which
 * server, what went wrong): one fault for all is said once in the heading, several are grouped;
 * a response without a stored reason gets the run's.
 */
export function waitingLines(list: { studentId: string; questionId: string; reason?: string }[], reason: string | undefined, rerun: string): string[] {
  const byReason = new Map<string, string[]>();
  for (const w of list) {
    const why = oneLine(w.reason ?? reason ?? 'the model could not be reached');
    if (!byReason.has(why)) byReason.set(why, []);
    byReason.get(why)!.push(`${w.studentId}/${w.questionId}`);
  }
  const head = `${list.length} response${list.length === 1 ? '' : 's'} wait${list.length === 1 ? 's' : ''} for the model`;
  const unreachable = [...byReason.keys()].every((why) => /cannot reach Ollama/.test(why));
  return [
    ...(byReason.size === 1
      ? [`${head} (${[...byReason.keys()][0]}):`, ...list.map((w) => `  ${w.studentId}/${w.questionId}`)]
      : [`${head}:`, ...[...byReason].map(([why, who]) => `  ${who.join(', ')}: ${why}`)]),
    'A read that failed is never stored as a reading. What the embedded extractor read of them is kept and graded meanwhile (flag waiting-for-model).',
    `To finish them, ${unreachable ? 'start Ollama' : 'mend the fault above (start Ollama, pull the model, repair the server)'} and run again: ${rerun}`,
    'Only these are read again; everything else is kept as it is. (--technique embedded stops waiting and keeps the embedded reading.)',
  ];
}

/** With several Ollama servers: how many responses each read, and which were taken out of the batch and why. */
export function serverLines(servers: { url: string; read: number; down?: string }[] | undefined): string[] {
  if (!servers || servers.length < 2) return [];
  return servers.map(
    (s) => `server ${s.url}: read ${s.read} response${s.read === 1 ? '' : 's'}${s.down ? `; taken out of the batch: ${oneLine(s.down)}` : ''}`,
  );
}

export const shellQuote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** A size in bytes, as GB. */
export const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(1)} GB`;
