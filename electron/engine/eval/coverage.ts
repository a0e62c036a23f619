// Coverage (share of non-blank responses read with confidence, status 'read') and precision (share
// of those whose list is equivalent to gold), overall and per gold tag.
import type { Extraction } from '../../../shared/extraction.ts';

export type Figures = { responses: number; nonBlank: number; read: number; correct: number; coverage: number; precision: number };

/** A row as coverage/precision need it: the reading's status, the gold tags, equivalence to gold. */
export type FigureRow = { status: Extraction['status']; tags: readonly string[]; equivalent: boolean };

export function figures(rows: readonly FigureRow[]): Figures {
  const nonBlank = rows.filter((r) => r.status !== 'blank' && !r.tags.includes('blank'));
  const read = nonBlank.filter((r) => r.status === 'read');
  const correct = read.filter((r) => r.equivalent).length;
  return {
    responses: rows.length,
    nonBlank: nonBlank.length,
    read: read.length,
    correct,
    coverage: nonBlank.length ? read.length / nonBlank.length : 1,
    precision: read.length ? correct / read.length : 1,
  };
}

/** Coverage and precision overall and per tag (sorted). */
export function figuresByTag(rows: readonly FigureRow[]): { overall: Figures; perTag: Record<string, Figures> } {
  const tags = [...new Set(rows.flatMap((r) => r.tags))].sort();
  const perTag: Record<string, Figures> = {};
  for (const t of tags) perTag[t] = figures(rows.filter((r) => r.tags.includes(t)));
  return { overall: figures(rows), perTag };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
export const figuresLine = (name: string, f: Figures): string =>
  `${name.padEnd(18)} coverage ${pct(f.coverage).padStart(6)} (${f.read}/${f.nonBlank})   precision ${pct(f.precision).padStart(6)} (${f.correct}/${f.read})`;
