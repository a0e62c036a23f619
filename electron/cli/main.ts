// The headless command line: `equimark grade | check | eval | models | pull`, dispatched to
// commands/*.ts. Launched by bin/equimark.mjs.
// Every input problem is reported with where and what; exit status 0 ok, 1 bad input or
// failure, 2 bad arguments, 3 responses wait for the model (Ollama unreachable; re-run), 4 some
// responses hit an engine error. An unexpected error prints one line `error: ...` (its stack
// only with EQUIMARK_DEBUG set), never a stack trace.
import { ExamError } from '../engine/io/exam.ts';
import { CsvFileError } from '../engine/io/csv/read.ts';
import { ResponsesCsvError } from '../engine/io/csv/responses.ts';
import { OllamaError } from '../engine/read/ollama/client.ts';
import { UsageError } from './args.ts';
import { defaultIo, InputError, unexpectedErrorText, type Io } from './io.ts';
import { USAGE } from './usage.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { cmdGrade } from './commands/grade.ts';
import { cmdCheck } from './commands/check.ts';
import { cmdEval } from './commands/eval.ts';
import { cmdModels } from './commands/models.ts';
import { cmdPull } from './commands/pull.ts';

export { USAGE } from './usage.ts';
export { EXIT_ENGINE_ERRORS, EXIT_WAITING, oneLine, unexpectedErrorText, type Io } from './io.ts';
export { accountingLines, engineErrorLines, engineErrorsOf, type EngineErrorEntry } from './report.ts';

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
  if (io === defaultIo) {
    installLastResort(io);
    limitHeapGrowth();
  }
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
