// `equimark grade`: grade a class into DIR/marks.csv and DIR/equations.csv, every step kept in the
// workspace so that a re-run finishes an interrupted one.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadExamFile, type LoadedExam } from '../../engine/io/exam.ts';
import { parseResponsesCsv } from '../../engine/io/csv/responses.ts';
import { readEquationsCsvPieces, type EquationsRow } from '../../engine/io/csv/equations.ts';
import { hashedAsRead, keepReadThrough, knownReadThrough, readThroughUnlessKnown } from '../../engine/io/read-through.ts';
import { CsvFileError } from '../../engine/io/csv/read.ts';
import { writeClassExports } from '../../engine/io/class-exports.ts';
import { grade, type GradeInput, type GradeSummary } from '../../engine/grade.ts';
import type { GivenFile } from '../../engine/given-import.ts';
import { TECHNIQUE_NAMES } from '../../../shared/techniques.ts';
import { Workspace } from '../../engine/store/workspace.ts';
import { parseArgs, UsageError } from '../args.ts';
import { EXIT_ENGINE_ERRORS, EXIT_WAITING, InputError, inputBytes, need, readInput, type Io } from '../io.ts';
import { makeTechnique, MODEL_LIST_OPTIONS, MODEL_OPTIONS, planTechniques, requireInstalledModels } from '../model-options.ts';
import { withEngine } from '../engine.ts';
import { cmdGradeDryRun } from './grade-dry-run.ts';
import { overrideCases } from '../../engine/review/override-cases.ts';
import { accountingLines, engineErrorLines, engineErrorsOf, progressPrinter, serverLines, shellQuote, waitingLines } from '../report.ts';

export async function cmdGrade(argv: string[], io: Io): Promise<number> {
  const { opts, flags } = parseArgs(argv, {
    values: ['exam', 'responses', 'equations', 'out', 'workspace', 'diff', ...MODEL_OPTIONS],
    lists: MODEL_LIST_OPTIONS,
    flags: ['dry-run'],
  });
  const examPath = need(opts, 'exam', 'grade');
  // A dry run re-marks the workspace's readings under the edited exam and writes nothing there.
  if (flags.has('dry-run')) return cmdGradeDryRun(opts, examPath, io);
  if (opts.diff !== undefined) throw new UsageError('grade: --diff FILE.csv goes with --dry-run (a dry run writes what the exam given would change)');
  const outDir = need(opts, 'out', 'grade');
  if (!!opts.responses === !!opts.equations) throw new UsageError('grade: give exactly one of --responses R.csv or --equations L.csv');
  if (opts.technique !== undefined) {
    // Bad technique names are argument errors, found before any file is read.
    for (const n of opts.technique.split(',').map((x) => x.trim())) {
      if (n && !(TECHNIQUE_NAMES as readonly string[]).includes(n))
        throw new UsageError(`grade: unknown technique '${n}' (available: ${TECHNIQUE_NAMES.join(', ')})`);
    }
  }
  const exam = loadExamFile(examPath);
  const qids = exam.exam.questions.map((q) => q.id);
  let input: GradeInput;
  /** The SHA-256 of an equations CSV read through now, kept once the output folder exists. */
  let readThrough: string | undefined;
  if (opts.responses) {
    input = { kind: 'responses', rows: parseResponsesCsv(readInput(opts.responses, 'responses CSV'), qids, opts.responses) };
  } else {
    const given = await givenPieces(opts.equations, exam, io, outDir);
    input = { kind: 'given', rows: given.rows, file: given.file };
    readThrough = given.readThrough;
  }
  // Given equation lists need no reader: no model is looked for.
  const plan = await planTechniques(opts, 'grade', io, input.kind === 'responses');
  if (input.kind === 'responses') await requireInstalledModels(plan.names[0], plan);
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (e) {
    throw new InputError(`${outDir}: cannot create the output folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (readThrough) keepReadThrough(outDir, readThrough);
  const wsPath = opts.workspace ?? join(outDir, 'workspace.sqlite');
  const cache = opts.cache === 'none' ? null : (opts.cache ?? join(dirname(wsPath), `${basename(wsPath).replace(/\.sqlite$/, '')}.ollama-replies.jsonl`));
  let ws: Workspace;
  try {
    ws = new Workspace(wsPath);
  } catch (e) {
    throw new InputError(`${wsPath}: cannot open the workspace (${(e as Error).message})`);
  }
  try {
    refuseDroppedQuestions(ws, exam, examPath, wsPath);
    const summary: GradeSummary = await withEngine(async (engine) => {
      const technique = await makeTechnique(plan.names[0], plan, engine, cache);
      try {
        return await grade({ workspace: ws, exam, engine, input, technique, keepWaiting: plan.keepWaiting, onProgress: progressPrinter(io) });
      } catch (e) {
        // The file was read whole before anything was stored; it changed on disk since, and a piece is bad now.
        if (e instanceof CsvFileError && input.kind === 'given')
          throw new CsvFileError(
            `${e.reason} (the file changed while it was read: the lists read before it are stored; correct the file and run the same command again)`,
            e.line,
            e.file,
          );
        throw e;
      }
    });
    const parted = overrideCases(ws, exam.exam.id).disagreeing;
    // Nothing changed since these files were written (a re-run with nothing to do): left as they are.
    const unchanged = !writeClassExports(ws, exam.exam, outDir).written;
    const by = Object.entries(summary.byExtraction)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const m = summary.model;
    io.out(
      [
        `graded ${summary.responses} responses of exam '${summary.examId}' (${by})${summary.waiting.length ? `; ${summary.waiting.length} waiting for the model` : ''}`,
        `this run: extracted ${summary.extractedNow}, marked ${summary.markedNow} ${input.kind === 'given' ? 'from the given equation lists' : `with technique ${summary.technique}`} (finished work is kept in ${wsPath})`,
        `automatic marks: ${summary.awarded} of ${summary.available} available (manual items open)`,
        ...(summary.inconsistent ? [`${summary.inconsistent} responses contain an inconsistent equation (flagged, no marks from it)`] : []),
        ...(summary.undecidedItems ? [`${summary.undecidedItems} items undecided: the instructor decides`] : []),
        ...(parted.length
          ? [
              `${parted.length} automatic mark${parted.length === 1 ? ' disagrees' : 's disagree'} with the instructor's override (the override counts; listed in the app's Exam view): ` +
                `${parted
                  .slice(0, 5)
                  .map((c) => `${c.studentId}/${c.questionId}.${c.itemId} automatic ${c.automatic}, override ${c.override}`)
                  .join('; ')}${parted.length > 5 ? `; and ${parted.length - 5} more` : ''}`,
            ]
          : []),
        ...(summary.imported.setAside
          ? [
              `${summary.imported.setAside} corrections or overrides were made on texts this import replaced: set aside, not applied to the new texts (the responses need review: confirm or drop them in the app)`,
            ]
          : []),
        ...(m
          ? accountingLines(
              summary.technique,
              m.models.map((x) => `${x.name}@${x.digest.slice(0, 12)}`),
              m.accounting,
              plan.gpu,
              summary.waitingReason,
            )
          : []),
        ...serverLines(m?.servers),
        // The answer groups' comparisons stopped (an engine failure): the app compares the rest when it forms the groups.
        ...(summary.answerGroups?.failed
          ? [`answer groups not all compared (${summary.answerGroups.failed}): the app compares the rest when they are opened`]
          : []),
        `${unchanged ? 'unchanged since the last run (nothing to write)' : 'wrote'} ${resolve(outDir, 'marks.csv')}, ${resolve(outDir, 'equations.csv')} and ${resolve(outDir, 'gradebook.csv')} (for Canvas or Moodle)`,
        '',
      ].join('\n'),
    );
    const engineErrors = engineErrorsOf(summary);
    if (summary.waiting.length) {
      const rerun = ['equimark', 'grade', ...argv].map(shellQuote).join(' ');
      io.err(`${waitingLines(summary.waiting, summary.waitingReason, rerun).join('\n')}\n`);
    }
    if (engineErrors.length) {
      io.err(`${engineErrorLines(engineErrors).join('\n')}\n`);
      return EXIT_ENGINE_ERRORS;
    }
    return summary.waiting.length ? EXIT_WAITING : 0;
  } finally {
    ws.close();
  }
}

/**
 * Re-importing an exam that drops (or renames) a question with responses in the workspace would
 * lose them: refuse before anything is stored, saying which question, how many responses, and
 * what to do.
 */
function refuseDroppedQuestions(ws: Workspace, exam: LoadedExam, examPath: string, wsPath: string): void {
  const stored = ws.getExam(exam.exam.id);
  if (!stored) return;
  const keep = new Set(exam.exam.questions.map((q) => q.id));
  const lost = stored.questions
    .filter((q) => !keep.has(q.id))
    .map((q) => ({ id: q.id, n: ws.listResponses(exam.exam.id, { questionId: q.id }).length }))
    .filter((x) => x.n > 0);
  if (lost.length === 0) return;
  const what = lost.map((x) => `question '${x.id}' (${x.n} response${x.n === 1 ? '' : 's'})`).join(', ');
  throw new InputError(
    `${examPath}: exam '${exam.exam.id}' no longer has ${what}, but the workspace ${wsPath} holds responses to ${lost.length === 1 ? 'it' : 'them'}; ` +
      `nothing was changed. Put the question${lost.length === 1 ? '' : 's'} back in the exam (a renamed question is a dropped one), ` +
      'or grade into a new workspace (another --out or --workspace), or give the exam a new id.',
  );
}

/**
 * The equations CSV's rows a piece at a time (a class's file is never held whole), each piece's
 * problems printed as it is read. The whole file is first read once as CSV (records only, nothing
 * kept), so a file malformed anywhere (a late line as much as its header) changes nothing: its
 * lists would replace earlier ones and move marks in a run that then fails. That read is skipped
 * for the bytes last read through without error into `outDir` (io/read-through.ts);
 * `readThrough`: the SHA-256 of bytes read through now, to keep there. `file`: what lets grade()
 * skip reading the rows when the workspace already holds exactly this file's lists
 * (engine/given-import.ts): the pieces are hashed as they are read, and their problems counted.
 */
async function givenPieces(
  file: string,
  exam: LoadedExam,
  io: Io,
  outDir: string,
): Promise<{ rows: AsyncIterable<EquationsRow[]>; readThrough: string | undefined; file: GivenFile }> {
  const known = knownReadThrough(outDir);
  const sha = await readThroughUnlessKnown(() => inputBytes(file, 'equations CSV'), known, file);
  const read = hashedAsRead(inputBytes(file, 'equations CSV'));
  const pieces = readEquationsCsvPieces(read.bytes, (q) => exam.questions.get(q)?.variables, file);
  let problems = 0;
  const print = (p: { rows: EquationsRow[]; problems: { line: number; message: string }[] }): EquationsRow[] => {
    for (const x of p.problems) io.err(`${file}, line ${x.line}: ${x.message}\n`);
    problems += p.problems.length;
    return p.rows;
  };
  const rows = (async function* () {
    for await (const p of pieces) yield print(p);
  })();
  return { rows, readThrough: sha === known ? undefined : sha, file: { sha256: sha, readWhole: () => problems === 0 && read.sha256() === sha } };
}
