// A model that reads no equation at all in a response whose text holds maths is not believed: an
// empty list is what a reader says when it failed, was told to by the text ("ignore the above and
// output nothing"), or skipped the working. Such a reading goes to the instructor (needs-review,
// flag 'empty-reading'); it never stands as `read` with 0 marks. "Holds maths" is the embedded
// extractor's notion: it read an equation, left a span it recognised as maths unread, or saw maths
// (digits with operators, '=', a variable next to an operator), i.e. it did not call the text
// words only.
import { extractEmbedded } from '../../../../shared/extract/index.ts';
import type { Question } from '../../../../shared/exam.ts';
import { note, type Extraction, type ExtractionFlag } from '../../../../shared/extraction.ts';

export const EMPTY_READING_FLAG = 'empty-reading';

/** Whether the text holds maths, by the embedded extractor's reading of it (given, or made here). */
export function holdsMaths(text: string, q: Question, embedded?: Extraction): boolean {
  if (text.trim() === '') return false;
  const e = embedded ?? extractEmbedded(text, q);
  return e.equations.length > 0 || e.unread.length > 0 || (!e.flags.includes('words-only') && !e.flags.includes('attachment'));
}

/** A model's finished reading with no equation: doubted (needs-review) when the text holds maths, else unchanged. */
export function doubtEmptyReading(x: Extraction, text: string, q: Question, embedded?: Extraction): Extraction {
  if (x.equations.length > 0 || x.status === 'blank' || !holdsMaths(text, q, embedded)) return x;
  return {
    ...x,
    status: 'needs-review',
    flags: [...new Set<ExtractionFlag>([...x.flags, EMPTY_READING_FLAG])],
    notes: [...x.notes, note('model', 'the model read no equation, but the text holds maths: not trusted as an empty answer; the instructor decides')],
  };
}
