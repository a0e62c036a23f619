// What reading a response produces, whoever read it (embedded extractor, a model, consensus,
// the instructor by hand, or a given list such as gold). The zod schemas are the source of the
// types: the API contract (shared/api.ts) reuses them.
import { z } from 'zod';

export const ExtractionStatusSchema = z.enum([
  /** Every piece of math in the text is accounted for and parses. */
  'read',
  /** Some spans could not be read (listed in `unread`). */
  'partial',
  /** The reader gave up; nothing it produced should be trusted. */
  'abstained',
  /** Empty or whitespace-only response. */
  'blank',
  /** Read, but something needs an instructor's eyes (models disagree, possible invention...). */
  'needs-review',
]);
export type ExtractionStatus = z.infer<typeof ExtractionStatusSchema>;

/** Who read it: 'embedded', 'model:<name>', 'consensus', 'manual' (the instructor), 'given' (an imported list). */
export const ExtractionSourceSchema = z.union([z.enum(['embedded', 'consensus', 'manual', 'given']), z.templateLiteral(['model:', z.string()])]);
export type ExtractionSource = z.infer<typeof ExtractionSourceSchema>;

/** Well-known flags (others may appear; flags are free-form words joined by ';' in CSV). */
export const KNOWN_FLAGS = [
  'attachment',
  'inconsistent',
  'invented',
  'unmapped-symbol',
  'words-only',
  'models-disagree',
  'waiting-for-model',
  'parse-error',
  /** The reader made a choice (see `alternatives`) whose readings differ: the instructor picks one. */
  'ambiguous-reading',
  /** Two equations of the reading can't both hold (see the 'contradiction' note). */
  'contradiction',
  /** The reading uses one symbol for two quantities, which dimensions show (see the 'symbol-reused' note). */
  'symbol-reused',
  /** A quantity with units is an exponent or a function's argument, or is raised to a power made of quantities (see the note). */
  'dimensioned-argument',
  /** A sum of fractions read as written doesn't balance, but does with a '/' reaching over the sum (see the note). */
  'unbracketed-grouping',
  /** A link with numbers only on both sides is false beyond rounding (see the note). */
  'numbers-disagree',
] as const;
export type ExtractionFlag = (typeof KNOWN_FLAGS)[number] | (string & {});
export const ExtractionFlagSchema = z.custom<ExtractionFlag>((x) => typeof x === 'string' && x.length > 0, 'a flag is a non-empty word');

/** Character offsets into the response text: [start, end). */
export const SpanSchema = z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() });
export type Span = z.infer<typeof SpanSchema>;

export const ExtractedEquationSchema = z.object({
  /** Canonical SymPy source (`equationToSympy` of the parsed AST). */
  source: z.string(),
  /** Where in the response it came from, when known. */
  span: SpanSchema.optional(),
});
export type ExtractedEquation = z.infer<typeof ExtractedEquationSchema>;

export const UnreadSpanSchema = z.object({ span: SpanSchema, text: z.string(), reason: z.string() });
export type UnreadSpan = z.infer<typeof UnreadSpanSchema>;

/**
 * What a note is about, so that views choose notes by kind, never by matching English text:
 *  - 'held-back'     an equation held back as possibly invented (not traceable to the text);
 *  - 'disagreement'  readers read the response differently (two models, or the embedded extractor and a model);
 *  - 'unread'        something left out or not read (unparseable model output, not plain equations, too long, an approximate value);
 *  - 'unmapped-symbol' how a symbol was or was not mapped to a question variable;
 *  - 'attachment'    the response refers to attached work;
 *  - 'retraction'    the student retracted something, not recorded;
 *  - 'correction'    the student corrected themselves and it is not clear which equation the correction replaces;
 *  - 'marker'        the response addresses the marker (asks for marks, says what to record): flagged, never obeyed;
 *  - 'model'         how the model read it (agreed after rounds, read whole, could not read it);
 *  - 'waiting'       the response waits for the model (Ollama unreachable);
 *  - 'engine-error'  reading or marking it failed (the engine's message);
 *  - 'instructor'    the instructor corrected the reading or accepted a held-back equation;
 *  - 'ambiguous'     the text can honestly be read in more than one way (see `alternatives`);
 *  - 'contradiction' two equations of the reading can't both hold (the pair is named);
 *  - 'symbol-reused' one symbol stands for two quantities in the reading (both equations named);
 *  - 'dimensioned-argument' a quantity with units is an exponent or a function's argument (the equation named);
 *  - 'other'         anything else (and every note stored before kinds existed).
 */
export const NOTE_KINDS = [
  'held-back',
  'disagreement',
  'unread',
  'unmapped-symbol',
  'attachment',
  'retraction',
  'correction',
  'marker',
  'model',
  'waiting',
  'engine-error',
  'instructor',
  'ambiguous',
  'contradiction',
  'symbol-reused',
  'dimensioned-argument',
  'other',
] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];
export const ExtractionNoteSchema = z.object({ kind: z.enum(NOTE_KINDS), text: z.string() });
export type ExtractionNote = z.infer<typeof ExtractionNoteSchema>;

/** A note of `kind`. */
export const note = (kind: NoteKind, text: string): ExtractionNote => ({ kind, text });

/** A stored note, old (a string) or new ({kind, text}), as a note: a string is {kind: 'other', text}. */
export function toNote(n: unknown): ExtractionNote {
  if (typeof n === 'string') return { kind: 'other', text: n };
  const r = ExtractionNoteSchema.safeParse(n);
  if (r.success) return r.data;
  const text = typeof n === 'object' && n !== null && typeof (n as { text?: unknown }).text === 'string' ? (n as { text: string }).text : JSON.stringify(n);
  return { kind: 'other', text };
}

/**
 * A choice the reader made where the text allows more than one reading: an unbracketed `/` followed
 * by `+`/`-`, implicit multiplication against function application, `±`, a symbol mapping (s -> S),
 * a glued letter run, a reused symbol. `readings[i]` is the equation list (SymPy source) that
 * reading i gives for this span; reading 0 is the one the reader put in `equations`.
 * `ambiguous` is true when the readings are not list-equivalent under the question's domain
 * (the response is then not `read`); `chosen` is the index the instructor picked, when they did.
 */
export const AlternativeSchema = z.object({
  span: SpanSchema,
  text: z.string(),
  reason: z.string(),
  readings: z.array(z.array(z.string())).min(2),
  ambiguous: z.boolean(),
  chosen: z.number().int().nonnegative().optional(),
});
export type Alternative = z.infer<typeof AlternativeSchema>;

export const ExtractionSchema = z.object({
  equations: z.array(ExtractedEquationSchema),
  status: ExtractionStatusSchema,
  source: ExtractionSourceSchema,
  flags: z.array(ExtractionFlagSchema),
  /** Spans that look like math but could not be read with confidence. */
  unread: z.array(UnreadSpanSchema),
  /** Plain-language notes for the instructor ("symbol 'x' could not be mapped to a variable"). */
  notes: z.array(ExtractionNoteSchema),
  /** Reading choices (absent when the reader made none). */
  alternatives: z.array(AlternativeSchema).optional(),
});
export type Extraction = z.infer<typeof ExtractionSchema>;
