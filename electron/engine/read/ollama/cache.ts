// Reply cache keyed by (model digest, request messages, format, options): a re-run of a batch
// replays the model's replies instead of asking again. Persistent as JSON lines (one entry per
// line, appended), so it survives crashes: a torn last line is skipped on load.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type CachedReply = {
  content: string;
  tokensIn: number;
  tokensOut: number;
  /** Wall time of the original call, ms. */
  wallMs: number;
  /** Ollama's total_duration of the original call, ns (0 if unknown). */
  totalDurationNs: number;
  /** When it was stored (ISO). */
  at: string;
};

export interface ReplyCache {
  get(key: string): CachedReply | undefined;
  put(key: string, reply: CachedReply): void;
  readonly size: number;
}

/** Stable key: digest + everything that decides the reply (messages, format, options). */
export function cacheKey(parts: { digest: string; endpoint: string; messages: unknown; format: unknown; options: unknown }): string {
  return createHash('sha256').update(stableStringify(parts)).digest('hex');
}

function stableStringify(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify(o[k])}`)
    .join(',')}}`;
}

export class MemoryReplyCache implements ReplyCache {
  protected map = new Map<string, CachedReply>();
  get(key: string): CachedReply | undefined {
    return this.map.get(key);
  }
  put(key: string, reply: CachedReply): void {
    this.map.set(key, reply);
  }
  get size(): number {
    return this.map.size;
  }
}

/** JSON-lines cache file: `{"k": key, "v": reply}` per line. */
export class JsonlReplyCache extends MemoryReplyCache {
  /** Lines that could not be read on load (a torn write, a hand edit). */
  readonly skippedLines: number = 0;
  constructor(readonly path: string) {
    super();
    if (existsSync(path)) {
      let skipped = 0;
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          const e = JSON.parse(line) as { k?: unknown; v?: CachedReply };
          if (typeof e.k === 'string' && e.v && typeof e.v.content === 'string') this.map.set(e.k, e.v);
          else skipped++;
        } catch {
          skipped++;
        }
      }
      this.skippedLines = skipped;
      const text = readFileSync(path, 'utf8');
      // A writer cut off mid-line: start the next entry on a fresh line.
      if (text.length > 0 && !text.endsWith('\n')) appendFileSync(path, '\n');
    } else {
      mkdirSync(dirname(path), { recursive: true });
    }
  }
  override put(key: string, reply: CachedReply): void {
    if (this.map.has(key)) return;
    super.put(key, reply);
    appendFileSync(this.path, `${JSON.stringify({ k: key, v: reply })}\n`);
  }
}

/** A cache for the given path: JSON lines file, or in memory when no path is given. */
export function openReplyCache(path?: string | null): ReplyCache {
  return path ? new JsonlReplyCache(path) : new MemoryReplyCache();
}
