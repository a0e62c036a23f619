// What the commands share for input and output: the Io they write to, the exit statuses, input
// errors (a file that can't be read, a missing required option) and the one-line error text.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { fileBytes, type ByteSource } from '../engine/io/csv/csv-pieces.ts';
import { UsageError } from './args.ts';

export type Io = { out: (s: string) => void; err: (s: string) => void; isTTY: boolean };

export const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), isTTY: !!process.stderr.isTTY };

/** Exit status when responses wait for the model. */
export const EXIT_WAITING = 3;
/** Exit status when some responses hit an engine error (listed on stderr; the rest is graded). */
export const EXIT_ENGINE_ERRORS = 4;

/** An error message on one line (a multi-line message's lines joined with ' | '). */
export function oneLine(message: string): string {
  return message
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' | ');
}

/** What the top level prints for an unexpected error: one line, the stack only when debugging. */
export function unexpectedErrorText(e: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const debug = !!env.EQUIMARK_DEBUG && env.EQUIMARK_DEBUG !== '0';
  if (debug) return `error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`;
  const msg = e instanceof Error ? e.message || e.name : String(e);
  return `error: ${oneLine(msg) || 'unknown error'} (set EQUIMARK_DEBUG=1 for details)\n`;
}

/** Bad input (a file, a folder, a question): printed as `equimark: ...`, exit 1. */
export class InputError extends Error {
  override name = 'InputError';
}

export function readInput(path: string, what: string): Buffer {
  try {
    if (statSync(path).isDirectory()) throw new InputError(`${path}: is a directory, expected the ${what}`);
    return readFileSync(path);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${path}: cannot read the ${what} (${code === 'ENOENT' ? 'no such file' : (code ?? (e as Error).message)})`);
  }
}

/** A file's bytes read a piece at a time (a class's CSV is never held whole), checked as readInput checks. */
export function inputBytes(path: string, what: string): ByteSource {
  try {
    if (statSync(path).isDirectory()) throw new InputError(`${path}: is a directory, expected the ${what}`);
    accessSync(path, constants.R_OK);
    return fileBytes(path);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${path}: cannot read the ${what} (${code === 'ENOENT' ? 'no such file' : (code ?? (e as Error).message)})`);
  }
}

export function need(opts: Record<string, string>, name: string, cmd: string): string {
  const v = opts[name];
  if (!v) throw new UsageError(`${cmd}: --${name} is required`);
  return v;
}
