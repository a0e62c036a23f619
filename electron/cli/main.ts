// The headless command line: `equimark grade | check | eval`. Launched by bin/equimark.mjs.
// Every input problem is reported with where and what; exit status 0 ok, 1 bad input or
// failure, 2 bad arguments.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEquation, formatErrors, equationToSympy } from '../../shared/equation/index.ts';
import { questionDomain } from '../../shared/exam.ts';
import type { Verdict } from '../../shared/verdict.ts';
import { loadExamFile, ExamError, type LoadedExam } from '../engine/exam-io.ts';
import { CsvFileError } from '../engine/csv/read.ts';
import { parseResponsesCsv, ResponsesCsvError } from '../engine/csv/responses.ts';
import { parseEquationsCsv } from '../engine/csv/equations.ts';
import { marksCsv, equationsCsv, writeFileAtomic } from '../engine/csv/write.ts';
import { grade, resolveTechnique, type GradeInput, type GradeProgress } from '../engine/grade.ts';
import { evaluate, formatEvalReport } from '../engine/eval.ts';
import { createEngine } from '../engine/engine-factory.ts';
import { Workspace } from '../engine/workspace/index.ts';
import type { EntailmentEngine } from '../engine/entail/types.ts';
import { parseArgs, UsageError } from './args.ts';

export type Io = { out: (s: string) => void; err: (s: string) => void; isTTY: boolean };

const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), isTTY: !!process.stderr.isTTY };

export const USAGE = `Usage:
  equimark grade --exam E.json (--responses R.csv | --equations L.csv) --out DIR [--workspace W.sqlite] [--technique plain]
      Grade a class: writes DIR/marks.csv and DIR/equations.csv. The workspace (default
      DIR/workspace.sqlite) keeps every step; re-running finishes an interrupted run.
  equimark check --exam E.json --question ID "EQ1" "EQ2" [--json]
      Whether EQ1 entails EQ2 and EQ2 entails EQ1 under the question's assumptions, with evidence.
  equimark eval --exam E.json --responses R.csv --gold G.csv [--technique plain] [--json]
      List-equivalence accuracy of the reader against gold lists, and agreement of marks.
  equimark help
`;

class InputError extends Error {
  override name = 'InputError';
}

function readInput(path: string, what: string): Buffer {
  try {
    if (statSync(path).isDirectory()) throw new InputError(`${path}: is a directory, expected the ${what}`);
    return readFileSync(path);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${path}: cannot read the ${what} (${code === 'ENOENT' ? 'no such file' : (code ?? (e as Error).message)})`);
  }
}

function need(opts: Record<string, string>, name: string, cmd: string): string {
  const v = opts[name];
  if (!v) throw new UsageError(`${cmd}: --${name} is required`);
  return v;
}

async function withEngine<T>(body: (engine: EntailmentEngine) => Promise<T>): Promise<T> {
  const engine = await createEngine();
  try {
    return await body(engine);
  } finally {
    await engine.close();
  }
}

function progressPrinter(io: Io): (p: GradeProgress) => void {
  let last = 0;
  return (p) => {
    if (!io.isTTY) return;
    const t = Date.now();
    if (p.done !== p.total && t - last < 100) return;
    last = t;
    const who = p.studentId ? ` ${p.studentId}/${p.questionId}` : '';
    io.err(`\r\x1b[K${p.phase} ${p.done}/${p.total}${who}${p.done === p.total ? '\n' : ''}`);
  };
}

async function cmdGrade(argv: string[], io: Io): Promise<number> {
  const { opts } = parseArgs(argv, { values: ['exam', 'responses', 'equations', 'out', 'workspace', 'technique'], flags: [] });
  const examPath = need(opts, 'exam', 'grade');
  const outDir = need(opts, 'out', 'grade');
  if (!!opts.responses === !!opts.equations) throw new UsageError('grade: give exactly one of --responses R.csv or --equations L.csv');
  const technique = await resolveTechnique(opts.technique ?? 'plain').catch((e: Error) => {
    throw new UsageError(`grade: ${e.message}`);
  });
  const exam = loadExamFile(examPath);
  const qids = exam.exam.questions.map((q) => q.id);
  let input: GradeInput;
  if (opts.responses) {
    input = { kind: 'responses', rows: parseResponsesCsv(readInput(opts.responses, 'responses CSV'), qids, opts.responses) };
  } else {
    const file = opts.equations;
    const { rows, problems } = parseEquationsCsv(readInput(file, 'equations CSV'), (q) => exam.questions.get(q)?.variables, file);
    for (const p of problems) io.err(`${file}, line ${p.line}: ${p.message}\n`);
    input = { kind: 'given', rows };
  }
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (e) {
    throw new InputError(`${outDir}: cannot create the output folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const wsPath = opts.workspace ?? join(outDir, 'workspace.sqlite');
  let ws: Workspace;
  try {
    ws = new Workspace(wsPath);
  } catch (e) {
    throw new InputError(`${wsPath}: cannot open the workspace (${(e as Error).message})`);
  }
  try {
    const summary = await withEngine((engine) => grade({ workspace: ws, exam, engine, input, technique, onProgress: progressPrinter(io) }));
    writeFileAtomic(join(outDir, 'marks.csv'), marksCsv(ws, exam.exam));
    writeFileAtomic(join(outDir, 'equations.csv'), equationsCsv(ws, exam.exam));
    const by = Object.entries(summary.byExtraction).map(([k, n]) => `${k} ${n}`).join(', ');
    io.out(
      [
        `graded ${summary.responses} responses of exam '${summary.examId}' (${by})`,
        `this run: extracted ${summary.extractedNow}, marked ${summary.markedNow} (finished work is kept in ${wsPath})`,
        `automatic marks: ${summary.awarded} of ${summary.available} available (manual items open)`,
        ...(summary.inconsistent ? [`${summary.inconsistent} responses contain an inconsistent equation (flagged, no marks from it)`] : []),
        ...(summary.undecidedItems ? [`${summary.undecidedItems} items undecided: the instructor decides`] : []),
        `wrote ${resolve(outDir, 'marks.csv')} and ${resolve(outDir, 'equations.csv')}`,
        '',
      ].join('\n'),
    );
    return 0;
  } finally {
    ws.close();
  }
}

function describeVerdict(v: Verdict): string {
  const head = v.holds === true ? 'holds' : v.holds === false ? 'does not hold' : 'undecided';
  const parts: string[] = [v.method];
  if (v.samples !== undefined) parts.push(`${v.samples} samples`);
  if (v.counterexample) parts.push(`counterexample ${Object.entries(v.counterexample).map(([k, x]) => `${k}=${x}`).join(', ')}`);
  if (v.note) parts.push(v.note);
  return `${head} (${parts.join('; ')})`;
}

async function cmdCheck(argv: string[], io: Io): Promise<number> {
  const { opts, flags, positionals } = parseArgs(argv, { values: ['exam', 'question'], flags: ['json'] });
  const exam = loadExamFile(need(opts, 'exam', 'check'));
  const qid = need(opts, 'question', 'check');
  const cq = exam.questions.get(qid);
  if (!cq) throw new InputError(`question '${qid}' is not in the exam (questions: ${[...exam.questions.keys()].join(', ')})`);
  if (positionals.length !== 2) throw new UsageError(`check: give exactly two equations, got ${positionals.length}`);
  const parsed = positionals.map((src) => ({ src, r: parseEquation(src, { variables: cq.variables }) }));
  const errors = parsed.flatMap((p, i) => (p.r.ok ? [] : [{ equation: `EQ${i + 1}`, source: p.src, error: formatErrors(p.r.errors) }]));
  if (errors.length) {
    if (flags.has('json')) io.out(`${JSON.stringify({ question: qid, errors }, null, 2)}\n`);
    else for (const e of errors) io.err(`${e.equation} ${JSON.stringify(e.source)}: ${e.error}\n`);
    return 1;
  }
  const [a, b] = parsed.map((p) => (p.r.ok ? p.r.value : null!));
  const domain = questionDomain(cq.question);
  const result = await withEngine(async (engine) => ({
    question: qid,
    assumptions: domain.variables.map((v) => ({ name: v.name, assumptions: v.assumptions ?? [], range: v.range })),
    eq1: equationToSympy(a),
    eq2: equationToSympy(b),
    consistent1: await engine.consistent(a, domain),
    consistent2: await engine.consistent(b, domain),
    forward: await engine.entails(a, b, domain),
    backward: await engine.entails(b, a, domain),
  }));
  if (flags.has('json')) {
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const ass = result.assumptions.map((v) => `${v.name}${v.assumptions.length ? ` ${v.assumptions.join(',')}` : ' real'}${v.range ? ` in (${v.range.join(', ')})` : ''}`).join('; ');
  const cons = (c: typeof result.consistent1): string => (c.satisfiable === true ? 'yes' : c.satisfiable === false ? `NO: inconsistent, entails nothing (${c.method}${c.note ? `; ${c.note}` : ''})` : `unknown (${c.method})`);
  io.out(
    [
      `question ${qid}: ${ass}`,
      `EQ1 ${result.eq1}   consistent: ${cons(result.consistent1)}`,
      `EQ2 ${result.eq2}   consistent: ${cons(result.consistent2)}`,
      `EQ1 => EQ2: ${describeVerdict(result.forward)}`,
      `EQ2 => EQ1: ${describeVerdict(result.backward)}`,
      `equivalent: ${result.forward.holds === true && result.backward.holds === true ? 'yes' : result.forward.holds === false || result.backward.holds === false ? 'no' : 'undecided'}`,
      '',
    ].join('\n'),
  );
  return 0;
}

async function cmdEval(argv: string[], io: Io): Promise<number> {
  const { opts, flags } = parseArgs(argv, { values: ['exam', 'responses', 'gold', 'technique'], flags: ['json'] });
  const exam: LoadedExam = loadExamFile(need(opts, 'exam', 'eval'));
  const respPath = need(opts, 'responses', 'eval');
  const goldPath = need(opts, 'gold', 'eval');
  const technique = await resolveTechnique(opts.technique ?? 'plain').catch((e: Error) => {
    throw new UsageError(`eval: ${e.message}`);
  });
  const responses = parseResponsesCsv(readInput(respPath, 'responses CSV'), exam.exam.questions.map((q) => q.id), respPath);
  const { rows: gold } = parseEquationsCsv(readInput(goldPath, 'gold CSV'), (q) => exam.questions.get(q)?.variables, goldPath);
  const report = await withEngine((engine) =>
    evaluate({
      exam,
      engine,
      technique,
      responses,
      gold,
      onProgress: (d, t) => io.isTTY && io.err(`\r\x1b[Keval ${d}/${t}${d === t ? '\n' : ''}`),
    }),
  );
  io.out(flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : `${formatEvalReport(report)}\n`);
  return 0;
}

/** Run the CLI; returns the exit status. */
export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'grade':
        return await cmdGrade(rest, io);
      case 'check':
        return await cmdCheck(rest, io);
      case 'eval':
        return await cmdEval(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${cmd}'`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`equimark: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof ExamError || e instanceof CsvFileError || e instanceof ResponsesCsvError || e instanceof InputError) {
      io.err(`equimark: ${e.message}\n`);
      return 1;
    }
    io.err(`equimark: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}
