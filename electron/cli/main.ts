// The headless command line: `equimark grade | check | eval`. Launched by bin/equimark.mjs.
// Every input problem is reported with where and what; exit status 0 ok, 1 bad input or
// failure, 2 bad arguments, 3 responses wait for the model (Ollama unreachable; re-run), 4 some
// responses hit an engine error. An unexpected error prints one line `error: ...` (its stack
// only with EQUIMARK_DEBUG set), never a stack trace.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseEquation, formatErrors, equationToSympy } from '../../shared/equation/index.ts';
import { questionDomain } from '../../shared/exam.ts';
import { verdictLine } from '../../shared/format/verdict.ts';
import { loadExamFile, ExamError, type LoadedExam } from '../engine/io/exam.ts';
import { CsvFileError } from '../engine/io/csv/read.ts';
import { parseResponsesCsv, ResponsesCsvError } from '../engine/io/csv/responses.ts';
import { parseEquationsCsv } from '../engine/io/csv/equations.ts';
import { marksCsv, equationsCsv, writeFileAtomic } from '../engine/io/csv/write.ts';
import { grade, type GradeInput, type GradeProgress, type GradeSummary } from '../engine/grade.ts';
import { evaluate, formatEvalReport, formatTableOneOf, type EvalReport } from '../engine/eval/run.ts';
import { ollamaReachable, resolveTechnique, type Technique } from '../engine/read/registry.ts';
import { checkModels, isModelTechnique, TECHNIQUE_NAMES } from '../../shared/techniques.ts';
import { gpuPower, GPU_BOARD_POWER_W, type BatchAccounting } from '../engine/read/ollama/accounting.ts';
import { resolveOllamaUrl, settingsWarnings } from '../engine/read/ollama/settings.ts';
import { OllamaClient, OllamaError } from '../engine/read/ollama/client.ts';
import { createEngine } from '../engine/decide/engine-factory.ts';
import { Workspace } from '../engine/store/workspace.ts';
import type { EntailmentEngine } from '../engine/decide/entail/types.ts';
import { parseArgs, UsageError } from './args.ts';

export type Io = { out: (s: string) => void; err: (s: string) => void; isTTY: boolean };

const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), isTTY: !!process.stderr.isTTY };

export const USAGE = `Usage:
  equimark grade --exam E.json (--responses R.csv | --equations L.csv) --out DIR [--workspace W.sqlite]
                 [--technique T] [--model M] [--model2 M2] [--ollama-url URL] [--gpu NAME] [--cache FILE|none] [--parallel N]
      Grade a class: writes DIR/marks.csv and DIR/equations.csv. The workspace (default
      DIR/workspace.sqlite) keeps every step; re-running finishes an interrupted run.
  equimark check --exam E.json --question ID "EQ1" "EQ2" [--json]
      Whether EQ1 entails EQ2 and EQ2 entails EQ1 under the question's assumptions, with evidence.
  equimark eval --exam E.json --responses R.csv --gold G.csv [--technique T[,T2,...]] [model options as for grade] [--json]
      Against gold lists: list-equivalence accuracy, coverage (non-blank responses read with
      confidence) and precision (of those, equivalent to gold) overall and per tag, agreement of
      marks, and Table I (per technique: time, tokens, correct answers). Several techniques
      (--technique embedded,hybrid) are compared in one run.
  equimark models [--ollama-url URL] [--json]
      The models installed in Ollama, with their digests (a batch records the digest it was read with).
  equimark pull NAME [--ollama-url URL]
      Download a model into Ollama, showing progress.
  equimark help

Techniques (--technique):
  embedded    the embedded extractor alone: no model is contacted; what it can't read with
              confidence stays 'partial' or 'abstained' and earns marks only from what it read
  plain       the interim reader of responses written entirely as equations
  hybrid      the embedded extractor first, the model (--model; with --model2, two models that
              must agree) reads what it could not read with confidence
  direct, llm-modulo, per-line, consensus
              the model reads every response (consensus: --model and --model2 must agree)
  Default: hybrid when a model is configured (--model or EQUIMARK_MODEL) and Ollama answers;
  otherwise embedded (stderr says why). A model never decides a mark: it only reads equations.

Model options:
  --model M, --model2 M2   installed Ollama models (default: $EQUIMARK_MODEL, $EQUIMARK_MODEL2)
  --ollama-url URL         Ollama server (default: $OLLAMA_HOST read as Ollama does, else
                           http://127.0.0.1:11434); a server not on this machine gets a warning:
                           student responses would leave the machine
  --gpu NAME               GPU for the energy estimate ("RTX 4090", "h100", or "300W")
  --cache FILE|none        reply cache: a re-run replays the model's replies at no cost
                           (grade default: beside the workspace, W.ollama-replies.jsonl;
                           eval default: none)
  --parallel N             model requests in flight at once (default 1)
  Possibly invented equations (not traceable to the student's text) earn no marks: they are held
  back (flag 'invented', status needs-review) until the instructor accepts them. Per response,
  the models (name and digest), prompts, replies, tokens and time are kept in the workspace.

Exit status: 0 done; 1 bad input or failure; 2 bad arguments; 3 some responses wait for the
  model (Ollama unreachable): their embedded reading is kept and graded meanwhile, they are
  listed on stderr, and running the same command again once Ollama answers reads only those;
  4 some responses hit an engine error (grade): they are listed on stderr, the rest is graded
  and written; the same command run again retries them.

Environment: OLLAMA_HOST, EQUIMARK_MODEL, EQUIMARK_MODEL2; EQUIMARK_DEBUG=1 prints the stack
  trace of an unexpected error.
`;

/** Exit status when responses wait for the model. */
export const EXIT_WAITING = 3;
/** Exit status when some responses hit an engine error (listed on stderr; the rest is graded). */
export const EXIT_ENGINE_ERRORS = 4;

/** A response the engine failed on (the grade result's `engineErrors`). */
export type EngineErrorEntry = { studentId: string; questionId: string; message: string };

/** The engine errors of a grade result, read defensively (absent on results that don't carry them). */
export function engineErrorsOf(result: unknown): EngineErrorEntry[] {
  const list = (result as { engineErrors?: unknown } | null | undefined)?.engineErrors;
  if (!Array.isArray(list)) return [];
  return list.map((e: { studentId?: unknown; questionId?: unknown; message?: unknown }) => ({
    studentId: String(e?.studentId ?? '?'),
    questionId: String(e?.questionId ?? '?'),
    message: String(e?.message ?? 'unknown error'),
  }));
}

/** Lines on stderr for responses that hit an engine error, each named; one message said once for all it hit. */
export function engineErrorLines(list: readonly EngineErrorEntry[]): string[] {
  if (list.length === 0) return [];
  const byMessage = new Map<string, string[]>();
  for (const e of list) {
    const m = oneLine(e.message);
    if (!byMessage.has(m)) byMessage.set(m, []);
    byMessage.get(m)!.push(`${e.studentId}/${e.questionId}`);
  }
  return [
    `${list.length} response${list.length === 1 ? '' : 's'} hit an engine error (left ungraded; the rest is graded and written):`,
    ...[...byMessage].map(([m, who]) => `  ${who.join(', ')}: ${m}`),
    'Run the same command again to retry them; if they fail again, report the messages above.',
  ];
}

/** An error message on one line (a multi-line message's lines joined with ' | '). */
export function oneLine(message: string): string {
  return message
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' | ');
}

/** What the top level prints for an unexpected error: one line, the stack only when debugging. */
export function unexpectedErrorText(e: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const debug = !!env.EQUIMARK_DEBUG && env.EQUIMARK_DEBUG !== '0';
  if (debug) return `error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`;
  const msg = e instanceof Error ? e.message || e.name : String(e);
  return `error: ${oneLine(msg) || 'unknown error'} (set EQUIMARK_DEBUG=1 for details)\n`;
}

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

const MODEL_OPTIONS = ['technique', 'model', 'model2', 'ollama-url', 'gpu', 'cache', 'parallel'] as const;

/** The techniques a run uses, and the model settings, from the options and the environment. */
type Plan = {
  names: string[];
  /** A run that fell back to reading without a model: responses waiting for the model stay waiting. */
  keepWaiting: boolean;
  model?: string;
  model2?: string;
  url: string;
  gpu?: string;
  parallel?: number;
};

async function planTechniques(opts: Record<string, string>, cmd: string, io: Io, probe: boolean): Promise<Plan> {
  const env = process.env;
  let url: string;
  try {
    url = resolveOllamaUrl(opts['ollama-url'] ?? null, env);
  } catch (e) {
    throw new UsageError(`${cmd}: ${(e as Error).message}`);
  }
  const model = (opts.model ?? env.EQUIMARK_MODEL ?? '').trim() || undefined;
  const model2 = (opts.model2 ?? env.EQUIMARK_MODEL2 ?? '').trim() || undefined;
  const gpu = opts.gpu;
  if (gpu !== undefined && gpuPower(gpu) == null) {
    throw new UsageError(`${cmd}: unknown GPU '${gpu}': give its board power in watts (e.g. '320W') or one of: ${Object.keys(GPU_BOARD_POWER_W).join(', ')}`);
  }
  let parallel: number | undefined;
  if (opts.parallel !== undefined) {
    parallel = Number(opts.parallel);
    if (!Number.isInteger(parallel) || parallel < 1 || parallel > 64) throw new UsageError(`${cmd}: --parallel must be a whole number from 1 to 64, got '${opts.parallel}'`);
  }
  const base = { url, ...(model ? { model } : {}), ...(model2 ? { model2 } : {}), ...(gpu ? { gpu } : {}), ...(parallel ? { parallel } : {}) };
  const warn = () => {
    for (const w of settingsWarnings({ url })) io.err(`warning: ${w}\n`);
  };
  if (opts.technique !== undefined) {
    const names = opts.technique.split(',').map((n) => n.trim()).filter(Boolean);
    if (names.length === 0) throw new UsageError(`${cmd}: --technique needs a name (available: ${TECHNIQUE_NAMES.join(', ')})`);
    if (cmd === 'grade' && names.length > 1) throw new UsageError('grade: give one technique (eval compares several)');
    for (const n of names) {
      if (!(TECHNIQUE_NAMES as readonly string[]).includes(n)) throw new UsageError(`${cmd}: unknown technique '${n}' (available: ${TECHNIQUE_NAMES.join(', ')})`);
      const problem = checkModels(n, model, model2);
      if (problem) throw new UsageError(`${cmd}: ${problem}: ${model ? 'give --model2 NAME or set EQUIMARK_MODEL2' : 'give --model NAME or set EQUIMARK_MODEL'}`);
    }
    if (names.some(isModelTechnique)) warn();
    return { ...base, names: [...new Set(names)], keepWaiting: false };
  }
  if (!probe) return { ...base, names: ['embedded'], keepWaiting: true };
  if (!model) {
    io.err('no model configured: reading with the embedded extractor only (give --model NAME or set EQUIMARK_MODEL to have a model read what it cannot)\n');
    return { ...base, names: ['embedded'], keepWaiting: true };
  }
  warn();
  const reach = await ollamaReachable(url);
  if (!reach.ok) {
    io.err(`Ollama not reachable at ${url}: ${reach.reason}; reading with the embedded extractor only\n`);
    return { ...base, names: ['embedded'], keepWaiting: true };
  }
  io.err(`reading with hybrid: the embedded extractor first, ${model}${model2 ? ` and ${model2} (they must agree)` : ''} at ${url} for the rest\n`);
  return { ...base, names: ['hybrid'], keepWaiting: false };
}

/**
 * A model the run would read with that Ollama doesn't have is a setup problem: said once, exit 1,
 * before anything is stored (not one failed reading per response). When Ollama can't be reached
 * the run goes on and its responses wait for the model (exit 3), as before.
 */
async function requireInstalledModels(technique: string, plan: Plan): Promise<void> {
  if (!isModelTechnique(technique) || !plan.model) return;
  const names = [plan.model, ...(plan.model2 && (technique === 'consensus' || technique === 'hybrid') ? [plan.model2] : [])];
  let installed: Awaited<ReturnType<OllamaClient['listModels']>>;
  try {
    installed = await new OllamaClient({ url: plan.url, retries: 0, timeoutMs: 10_000 }).listModels();
  } catch {
    return;
  }
  const missing = names.find((n) => !OllamaClient.findModel(installed, n));
  if (missing) throw new OllamaError('model-not-found', `model '${missing}' is not installed in Ollama at ${plan.url} (installed: ${installed.map((m) => m.name).join(', ') || 'none'}); pull it first`);
}

function makeTechnique(name: string, plan: Plan, engine: EntailmentEngine, cache: string | null): Promise<Technique> {
  return resolveTechnique(name, { url: plan.url, model: plan.model ?? null, model2: plan.model2 ?? null, gpu: plan.gpu ?? null, cache, engine, ...(plan.parallel ? { parallel: plan.parallel } : {}) });
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Lines on a batch's model use: calls, tokens, time, estimated FLOPs and energy. */
export function accountingLines(technique: string, models: string[], a: BatchAccounting, gpu?: string, unreachable?: string): string[] {
  if (a.calls === 0 && a.cachedCalls === 0) return [`model (${technique}): ${unreachable ? `no call could be made (${unreachable})` : 'no call was needed this run'}`];
  const out = [
    `model (${technique}, ${models.join(' + ') || 'unresolved'}): ${a.calls} calls${a.cachedCalls ? ` (+${a.cachedCalls} replayed from the reply cache, ${a.cachedTokens} tokens not spent again)` : ''}, ` +
      `tokens ${a.tokensIn} in / ${a.tokensOut} out; model busy ${secs(a.modelBusyMs)}, batch ${secs(a.batchWallMs)}`,
    `estimated compute: ${a.estimatedFlops == null ? 'unknown (a model did not report its size)' : `${a.estimatedFlops.toExponential(2)} FLOPs`} (2 x parameters x tokens, an estimate)`,
  ];
  if (a.energy) out.push(`estimated energy: ${a.energy.wattHours.toFixed(3)} Wh (${Math.round(a.energy.joules)} J) on ${a.energy.gpu} at ${a.energy.boardPowerW} W board power x busy time; an estimate`);
  else if (!gpu) out.push('estimated energy: give --gpu NAME (e.g. "RTX 4090") for an estimate');
  return out;
}

function waitingLines(list: { studentId: string; questionId: string }[], reason: string | undefined, rerun: string): string[] {
  return [
    `${list.length} response${list.length === 1 ? '' : 's'} wait${list.length === 1 ? 's' : ''} for the model${reason ? ` (${reason})` : ''}:`,
    ...list.map((w) => `  ${w.studentId}/${w.questionId}`),
    'What the embedded extractor read of them is kept and graded meanwhile (flag waiting-for-model).',
    `To finish them, start Ollama and run again: ${rerun}`,
    'Only these are read again; everything else is kept as it is. (--technique embedded stops waiting and keeps the embedded reading.)',
  ];
}

const shellQuote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

async function cmdGrade(argv: string[], io: Io): Promise<number> {
  const { opts } = parseArgs(argv, { values: ['exam', 'responses', 'equations', 'out', 'workspace', ...MODEL_OPTIONS], flags: [] });
  const examPath = need(opts, 'exam', 'grade');
  const outDir = need(opts, 'out', 'grade');
  if (!!opts.responses === !!opts.equations) throw new UsageError('grade: give exactly one of --responses R.csv or --equations L.csv');
  if (opts.technique !== undefined) {
    // Bad technique names are argument errors, found before any file is read.
    for (const n of opts.technique.split(',').map((x) => x.trim())) {
      if (n && !(TECHNIQUE_NAMES as readonly string[]).includes(n)) throw new UsageError(`grade: unknown technique '${n}' (available: ${TECHNIQUE_NAMES.join(', ')})`);
    }
  }
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
  // Given equation lists need no reader: no model is looked for.
  const plan = await planTechniques(opts, 'grade', io, input.kind === 'responses');
  if (input.kind === 'responses') await requireInstalledModels(plan.names[0], plan);
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (e) {
    throw new InputError(`${outDir}: cannot create the output folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
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
      return grade({ workspace: ws, exam, engine, input, technique, keepWaiting: plan.keepWaiting, onProgress: progressPrinter(io) });
    });
    writeFileAtomic(join(outDir, 'marks.csv'), marksCsv(ws, exam.exam));
    writeFileAtomic(join(outDir, 'equations.csv'), equationsCsv(ws, exam.exam));
    const by = Object.entries(summary.byExtraction).map(([k, n]) => `${k} ${n}`).join(', ');
    const m = summary.model;
    io.out(
      [
        `graded ${summary.responses} responses of exam '${summary.examId}' (${by})${summary.waiting.length ? `; ${summary.waiting.length} waiting for the model` : ''}`,
        `this run: extracted ${summary.extractedNow}, marked ${summary.markedNow} ${input.kind === 'given' ? 'from the given equation lists' : `with technique ${summary.technique}`} (finished work is kept in ${wsPath})`,
        `automatic marks: ${summary.awarded} of ${summary.available} available (manual items open)`,
        ...(summary.inconsistent ? [`${summary.inconsistent} responses contain an inconsistent equation (flagged, no marks from it)`] : []),
        ...(summary.undecidedItems ? [`${summary.undecidedItems} items undecided: the instructor decides`] : []),
        ...(m ? accountingLines(summary.technique, m.models.map((x) => `${x.name}@${x.digest.slice(0, 12)}`), m.accounting, plan.gpu, summary.waitingReason) : []),
        `wrote ${resolve(outDir, 'marks.csv')} and ${resolve(outDir, 'equations.csv')}`,
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
      `EQ1 => EQ2: ${verdictLine(result.forward)}`,
      `EQ2 => EQ1: ${verdictLine(result.backward)}`,
      `equivalent: ${result.forward.holds === true && result.backward.holds === true ? 'yes' : result.forward.holds === false || result.backward.holds === false ? 'no' : 'undecided'}`,
      '',
    ].join('\n'),
  );
  return 0;
}

async function cmdEval(argv: string[], io: Io): Promise<number> {
  const { opts, flags } = parseArgs(argv, { values: ['exam', 'responses', 'gold', ...MODEL_OPTIONS], flags: ['json'] });
  const exam: LoadedExam = loadExamFile(need(opts, 'exam', 'eval'));
  const respPath = need(opts, 'responses', 'eval');
  const goldPath = need(opts, 'gold', 'eval');
  const responses = parseResponsesCsv(readInput(respPath, 'responses CSV'), exam.exam.questions.map((q) => q.id), respPath);
  const { rows: gold } = parseEquationsCsv(readInput(goldPath, 'gold CSV'), (q) => exam.questions.get(q)?.variables, goldPath);
  const plan = await planTechniques(opts, 'eval', io, true);
  for (const name of plan.names) await requireInstalledModels(name, plan);
  const cache = opts.cache === undefined || opts.cache === 'none' ? null : opts.cache;
  const reports: EvalReport[] = await withEngine(async (engine) => {
    const out: EvalReport[] = [];
    for (const name of plan.names) {
      const technique = await makeTechnique(name, plan, engine, cache);
      out.push(
        await evaluate({
          exam,
          engine,
          technique,
          responses,
          gold,
          onProgress: (d, t) => io.isTTY && io.err(`\r\x1b[Keval ${name} ${d}/${t}${d === t ? '\n' : ''}`),
        }),
      );
    }
    return out;
  });
  if (flags.has('json')) {
    // One technique: its report (with its Table I row); several: every report and Table I.
    const json = reports.length === 1 ? reports[0] : { techniques: reports, tableOne: reports.map((r) => r.tableOne) };
    io.out(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const parts = reports.map((r) => {
      const lines = [formatEvalReport(r)];
      if (r.accounting) lines.push(...accountingLines(r.technique, r.models ?? [], r.accounting, plan.gpu));
      return lines.join('\n');
    });
    io.out(`${parts.join('\n\n')}\n\nTable I (per technique: correct answers, time, tokens):\n${formatTableOneOf(reports)}\n`);
  }
  const waiting = reports.flatMap((r) => r.waiting.map((w) => ({ ...w, technique: r.technique })));
  if (waiting.length) {
    io.err(`${waiting.length} response readings wait for the model (${reports.find((r) => r.waitingReason)?.waitingReason ?? 'Ollama unreachable'}); they count as not correct. Run again once Ollama answers${cache ? ' (the reply cache keeps what was read)' : ''}.\n`);
    return EXIT_WAITING;
  }
  return 0;
}

/** The Ollama server of --ollama-url / OLLAMA_HOST, with the off-machine warning. */
function ollamaAt(opts: Record<string, string>, cmd: string, io: Io): { url: string; client: OllamaClient } {
  let url: string;
  try {
    url = resolveOllamaUrl(opts['ollama-url'] ?? null, process.env);
  } catch (e) {
    throw new UsageError(`${cmd}: ${(e as Error).message}`);
  }
  for (const w of settingsWarnings({ url })) io.err(`warning: ${w}\n`);
  // A pull of several GB over a slow link can take hours: its limit is generous.
  return { url, client: new OllamaClient({ url, retries: 1, timeoutMs: cmd === 'pull' ? 6 * 3600_000 : 10_000 }) };
}

const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(1)} GB`;

async function cmdModels(argv: string[], io: Io): Promise<number> {
  const { opts, flags, positionals } = parseArgs(argv, { values: ['ollama-url'], flags: ['json'] });
  if (positionals.length) throw new UsageError(`models: unexpected argument '${positionals[0]}'`);
  const { url, client } = ollamaAt(opts, 'models', io);
  const models = await client.listModels();
  if (flags.has('json')) {
    io.out(`${JSON.stringify({ url, models }, null, 2)}\n`);
    return 0;
  }
  if (models.length === 0) {
    io.out(`Ollama at ${url} has no models installed (equimark pull NAME downloads one)\n`);
    return 0;
  }
  const rows = models.map((m) => [m.name, m.parameterSize || '?', gb(m.size), m.digest.replace(/^sha256:/, '').slice(0, 12)]);
  const head = ['model', 'parameters', 'size', 'digest'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) io.out(`${r.map((c, i) => c.padEnd(w[i])).join('  ').trimEnd()}\n`);
  return 0;
}

async function cmdPull(argv: string[], io: Io): Promise<number> {
  const { opts, positionals } = parseArgs(argv, { values: ['ollama-url'], flags: [] });
  if (positionals.length !== 1) throw new UsageError(`pull: give one model name, got ${positionals.length}`);
  const name = positionals[0];
  const { url, client } = ollamaAt(opts, 'pull', io);
  let lastStatus = '';
  let lastDraw = 0;
  await client.pull(name, (p) => {
    const pct = p.fraction !== undefined ? ` ${(100 * p.fraction).toFixed(0)}%${p.total ? ` of ${gb(p.total)}` : ''}` : '';
    if (io.isTTY) {
      const t = Date.now();
      if (p.status === lastStatus && t - lastDraw < 200) return;
      lastDraw = t;
      io.err(`\r\x1b[K${p.status}${pct}`);
    } else if (p.status !== lastStatus) io.err(`${p.status}${pct}\n`);
    lastStatus = p.status;
  });
  if (io.isTTY) io.err('\n');
  const m = OllamaClient.findModel(await client.listModels(), name);
  io.out(`pulled ${name} into Ollama at ${url}${m ? ` (digest ${m.digest.replace(/^sha256:/, '').slice(0, 12)})` : ''}\n`);
  return 0;
}

let lastResortInstalled = false;

/**
 * For the real command line only: an error that escapes every await (a stray rejection, an
 * exception in a callback) still prints one line `error: ...` and exits 1, not a stack trace.
 */
function installLastResort(io: Io): void {
  if (lastResortInstalled) return;
  lastResortInstalled = true;
  const die = (e: unknown) => {
    io.err(unexpectedErrorText(e));
    process.exit(1);
  };
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
}

/** Run the CLI; returns the exit status. */
export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  if (io === defaultIo) installLastResort(io);
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'grade':
        return await cmdGrade(rest, io);
      case 'check':
        return await cmdCheck(rest, io);
      case 'eval':
        return await cmdEval(rest, io);
      case 'models':
        return await cmdModels(rest, io);
      case 'pull':
        return await cmdPull(rest, io);
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
    if (e instanceof ExamError || e instanceof CsvFileError || e instanceof ResponsesCsvError || e instanceof InputError || e instanceof OllamaError) {
      io.err(`equimark: ${e.message}\n`);
      return 1;
    }
    io.err(unexpectedErrorText(e));
    return 1;
  }
}
