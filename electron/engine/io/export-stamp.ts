// Whether a folder's exports (marks.csv, equations.csv, gradebook.csv) are already those of the
// workspace as it is now, so a re-run with nothing to do writes nothing (67,500 responses: about
// 3 s of listing and formatting saved). The stamp is the workspace's random id, the number of the
// last change any exported row rests on (review_changes, kept by triggers on every table a
// response's line is made of), the exam as stored and the export layout; beside the files, a
// record of the stamp they were made at and each file's SHA-256, so a file edited, replaced or
// removed since is written again. Anything unreadable means "not up to date": never a stale file.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Exam } from '../../../shared/exam.ts';
import type { Workspace } from '../store/workspace.ts';
import { writeFileAtomic } from './csv/write.ts';

/** Bump when a CSV's columns or formatting change: files made before are written again. */
const EXPORT_LAYOUT = 'exports-2026-11-23';

/** The record kept beside the exports. */
export const STAMP_FILE = '.equimark-exports.json';

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** What the exports of `exam` from `ws` depend on, as one string. */
export function exportStamp(ws: Workspace, exam: Exam): string {
  return `${EXPORT_LAYOUT}:${ws.workspaceId()}:${ws.lastReviewChange()}:${sha256(JSON.stringify(exam))}`;
}

/** Whether every named file in `dir` is as it was written at `stamp`. */
export function exportsUpToDate(dir: string, stamp: string, names: readonly string[]): boolean {
  try {
    const rec = JSON.parse(readFileSync(join(dir, STAMP_FILE), 'utf8')) as { stamp?: unknown; files?: Record<string, unknown> };
    if (rec.stamp !== stamp || !rec.files) return false;
    return names.every((n) => existsSync(join(dir, n)) && rec.files![n] === sha256(readFileSync(join(dir, n))));
  } catch {
    return false;
  }
}

/** Write the files and the record of the stamp they were made at (the record last: a run stopped between leaves it stale, so they are written again). */
export function writeExports(dir: string, stamp: string, files: readonly { name: string; content: string }[]): void {
  streamExports(
    dir,
    stamp,
    files.map((f) => f.name),
    (write) => {
      for (const f of files) write(f.name, f.content);
    },
  );
}

/**
 * As writeExports, with each file's text given a piece at a time (`fill` calls `write(name,
 * text)`, in order within a file), so a class's export never holds a whole file: each file is
 * written to a temporary name and hashed as it goes, and renamed once `fill` has returned; if
 * it throws, the temporary files are removed and the files already there are left as they were.
 */
export function streamExports(dir: string, stamp: string, names: readonly string[], fill: (write: (name: string, text: string) => void) => void): void {
  const files = new Map<string, { path: string; tmp: string; fd: number; hash: Hash }>();
  const closeAll = (): void => {
    for (const f of files.values()) {
      if (f.fd >= 0) closeSync(f.fd);
      f.fd = -1;
    }
  };
  try {
    for (const name of names) {
      const path = join(dir, name);
      const tmp = `${path}.tmp-${process.pid}`;
      files.set(name, { path, tmp, fd: openSync(tmp, 'w'), hash: createHash('sha256') });
    }
    fill((name, text) => {
      const f = files.get(name);
      if (!f) throw new Error(`${name} is not among the files being written (${names.join(', ')})`);
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length;) at += writeSync(f.fd, bytes, at, bytes.length - at);
      f.hash.update(bytes);
    });
    closeAll();
  } catch (e) {
    closeAll();
    for (const f of files.values()) rmSync(f.tmp, { force: true });
    throw e;
  }
  const hashes: Record<string, string> = {};
  for (const [name, f] of files) {
    renameSync(f.tmp, f.path);
    hashes[name] = f.hash.digest('hex');
  }
  writeFileAtomic(join(dir, STAMP_FILE), `${JSON.stringify({ stamp, files: hashes }, null, 2)}\n`);
}

/**
 * Stamp files already in `dir` anew (export-rows.ts found them to be what writing them now would
 * write): the record keeps each file's hash as it was.
 */
export function restampExports(dir: string, stamp: string): void {
  const rec = JSON.parse(readFileSync(join(dir, STAMP_FILE), 'utf8')) as { files: Record<string, string> };
  writeFileAtomic(join(dir, STAMP_FILE), `${JSON.stringify({ stamp, files: rec.files }, null, 2)}\n`);
}
