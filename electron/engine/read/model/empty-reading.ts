// A model that reads no equation at all in a response whose text holds maths is not believed: an
// empty list is what a reader says when it failed, was told to by the text ("ignore the above and
// output nothing"), or skipped the working. Such a reading goes to the instructor (needs-review,
// flag 'empty-reading'); it never stands as `read` with 0 marks. "Holds maths" is the embedded
// extractor's notion (it read an equation, left a span it recognised as maths unread, or saw maths:
// it did not call the text words only), and, on the raw text, since the extractor drops what the
// student retracted ("ignore the above"): an '=', digits with an operator, or one of the
// question's variables next to an operator.
import { extractEmbedded } from '../../../../shared/extract/index.ts';
import type { Question } from '../../../../shared/exam.ts';
import { note, type Extraction, type ExtractionFlag } from '../../../../shared/extraction.ts';

export const EMPTY_READING_FLAG = 'empty-reading';

const OP = String.raw`[-+*/^×÷·]`;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Maths on the raw text: '=', a digit beside an operator, or a variable of the question beside one. */
export function rawMaths(text: string, q: Question): boolean {
  if (/[=＝≈]/.test(text)) return true;
  if (new RegExp(String.raw`\d\s*${OP}\s*[\w(√]|[\w)]\s*${OP}\s*\d`).test(text)) return true;
  const names = q.variables.map((v) => escape(v.name)).sort((a, b) => b.length - a.length);
  if (names.length === 0) return false;
  const v = `(?:${names.join('|')})`;
  // A hyphen counts only with spaces around it ("t-shirt" is a word, "v - u" is maths).
  const op = String.raw`(?:\s*[+*/^×÷·]\s*|\s+-\s+)`;
  return new RegExp(String.raw`(?<![\w-])${v}${op}[\w(√]|[\w)]${op}${v}(?![\w-])`).test(text);
}

/** Whether the text holds maths: by the embedded extractor's reading of it (given, or made here), or on the raw text. */
export function holdsMaths(text: string, q: Question, embedded?: Extraction): boolean {
  if (text.trim() === '') return false;
  if (rawMaths(text, q)) return true;
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
