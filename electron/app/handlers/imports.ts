// Exams, responses, given equation lists and gold lists into the workspace.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiFailure, type ApiHandlers } from '../../../shared/api.ts';
import { ExamError, parseExamJson, validateExam } from '../../engine/io/exam.ts';
import { CsvFileError, ResponsesCsvError, parseResponsesCsv } from '../../engine/io/csv/responses.ts';
import { parseEquationsCsv } from '../../engine/io/csv/equations.ts';
import { givenExtraction } from '../../engine/grade.ts';
import { unavailable, type AppContext } from '../context.ts';
import { startRemark } from '../job.ts';
import { stopPreview } from './scheme-preview.ts';

type Handlers = Pick<
  ApiHandlers,
  'exam.list' | 'exam.get' | 'exam.import' | 'exam.save' | 'exam.loadDemo' | 'responses.import' | 'equations.import' | 'gold.import'
>;

const csvFileError = (e: CsvFileError): string => `${e.line ? `line ${e.line}: ` : ''}${e.reason}`;

export function importHandlers(ctx: AppContext): Handlers {
  return {
    'exam.list': async () =>
      ctx.ws.listExams().map((e) => ({
        id: e.id,
        title: e.title,
        questions: ctx.ws.getExam(e.id)!.questions.length,
        responses: e.responses,
        graded: ctx.ws.markedCount(e.id),
      })),

    'exam.get': async ({ examId }) => ctx.exam(examId),

    'exam.import': async ({ json }) => {
      try {
        const lx = parseExamJson(json);
        // A changed version of a marked exam is not stored: it comes back staged, for the editor's
        // preview (who gains or loses which mark), and is applied only by exam.save.
        if (ctx.ws.importDropsMarks(lx.exam)) return { ok: true as const, examId: lx.exam.id, staged: lx.exam };
        const { examId } = ctx.ws.importExam(lx.exam);
        // An exam imported again unchanged, or one not marked yet: nothing the instructor saw changes.
        if (!ctx.grading()) startRemark(ctx, examId);
        return { ok: true as const, examId };
      } catch (e) {
        if (e instanceof ExamError) return { ok: false as const, issues: e.problems.map((p) => ({ path: p.path || '(file)', message: p.message })) };
        return { ok: false as const, issues: [{ path: '(exam)', message: (e as Error).message }] };
      }
    },

    'exam.save': async ({ exam }) => {
      if (ctx.grading()) throw new ApiFailure({ code: 'conflict', message: 'grading is running: pause it, or wait until it is done, then save the exam' });
      await stopPreview(ctx); // a preview still running would compare with marks this save drops
      try {
        const lx = validateExam(exam);
        const { examId } = ctx.ws.importExam(lx.exam);
        // A changed scheme or changed variables drop the marks: re-mark at once (in the background; progress in Grade).
        return { ok: true as const, examId, remarking: startRemark(ctx, examId) };
      } catch (e) {
        if (e instanceof ExamError) return { ok: false as const, issues: e.problems.map((p) => ({ path: p.path || '(exam)', message: p.message })) };
        return { ok: false as const, issues: [{ path: '(exam)', message: (e as Error).message }] };
      }
    },

    'exam.loadDemo': async () => {
      const dir = join(ctx.opts.resourcesDir, 'demo');
      if (!existsSync(join(dir, 'exam.json'))) unavailable(`the demo exam is missing from ${dir}`);
      const lx = parseExamJson(readFileSync(join(dir, 'exam.json'), 'utf8'), 'demo/exam.json');
      ctx.ws.importExam(lx.exam);
      let responses = 0;
      if (existsSync(join(dir, 'responses.csv'))) {
        const rows = parseResponsesCsv(readFileSync(join(dir, 'responses.csv')), [...lx.questions.keys()], 'demo/responses.csv');
        ctx.ws.importResponses(lx.exam.id, rows);
        responses = rows.length;
      }
      return { examId: lx.exam.id, responses };
    },

    'responses.import': async ({ examId, csv, fileName, changed = 'ask' }) => {
      const exam = ctx.exam(examId);
      try {
        const rows = parseResponsesCsv(
          csv,
          exam.questions.map((q) => q.id),
          fileName,
        );
        // Rows that would replace a stored text: the instructor decides before anything is stored.
        const plan = ctx.ws.planImport(examId, rows);
        const counts = { new: plan.inserted, unchanged: plan.unchanged, changed: plan.changed.length };
        const changedRows = plan.changed.map((c) => ({ ...c, oldText: c.oldText?.slice(0, 400) ?? null, newText: c.newText.slice(0, 400) }));
        if (plan.changed.length && changed === 'ask') return { counts, needsDecision: true, changedRows, imported: 0, rejected: [], error: null };
        if (plan.changed.length && ctx.grading())
          throw new ApiFailure({ code: 'conflict', message: 'grading is running: pause it, or wait until it is done, before replacing texts' });
        const r = ctx.ws.importResponses(examId, rows, { changed: changed === 'keep' ? 'keep' : 'replace' });
        return { counts, changedRows, setAside: r.setAside, imported: r.inserted + r.updated + r.unchanged, rejected: [], error: null };
      } catch (e) {
        if (e instanceof ResponsesCsvError) {
          // The file is rejected whole (nothing stored): list every problem with its line.
          return {
            imported: 0,
            rejected: e.problems.map((p) => ({ line: p.line, studentId: p.studentId ?? null, questionId: p.questionId ?? null, reason: p.message })),
            error: `${e.problems.length} problem${e.problems.length === 1 ? '' : 's'} found; fix ${e.problems.length === 1 ? 'it' : 'them'} in the file and import it again.`,
          };
        }
        if (e instanceof CsvFileError) return { imported: 0, rejected: [], error: csvFileError(e) };
        throw e;
      }
    },

    'equations.import': async ({ examId, csv }) => {
      const exam = ctx.exam(examId);
      try {
        const { rows, problems } = parseEquationsCsv(csv, (qid) => exam.questions.find((q) => q.id === qid)?.variables.map((v) => v.name));
        const known = rows.filter((r) => exam.questions.some((q) => q.id === r.questionId));
        ctx.ws.importGiven(
          examId,
          known.map((row) => ({ studentId: row.studentId, questionId: row.questionId, extraction: givenExtraction(row) })),
        );
        // Every known row is stored (or already was, unchanged): count them all, first reading or not.
        return { imported: known.length, rejected: problems.map((p) => ({ line: p.line, reason: p.message })), error: null };
      } catch (e) {
        if (e instanceof CsvFileError) return { imported: 0, rejected: [], error: csvFileError(e) };
        throw e;
      }
    },

    'gold.import': async ({ examId, csv }) => {
      const exam = ctx.exam(examId);
      try {
        const { rows } = parseEquationsCsv(csv, (qid) => exam.questions.find((q) => q.id === qid)?.variables.map((v) => v.name));
        const lists: { studentId: string; questionId: string; equations: string[] }[] = [];
        const rejected: { line: number | null; reason: string }[] = [];
        for (const r of rows) {
          if (r.error) rejected.push({ line: r.line, reason: r.error });
          else lists.push({ studentId: r.studentId, questionId: r.questionId, equations: r.sources });
        }
        // Kept in the workspace, so the accuracy figure survives a restart.
        return { imported: ctx.ws.setGold(examId, lists), rejected, error: null };
      } catch (e) {
        if (e instanceof CsvFileError) return { imported: 0, rejected: [], error: csvFileError(e) };
        throw e;
      }
    },
  };
}
