// How a stored response looks in the app: its chips, its row in the review list, a reading with
// its equations as LaTeX. Whether it needs review is reviewState()'s word (engine/review/state.ts).
import { type Chip, type ReviewRow } from '../../shared/api.ts';
import { equationToLatex, parseEquation } from '../../shared/equation/index.ts';
import type { Exam } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import type { ResponseSummary } from '../engine/store/workspace.ts';
import { groupList } from '../engine/review/groups.ts';
import { effectiveTotal, openManualItems, overridesAutomatic, reviewOfResponse, schemeOf } from '../engine/review/state.ts';

/** Add a chip named in words, only when the API's chip list (shared/api.ts CHIPS) has it. */
export function chips(r: ResponseSummary, exam: Exam): Chip[] {
  const out: Chip[] = [];
  const x = r.extraction;
  if (!x || !r.marks) out.push('not-graded');
  if (x) {
    if (x.status === 'blank') {
      /* nothing was read: the blank chip says it all */
    } else if (x.source === 'embedded') out.push('extractor');
    else if (x.source === 'given') out.push('imported');
    else if (x.source.startsWith('model:')) out.push('model');
    else if (x.source === 'consensus') out.push(x.flags.includes('models-disagree') ? 'model' : 'consensus');
    else if (x.source === 'manual') out.push('corrected');
    if (x.status === 'blank') out.push('blank');
    if (x.flags.includes('models-disagree')) out.push('disagree');
    if (x.flags.includes('invented')) out.push('invented');
    if (x.flags.includes('attachment')) out.push('attachment');
    if (x.flags.includes('addresses-marker')) out.push('addresses-marker');
    if (x.flags.includes('ambiguous-reading')) out.push('ambiguous-reading');
    if (x.flags.includes('contradiction')) out.push('contradiction');
    if (x.flags.includes('symbol-reused')) out.push('symbol-reused');
    if (x.flags.includes('dimensioned-argument')) out.push('dimensioned-argument');
    if (x.flags.includes('numbers-disagree')) out.push('numbers-disagree');
  }
  if (r.marks?.inconsistent.length) out.push('inconsistent');
  if (r.marks?.dimensions?.length) out.push('dimensions');
  if (overridesAutomatic(r, schemeOf(exam, r.questionId))) out.push('overridden');
  if (r.earlier) out.push('earlier-text');
  if (r.openRegrades) out.push('regrade');
  if (reviewOfResponse(r, exam).needsReview) out.push('needs-review');
  return out;
}

const excerpt = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 160);

export function row(r: ResponseSummary, exam: Exam, text: string | null, available: number): ReviewRow {
  const review = reviewOfResponse(r, exam);
  return {
    responseId: String(r.id),
    studentId: r.studentId,
    questionId: r.questionId,
    excerpt: excerpt(text),
    chips: chips(r, exam),
    needsReview: review.needsReview,
    state: review.state,
    openManual: openManualItems(r, schemeOf(exam, r.questionId)),
    marks: r.effective,
    total: effectiveTotal(r),
    available: r.marks?.available ?? available,
    group: r.extraction ? groupList(r.extraction.equations) : null,
    equationCount: r.extraction?.equations.length ?? 0,
  };
}

/** An equation as LaTeX; text it can't parse is shown as text. */
export function latexOf(source: string, variables: readonly string[]): string {
  const p = parseEquation(source, { variables });
  return p.ok ? equationToLatex(p.value) : `\\text{${source.replace(/[\\{}$&#^_%~]/g, '')}}`;
}

/** A reading for the view; `variables` are the question's (a variable named E is not Euler's number). */
export function reading(x: Extraction, variables: readonly string[]) {
  return {
    source: x.source,
    status: x.status,
    equations: x.equations.map((e) => ({ source: e.source, latex: latexOf(e.source, variables), ...(e.span ? { span: e.span } : {}) })),
    flags: x.flags,
    notes: x.notes,
    unread: x.unread,
    ...(x.alternatives?.length
      ? { alternatives: x.alternatives.map((a) => ({ ...a, latex: a.readings.map((r) => r.map((s) => latexOf(s, variables))) })) }
      : {}),
  };
}
