// Exports (marks by response and by student, one response's report) and the exam's summary.
import type { ApiHandlers, ApiResponse } from '../../../shared/api.ts';
import { parseEquation } from '../../../shared/equation/index.ts';
import { realDomain } from '../../../shared/exam.ts';
import { answersCsv, gradebookCsv, studentMarksCsv } from '../../engine/io/csv/write.ts';
import { goldKey } from '../../engine/store/workspace.ts';
import { reviewOfResponse } from '../../engine/review/state.ts';
import { notFound, type AppContext } from '../context.ts';
import { detail } from '../detail.ts';
import { report } from '../reports.ts';
import { studentReportHtml } from '../report-html.ts';

type Handlers = Pick<
  ApiHandlers,
  'export.marks' | 'export.studentMarks' | 'export.report' | 'export.check' | 'export.gradebook' | 'export.studentReport' | 'summary.get'
>;

/** How many read responses are equivalent to their gold list (null without gold lists). */
async function accuracy(ctx: AppContext, examId: string): Promise<{ compared: number; equivalent: number } | null> {
  const g = ctx.ws.getGold(examId);
  if (g.size === 0) return null;
  const engine = await ctx.engine();
  const exam = ctx.exam(examId);
  let compared = 0;
  let equivalent = 0;
  for (const r of ctx.ws.listResponses(examId)) {
    const gs = g.get(goldKey(r.studentId, r.questionId));
    if (!gs || !r.extraction) continue;
    const q = exam.questions.find((x) => x.id === r.questionId)!;
    const variables = q.variables.map((v) => v.name);
    const parse = (l: string[]) => l.map((s) => parseEquation(s, { variables })).flatMap((p) => (p.ok ? [p.value] : []));
    const cmp = await engine.compareLists(parse(r.extraction.equations), parse(gs), realDomain(q));
    compared++;
    if (cmp.equivalent) equivalent++;
  }
  return { compared, equivalent };
}

export function exportHandlers(ctx: AppContext): Handlers {
  return {
    'export.marks': async ({ examId }) => ({ fileName: `${examId}-marks-by-answer.csv`, csv: answersCsv(ctx.ws, ctx.exam(examId)) }),

    'export.check': async ({ examId }) => {
      const exam = ctx.exam(examId);
      const out: ApiResponse<'export.check'> = { manualOpen: [], needsReview: [], pending: 0 };
      for (const r of ctx.ws.listResponses(examId)) {
        const v = reviewOfResponse(r, exam);
        const who = { responseId: String(r.id), studentId: r.studentId, questionId: r.questionId };
        if (v.state === 'pending') out.pending++;
        else if (v.needsReview) out.needsReview.push({ ...who, state: v.state, reasons: v.reasons });
        else if (v.state === 'manual-open') {
          const open = (exam.questions.find((q) => q.id === r.questionId)?.scheme ?? []).filter((s) => s.manual && (r.effective[s.id] ?? null) === null);
          out.manualOpen.push({ ...who, items: open.map((s) => s.id) });
        }
      }
      return out;
    },

    'export.gradebook': async ({ examId }) => ({ fileName: `${examId}-gradebook.csv`, csv: gradebookCsv(ctx.ws, ctx.exam(examId)) }),

    'export.studentReport': async ({ examId, studentId }) => {
      const exam = ctx.exam(examId);
      const rows = ctx.ws.listResponses(examId, { studentId });
      if (!rows.length) notFound(`no responses from student '${studentId}' in this exam`);
      const order = new Map(exam.questions.map((q, i) => [q.id, i]));
      const details = rows.sort((a, b) => (order.get(a.questionId) ?? 0) - (order.get(b.questionId) ?? 0)).map((r) => detail(ctx, r.id));
      const safe = studentId.replace(/[^A-Za-z0-9._-]+/g, '_');
      return { fileName: `report-${examId}-${safe}.html`, html: studentReportHtml(exam, studentId, details) };
    },

    'export.studentMarks': async ({ examId }) => ({ fileName: `${examId}-marks-by-student.csv`, csv: studentMarksCsv(ctx.ws, ctx.exam(examId)) }),

    'export.report': async ({ responseId }) => {
      const id = ctx.responseId(responseId);
      const d = detail(ctx, id);
      return { fileName: `report-${d.studentId}-${d.questionId}.txt`, text: report(d, ctx.exam(ctx.ws.getResponseDetail(id)!.examId)) };
    },

    'summary.get': async ({ examId }) => {
      const exam = ctx.exam(examId);
      // The review index's rows (review-index.ts): their states, chips and totals are the ones
      // the list shows, computed once and kept current, so the summary reads nothing per response.
      const rows = ctx.reviewIndex(examId).rows();
      const counts: Record<string, number> = {};
      const hists = new Map(
        exam.questions.map((q) => {
          const available = q.scheme.reduce((s, i) => s + i.marks, 0);
          return [q.id, { questionId: q.id, available, counts: new Array(Math.floor(available) + 1).fill(0) as number[] }];
        }),
      );
      let graded = 0;
      let needsReview = 0;
      let overridden = 0;
      for (const r of rows) {
        const h = hists.get(r.questionId);
        // A response is graded once it has marks: its total is then a number (overrides applied).
        if (r.total !== null) graded++;
        if (h && r.total !== null) h.counts[Math.min(h.counts.length - 1, Math.floor(r.total))]++;
        if (r.needsReview) needsReview++;
        // A manual item marked by hand is the instructor's own mark, not an override of the engine's (the chip says which).
        if (r.chips.includes('overridden')) overridden++;
        for (const c of r.chips) counts[c] = (counts[c] ?? 0) + 1;
      }
      return {
        responses: rows.length,
        graded,
        needsReview,
        overridden,
        available: exam.questions.reduce((s, q) => s + q.scheme.reduce((t, i) => t + i.marks, 0), 0),
        distribution: [...hists.values()],
        chips: counts,
        accuracy: await accuracy(ctx, examId),
      };
    },
  };
}
