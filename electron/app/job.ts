// The grading job: one at a time, in the background; paused and resumed between responses; its
// progress computed live from the workspace (so its counts are the summary's). One response a
// step fails on never fails the job: grade() stores it as needs-review (flag 'engine-error') and
// the job's message names it.
import { ApiFailure, type GradeProgress } from '../../shared/api.ts';
import { grade, markPending, type EngineError } from '../engine/grade.ts';
import { reviewCounts } from '../engine/review/state.ts';
import type { AppContext } from './context.ts';

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
  /** grade()'s time left for the phase, from its rate over the recent window (null until measured). */
  phaseEta?: number | null;
  /** The needs-review count, recounted at most every few seconds while the job runs (it reads every response). */
  reviewCount?: { at: number; needsReview: number };
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
  };
}

/** How often a running job's status recounts the responses needing review. */
const RECOUNT_MS = 3000;

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
  // Counted in the store: a status poll never reads every response (the needs-review count,
  // which does, is recounted at most every RECOUNT_MS while the job runs).
  const counts = ctx.ws.examCounts(j.examId);
  const total = counts.responses;
  const done = ctx.ws.markedCount(j.examId);
  const read = total - (counts.byExtraction.pending ?? 0);
  const running = j.state === 'running' || j.state === 'pausing';
  if (!j.reviewCount || !running || Date.now() - j.reviewCount.at > RECOUNT_MS) {
    const jobExam = ctx.ws.getExam(j.examId);
    j.reviewCount = { at: Date.now(), needsReview: jobExam ? reviewCounts(ctx.ws.listResponses(j.examId), jobExam).needsReview : 0 };
  }
  const stretch = running ? (Date.now() - j.stretchStart) / 1000 : 0;
  const elapsed = j.runSeconds + stretch;
  // Time left: the current phase at its measured rate, plus (while reading) the marking still
  // to come at the rate marking last ran in this session.
  const inPhase = (Date.now() - j.phaseStart) / 1000;
  const phaseLeft = Math.max(0, j.phaseTotal - j.phaseDone);
  const markLater = j.phase === 'reading' ? (total - done) * ctx.markSeconds : 0;
  // The phase at the rate it runs now (grade()'s recent window), else at its average so far.
  const eta = !running
    ? total === done
      ? 0
      : null
    : j.phase && j.phaseEta != null
      ? j.phaseEta + markLater
      : j.phase && j.phaseDone > 0 && inPhase > 0.5
        ? (inPhase / j.phaseDone) * phaseLeft + markLater
        : null;
  return {
    state: j.state,
    examId: j.examId,
    technique: j.technique,
    total,
    done,
    read,
    phase: running ? j.phase : null,
    failed: j.failed,
    needsReview: j.reviewCount.needsReview,
    startedAt: new Date(j.startedAt).toISOString(),
    elapsedSeconds: Math.round(elapsed * 10) / 10,
    etaSeconds: eta === null ? null : Math.round(eta),
    tokens: j.tokens,
    energyJoules: j.energyJoules,
    message: j.message,
  };
}

/** Run (or resume) a grading job: read what is unread, mark what is unmarked. */
export async function runStretch(ctx: AppContext, j: Job): Promise<void> {
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
  j.finishedAtStart = ctx.ws.markedCount(j.examId);
  j.run = (async () => {
    try {
      const summary = await grade({
        workspace: ctx.ws,
        exam: lx,
        engine,
        input: { kind: 'none' },
        technique,
        signal: j.controller.signal,
        onProgress: (p) => {
          const phase = p.phase === 'extract' ? 'reading' : p.phase === 'mark' ? 'marking' : null;
          if (!phase) return;
          if (phase !== j.phase) {
            j.phase = phase;
            j.phaseStart = Date.now();
          }
          j.phaseDone = p.done;
          j.phaseTotal = p.total;
          j.phaseEta = p.etaSeconds ?? null;
          if (phase === 'marking' && p.done > 0 && p.done === p.total) ctx.markSeconds = (Date.now() - j.phaseStart) / 1000 / p.done;
        },
      });
      j.failed = summary.engineErrors.length;
      j.state = j.controller.signal.aborted ? 'paused' : 'done';
      j.message = j.state === 'paused' ? PAUSED : summary.engineErrors.length ? engineErrorMessage(summary.engineErrors) : null;
    } catch (e) {
      j.state = 'failed';
      j.message = (e as Error).message;
    } finally {
      j.runSeconds += (Date.now() - j.stretchStart) / 1000;
      if (technique.dispose) await technique.dispose().catch(() => {});
    }
  })();
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
  j.run = (async () => {
    try {
      const engine = await ctx.engine();
      const { engineErrors } = await markPending({
        workspace: ctx.ws,
        exam: ctx.loaded(j.examId),
        engine,
        signal: j.controller.signal,
        onProgress: (p) => {
          j.phaseDone = p.done;
          j.phaseTotal = p.total;
          j.phaseEta = p.etaSeconds ?? null;
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
  })();
}
