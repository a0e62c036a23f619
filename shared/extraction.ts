// What reading a response produces, whoever read it (embedded extractor, a model, consensus,
// the instructor by hand, or a given list such as gold).

export type ExtractionStatus =
  /** Every piece of math in the text is accounted for and parses. */
  | 'read'
  /** Some spans could not be read (listed in `unread`). */
  | 'partial'
  /** The reader gave up; nothing it produced should be trusted. */
  | 'abstained'
  /** Empty or whitespace-only response. */
  | 'blank'
  /** Read, but something needs an instructor's eyes (models disagree, possible invention...). */
  | 'needs-review';

export type ExtractionSource = 'embedded' | `model:${string}` | 'consensus' | 'manual' | 'given';

/** Well-known flags (others may appear; flags are free-form words joined by ';' in CSV). */
export type ExtractionFlag =
  | 'attachment'
  | 'inconsistent'
  | 'invented'
  | 'unmapped-symbol'
  | 'words-only'
  | 'models-disagree'
  | 'waiting-for-model'
  | 'parse-error'
  | (string & {});

/** Character offsets into the response text: [start, end). */
export type Span = { start: number; end: number };

export type ExtractedEquation = {
  /** Canonical SymPy source (`equationToSympy` of the parsed AST). */
  source: string;
  /** Where in the response it came from, when known. */
  span?: Span;
};

export type UnreadSpan = { span: Span; text: string; reason: string };

export type Extraction = {
  equations: ExtractedEquation[];
  status: ExtractionStatus;
  source: ExtractionSource;
  flags: ExtractionFlag[];
  /** Spans that look like math but could not be read with confidence. */
  unread: UnreadSpan[];
  /** Plain-language notes for the instructor ("symbol 'x' could not be mapped to a variable"). */
  notes: string[];
};
