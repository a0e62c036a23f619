// The grading job: one at a time, in the background; paused and resumed between responses; its
// progress computed live from the workspace (so its counts are the summary's). One response a
// step fails on never fails the job: grade() stores it as needs-review (flag 'engine-error') and
// the job's message names it.
import { ApiFailure, type GradeProgress } from '../../shared/api.ts';
import { grade, markPending, type EngineError } from '../engine/grade.ts';
import type { AppContext } from './context.ts';
import { prepareGroups, stopGroupPrep } from './answer-groups.ts';

/** The job name of a re-marking run (scheme changed; nothing is read again). */
export const REMARK = 'marking only (the scheme changed)';

export type Job = {
  examId: string;
  technique: string;
  controller: AbortController;
  state: GradeProgress['state'];
  startedAt: number;
  /** Seconds spent running before the current stretch (pauses excluded). */
  runSeconds: number;
  stretchStart: number;
  /** Responses still to finish when the stretch started, and finished since. */
  finishedAtStart: number;
  tokens: number;
  energyJoules: number;
  message: string | null;
  /** Responses a step failed on (stored as needs-review, flag 'engine-error'), this job. */
  failed: number;
  run: Promise<void> | null;
  /** The current phase of grade(): when it started and how far it has got. */
  phase: 'reading' | 'marking' | null;
  phaseStart: number;
  phaseDone: number;
  phaseTotal: number;
  /** Recent (time, done in the phase) samples: time left comes from the rate over the last few seconds. */
  samples: { t: number; done: number }[];
  /** The count of responses needing review, recomputed at most every couple of seconds while running (it reads every row). */
  review: { at: number; n: number } | null;
};

/** A job just started: running, nothing counted yet. */
export function newJob(examId: string, technique: string, phase: Job['phase'], phaseTotal: number): Job {
  const now = Date.now();
  return {
    examId,
    technique,
    controller: new AbortController(),
    state: 'running',
    startedAt: now,
    runSeconds: 0,
    stretchStart: now,
    finishedAtStart: 0,
    tokens: 0,
    energyJoules: 0,
    message: null,
    failed: 0,
    run: null,
    phase,
    phaseStart: now,
    phaseDone: 0,
    phaseTotal,
    samples: [],
    review: null,
  };
}

/** How far back the rate behind "time left" looks. */
const RATE_WINDOW_MS = 8000;

/** Record how far the phase has got (for the recent rate). */
export function sample(j: Job, done: number): void {
  const t = Date.now();
  j.samples.push({ t, done });
  while (j.samples.length > 2 && t - j.samples[0].t > RATE_WINDOW_MS) j.samples.shift();
}

/** Responses per second in the current phase over the last few seconds (null until two samples a little apart). */
function recentRate(j: Job): number | null {
  const a = j.samples[0];
  const b = j.samples[j.samples.length - 1];
  if (!a || !b || b.t - a.t < 300 || b.done <= a.done) return null;
  return ((b.done - a.done) * 1000) / (b.t - a.t);
}

const PAUSED = 'Paused. Work done so far is saved; resume to go on.';

/** The job's words for responses a step failed on: each named, with why. */
export function engineErrorMessage(errors: readonly EngineError[]): string {
  const shown = errors.slice(0, 5).map((e) => `student ${e.studentId}, question ${e.questionId} (${e.message})`);
  const more = errors.length > shown.length ? `; and ${errors.length - shown.length} more` : '';
  return `${errors.length === 1 ? '1 response' : `${errors.length} responses`} could not be graded and need${errors.length === 1 ? 's' : ''} review: ${shown.join('; ')}${more}. Everything else was graded.`;
}

export function progress(ctx: AppContext): GradeProgress {
  const j = ctx.job;
  if (!j)
    return {
      state: 'idle',
      examId: null,
      technique: null,
      total: 0,
      done: 0,
      read: 0,
      phase: null,
      failed: 0,
      needsReview: 0,
      startedAt: null,
      elapsedSeconds: 0,
      etaSeconds: null,
      tokens: 0,
      energyJoules: 0,
      message: null,
    };
  const counts = ctx.ws.progressCounts(j.examId);
  const done = counts.marked;
  const read = counts.read;
  const running = j.state === 'running' || j.state === 'pausing';
  const stretch = running ? (Date.now() - j.stretchStart) / 1000 : 0;
  const elapsed = j.runSeconds + stretch;
  // Time left: the current phase at its rate over the last few seconds (null until a rate has
  // been seen), plus (while reading) the marking still to come at the rate marking last ran in
  // this session (a typical rate before it has run once).
  const rate = running ? recentRate(j) : null;
  const phaseLeft = Math.max(0, j.phaseTotal - j.phaseDone);
  const markLater = j.phase === 'reading' ? (counts.total - done) * ctx.markSeconds : 0;
  const eta = !running ? (counts.total === done ? 0 : null) : rate ? phaseLeft / rate + markLater : null;
  // Counting those needing review: the review index's count (it reads only the rows marked since
  // it was last asked), at most every 2 s while running.
  const jobExam = ctx.ws.getExam(j.examId);
  if (!j.review || !running || Date.now() - j.review.at > 2000) j.review = { at: Date.now(), n: jobExam ? ctx.reviews.of(jobExam).counts().needing : 0 };
  return {
    state: j.state,
    examId: j.examId,
    technique: j.technique,
    total: counts.total,
    done,
    read,
    phase: running ? j.phase : null,
    failed: j.failed,
    needsReview: j.review.n,
    startedAt: new Date(j.startedAt).toISOString(),
    elapsedSeconds: Math.round(elapsed * 10) / 10,
    etaSeconds: eta === null ? null : Math.round(eta),
    tokens: j.tokens,
    energyJoules: j.energyJoules,
    message: j.message,
  };
}

/** Run (or resume) a grading job: read what is unread, mark what is unmarked. */
export async function runStretch(ctx: AppContext, j: Job, opts: { rereadOthers?: boolean; label?: string } = {}): Promise<void> {
  const make = (await ctx.techniques(true))[j.technique];
  if (!make) throw new ApiFailure({ code: 'unavailable', message: `reading technique '${j.technique}' is not available in this build` });
  const technique = await make();
  const engine = await ctx.engine();
  const lx = ctx.loaded(j.examId);
  j.state = 'running';
  j.stretchStart = Date.now();
  j.phase = null;
  j.phaseDone = 0;
  j.phaseTotal = 0;
  j.phaseStart = Date.now();
  j.finishedAtStart = ctx.ws.progressCounts(j.examId).marked;
  j.samples = [];
  // The answer groups prepared in the background give way to grading (they resume when it is done).
  const prepStopped = stopGroupPrep(ctx);
  j.run = (async () => {
    try {
      await prepStopped;
      const summary = await grade({
        workspace: ctx.ws,
        exam: lx,
        engine,
        input: { kind: 'none' },
        technique,
        signal: j.controller.signal,
        // The app compares the answer groups itself once the job is done (prepareGroups below):
        // in its worker thread, below the views, not on this thread while they wait.
        answerGroups: false,
        ...(opts.rereadOthers ? { rereadOthers: true } : {}),
        onProgress: (p) => {
          const phase = p.phase === 'extract' ? 'reading' : p.phase === 'mark' ? 'marking' : null;
          if (!phase) return;
          if (phase !== j.phase) {
            j.phase = phase;
            j.phaseStart = Date.now();
            j.samples = [];
          }
          j.phaseDone = p.done;
          j.phaseTotal = p.total;
          sample(j, p.done);
          if (phase === 'marking' && p.done > 0 && p.done === p.total) ctx.markSeconds = (Date.now() - j.phaseStart) / 1000 / p.done;
        },
      });
      j.failed = summary.engineErrors.length;
      j.state = j.controller.signal.aborted ? 'paused' : 'done';
      const said = [
        ...(summary.reread ? [rereadMessage(summary.reread, opts.label ?? j.technique, summary.extractedNow, summary.markedNow)] : []),
        ...(summary.engineErrors.length ? [engineErrorMessage(summary.engineErrors)] : []),
      ];
      j.message = j.state === 'paused' ? PAUSED : said.length ? said.join(' ') : null;
    } catch (e) {
      j.state = 'failed';
      j.message = (e as Error).message;
      if (process.env.EQUIMARK_DEBUG) console.error(e);
    } finally {
      j.runSeconds += (Date.now() - j.stretchStart) / 1000;
      if (technique.dispose) await technique.dispose().catch(() => {});
    }
    if (j.state === 'done') prepareGroups(ctx, j.examId, 'graded');
  })();
}

/** What a "grade again" did about the readings: read again with the chosen reader, or why nothing was. */
export function rereadMessage(r: { dropped: number; corrected: number; given: number }, label: string, extracted: number, marked: number): string {
  const kept = [
    r.corrected ? `${r.corrected} reading${r.corrected === 1 ? '' : 's'} you corrected kept as you corrected ${r.corrected === 1 ? 'it' : 'them'}` : '',
    r.given ? `${r.given} imported equation list${r.given === 1 ? '' : 's'} kept` : '',
  ].filter(Boolean);
  const keptText = kept.length ? ` (${kept.join('; ')})` : '';
  if (r.dropped) return `Read ${r.dropped} response${r.dropped === 1 ? '' : 's'} again with ${label}, and marked them${keptText}.`;
  if (!extracted && !marked) return `Nothing was read again: every response was already read with ${label}, and its marks are up to date${keptText}.`;
  return `Read ${extracted} and marked ${marked} with ${label}${keptText}.`;
}

/** Re-mark every response whose marks were dropped (the scheme changed): no reading, marking only. Returns how many. */
export function startRemark(ctx: AppContext, examId: string): number {
  const n = ctx.ws.pending(examId, 'mark').length;
  if (!n) return 0;
  const j = newJob(examId, REMARK, 'marking', n);
  ctx.job = j;
  remarkStretch(ctx, j);
  return n;
}

export function remarkStretch(ctx: AppContext, j: Job): void {
  j.state = 'running';
  j.stretchStart = j.phaseStart = Date.now();
  j.phase = 'marking';
  j.phaseDone = 0;
  j.phaseTotal = ctx.ws.pending(j.examId, 'mark').length;
  j.samples = [];
  const prepStopped = stopGroupPrep(ctx);
  j.run = (async () => {
    try {
      await prepStopped;
      const engine = await ctx.engine();
      const { engineErrors } = await markPending({
        workspace: ctx.ws,
        exam: ctx.loaded(j.examId),
        engine,
        signal: j.controller.signal,
        onProgress: (p) => {
          j.phaseDone = p.done;
          j.phaseTotal = p.total;
          sample(j, p.done);
        },
      });
      j.failed += engineErrors.length;
      j.state = j.controller.signal.aborted ? 'paused' : 'done';
      j.message =
        j.state === 'paused'
          ? PAUSED
          : engineErrors.length
            ? `Re-marked with the changed scheme. ${engineErrorMessage(engineErrors)}`
            : 'Re-marked with the changed scheme.';
    } catch (e) {
      j.state = 'failed';
      j.message = (e as Error).message;
    } finally {
      j.runSeconds += (Date.now() - j.stretchStart) / 1000;
    }
    if (j.state === 'done') prepareGroups(ctx, j.examId, 'graded');
  })();
}
