// `equimark eval`: one or several techniques against gold lists, with Table I.
import { loadExamFile, type LoadedExam } from '../../engine/io/exam.ts';
import { parseResponsesCsv } from '../../engine/io/csv/responses.ts';
import { parseEquationsCsv } from '../../engine/io/csv/equations.ts';
import { evaluate, formatEvalReport, formatTableOneOf, type EvalReport } from '../../engine/eval/run.ts';
import { parseArgs } from '../args.ts';
import { EXIT_WAITING, need, readInput, type Io } from '../io.ts';
import { makeTechnique, MODEL_LIST_OPTIONS, MODEL_OPTIONS, planTechniques, requireInstalledModels } from '../model-options.ts';
import { withEngine } from '../engine.ts';
import { accountingLines } from '../report.ts';

export async function cmdEval(argv: string[], io: Io): Promise<number> {
  const { opts, flags } = parseArgs(argv, { values: ['exam', 'responses', 'gold', ...MODEL_OPTIONS], lists: MODEL_LIST_OPTIONS, flags: ['json'] });
  const exam: LoadedExam = loadExamFile(need(opts, 'exam', 'eval'));
  const respPath = need(opts, 'responses', 'eval');
  const goldPath = need(opts, 'gold', 'eval');
  const responses = parseResponsesCsv(
    readInput(respPath, 'responses CSV'),
    exam.exam.questions.map((q) => q.id),
    respPath,
  );
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
    io.err(
      `${waiting.length} response readings wait for the model (${reports.find((r) => r.waitingReason)?.waitingReason ?? 'Ollama unreachable'}); they count as not correct. Run again once Ollama answers${cache ? ' (the reply cache keeps what was read)' : ''}.\n`,
    );
    return EXIT_WAITING;
  }
  return 0;
}
