// The typed API contract between the renderer and the main process (Electron IPC or the browser
// mode's HTTP server). Every request and response is a zod schema: the main process parses each
// request with `API[method].request` before it touches anything, so a compromised or buggy
// renderer can only ever send well-formed, bounded data. Pure code (no Node, no DOM).
import { z } from 'zod';
import { ExamSchema } from './exam.ts';
import {
  AlternativeSchema,
  ExtractedEquationSchema,
  ExtractionFlagSchema,
  ExtractionNoteSchema,
  ExtractionSourceSchema,
  ExtractionStatusSchema,
  UnreadSpanSchema,
} from './extraction.ts';
import { DimensionIssueSchema, InconsistentEquationSchema, ItemMarkSchema } from './marks.ts';
import { TECHNIQUE_NAMES } from './techniques.ts';
import { OverrideCasesSchema, SchemePreviewStatusSchema } from './scheme-preview.ts';

// ---------- building blocks ----------

const Id = z.string().min(1).max(200);
/** Text sent by the renderer (CSV files, exam JSON): bounded so one message can't exhaust memory. */
const BigText = z.string().max(50_000_000);
const Comment = z.string().trim().min(1, 'a comment is required').max(2000);
const Equations = z.array(z.string().max(4000)).max(200);

export { SpanSchema } from './extraction.ts';

/**
 * A scheme item's mark as the detail view shows it: the marking step's ItemMark (shared/marks.ts,
 * with its evidence and verdicts) plus the item's description, the instructor's override and
 * the mark that counts.
 */
export const ItemDetailSchema = ItemMarkSchema.extend({
  description: z.string(),
  /** Instructor's override, when there is one: it replaces `awarded` in the total. */
  override: z.object({ marks: z.number().nonnegative(), comment: z.string(), at: z.string() }).optional(),
  /** What counts: the override if any, else the automatic mark (null: open). */
  final: z.number().nonnegative().nullable(),
});
export type ItemDetail = z.infer<typeof ItemDetailSchema>;

/** Chips shown in the review table: what happened to a response, in words a teacher can read. */
export const CHIPS = [
  'extractor', // read by the embedded extractor
  'imported', // an equation list imported as it is (a corrected or gold extraction)
  'model', // read by a model
  'consensus', // models agreed
  'disagree', // models disagree
  'invented', // possible invention: an equation the text doesn't support
  'attachment', // mentions an attachment
  'blank',
  'overridden',
  'corrected', // equations corrected by the instructor
  'inconsistent', // an equation with no admissible solution
  'needs-review',
  'not-graded',
  'addresses-marker', // the response addresses the marker (asks for marks, says what to record): flagged, never obeyed
  'ambiguous-reading', // the text can be read more than one way and the readings differ: the instructor picks one
  'contradiction', // two equations of the reading give one quantity two values that can't both hold (the note names them)
  'symbol-reused', // the reading uses one symbol for two quantities, which dimensions show (the note names both equations)
  'dimensioned-argument', // a quantity with units is an exponent or a function's argument, or is raised to a power made of quantities: a misreading's mark (the note names the equation)
  'numbers-disagree', // a link with numbers only on both sides is false beyond rounding: a grouping left out, a unit's prefix, or a slip (the note names the link)
  'earlier-text', // a correction or override made on an earlier text (replaced by a re-import) waits to be confirmed or dropped
  'regrade', // a student's regrade request is open
  'dimensions', // an equation's two sides (or a function's argument) have the wrong dimensions: evidence, changes no mark by itself
] as const;
export const ChipSchema = z.enum(CHIPS);
export type Chip = z.infer<typeof ChipSchema>;

export const ReadingSchema = z.object({
  /** 'embedded', 'model:<name>', 'consensus', 'manual', 'given'. */
  source: ExtractionSourceSchema,
  status: ExtractionStatusSchema,
  /** Each equation with its LaTeX for display. */
  equations: z.array(ExtractedEquationSchema.extend({ latex: z.string() })),
  flags: z.array(ExtractionFlagSchema),
  notes: z.array(ExtractionNoteSchema),
  unread: z.array(UnreadSpanSchema),
  /** The reader's choices (Extraction.alternatives), each reading's equations also as LaTeX. */
  alternatives: z.array(AlternativeSchema.extend({ latex: z.array(z.array(z.string())) })).optional(),
});

export const ReviewRowSchema = z.object({
  responseId: z.string(),
  studentId: z.string(),
  questionId: z.string(),
  /** First 160 characters of the response, one line. */
  excerpt: z.string(),
  chips: z.array(ChipSchema),
  needsReview: z.boolean(),
  /** The review state (engine/review/state.ts): pending, needs-review, blank, undecided, manual-open, complete. */
  state: z.enum(['pending', 'needs-review', 'blank', 'undecided', 'manual-open', 'complete']).optional(),
  /** Manual items still waiting for the instructor's mark (ids), whatever the state. */
  openManual: z.array(z.string()).optional(),
  /** item id -> final mark (null: open). */
  marks: z.record(z.string(), z.number().nullable()),
  total: z.number().nullable(),
  available: z.number(),
  /** Key of the answer group (responses whose equation lists are equivalent share it). */
  group: z.string().nullable(),
  equationCount: z.number(),
});
export type ReviewRow = z.infer<typeof ReviewRowSchema>;

export const AuditEntrySchema = z.object({
  at: z.string(),
  what: z.string(),
  old: z.string().nullable(),
  new: z.string().nullable(),
  comment: z.string().nullable(),
});

const SympyValueSchema = z.object({ text: z.string(), latex: z.string() });

/**
 * The SymPy evidence of a response: for the instructor only, it never changes a mark.
 * state 'unavailable': no Python with SymPy (note says why, in plain words); 'pending': still
 * being computed (ask again); 'failed': it could not be computed (note says why).
 */
export const SympyDetailSchema = z.object({
  state: z.enum(['ready', 'pending', 'unavailable', 'failed']),
  note: z.string(),
  /** A simplified form of each equation of the current reading, by index (null where SymPy gave none). */
  simplified: z.array(z.object({ source: z.string(), simplified: SympyValueSchema.nullable(), note: z.string().optional() })),
  /** The student's equations solved for the target under the assumptions. */
  solved: z.array(
    z.object({
      /** 'equation 2', or 'equations together (t eliminated)'. */
      from: z.string(),
      /** Index of the student equation (null: the list together). */
      equationIndex: z.number().nullable(),
      /** target = value. */
      value: SympyValueSchema,
      /** false: no admissible value satisfies target = value (e.g. the negative root of a positive speed). */
      admissible: z.boolean().nullable(),
      /** Whether target = value is equivalent to an accepted final answer (null: undecided, or nothing to compare with). */
      matchesAnswer: z.boolean().nullable(),
      /** In words, with the engine's method. */
      how: z.string(),
      /** true: every solution of that equation is listed; false/null: SymPy may have missed some. */
      complete: z.boolean().nullable(),
    }),
  ),
  /** Limits of the student's final expression for the target, for the manual item naming the regime. */
  limits: z.array(
    z.object({
      itemId: z.string(),
      /** 'u >> w'. */
      regime: z.string(),
      /** Where the expression came from: 'equation 3', or 'v solved from equation 2'. */
      from: z.string(),
      expr: SympyValueSchema,
      limit: SympyValueSchema.nullable(),
      /** Second-order expansion. */
      series: SympyValueSchema.nullable(),
      note: z.string().optional(),
    }),
  ),
});
export type SympyDetail = z.infer<typeof SympyDetailSchema>;

export const ResponseDetailSchema = z.object({
  responseId: z.string(),
  studentId: z.string(),
  questionId: z.string(),
  text: z.string(),
  variables: z.array(z.string()),
  target: z.string().nullable(),
  /** The reading the marks rest on. */
  current: ReadingSchema.nullable(),
  /** Every reading kept (each model's, the extractor's), for the side-by-side view. */
  readings: z.array(ReadingSchema),
  items: z.array(ItemDetailSchema),
  inconsistent: z.array(InconsistentEquationSchema.pick({ student: true, note: true })),
  /** Equations whose dimensions don't agree ("left: m/s, right: m²/s"); absent when none or no units are declared. */
  dimensions: z.array(DimensionIssueSchema.pick({ studentIndex: true, student: true, left: true, right: true, note: true })).optional(),
  total: z.number().nullable(),
  available: z.number(),
  chips: z.array(ChipSchema),
  /** Whether the instructor must look (the review state's word), and the manual items still open. */
  needsReview: z.boolean().optional(),
  openManual: z.array(z.string()).optional(),
  audit: z.array(AuditEntrySchema),
  /**
   * Equations a model proposed that the text doesn't support (grounding: a symbol or number not
   * in what the student wrote): held back, they earn nothing until the instructor accepts one
   * (response.setEquations with it added). From the model's reading when only the instructor's
   * corrections came after it; an equation already in the current list is not repeated here.
   */
  heldBack: z.array(
    z.object({
      /** Canonical SymPy source. */
      source: z.string(),
      latex: z.string(),
      /** Who proposed it: model names ('qwen2.5:7b'), or 'embedded' for the embedded extractor. */
      proposedBy: z.array(z.string()),
      /** Why it was held back, in words ("'t' does not appear in the student's text"). */
      reasons: z.array(z.string()),
    }),
  ),
  /** SymPy's evidence (simplified forms, solved for the target, limits); absent where not computed. */
  sympy: SympyDetailSchema.optional(),
  /** Corrections and overrides made on an earlier text that a re-import replaced: not applied; the instructor confirms or drops each. */
  earlier: z.array(EarlierChangeSchema()).optional(),
  /** The student's regrade requests on this response, with the replies. */
  regrades: z.array(RegradeRequestSchema()).optional(),
});
export type ResponseDetail = z.infer<typeof ResponseDetailSchema>;

/** A change made on an earlier text of the response (see ResponseDetail.earlier). */
function EarlierChangeSchema() {
  return z.object({
    id: z.number(),
    kind: z.enum(['correction', 'override']),
    itemId: z.string().nullable(),
    equations: z.array(z.object({ source: z.string(), latex: z.string() })).nullable(),
    awarded: z.number().nullable(),
    comment: z.string().nullable(),
    madeAt: z.string(),
    earlierText: z.string().nullable(),
  });
}

/** A student's regrade request and, once resolved, the reply and the marks it changed. */
function RegradeRequestSchema() {
  return z.object({
    id: z.number(),
    responseId: z.string(),
    studentId: z.string(),
    questionId: z.string(),
    body: z.string(),
    requestedOn: z.string(),
    reply: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    changes: z.array(z.object({ itemId: z.string(), from: z.number().nullable(), to: z.number() })),
  });
}
export type RegradeRequestView = z.infer<ReturnType<typeof RegradeRequestSchema>>;

/** A dated day, YYYY-MM-DD. */
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

export const GradeProgressSchema = z.object({
  state: z.enum(['idle', 'running', 'pausing', 'paused', 'done', 'failed']),
  examId: z.string().nullable(),
  technique: z.string().nullable(),
  total: z.number(),
  /** Responses fully done (read and marked). */
  done: z.number(),
  /** Responses read (equations found), marked or not. */
  read: z.number(),
  /** What the job is doing now: reading responses, then marking them. */
  phase: z.enum(['reading', 'marking']).nullable(),
  failed: z.number(),
  needsReview: z.number(),
  startedAt: z.string().nullable(),
  elapsedSeconds: z.number(),
  /** Estimated seconds left (null until enough is known). */
  etaSeconds: z.number().nullable(),
  tokens: z.number(),
  /** Estimated energy in joules (model time x device power), 0 for the embedded extractor. */
  energyJoules: z.number(),
  message: z.string().nullable(),
});
export type GradeProgress = z.infer<typeof GradeProgressSchema>;

export const FeatureSchema = z.object({ available: z.boolean(), note: z.string() });

/** The reading techniques: their names, models and labels are in shared/techniques.ts. */
export { TECHNIQUE_NAMES, type TechniqueName } from './techniques.ts';
export const TechniqueNameSchema = z.enum(TECHNIQUE_NAMES);

export const SettingsSchema = z.object({
  ollamaUrl: z.string().url().max(500),
  models: z.array(z.string().min(1).max(200)).max(4),
  pythonPath: z.string().max(1000),
  /** The GPU Ollama runs on, for the energy estimate: a name ("RTX 4090") or a board power ("320W"); blank: 250 W assumed. */
  gpu: z.string().max(100).optional(),
  /** More Ollama servers besides ollamaUrl: a batch spreads its responses over all of them (the same model digest on each). */
  ollamaMoreUrls: z.array(z.string().url().max(500)).max(31).optional(),
  /** Per-request model time-out in seconds (default 120); a stalled request costs at most this once per response. */
  modelTimeoutSeconds: z.number().positive().max(3600).optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/**
 * An Ollama model name as `ollama pull` takes it: `qwen2.5:14b`, `llama3.2`, `library/name:tag`,
 * `namespace/name:tag`, or with a registry host (`registry.example.com:5000/ns/name:tag`).
 */
export const OllamaModelNameSchema = z
  .string()
  .trim()
  .min(1, 'give a model name, like qwen2.5:7b')
  .max(200, 'a model name is at most 200 characters')
  .regex(
    /^(?:[A-Za-z0-9][A-Za-z0-9.-]*(?::\d{1,5})?\/)?(?:[A-Za-z0-9][A-Za-z0-9._-]*\/)?[A-Za-z0-9][A-Za-z0-9._-]*(?::[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?$/,
    'not an Ollama model name (like qwen2.5:7b or library/name:tag): letters, digits, and . _ - only, one optional :tag',
  );

/** A model being downloaded into Ollama (one at a time): what Ollama last said, and how far it has got. */
export const PullProgressSchema = z.object({
  /** idle: no download since the app started. */
  state: z.enum(['idle', 'running', 'done', 'failed']),
  model: z.string().nullable(),
  /** Ollama's words: 'pulling manifest', 'pulling 1a2b3c4d5e6f', 'verifying sha256 digest', 'success'. */
  status: z.string(),
  /** Bytes downloaded over bytes to download, every layer together (null until Ollama says a size). */
  fraction: z.number().nullable(),
  completed: z.number().nullable(),
  total: z.number().nullable(),
  /** Ollama's message when the download failed ('pull model manifest: file does not exist'). */
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  elapsedSeconds: z.number(),
});
export type PullProgress = z.infer<typeof PullProgressSchema>;

export const ExamSummarySchema = z.object({ id: z.string(), title: z.string(), questions: z.number(), responses: z.number(), graded: z.number() });

export const ValidationIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

// ---------- the methods ----------

function method<Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) {
  return { request, response };
}

export const API = {
  /** What this build can do right now (which engine parts are present), and where it runs. */
  'app.info': method(
    z.object({}),
    z.object({
      version: z.string(),
      mode: z.enum(['electron', 'browser']),
      workspace: z.string(),
      features: z.record(z.string(), FeatureSchema),
    }),
  ),

  'exam.list': method(z.object({}), z.array(ExamSummarySchema)),
  'exam.get': method(z.object({ examId: Id }), ExamSchema),
  /**
   * Import exam.v1 JSON text; errors name the path (questions[0].scheme[1].accept[0]) and what is
   * wrong. A changed version of an exam that has marks is not stored: it comes back as `staged`,
   * for the editor to preview (scheme.preview) and apply (exam.save) or discard.
   */
  'exam.import': method(
    z.object({ json: BigText }),
    z.union([
      z.object({ ok: z.literal(true), examId: z.string(), staged: ExamSchema.optional() }),
      z.object({ ok: z.literal(false), issues: z.array(ValidationIssueSchema) }),
    ]),
  ),
  /** Save an edited exam (replaces the stored one); responses whose marks the change dropped are re-marked at once, in the background (progress in grade.status). */
  'exam.save': method(
    z.object({ exam: ExamSchema }),
    z.union([
      z.object({ ok: z.literal(true), examId: z.string(), remarking: z.number() }),
      z.object({ ok: z.literal(false), issues: z.array(ValidationIssueSchema) }),
    ]),
  ),
  /**
   * Preview saving an edited exam, storing nothing (shared/scheme-preview.ts): its changed
   * questions' responses are marked again in the background; poll scheme.previewStatus for the
   * progress and the result (who gains or loses which mark, counts per item, totals, overrides).
   * A conflict while grading or re-marking runs.
   */
  'scheme.preview': method(z.object({ exam: ExamSchema }), SchemePreviewStatusSchema),
  'scheme.previewStatus': method(z.object({}), SchemePreviewStatusSchema),
  /** Stop and forget the preview (the edit itself lives in the renderer). */
  'scheme.previewDiscard': method(z.object({}), SchemePreviewStatusSchema),
  /** Overrides as regression cases: the exam's overrides of automatic items that the automatic mark now disagrees with. */
  'overrides.cases': method(z.object({ examId: Id }), OverrideCasesSchema),
  /** Load the bundled demo exam and its responses. */
  'exam.loadDemo': method(z.object({}), z.object({ examId: z.string(), responses: z.number() })),

  /**
   * Import responses. A row whose (student, question) is stored with another text is a changed
   * row: with `changed: 'ask'` (the default) nothing is stored while there are any, and they are
   * listed (`needsDecision`); 'replace' replaces them (what the instructor did on the old text is
   * set aside as made on earlier text, never applied to the new one); 'keep' keeps the old texts.
   */
  'responses.import': method(
    z.object({ examId: Id, csv: BigText, fileName: z.string().max(500), changed: z.enum(['ask', 'replace', 'keep']).optional() }),
    z.object({
      /** New, unchanged, changed (replaced or, with 'keep', kept) rows of the file. */
      counts: z.object({ new: z.number(), unchanged: z.number(), changed: z.number() }).optional(),
      /** Changed rows wait for the instructor's decision: nothing was stored. */
      needsDecision: z.boolean().optional(),
      changedRows: z
        .array(
          z.object({
            studentId: z.string(),
            questionId: z.string(),
            oldText: z.string().nullable(),
            newText: z.string(),
            corrected: z.boolean(),
            overrides: z.number(),
          }),
        )
        .optional(),
      /** Corrections and overrides set aside as made on earlier text (to confirm or drop). */
      setAside: z.number().optional(),
      imported: z.number(),
      rejected: z.array(z.object({ line: z.number().nullable(), studentId: z.string().nullable(), questionId: z.string().nullable(), reason: z.string() })),
      /** A file-level error (malformed CSV): nothing was imported. */
      error: z.string().nullable(),
    }),
  ),
  /** Equation lists to mark as they are (student_id,question_id,equations): a reading done elsewhere, or gold. Replaces the stored reading. */
  'equations.import': method(
    z.object({ examId: Id, csv: BigText }),
    z.object({ imported: z.number(), rejected: z.array(z.object({ line: z.number().nullable(), reason: z.string() })), error: z.string().nullable() }),
  ),
  /** Gold equation lists (student_id,question_id,equations) the instructor trusts, for the accuracy figure. */
  'gold.import': method(
    z.object({ examId: Id, csv: BigText }),
    z.object({ imported: z.number(), rejected: z.array(z.object({ line: z.number().nullable(), reason: z.string() })), error: z.string().nullable() }),
  ),

  'grade.options': method(
    z.object({}),
    z.object({
      embedded: FeatureSchema,
      ollama: z.object({
        reachable: z.boolean(),
        url: z.string(),
        models: z.array(z.object({ name: z.string(), size: z.number().nullable(), digest: z.string().nullable(), parameterSize: z.string().nullable() })),
        note: z.string(),
      }),
      techniques: z.array(
        z.object({
          id: TechniqueNameSchema,
          label: z.string(),
          available: z.boolean(),
          note: z.string(),
          /** How many models it needs: 0, 1, or 2 (hybrid takes one or two: `maxModels`). */
          minModels: z.number(),
          maxModels: z.number(),
        }),
      ),
      /** What to offer first: hybrid with the preferred model when Ollama has one, else the embedded extractor. */
      recommended: z.object({ technique: TechniqueNameSchema, models: z.array(z.string()) }),
    }),
  ),
  /** Download a model into Ollama (at the configured address), in the background: one at a time (a second while one runs is a conflict). */
  'ollama.pull': method(z.object({ model: OllamaModelNameSchema }), PullProgressSchema),
  /** How the download is going (state 'idle' before the first). */
  'ollama.pullStatus': method(z.object({}), PullProgressSchema),
  'grade.start': method(z.object({ examId: Id, technique: TechniqueNameSchema, models: z.array(z.string().min(1).max(200)).max(4) }), GradeProgressSchema),
  'grade.pause': method(z.object({}), GradeProgressSchema),
  'grade.resume': method(z.object({}), GradeProgressSchema),
  'grade.status': method(z.object({}), GradeProgressSchema),

  /**
   * The review list, in import order. Optional paging (`offset`, `limit`) and a question filter
   * read only that page; `total` is how many rows match without paging. The list's other filters,
   * its search and its sort order are applied in the main process too (the app's review index),
   * so only the page crosses: `chip`, `onlyReview`, `onlyManual`, `search` (student id or the
   * answer's start, case-insensitive), `sort` and `dir` as the review view names them;
   * `responseIds` or `studentId` restrict the list; `locate` asks where that response is in the
   * filtered, sorted list (`located`, null when it isn't in it). `counts` are over the whole list.
   * While the main process still reads a long list (seconds at tens of thousands of responses),
   * a first page it can give exactly (import order, by student or by question, no filter but a
   * question, no search) comes at once with `counting` (how many responses the exam has) and no
   * `counts` (not known yet: never shown as final); `review.ready` answers once the list is
   * read, and the list asked again then has every count. Any other request waits for the read.
   */
  'review.list': method(
    z.object({
      examId: Id,
      questionId: Id.optional(),
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().max(100_000).optional(),
      chip: ChipSchema.optional(),
      onlyReview: z.boolean().optional(),
      onlyManual: z.boolean().optional(),
      search: z.string().max(500).optional(),
      sort: z.enum(['student', 'question', 'total', 'status']).optional(),
      dir: z.union([z.literal(1), z.literal(-1)]).optional(),
      responseIds: z.array(Id).max(100_000).optional(),
      studentId: Id.optional(),
      locate: Id.optional(),
    }),
    z.object({
      rows: z.array(ReviewRowSchema),
      items: z.record(z.string(), z.array(z.object({ id: z.string(), marks: z.number() }))),
      total: z.number().optional(),
      /** Over the exam's whole list: responses, those needing review, with a manual item open, not graded yet. */
      counts: z.object({ all: z.number(), needing: z.number(), openManual: z.number(), notGraded: z.number() }).optional(),
      /** Where `locate` is in the filtered, sorted list (0-based), or null. */
      located: z.number().nullable().optional(),
      /** The list is still being read: the rows and `total` are exact, the counts other than `all` are not given yet (see review.ready). */
      counting: z.object({ all: z.number() }).optional(),
    }),
  ),
  /** Answers once the exam's review list is read whole (at once when it is): its counts are then known. */
  'review.ready': method(z.object({ examId: Id }), z.object({})),
  'response.get': method(z.object({ responseId: Id }), ResponseDetailSchema),
  /** Replace the equations of a response (the instructor's correction); regrades at once, audited. */
  'response.setEquations': method(z.object({ responseId: Id, equations: Equations, comment: z.string().max(2000).optional() }), ResponseDetailSchema),
  /**
   * Pick reading `reading` of the reader's choice `choice` (both 0-based, see Extraction.alternatives):
   * that span's equations become the reading's; audited; re-marks at once.
   */
  'response.pickReading': method(
    z.object({ responseId: Id, choice: z.number().int().nonnegative().max(10_000), reading: z.number().int().nonnegative().max(1000) }),
    ResponseDetailSchema,
  ),
  /**
   * Mark one scheme item by hand; null marks removes the mark. A comment saying why is required
   * to override an automatic item (the engine refuses without one), optional for a manual item.
   */
  'response.override': method(
    z.object({ responseId: Id, itemId: Id, marks: z.number().nonnegative().nullable(), comment: z.string().trim().max(2000).optional() }),
    ResponseDetailSchema,
  ),

  'groups.list': method(
    z.object({ examId: Id, questionId: Id }),
    z.array(
      z.object({
        key: z.string(),
        equations: z.array(z.object({ source: z.string(), latex: z.string() })),
        responseIds: z.array(z.string()),
        total: z.number().nullable(),
      }),
    ),
  ),
  /**
   * What a correction of a group's equations would do, saving nothing: each member with its text,
   * its current marks and, for those it reaches (their own list is `from`, the list edited), the
   * marks after; the others are listed as not changed, with why.
   */
  'groups.preview': method(
    z.object({ responseIds: z.array(Id).min(1).max(100_000), from: Equations, equations: Equations }),
    z.object({
      members: z.array(
        z.object({
          responseId: z.string(),
          studentId: z.string(),
          excerpt: z.string(),
          reached: z.boolean(),
          reason: z.string().nullable(),
          before: z.object({ total: z.number().nullable(), marks: z.record(z.string(), z.number().nullable()) }),
          after: z.object({ total: z.number().nullable(), marks: z.record(z.string(), z.number().nullable()) }).nullable(),
        }),
      ),
    }),
  ),
  'groups.apply': method(
    z.object({
      responseIds: z.array(Id).min(1).max(100_000),
      action: z.discriminatedUnion('kind', [
        /** `from`: the list edited; only members whose own list is it are changed (groups.preview lists who). */
        z.object({ kind: z.literal('equations'), from: Equations, equations: Equations, comment: z.string().max(2000).optional() }),
        z.object({ kind: z.literal('override'), itemId: Id, marks: z.number().nonnegative().nullable(), comment: Comment }),
      ]),
    }),
    z.object({ changed: z.number(), skipped: z.array(z.object({ responseId: z.string(), studentId: z.string(), reason: z.string() })).optional() }),
  ),

  /**
   * A manual mark and/or a comment for every member of an answer group (the instructor's keyboard
   * flow's group step). With `preview` nothing is stored: the answer says, member by member, what
   * would change. Otherwise each member that changes gets its own audited mark or comment. The
   * rule for reasons is the engine's: a comment is required only to override an automatic item.
   */
  'groups.mark': method(
    z.object({
      responseIds: z.array(Id).min(1).max(100_000),
      itemId: Id.optional(),
      marks: z.number().nonnegative().nullable().optional(),
      comment: z.string().trim().max(2000).optional(),
      preview: z.boolean(),
    }),
    z.object({
      itemId: z.string().nullable(),
      /** Whether the item is marked by hand (manual), so no reason is needed. */
      manual: z.boolean().nullable(),
      members: z.array(
        z.object({
          responseId: z.string(),
          studentId: z.string(),
          excerpt: z.string(),
          /** The item's mark that counts now, and after (null: open). */
          old: z.number().nullable(),
          new: z.number().nullable(),
          /** Whether the mark changes (a comment alone changes every member). */
          changes: z.boolean(),
        }),
      ),
      /** How many members were changed (0 for a preview). */
      applied: z.number(),
    }),
  ),

  /** Confirm (make it again, on the current text) or drop a change made on an earlier text; audited with the comment. */
  'response.resolveEarlier': method(
    z.object({ responseId: Id, earlierId: z.number().int().positive(), action: z.enum(['confirm', 'drop']), comment: Comment }),
    ResponseDetailSchema,
  ),

  /** Record a student's regrade request on a response: their words and the date they asked. */
  'regrade.add': method(
    z.object({ responseId: Id, text: z.string().trim().min(1, "the student's request is required").max(5000), date: Day }),
    RegradeRequestSchema(),
  ),
  /** The exam's regrade requests, open ones first. */
  'regrade.list': method(z.object({ examId: Id }), z.array(RegradeRequestSchema())),
  /** Resolve a request with a reply to the student; each mark given is set as an audited override (unchanged marks are left alone). */
  'regrade.resolve': method(
    z.object({
      requestId: z.number().int().positive(),
      reply: z.string().trim().min(1, 'a reply to the student is required').max(5000),
      marks: z.array(z.object({ itemId: Id, marks: z.number().nonnegative() })).max(200),
    }),
    RegradeRequestSchema(),
  ),
  /** Every request and reply as CSV. */
  'export.regrades': method(z.object({ examId: Id }), z.object({ fileName: z.string(), csv: z.string() })),

  /**
   * One row per (student, question): item columns named by question (`q1.a`), total, the review
   * state, overridden items, the instructor's comments and the reasons for review.
   */
  'export.marks': method(z.object({ examId: Id }), z.object({ fileName: z.string(), csv: z.string() })),
  /** What is still open before an export: manual items not marked, and responses that need review (exporting anyway is allowed). */
  'export.check': method(
    z.object({ examId: Id }),
    z.object({
      manualOpen: z.array(z.object({ responseId: z.string(), studentId: z.string(), questionId: z.string(), items: z.array(z.string()) })),
      needsReview: z.array(
        z.object({ responseId: z.string(), studentId: z.string(), questionId: z.string(), state: z.string(), reasons: z.array(z.string()) }),
      ),
      pending: z.number(),
    }),
  ),
  /** A gradebook CSV Canvas and Moodle import as it is: one row per student (README: Gradebook CSV). */
  'export.gradebook': method(z.object({ examId: Id }), z.object({ fileName: z.string(), csv: z.string() })),
  /** One student's report as a self-contained HTML page (KaTeX-rendered maths, its CSS and fonts inlined). */
  'export.studentReport': method(z.object({ examId: Id, studentId: Id }), z.object({ fileName: z.string(), html: z.string() })),
  /** One row per student: every question's items and total, and the overall total. */
  'export.studentMarks': method(z.object({ examId: Id }), z.object({ fileName: z.string(), csv: z.string() })),
  'export.report': method(z.object({ responseId: Id }), z.object({ fileName: z.string(), text: z.string() })),

  'summary.get': method(
    z.object({ examId: Id }),
    z.object({
      responses: z.number(),
      graded: z.number(),
      needsReview: z.number(),
      overridden: z.number(),
      available: z.number(),
      /** Histogram of total marks per (student, question): totals[i] = how many scored i (rounded down). */
      distribution: z.array(z.object({ questionId: z.string(), available: z.number(), counts: z.array(z.number()) })),
      chips: z.record(z.string(), z.number()),
      accuracy: z.object({ compared: z.number(), equivalent: z.number() }).nullable(),
    }),
  ),

  'settings.get': method(z.object({}), SettingsSchema),
  'settings.set': method(SettingsSchema, SettingsSchema),
} as const;

export type ApiMethod = keyof typeof API;
export type ApiRequest<M extends ApiMethod> = z.input<(typeof API)[M]['request']>;
export type ApiResponse<M extends ApiMethod> = z.infer<(typeof API)[M]['response']>;
export type ApiHandlers = { [M in ApiMethod]: (req: z.infer<(typeof API)[M]['request']>) => Promise<ApiResponse<M>> };

export const isApiMethod = (m: unknown): m is ApiMethod => typeof m === 'string' && Object.prototype.hasOwnProperty.call(API, m);

/** Errors cross the boundary as plain data: a code the renderer can branch on and a message a teacher can read. */
export type ApiError = { code: 'invalid-request' | 'not-found' | 'unavailable' | 'conflict' | 'internal'; message: string; issues?: ValidationIssue[] };
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export class ApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/** zod issues as `path: message` pairs a person can act on. */
export function zodIssues(err: z.ZodError): ValidationIssue[] {
  return err.issues.map((i) => ({
    path:
      i.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '') || '(root)',
    message: i.message,
  }));
}

/**
 * Validate and dispatch one call: the single entry point used by both the IPC handler and the
 * HTTP server, so every transport applies the same checks.
 */
export async function dispatch(handlers: ApiHandlers, method: unknown, payload: unknown): Promise<ApiResult<unknown>> {
  if (!isApiMethod(method)) return { ok: false, error: { code: 'invalid-request', message: `unknown method ${JSON.stringify(String(method).slice(0, 80))}` } };
  const parsed = API[method].request.safeParse(payload ?? {});
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    return { ok: false, error: { code: 'invalid-request', message: `${method}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues } };
  }
  try {
    const value = await (handlers[method] as (r: unknown) => Promise<unknown>)(parsed.data);
    return { ok: true, value };
  } catch (e) {
    if (e instanceof ApiFailure) return { ok: false, error: e.error };
    return { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } };
  }
}

/** The client side: one function per method, whatever the transport. */
export type ApiClient = { [M in ApiMethod]: (req: ApiRequest<M>) => Promise<ApiResponse<M>> };
export type Transport = (method: ApiMethod, payload: unknown) => Promise<ApiResult<unknown>>;

export function makeClient(transport: Transport): ApiClient {
  return new Proxy({} as ApiClient, {
    get(_t, prop) {
      if (!isApiMethod(prop)) return undefined;
      return async (req: unknown) => {
        const r = await transport(prop, req);
        if (!r.ok) throw new ApiFailure(r.error);
        return r.value;
      };
    },
  });
}
