// The JSON-lines protocol of resources/python/worker.py: the first line a worker writes says
// whether it is ready (with its SymPy and Python versions); after that, one request per line in,
// one answer per line out, matched by id. Equations travel as our AST, never as source text.
import { SympyError, type SympyErrorCode } from './errors.ts';

/** Most a worker may write without ending the line before it is treated as broken. */
export const MAX_STDOUT_BUFFER = 16 * 1024 * 1024;

/** The first line of a worker. */
export type WorkerHello = { ready?: boolean; sympy?: string; python?: string; message?: string };

/** An answer line: `result` when ok, else `error`. `id` is null where the worker couldn't read the request's. */
export type WorkerAnswer = { id?: unknown; ok?: unknown; result?: unknown; error?: { code?: string; message?: string } };

/** A line parsed as JSON, or undefined when it isn't JSON. */
export function parseLine<T>(line: string): T | undefined {
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined;
  }
}

/**
 * The worker's own time limit for a request: a little shorter than the client's, so it normally
 * answers 'timeout' itself and stays alive; the client's kill is the backstop.
 */
export function softLimitMs(timeoutMs: number): number {
  return Math.max(1, Math.floor(timeoutMs - Math.min(1000, timeoutMs * 0.2)));
}

/** A request as one line, or why it can't be sent (an AST nested too deeply, a value JSON can't hold). */
export function encodeRequest(id: number, op: string, args: unknown, timeoutMs: number): string | SympyError {
  const soft = softLimitMs(timeoutMs);
  try {
    return JSON.stringify({ id, op, timeout_ms: soft, args: args ?? {} }) + '\n';
  } catch (e) {
    const deep = e instanceof RangeError;
    return new SympyError(
      deep ? 'too-complex' : 'bad-request',
      deep ? 'expression nested too deeply to send to SymPy' : `request can't be sent as JSON: ${e instanceof Error ? e.message : e}`,
    );
  }
}

/** The error an answer that isn't ok stands for. */
export function answerError(msg: WorkerAnswer): SympyError {
  const code = (msg.error?.code ?? 'failed') as SympyErrorCode;
  return new SympyError(code, msg.error?.message ?? 'SymPy worker error');
}

/** Complete non-blank lines taken off the front of `buffer`, and what is left of it. */
export function takeLines(buffer: string): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let nl: number;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim()) lines.push(line);
  }
  return { lines, rest: buffer };
}
