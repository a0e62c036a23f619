// The plain reader, for responses typed as equations only: a response counts as extracted only when
// its whole text is one or more equations of the strict grammar, one per line or separated by
// ';'. A blank response is 'blank'; anything else is 'needs-review' with no equations (never a
// guess). Commas are not separators: they occur inside Eq(a, b) and function calls.
import { parseEquation, equationToSympy, formatErrors } from '../../../shared/equation/index.ts';
import type { Question } from '../../../shared/exam.ts';
import { note, type Extraction, type ExtractedEquation, type ExtractionNote } from '../../../shared/extraction.ts';
import type { Extractor } from './types.ts';

export function extractPlain(text: string, q: Question): Extraction {
  const base = { source: 'embedded' as const, unread: [], notes: [] as ExtractionNote[] };
  if (text.trim() === '') return { ...base, equations: [], status: 'blank', flags: [] };
  const variables = q.variables.map((v) => v.name);
  const equations: ExtractedEquation[] = [];
  // Split on newlines and ';', keeping offsets.
  const re = /[^\n;]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const raw = m[0];
    if (raw.trim() === '') continue;
    const lead = raw.length - raw.trimStart().length;
    const piece = raw.trim();
    const r = parseEquation(piece, { variables });
    if (!r.ok) {
      return {
        ...base,
        equations: [],
        status: 'needs-review',
        flags: r.errors.some((e) => e.code === 'unknown-symbol') ? ['unmapped-symbol'] : [],
        notes: [note('unread', `not plain equations, needs an extractor or the instructor: ${JSON.stringify(piece.slice(0, 80))}: ${formatErrors(r.errors)}`)],
      };
    }
    const start = m.index + lead;
    equations.push({ source: equationToSympy(r.value), span: { start, end: start + piece.length } });
  }
  return { ...base, equations, status: 'read', flags: [] };
}

export const plainExtractor: Extractor = { name: 'plain', extract: extractPlain };
