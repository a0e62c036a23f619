// Grade orchestration: import the exam and the responses (or given equation lists), extract
// every response not yet extracted, mark every extraction not yet marked. Each step is its own
// transaction in the workspace, and the to-do lists are read back from it, so a run killed at
// any moment (even SIGKILL) and started again finishes with exactly the marks of an
// uninterrupted run without redoing finished work.
//
// Model techniques read in one batch whose responses are stored one by one as they are read
// (extraction and the model's record in one transaction). When Ollama can't be reached, a
// response keeps what the embedded extractor read, flagged 'waiting-for-model': it is marked on
// that reading meanwhile, and the next run reads it again (Workspace.pending counts it as
// not extracted); everything else is left as it is.
//
// One response never stops a batch: every per-response step (reading, parsing, marking) runs
// inside a boundary. An exception becomes that response's state (status needs-review, flag
// 'engine-error', the reason in its notes), the batch goes on, and the summary lists it
// (`engineErrors`). A reading that failed is read again by the next run.
//
// A reading's choices (an unbracketed '√' or '/', ...: Extraction.alternatives) are settled here,
// as it is read (read/alternatives.ts): equivalent readings change nothing, differing ones hold the
// response at 'partial' until the instructor picks one (pickReading). Model techniques' batches
// keep the extractor's provisional 'ambiguous' (a waiting response's embedded reading).
import { formatErrors, parseEquation, type Equation } from '../../shared/equation/index.ts';
import { note, type Extraction } from '../../shared/extraction.ts';
import type { EntailmentEngine } from './decide/entail/types.ts';
import type { CompiledQuestion, LoadedExam } from './io/exam.ts';
import { markEquations, markItems } from './decide/marking.ts';
import { checkedReading } from './decide/reading-checks.ts';
import type { ResponseRow } from './io/csv/responses.ts';
import type { EquationsRow } from './io/csv/equations.ts';
import { ENGINE_ERROR_FLAG, StaleError, WAITING_FLAG, type Workspace } from './store/workspace.ts';
import { resultOf, type ResponseMarks } from '../../shared/marks.ts';
import { resolveTechnique, type Technique } from './read/registry.ts';
import { settleAlternatives } from './read/alternatives.ts';
import { pickReading as pickReadingOf } from '../../shared/alternatives.ts';
import type { BatchAccounting } from './read/ollama/accounting.ts';
import type { ModelRef, ResponseInput } from './read/model/types.ts';
import { ServerRefusal } from './read/model/batch.ts';
import { RecentRate } from './progress-rate.ts';
import { changedItems, readsAgain, remarkedBy } from './store/exams.ts';
import { itemRow, storedRowIs, type ItemMarksWrite } from './store/marks.ts';
import { stampGivenImport, unchangedGivenImport, type GivenFile } from './given-import.ts';
import { prepareAnswerGroups, type PreparedGroups } from './review/prepare-groups.ts';

export { resolveTechnique, type Technique, type ModelSettings } from './read/registry.ts';

export type GradeInput =
  /** Typed responses to extract and mark. */
  | { kind: 'responses'; rows: readonly ResponseRow[] }
  /**
   * Given equation lists (source 'given'): marked as they are. A file read a piece at a time
   * (readEquationsCsvPieces) is imported a piece at a time, each in its own transaction, so a
   * class's lists are never all in memory; a piece that fails to read stops the import there and
   * keeps what the pieces before it stored (the CLI reads the file's records through first, so a
   * malformed file fails before anything is stored: checkEquationsCsvRecords).
   */
  | {
      kind: 'given';
      rows: readonly EquationsRow[] | AsyncIterable<readonly EquationsRow[]>;
      /**
       * The file the rows are read from (the command line's equations CSV): the same bytes
       * imported whole before, into the readings as they are now, are not read again
       * (given-import.ts); `rows` is then never iterated.
       */
      file?: GivenFile;
    }
  /** Nothing new: finish what the workspace holds. */
  | { kind: 'none' };

export type GradeProgress = {
  /** 'groups': the answer groups' comparisons (review/prepare-groups.ts), counted in questions. */
  phase: 'import' | 'extract' | 'mark' | 'groups';
  /** Done in this phase so far (this run), and the phase's size (this run). */
  done: number;
  total: number;
  /** This phase's rate over the recent window (responses per second) and the time left at it; null until measured. */
  perSecond?: number | null;
  etaSeconds?: number | null;
  studentId?: string;
  questionId?: string;
};

export type GradeOptions = {
  workspace: Workspace;
  exam: LoadedExam;
  engine: EntailmentEngine;
  input: GradeInput;
  technique?: Technique;
  /**
   * Leave responses that wait for the model alone (default: read them again). For a run that
   * fell back to the embedded extractor because no model can be reached: they keep waiting.
   */
  keepWaiting?: boolean;
  onProgress?: (p: GradeProgress) => void;
  /** Stop between steps (the work done so far stays; a later run finishes it). */
  signal?: AbortSignal;
  /**
   * Read again every response another reader read (a "grade again" with another technique):
   * their readings are dropped first; the instructor's corrections and imported lists are kept.
   */
  rereadOthers?: boolean;
  /**
   * The method before issue 14, kept as the benchmark's baseline: one response at a time, its
   * reads and writes one by one, verdicts kept in memory only.
   */
  sequential?: boolean;
  /**
   * Compare each question's lists for the answer groups once marking is done (default true), as
   * review/prepare-groups.ts says: only questions whose lists changed since. False for a caller
   * that prepares them itself (the app, in its worker thread below its views, after the job).
   */
  answerGroups?: boolean;
};

/**
 * Between responses, let the event loop answer (a pause, a progress poll, another view's
 * request): the embedded extractor and warm marking never wait on anything, so without this a
 * batch would hold the loop until it ended, and a pause would be answered only after it.
 */
export function breather(everyMs = 15): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (Date.now() - last < everyMs) return;
    await new Promise<void>((ok) => setImmediate(ok));
    last = Date.now();
  };
}

/** A response a step failed on (it is stored as needs-review with flag 'engine-error'). */
export type EngineError = { studentId: string; questionId: string; message: string };

export { ENGINE_ERROR_FLAG };

export type GradeSummary = {
  examId: string;
  responses: number;
  /** setAside: corrections and overrides made on texts this import replaced (kept aside, not applied to the new texts). */
  imported: { inserted: number; updated: number; unchanged: number; kept?: number; setAside?: number };
  /** Work done by this run (finished work from earlier runs is not redone). */
  extractedNow: number;
  markedNow: number;
  /** Extraction status -> count, over the whole exam. */
  byExtraction: Record<string, number>;
  /** Responses with at least one inconsistent equation. */
  inconsistent: number;
  /** Sum of automatic marks awarded, and of marks available, over all responses. */
  awarded: number;
  available: number;
  /** Undecided items (the engine could not decide). */
  undecidedItems: number;
  /** Technique of this run. */
  technique: string;
  /** Responses waiting for the model (over the whole exam, after this run), each with why (its 'waiting' note). */
  waiting: { studentId: string; questionId: string; reason?: string }[];
  /** Why they wait (this run's error from Ollama), when known. */
  waitingReason?: string;
  /** Responses a step failed on in this run (each stored as needs-review, flag 'engine-error'); the rest were graded. */
  engineErrors: EngineError[];
  /** With rereadOthers: readings dropped to be read again, and the corrected readings and imported lists kept. */
  reread?: { dropped: number; corrected: number; given: number };
  /** The answer groups' comparisons made as the grade ended (absent when not asked for, or stopped before). */
  answerGroups?: PreparedGroups;
  /** For a model technique: the models used (name + digest), this run's accounting and warnings. */
  model?: {
    models: ModelRef[];
    accounting: BatchAccounting;
    warnings: string[];
    url: string;
    /** Each server with the responses it read and the fault that took it out of the batch, if any. */
    servers?: { url: string; read: number; down?: string }[];
  };
};

/** Same reading (equations, status, flags): a response still waiting is not stored again. */
const sameReading = (a: Extraction, b: Extraction): boolean =>
  JSON.stringify([a.equations.map((e) => e.source), a.status, a.source, [...a.flags].sort()]) ===
  JSON.stringify([b.equations.map((e) => e.source), b.status, b.source, [...b.flags].sort()]);

/** Extraction for a given list (source 'given'); a bad row becomes an empty list needing review. */
export function givenExtraction(row: EquationsRow): Extraction {
  if (row.error) return { equations: [], status: 'needs-review', source: 'given', flags: ['parse-error'], unread: [], notes: [note('unread', row.error)] };
  return { equations: row.sources.map((source) => ({ source })), status: 'read', source: 'given', flags: [], unread: [], notes: [] };
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 500);

/** The reading stored when reading a response failed: nothing read, needs review, the reason in its notes. */
export function failedReading(reader: string, message: string): Extraction {
  return {
    equations: [],
    status: 'needs-review',
    source: 'embedded',
    flags: [ENGINE_ERROR_FLAG],
    unread: [],
    notes: [note('engine-error', `engine error while reading (${reader}): ${message}`)],
  };
}

/** Marks stored when marking a response failed: every automatic item undecided, with the reason. */
function failedMarks(cq: CompiledQuestion | undefined, message: string): ResponseMarks {
  const items = (cq?.question.scheme ?? []).map((s) =>
    s.manual
      ? { itemId: s.id, available: s.marks, awarded: null, outcome: 'manual' as const, match: 'manual' as const, evidence: [] }
      : {
          itemId: s.id,
          available: s.marks,
          awarded: null,
          outcome: 'undecided' as const,
          match: s.match ?? 'implied',
          evidence: [],
          note: `engine error: ${message}`,
        },
  );
  return { items, total: 0, available: items.reduce((t, i) => t + i.available, 0), inconsistent: [], status: 'undecided' };
}

/** Parsed sources per question (trees are never changed): a source written by many students is parsed once. */
const parsedSources = new WeakMap<CompiledQuestion, Map<string, Equation | null>>();

/**
 * Parse a stored extraction's equations against the question and mark them (throws on an engine
 * error): the one marking step of grading and re-marking, and of a scheme change's preview
 * (preview-scheme.ts), which stores nothing.
 */
export async function marksOf(
  engine: EntailmentEngine,
  cq: CompiledQuestion | undefined,
  questionId: string,
  x: Extraction,
  /** The response's text (numeric items read numbers with units from it); null for a given list. */
  text: string | null,
): Promise<ResponseMarks> {
  if (!cq) throw new Error(`question '${questionId}' is not in the exam`);
  return markEquations(engine, cq, parsedEquations(cq, x), { text });
}

/**
 * marksOf for the items named only (decide/marking.ts's markItems): a scheme change that edited
 * those items only marks them again, the others' stored marks standing.
 */
async function itemsOf(
  engine: EntailmentEngine,
  cq: CompiledQuestion | undefined,
  questionId: string,
  x: Extraction,
  text: string | null,
  only: ReadonlySet<string>,
): Promise<Awaited<ReturnType<typeof markItems>>> {
  if (!cq) throw new Error(`question '${questionId}' is not in the exam`);
  return markItems(engine, cq, parsedEquations(cq, x), only, { text });
}

/** A stored reading's equations parsed against the question (throws when one no longer parses). */
function parsedEquations(cq: CompiledQuestion, x: Extraction): Equation[] {
  let parsed = parsedSources.get(cq);
  if (!parsed) parsedSources.set(cq, (parsed = new Map()));
  const equations: Equation[] = [];
  const broken: string[] = [];
  for (const [i, e] of x.equations.entries()) {
    let eq = parsed.get(e.source);
    if (eq === undefined) {
      const p = parseEquation(e.source, { variables: cq.variables });
      eq = p.ok ? p.value : null;
      if (parsed.size < 200_000) parsed.set(e.source, eq);
    }
    if (eq) equations.push(eq);
    else broken.push(`equation ${i + 1} (${e.source}): ${brokenWhy(e.source, cq)}`);
  }
  // Stored sources parsed on the way in, so a failure means the exam's variables changed since
  // (a kept correction). Dropping it would mark the rest unseen and shift every evidence index:
  // the response is held for the instructor instead (needs-review, items undecided).
  if (broken.length) throw new Error(`${broken.join('; ')}: the question's variables changed since it was read; correct the reading or read it again`);
  return equations;
}

/** Why a stored equation no longer parses against the question (the grammar's own words). */
function brokenWhy(source: string, cq: CompiledQuestion): string {
  const p = parseEquation(source, { variables: cq.variables });
  return p.ok ? 'it parses again' : formatErrors(p.errors);
}

type StoredX = Extraction & { id: number; reader: string };

/** Store a marking failure as the response's state (reading kept, needs-review, engine-error; items undecided). */
function storeMarkingFailure(
  ws: Workspace,
  cq: CompiledQuestion | undefined,
  r: { id: number; studentId: string; questionId: string },
  x: StoredX,
  e: unknown,
): EngineError {
  const message = `marking: ${errorText(e)}`;
  const failed: Extraction = {
    equations: x.equations,
    status: 'needs-review',
    source: x.source,
    flags: [...x.flags.filter((f) => f !== ENGINE_ERROR_FLAG), ENGINE_ERROR_FLAG],
    unread: x.unread,
    notes: [...x.notes.filter((n) => n.kind !== 'engine-error'), note('engine-error', `engine error while ${message}`)],
  };
  const xid = ws.saveExtraction(r.id, failed, x.reader);
  ws.saveMarks(r.id, xid, failedMarks(cq, message));
  return { studentId: r.studentId, questionId: r.questionId, message };
}

/** One response marked with its own reads and writes (a correction; the sequential method). */
async function markOne(
  ws: Workspace,
  engine: EntailmentEngine,
  cq: CompiledQuestion | undefined,
  r: { id: number; studentId: string; questionId: string },
): Promise<{ marked: boolean; error?: EngineError }> {
  const x = ws.getExtraction(r.id);
  if (!x) return { marked: false };
  try {
    const text = ws.textsOf([r.id]).get(r.id) ?? null;
    ws.saveMarks(r.id, x.id, await marksOf(engine, cq, r.questionId, x, text));
    return { marked: true };
  } catch (e) {
    if (e instanceof StaleError) return { marked: false };
    return { marked: true, error: storeMarkingFailure(ws, cq, r, x, e) };
  }
}

/**
 * Mark one response on its stored extraction: the one marking step, used by grading, by
 * re-marking after a scheme change and by the instructor's correction (only this response's
 * pairs are looked at; those decided before come from the workspace's verdicts). Never throws for
 * the response's own sake: an exception (a bad equation, the engine failing) is stored as the
 * response's state (the reading kept, status needs-review, flag 'engine-error', the reason in its
 * notes; automatic items undecided) and returned. `marked` is false when there was nothing to
 * mark or the extraction changed meanwhile (a later run marks it).
 */
export async function markResponse(
  ws: Workspace,
  engine: EntailmentEngine,
  cq: CompiledQuestion | undefined,
  r: { id: number; studentId: string; questionId: string },
): Promise<{ marked: boolean; error?: EngineError }> {
  engine.setVerdictStore?.(ws.decidedStore());
  try {
    return await markOne(ws, engine, cq, r);
  } finally {
    ws.flushDecided();
  }
}

/**
 * The instructor picks reading `reading` of choice `choice` (0-based) of a response's reading: that
 * span's equations are replaced by the reading's, `chosen` is set, the pick is audited (who, which
 * choice, the equations before and after) and the response is re-marked at once through
 * markResponse. Once no choice is left unsettled and nothing else holds the reading back, it is
 * no longer held back for its choices (the flag goes); a note of kind 'instructor' records the
 * pick. Picking another reading later undoes it the same way. Throws on a response without a
 * reading or a choice or reading out of range (the caller's bad request).
 */
export async function pickReading(
  ws: Workspace,
  engine: EntailmentEngine,
  cq: CompiledQuestion | undefined,
  r: { id: number; studentId: string; questionId: string },
  choice: number,
  reading: number,
): Promise<{ marked: boolean; error?: EngineError }> {
  const x = ws.getExtraction(r.id);
  if (!x) throw new Error(`response ${r.studentId}/${r.questionId} has no reading yet`);
  const picked = pickReadingOf(x, choice, reading); // throws when out of range
  const alt = x.alternatives![choice];
  const from = alt.chosen ?? 0; // reading 0 is in the equations until one is picked
  const about = `reading of ${JSON.stringify(alt.text.slice(0, 160))}`;
  // One note per choice: a later pick replaces the earlier one's note.
  const notes = [
    ...picked.notes.filter((n) => !(n.kind === 'instructor' && n.text.includes(about))),
    note('instructor', `the instructor picked ${about}: ${reading + 1} of ${alt.readings.length}, ${alt.readings[reading].join(', ')}`),
  ];
  ws.saveReadingPick(r.id, { ...picked, notes }, x.reader, {
    choice,
    text: alt.text,
    from,
    to: reading,
    before: alt.readings[from],
    after: alt.readings[reading],
  });
  return markResponse(ws, engine, cq, r);
}

/**
 * The marks an equation list would earn, stored nowhere: what a group correction's preview shows
 * before anything is saved. Throws for an equation the grammar rejects.
 */
export async function marksFor(engine: EntailmentEngine, cq: CompiledQuestion, sources: readonly string[], text?: string | null): Promise<ResponseMarks> {
  const equations: Equation[] = [];
  for (const s of sources) {
    const p = parseEquation(s, { variables: cq.variables });
    if (!p.ok) throw new Error(`${JSON.stringify(s)}: ${p.errors.map((e) => e.message).join('; ')}`);
    equations.push(p.value);
  }
  return markEquations(engine, cq, equations, { text });
}

/** Responses read, marked and written per batch (one read query, one write transaction). */
const MARK_BATCH = 512;
/**
 * Responses marked at once: their Z3 checks go to the pool's workers in parallel, and a lane
 * waiting for a slow pair (which many responses share) leaves the others to go on.
 */
const MARK_LANES = 64;

/**
 * Mark every response of the exam that is extracted and not marked (see markResponse), in
 * batches: one query reads a batch's extractions, its responses are marked concurrently (the Z3
 * pool decides their checks on every core; a pair asked twice is decided once), and one
 * transaction writes their marks with the verdicts decided meanwhile. Marks are those of marking
 * each response alone: every verdict is a function of its pair.
 */
export async function markPending(opts: {
  workspace: Workspace;
  exam: LoadedExam;
  engine: EntailmentEngine;
  signal?: AbortSignal;
  onProgress?: (p: GradeProgress) => void;
  sequential?: boolean;
}): Promise<{ markedNow: number; engineErrors: EngineError[] }> {
  const { workspace: ws, exam, engine, signal, onProgress } = opts;
  const toMark = ws.pending(exam.exam.id, 'mark');
  let markedNow = 0;
  let done = 0;
  const engineErrors: EngineError[] = [];
  const breathe = breather();
  const rate = new RecentRate();
  const tick = (r: { studentId: string; questionId: string }) => {
    rate.tick();
    done++;
    onProgress?.({
      phase: 'mark',
      done,
      total: toMark.length,
      studentId: r.studentId,
      questionId: r.questionId,
      perSecond: rate.perSecond(),
      etaSeconds: rate.etaSeconds(toMark.length - done),
    });
  };
  if (opts.sequential) {
    for (const r of toMark) {
      await breathe();
      if (signal?.aborted) break;
      const res = await markOne(ws, engine, exam.questions.get(r.questionId), r);
      if (res.error) engineErrors.push(res.error);
      if (res.marked) markedNow++;
      tick(r);
    }
    return { markedNow, engineErrors };
  }
  engine.setVerdictStore?.(ws.decidedStore());
  const finished: { r: ToMark; x: StoredX; marks?: ResponseMarks; error?: unknown }[] = [];
  const write = (): void => {
    const batch = finished.splice(0);
    const ok = batch.filter((f) => f.marks);
    const stale = ws.saveMarksBatch(
      ok.map(({ r, x, marks }) => ({ responseId: r.id, extractionId: x.id, marks: marks!, key: `${exam.exam.id}/${r.studentId}/${r.questionId}` })),
    );
    markedNow += ok.length - stale.length;
    for (const f of batch) {
      if (!('error' in f)) continue;
      try {
        engineErrors.push(storeMarkingFailure(ws, exam.questions.get(f.r.questionId), f.r, f.x, f.error));
        markedNow++;
      } catch (e) {
        if (!(e instanceof StaleError)) throw e;
      }
    }
    ws.flushDecided();
  };
  try {
    await markInLanes(ws, toMark, signal, wholeMarks(engine, exam), (r, x, out) => {
      if (x) finished.push({ r, x, ...out });
      tick(r);
      if (finished.length >= MARK_BATCH) write();
    });
  } finally {
    write();
  }
  return { markedNow, engineErrors };
}

type ToMark = { id: number; studentId: string; questionId: string; text: string | null };

/** A response's marks, whole (marksOf). */
const wholeMarks =
  (engine: EntailmentEngine, exam: LoadedExam) =>
  (r: ToMark, x: StoredX): Promise<ResponseMarks> =>
    marksOf(engine, exam.questions.get(r.questionId), r.questionId, x, r.text);

/**
 * Mark `list` on the workspace's stored readings in concurrent lanes (markPending, and a scheme
 * change's marks checked before it is stored): lanes take responses one after another from the
 * whole list (no batch waits for its slowest response); readings are read a batch at a time.
 * `done` is called once per response, between awaits: with its reading and what `mark` gave or
 * the error it threw, or without a reading (none stored: nothing to mark).
 */
async function markInLanes<T>(
  ws: Workspace,
  list: readonly ToMark[],
  signal: AbortSignal | undefined,
  mark: (r: ToMark, x: StoredX) => Promise<T>,
  done: (r: ToMark, x: StoredX | undefined, out: { marks: T } | { error: unknown }) => void,
): Promise<void> {
  const breathe = breather();
  let xs = new Map<number, StoredX>();
  let xsFrom = -MARK_BATCH; // no batch read yet
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < list.length && !signal?.aborted) {
      await breathe(); // let a pause or a status poll through between responses
      // Other lanes went on meanwhile: the list may be done, or the run stopped.
      if (signal?.aborted || next >= list.length) break;
      const i = next++;
      if (i >= xsFrom + MARK_BATCH || i < xsFrom) {
        xsFrom = i - (i % MARK_BATCH);
        xs = ws.getExtractions(list.slice(xsFrom, xsFrom + MARK_BATCH).map((r) => r.id));
      }
      const r = list[i];
      const x = xs.get(r.id);
      if (!x) {
        done(r, undefined, { error: new Error('no reading') });
        continue;
      }
      let out: { marks: T } | { error: unknown };
      try {
        out = { marks: await mark(r, x) };
      } catch (e) {
        out = { error: e };
      }
      done(r, x, out);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MARK_LANES, list.length) }, lane));
}

/**
 * Marks of a scheme change's responses held until the exam is stored: at most this many (about
 * 4 KB each with their evidence); beyond it, a response whose marks differ is dropped by the import
 * and marked again by markPending.
 */
const MAX_HELD = 16_384;

/**
 * Before a changed exam is stored (importExam drops the marks of the questions the change
 * re-marks, to be marked again): those questions' marked responses are marked under it now, on
 * their stored readings, and compared with their stored marks a batch at a time. Those found
 * unchanged are named to importExam, which keeps them; those that differ are held (up to
 * MAX_HELD) and written by importExam in its transaction. So a one-item change writes only the
 * marks it moves (a withheld item's evidence lists the new form: those responses change), where
 * dropping and writing every response of the question was most of a re-grade's time. Nothing
 * but verdicts is stored before importExam, so a run stopped meanwhile leaves the workspace as
 * it was. A question read again (its variables changed) is left to the usual path: its readings
 * are dropped.
 *
 * Where the change edited some items of a question and nothing else of its marking
 * (store/exams.ts's changedItems), only those items are marked again (markItems): the others'
 * marks are the stored ones, as marking them again would give (marking is item by item on the
 * same equations and domain). A response is marked whole instead when that can't be shown from
 * what is stored: its stored marks are of another reading or other items, or a vacuous premise
 * was met (an inconsistent equation found while marking sets it aside for the items after), or
 * the changed items' marking finds inconsistent equations or dimension issues other than the
 * stored ones. So of a one-item change's 22,500 responses, one item each is marked, compared
 * (its evidence only is read) and, where it moved, written in place.
 */
async function marksByChange(
  ws: Workspace,
  engine: EntailmentEngine,
  exam: LoadedExam,
  signal: AbortSignal | undefined,
  onProgress: GradeOptions['onProgress'],
): Promise<{
  keep: { responseId: number; extractionId: number }[];
  replace: { responseId: number; extractionId: number; marks: ResponseMarks; key: string }[];
  replaceItems: ItemMarksWrite[];
}> {
  const keep: { responseId: number; extractionId: number }[] = [];
  const replace: { responseId: number; extractionId: number; marks: ResponseMarks; key: string }[] = [];
  const replaceItems: ItemMarksWrite[] = [];
  const out = { keep, replace, replaceItems };
  const stored = ws.getExam(exam.exam.id);
  if (!stored) return out;
  const questions = remarkedBy(stored, exam.exam).filter((qid) => {
    const was = stored.questions.find((q) => q.id === qid);
    return (
      was &&
      !readsAgain(
        was,
        exam.exam.questions.find((q) => q.id === qid)!,
      )
    );
  });
  if (questions.length === 0) return out;
  const only = new Map<string, ReadonlySet<string>>();
  for (const qid of questions) {
    const items = changedItems(stored, exam.exam, qid);
    if (items) only.set(qid, new Set(items));
  }
  const list = ws.markedOf(exam.exam.id, questions);
  const held = (): number => replace.length + replaceItems.length;
  const keyOf = (r: ToMark): string => `${exam.exam.id}/${r.studentId}/${r.questionId}`;
  let batch: (typeof replace)[number][] = [];
  const compare = (): void => {
    const same = new Set(ws.sameMarks(batch));
    for (const b of batch) {
      if (same.has(b.responseId)) keep.push({ responseId: b.responseId, extractionId: b.extractionId });
      else if (held() < MAX_HELD) replace.push(b);
    }
    batch = [];
    ws.flushDecided();
  };
  type Some = Awaited<ReturnType<typeof itemsOf>>;
  let some: { r: ToMark; x: StoredX; m: Some }[] = [];
  /** Responses whose changed items alone can't be shown to give their marks: marked whole after. */
  const whole: ToMark[] = [];
  const compareSome = (): void => {
    if (some.length === 0) return;
    const itemIds = [...new Set(some.flatMap(({ r }) => [...only.get(r.questionId)!]))];
    const storedMarks = ws.storedItemMarks(
      some.map(({ r }) => r.id),
      itemIds,
    );
    for (const { r, x, m } of some) {
      const scheme = exam.questions.get(r.questionId)!.question.scheme;
      const s = storedMarks.get(r.id);
      const fits =
        s !== undefined &&
        s.extractionId === x.id &&
        s.items.length === scheme.length &&
        s.items.every((it, i) => it.itemId === scheme[i].id) &&
        !m.inconsistent.some((e) => e.method === 'entailment') &&
        JSON.stringify(m.inconsistent) === s.inconsistent &&
        (m.dimensions.length ? JSON.stringify(m.dimensions) : null) === s.dimensions;
      if (!fits) {
        whole.push(r);
        continue;
      }
      const at = new Map(m.items.map((it) => [it.itemId, it]));
      const items = s.items.map((it) => at.get(it.itemId) ?? it);
      const result = resultOf(items);
      // Each changed item's row made once (its evidence serialized once): compared here, written by saveItemMarks.
      const changed = m.items.map((mark) => ({ position: scheme.findIndex((q) => q.id === mark.itemId), mark, row: itemRow(mark) }));
      const same =
        result.total === s.total &&
        result.available === s.available &&
        result.status === s.status &&
        changed.every(({ position, row }) => storedRowIs(s.items[position], row));
      if (same) keep.push({ responseId: r.id, extractionId: x.id });
      else if (held() < MAX_HELD) replaceItems.push({ responseId: r.id, extractionId: x.id, items: changed, ...result, stored: s, key: keyOf(r) });
    }
    some = [];
    ws.flushDecided();
  };
  const rate = new RecentRate();
  let done = 0;
  engine.setVerdictStore?.(ws.decidedStore());
  try {
    await markInLanes(
      ws,
      list,
      signal,
      async (r, x): Promise<{ whole: ResponseMarks } | { some: Some }> => {
        const items = only.get(r.questionId);
        return items
          ? { some: await itemsOf(engine, exam.questions.get(r.questionId), r.questionId, x, r.text, items) }
          : { whole: await marksOf(engine, exam.questions.get(r.questionId), r.questionId, x, r.text) };
      },
      (r, x, res) => {
        // A marking that failed is left out: importExam drops its marks and markPending stores the failure.
        if (x && 'marks' in res) {
          if ('whole' in res.marks) batch.push({ responseId: r.id, extractionId: x.id, marks: res.marks.whole, key: keyOf(r) });
          else some.push({ r, x, m: res.marks.some });
        }
        if (batch.length >= MARK_BATCH) compare();
        if (some.length >= MARK_BATCH) compareSome();
        rate.tick();
        done++;
        onProgress?.({ phase: 'mark', done, total: list.length, perSecond: rate.perSecond(), etaSeconds: rate.etaSeconds(list.length - done) });
      },
    );
    compareSome();
    if (whole.length && !signal?.aborted)
      await markInLanes(ws, whole, signal, wholeMarks(engine, exam), (r, x, res) => {
        if (x && 'marks' in res) batch.push({ responseId: r.id, extractionId: x.id, marks: res.marks, key: keyOf(r) });
        if (batch.length >= MARK_BATCH) compare();
      });
  } finally {
    compare();
  }
  return out;
}

export async function grade(opts: GradeOptions): Promise<GradeSummary> {
  const { workspace: ws, exam, engine, input, onProgress, signal } = opts;
  const technique = opts.technique ?? (await resolveTechnique('embedded'));
  const examId = exam.exam.id;

  // A changed exam: its responses marked under it first, so that only marks it moves are written
  // (marksByChange); counted as marked by this run.
  const change = opts.sequential ? { keep: [], replace: [], replaceItems: [] } : await marksByChange(ws, engine, exam, signal, onProgress);
  onProgress?.({ phase: 'import', done: 0, total: 1 });
  const { replaced } = ws.importExam(exam.exam, change);
  const remarked = change.keep.length + (replaced ?? 0);
  let imported: GradeSummary['imported'] = { inserted: 0, updated: 0, unchanged: 0 };
  if (input.kind === 'responses') imported = ws.importResponses(examId, input.rows);
  else if (input.kind === 'given') {
    // The file imported whole last time, into these very readings: every row would be unchanged.
    const unchanged = input.file ? unchangedGivenImport(ws, exam, input.file.sha256) : undefined;
    const sum = { inserted: 0, updated: 0, unchanged: unchanged ?? 0, kept: 0, setAside: 0 };
    imported = sum;
    if (unchanged === undefined) {
      let rowsImported = 0;
      const importRows = (rows: readonly EquationsRow[]): void => {
        const known = rows.filter((r) => exam.questions.has(r.questionId));
        const n = ws.importGiven(
          examId,
          known.map((r) => ({ studentId: r.studentId, questionId: r.questionId, extraction: givenExtraction(r) })),
        );
        rowsImported += known.length;
        for (const k of ['inserted', 'updated', 'unchanged', 'kept', 'setAside'] as const) sum[k] += n[k];
      };
      if (Symbol.asyncIterator in input.rows) for await (const piece of input.rows) importRows(piece);
      else importRows(input.rows);
      if (input.file) stampGivenImport(ws, exam, input.file, rowsImported);
    }
  }
  onProgress?.({ phase: 'import', done: 1, total: 1 });
  const reread = opts.rereadOthers ? ws.dropReadingsNotBy(examId, technique.extractor.name) : undefined;

  // Extract.
  const toExtract = ws.pending(examId, 'extract', { waiting: !opts.keepWaiting });
  let extractedNow = 0;
  let extractDone = 0;
  let model: GradeSummary['model'];
  let waitingReason: string | undefined;
  const engineErrors: EngineError[] = [];
  const readFailed = (r: { id: number; studentId: string; questionId: string }, e: unknown) => {
    const message = errorText(e);
    ws.saveExtraction(r.id, failedReading(technique.extractor.name, message), technique.extractor.name);
    engineErrors.push({ studentId: r.studentId, questionId: r.questionId, message: `reading: ${message}` });
  };
  const noText: Extraction = {
    equations: [],
    status: 'needs-review',
    source: 'manual',
    flags: [],
    unread: [],
    notes: [note('other', 'no text and no equations')],
  };
  const extractRate = new RecentRate();
  const tick = (r: { studentId: string; questionId: string }) => {
    extractRate.tick();
    extractDone++;
    onProgress?.({
      phase: 'extract',
      done: extractDone,
      total: toExtract.length,
      studentId: r.studentId,
      questionId: r.questionId,
      perSecond: extractRate.perSecond(),
      etaSeconds: extractRate.etaSeconds(toExtract.length - extractDone),
    });
  };
  for (const r of toExtract) if (!exam.questions.get(r.questionId)) throw new Error(`response ${r.studentId}/${r.questionId}: question not in the exam`);
  if (technique.batch) {
    const byId = new Map(toExtract.map((r) => [String(r.id), r]));
    const inputs: ResponseInput[] = [];
    for (const r of toExtract) {
      if (signal?.aborted) break;
      if (r.text === null) {
        ws.saveExtraction(r.id, noText, technique.extractor.name);
        extractedNow++;
        tick(r);
      } else inputs.push({ id: String(r.id), text: r.text, question: exam.questions.get(r.questionId)!.question });
    }
    if (inputs.length && !signal?.aborted) {
      const handled = new Set<string>();
      let storing: Promise<void> = Promise.resolve();
      try {
        const result = await technique.batch(inputs, {
          ...(signal ? { signal } : {}),
          onItem: (item) => {
            const r = byId.get(item.id)!;
            if (item.record.waiting && signal?.aborted) return; // stopped, not read: still pending
            handled.add(item.id);
            // Stored in the order read, each once its contradiction check is done (awaited below).
            storing = storing.then(async () => {
              try {
                const extraction = await checkedReading(engine, exam.questions.get(r.questionId)!.question, item.extraction, r.text);
                const cur = ws.getExtraction(r.id);
                if (item.record.waiting && cur?.flags.includes(WAITING_FLAG) && sameReading(cur, extraction)) {
                  tick(r); // still waiting, nothing new: its marks stay
                  return;
                }
                ws.saveExtraction(r.id, extraction, technique.extractor.name, item.record);
                if (extraction.flags.includes(ENGINE_ERROR_FLAG) && item.record.error) {
                  engineErrors.push({ studentId: r.studentId, questionId: r.questionId, message: `reading: ${errorText(item.record.error)}` });
                }
              } catch (e) {
                readFailed(r, e);
              }
              extractedNow++;
              tick(r);
            });
          },
        });
        await storing;
        waitingReason = result.waitingReason;
        model = {
          models: result.models,
          accounting: result.accounting,
          warnings: result.warnings,
          url: result.url,
          ...(result.servers ? { servers: result.servers } : {}),
        };
      } catch (e) {
        await storing;
        if (signal?.aborted) throw e;
        // The servers' models don't match (or one lacks the model): a setup problem, said once;
        // the responses not read stay as they were (no failed reading is stored for them).
        if (e instanceof ServerRefusal) throw e;
        // The batch itself failed: each response it had not delivered is stored as failed (read again next run).
        for (const i of inputs) {
          if (handled.has(i.id)) continue;
          const r = byId.get(i.id)!;
          readFailed(r, e);
          extractedNow++;
          tick(r);
        }
      }
    }
  } else {
    const breathe = breather();
    for (const r of toExtract) {
      await breathe();
      if (signal?.aborted) break;
      const cq = exam.questions.get(r.questionId)!;
      let x: Extraction | null = null;
      try {
        x = r.text === null ? noText : await technique.extractor.extract(r.text, cq.question);
        x = await settleAlternatives(x, cq.question, engine);
        x = await checkedReading(engine, cq.question, x, r.text);
      } catch (e) {
        readFailed(r, e);
      }
      if (x) ws.saveExtraction(r.id, x, technique.extractor.name);
      extractedNow++;
      tick(r);
    }
  }

  // Mark.
  const marked = await markPending({
    workspace: ws,
    exam,
    engine,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress } : {}),
    ...(opts.sequential ? { sequential: true } : {}),
  });
  const markedNow = marked.markedNow + remarked;
  engineErrors.push(...marked.engineErrors);

  // The answer groups' comparisons, kept in the workspace, so that an app opening it forms a
  // question's groups by look-ups (review/prepare-groups.ts); none where the lists are those
  // prepared before. Not for the baseline method, which predates them.
  const answerGroups =
    opts.sequential || opts.answerGroups === false || signal?.aborted
      ? undefined
      : await prepareAnswerGroups(ws, exam.exam, engine, {
          ...(signal ? { signal } : {}),
          ...(onProgress ? { onQuestion: (done: number, total: number) => onProgress({ phase: 'groups', done, total }) } : {}),
        });

  // Summary over the whole exam (counted in the store: nothing per response is read).
  const { responses, byExtraction, inconsistent, awarded, available } = ws.examCounts(examId);
  const undecidedItems = ws.undecidedItemCount(examId);
  const waiting = ws.waiting(examId).map((w) => {
    const why = ws
      .getExtraction(w.id)
      ?.notes.filter((n) => n.kind === 'waiting')
      .at(-1)
      ?.text.replace(/^waiting for the model: /, '');
    return { studentId: w.studentId, questionId: w.questionId, ...(why ? { reason: why } : {}) };
  });
  return {
    examId,
    responses,
    imported,
    extractedNow,
    markedNow,
    byExtraction,
    inconsistent,
    awarded,
    available,
    undecidedItems,
    technique: technique.name,
    waiting,
    engineErrors,
    ...(reread ? { reread } : {}),
    ...(answerGroups ? { answerGroups } : {}),
    ...(waitingReason ? { waitingReason } : {}),
    ...(model ? { model } : {}),
  };
}
