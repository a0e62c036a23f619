// Calibration (issue 11, item 6): does a status mean what it says? The table of each reading's
// status against its correctness, from the one decision per response of the evaluation loop:
//  - 'equivalent'      the list is equivalent to gold, and gold is not marked ambiguous;
//  - 'not equivalent'  it is not (gold not ambiguous);
//  - 'gold ambiguous'  two careful markers could read the response differently: whatever was read,
//                      no reading of it is right with confidence.
// Precision of a status is the share of its readings in the first column. A `read` whose gold is
// marked ambiguous, or that is not equivalent to gold, is an error of confidence: the one kind of
// error that reaches marks with no flag.
import type { ExtractionStatus } from '../../../shared/extraction.ts';

export type CalibrationCell = { equivalent: number; notEquivalent: number; goldAmbiguous: number };
export type CalibrationRow = CalibrationCell & { status: ExtractionStatus; total: number; precision: number | null };

export type Calibration = {
  /** One row per status, in the order read, partial, abstained, needs-review, blank (statuses with no reading left out, except read). */
  rows: CalibrationRow[];
  /** `read` readings that are wrong with confidence: not equivalent to unambiguous gold, and on gold marked ambiguous. */
  confidenceErrors: { notEquivalent: number; goldAmbiguous: number; total: number };
  /** Readings flagged 'contradiction', and how many of them are equivalent to unambiguous gold (correct readings the flag cost). */
  contradictions: { flagged: number; equivalent: number };
};

/** What calibration needs of an evaluated row. */
export type CalibrationInput = { status: ExtractionStatus; equivalent: boolean; ambiguous: boolean; flags?: readonly string[] };

const ORDER: ExtractionStatus[] = ['read', 'partial', 'abstained', 'needs-review', 'blank'];

export function calibration(rows: readonly CalibrationInput[]): Calibration {
  const cells = new Map<ExtractionStatus, CalibrationCell>(ORDER.map((s) => [s, { equivalent: 0, notEquivalent: 0, goldAmbiguous: 0 }]));
  let flagged = 0;
  let flaggedRight = 0;
  for (const r of rows) {
    const c = cells.get(r.status)!;
    const right = r.equivalent && !r.ambiguous;
    if (r.ambiguous) c.goldAmbiguous++;
    else if (r.equivalent) c.equivalent++;
    else c.notEquivalent++;
    if (r.flags?.includes('contradiction')) {
      flagged++;
      if (right) flaggedRight++;
    }
  }
  const out: CalibrationRow[] = [];
  for (const status of ORDER) {
    const c = cells.get(status)!;
    const total = c.equivalent + c.notEquivalent + c.goldAmbiguous;
    if (total === 0 && status !== 'read') continue;
    out.push({ status, ...c, total, precision: total ? c.equivalent / total : null });
  }
  const read = cells.get('read')!;
  return {
    rows: out,
    confidenceErrors: { notEquivalent: read.notEquivalent, goldAmbiguous: read.goldAmbiguous, total: read.notEquivalent + read.goldAmbiguous },
    contradictions: { flagged, equivalent: flaggedRight },
  };
}

const pct = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);

/** The table as `equimark eval` prints it. */
export function formatCalibration(c: Calibration): string {
  const head = ['status', 'readings', 'equivalent', 'not equivalent', 'gold ambiguous', 'precision'];
  const body = c.rows.map((r) => [r.status, String(r.total), String(r.equivalent), String(r.notEquivalent), String(r.goldAmbiguous), pct(r.precision)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => `  ${cells.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ')}`;
  return [
    'calibration (status against correctness; precision: equivalent to gold not marked ambiguous):',
    line(head),
    ...body.map(line),
    `  errors of confidence (read, but not equivalent to gold or on gold marked ambiguous): ${c.confidenceErrors.total} (${c.confidenceErrors.notEquivalent} not equivalent, ${c.confidenceErrors.goldAmbiguous} gold ambiguous)`,
    `  flagged 'contradiction': ${c.contradictions.flagged} (equivalent to gold: ${c.contradictions.equivalent})`,
  ].join('\n');
}
