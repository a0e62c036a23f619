// An equations CSV is read through once as CSV before any of its lists is stored, so that a file
// malformed anywhere changes nothing (csv/equations.ts checkEquationsCsvRecords: 0.45 to 0.8 s of
// a 67,500-row re-run's 3.5 s). Whether bytes are well-formed CSV depends on the bytes alone, so
// the SHA-256 of the last file read through without error is kept in the output folder, and a
// run given the same bytes again (a re-run, a re-grade after a scheme change) skips that read.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkEquationsCsvRecords } from './csv/equations.ts';
import type { ByteSource } from './csv/csv-pieces.ts';
import { writeFileAtomic } from './csv/write.ts';

/** The record kept in the output folder, beside the exports' (export-stamp.ts). */
export const READ_THROUGH_FILE = '.equimark-read-through.json';

/**
 * Which check the kept hash passed: bump it whenever checkEquationsCsvRecords comes to refuse
 * something it passed before, so a file passed by an older check is read through again.
 */
export const READ_THROUGH_CHECK = 'equations-csv-records.1';

/** The SHA-256 of the last equations CSV read through without error into `dir`, if any (anything unreadable: none). */
export function knownReadThrough(dir: string): string | undefined {
  try {
    const kept = JSON.parse(readFileSync(join(dir, READ_THROUGH_FILE), 'utf8')) as { sha256?: unknown; check?: unknown };
    const sha = kept.sha256;
    return kept.check === READ_THROUGH_CHECK && typeof sha === 'string' && /^[0-9a-f]{64}$/.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

/** Keep `sha256` as the last file read through without error into `dir`. */
export function keepReadThrough(dir: string, sha256: string): void {
  writeFileAtomic(join(dir, READ_THROUGH_FILE), `${JSON.stringify({ sha256, check: READ_THROUGH_CHECK })}\n`);
}

const sha256Of = async (source: ByteSource): Promise<string> => {
  const h = createHash('sha256');
  for await (const chunk of source) h.update(chunk);
  return h.digest('hex');
};

/**
 * checkEquationsCsvRecords over `open()`'s bytes, unless they hash to `known` (bytes read through
 * without error before). Returns the SHA-256 of the bytes read through (hashed as they were read,
 * so it names exactly what was checked), or `known` when they were skipped; throws CsvFileError
 * as checkEquationsCsvRecords does.
 */
export async function readThroughUnlessKnown(open: () => ByteSource, known: string | undefined, file?: string): Promise<string> {
  if (known !== undefined && (await sha256Of(open())) === known) return known;
  const h = createHash('sha256');
  const source = open();
  await checkEquationsCsvRecords(
    (async function* () {
      for await (const chunk of source) {
        h.update(chunk);
        yield chunk;
      }
    })(),
    file,
  );
  return h.digest('hex');
}

/**
 * `source`'s bytes passed on as they are read, hashed: `sha256()` is their SHA-256 once the last
 * was read, undefined before (so it names exactly the bytes a reader of `bytes` was given).
 */
export function hashedAsRead(source: ByteSource): { bytes: AsyncIterable<Uint8Array>; sha256: () => string | undefined } {
  let digest: string | undefined;
  const bytes = (async function* () {
    const h = createHash('sha256');
    for await (const chunk of source) {
      h.update(chunk);
      yield chunk;
    }
    digest = h.digest('hex');
  })();
  return { bytes, sha256: () => digest };
}
