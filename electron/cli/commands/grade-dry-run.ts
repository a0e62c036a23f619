// `equimark grade --dry-run [--diff FILE.csv]`: what grading an edited exam against a graded
// workspace would change, with nothing written to the workspace: the engine's scheme-change
// preview (preview-scheme.ts) re-marks the stored readings of the questions whose marking the
// edit changes; the per-item counts, the students whose totals move and the overrides the change
// parts from or comes to agree with are printed; --diff writes every change as CSV.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadExamFile } from '../../engine/io/exam.ts';
import { writeFileAtomic } from '../../engine/io/csv/write.ts';
import { schemeDiffCsv } from '../../engine/io/csv/scheme-diff.ts';
import { previewScheme } from '../../engine/preview-scheme.ts';
import { Workspace } from '../../engine/store/workspace.ts';
import type { SchemePreview } from '../../../shared/scheme-preview.ts';
import { UsageError } from '../args.ts';
import { EXIT_ENGINE_ERRORS, InputError, type Io } from '../io.ts';
import { MODEL_LIST_OPTIONS, MODEL_OPTIONS } from '../model-options.ts';
import { withEngine } from '../engine.ts';
import { progressPrinter } from '../report.ts';

/** Students listed by name on the terminal (the diff CSV has them all). */
const SHOWN = 20;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, ''));

/** The dry run's arguments: the exam and the workspace; what reads responses has no place here. */
function checkArgs(opts: Record<string, string>): { wsPath: string; diff?: string } {
  for (const o of ['responses', 'equations'])
    if (opts[o] !== undefined)
      throw new UsageError(`grade --dry-run re-marks the readings stored in the workspace: leave out --${o} (grade without --dry-run to read new responses)`);
  for (const o of [...MODEL_OPTIONS, ...MODEL_LIST_OPTIONS])
    if (opts[o] !== undefined) throw new UsageError(`grade --dry-run reads nothing, so --${o} has no use: leave it out`);
  const wsPath = opts.workspace ?? (opts.out ? join(opts.out, 'workspace.sqlite') : undefined);
  if (!wsPath) throw new UsageError('grade --dry-run: give the graded workspace (--workspace W.sqlite, or the --out DIR it was graded into)');
  return { wsPath, ...(opts.diff ? { diff: opts.diff } : {}) };
}

export async function cmdGradeDryRun(opts: Record<string, string>, examPath: string, io: Io): Promise<number> {
  const { wsPath, diff } = checkArgs(opts);
  const exam = loadExamFile(examPath);
  if (!existsSync(wsPath)) throw new InputError(`${wsPath}: no workspace there; a dry run compares with the marks of a graded workspace (grade first)`);
  let ws: Workspace;
  try {
    ws = new Workspace(wsPath);
  } catch (e) {
    throw new InputError(`${wsPath}: cannot open the workspace (${(e as Error).message})`);
  }
  let p: SchemePreview;
  try {
    if (!ws.getExam(exam.exam.id))
      throw new InputError(
        `${examPath}: the workspace ${wsPath} has no exam '${exam.exam.id}' (exams there: ${
          ws
            .listExams()
            .map((e) => e.id)
            .join(', ') || 'none'
        })`,
      );
    const print = progressPrinter(io);
    p = await withEngine((engine) =>
      previewScheme({
        workspace: ws,
        edited: exam,
        engine,
        onProgress: (x) => print({ phase: 'mark', done: x.done, total: x.total, etaSeconds: x.etaSeconds }),
      }),
    ).catch((e: unknown) => {
      // Refusals the app would give too (a question with responses dropped) are bad input.
      if (e instanceof Error && /can't be removed/.test(e.message)) throw new InputError(`${examPath}: ${e.message}; nothing was changed`);
      throw e;
    });
  } finally {
    ws.close();
  }
  if (diff) {
    try {
      writeFileAtomic(diff, schemeDiffCsv(p));
    } catch (e) {
      throw new InputError(`${diff}: cannot write the diff CSV (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  io.out(`${reportLines(p, examPath, wsPath, diff).join('\n')}\n`);
  const errors = p.notPreviewed.filter((n) => n.kind === 'engine-error');
  const others = p.notPreviewed.filter((n) => n.kind !== 'engine-error');
  if (others.length)
    io.err(
      `${plural(others.length, 'response')} could not be previewed (their marks are counted as they are):\n${others
        .slice(0, SHOWN)
        .map((n) => `  ${n.studentId}/${n.questionId}: ${n.reason}`)
        .join('\n')}${others.length > SHOWN ? `\n  and ${others.length - SHOWN} more` : ''}\n`,
    );
  if (errors.length) {
    io.err(
      `${plural(errors.length, 'response')} hit an engine error while re-marking:\n${errors.map((n) => `  ${n.studentId}/${n.questionId}: ${n.reason}`).join('\n')}\n`,
    );
    return EXIT_ENGINE_ERRORS;
  }
  return 0;
}

/** What the dry run prints: the questions re-marked, a per-item table, the students, the overrides, the diff file. */
export function reportLines(p: SchemePreview, examPath: string, wsPath: string, diff?: string): string[] {
  const out = [`dry run: exam '${p.examId}' as in ${examPath}, against the workspace ${wsPath} (nothing is written to it)`];
  if (!p.changedQuestions.length) {
    out.push("the edit changes no question's marking: every mark stays as it is");
    if (diff) out.push(`wrote ${resolve(diff)} (no changes)`);
    return out;
  }
  out.push(`re-marked ${plural(p.remarked, 'response')} of ${p.changedQuestions.join(', ')} with the edited scheme; the other questions keep their marks`);
  const rows = [
    ['item', 'gained', 'lost', 'unchanged'],
    ...p.items.map((i) => [`${i.questionId}.${i.itemId}${i.status === 'kept' ? '' : ` (${i.status})`}`, String(i.gained), String(i.lost), String(i.unchanged)]),
  ];
  const width = rows[0].map((_, k) => Math.max(...rows.map((r) => r[k].length)));
  for (const r of rows) out.push(`  ${r.map((c, k) => (k === 0 ? c.padEnd(width[k]) : c.padStart(width[k]))).join('  ')}`);
  const up = p.students.filter((s) => s.after > s.before);
  const down = p.students.filter((s) => s.after < s.before);
  out.push(
    `students: ${up.length} would gain and ${down.length} would lose marks in total (overrides in force); ${p.studentsUnchanged} unchanged`,
    ...p.students.slice(0, SHOWN).map((s) => `  ${s.studentId}: ${num(s.before)} -> ${num(s.after)}${s.partial ? ' (some responses not previewed)' : ''}`),
    ...(p.students.length > SHOWN ? [`  and ${p.students.length - SHOWN} more`] : []),
  );
  const o = p.overrides;
  out.push(
    o.total
      ? `overrides: the change would make the automatic mark disagree with ${plural(o.newlyDisagree, 'override')} and agree with ${o.newlyAgree} more ` +
          `(of ${o.total} on automatic items, ${o.disagreeBefore} disagree now, ${o.disagreeAfter} after); an override stays in force: the final mark is the instructor's`
      : 'overrides: none on automatic items',
  );
  if (diff) out.push(`wrote ${resolve(diff)} (${plural(p.changes.length, 'change')})`);
  return out;
}
