// One response in detail (its readings, items with evidence, history, equations held back as
// possibly invented) and the instructor's changes to it: a corrected equation list (re-marked at
// once through the engine's one marking step) and overrides.
import { ApiFailure, type ApiResponse, type RegradeRequestView } from '../../shared/api.ts';
import type { RegradeRequest } from '../engine/store/workspace.ts';
import { equationToSympy, formatErrors, parseEquation, type Equation } from '../../shared/equation/index.ts';
import { note, type Extraction } from '../../shared/extraction.ts';
import { markResponse, pickReading } from '../engine/grade.ts';
import { effectiveTotal, openManualItems, reviewOfResponse } from '../engine/review/state.ts';
import { notFound, type AppContext } from './context.ts';
import { AUDIT_WORDS, brief } from './reports.ts';
import { SympyDetails } from './sympy-detail.ts';
import { chips, latexOf, reading } from './views.ts';

export type Detail = ApiResponse<'response.get'>;

export function detail(ctx: AppContext, responseId: number): Detail {
  const d = ctx.ws.getResponseDetail(responseId) ?? notFound(`no response with id ${responseId}`);
  const exam = ctx.ws.getExam(d.examId)!;
  const q = exam.questions.find((x) => x.id === d.questionId)!;
  const x = d.extractionDetail;
  const key = `${d.examId}/${d.studentId}/${d.questionId}`;
  const audit = ctx.ws
    .auditLog({ keyPrefix: key })
    .filter((a) => a.entityKey === key || a.entityKey.startsWith(`${key}/`))
    .map((a) => ({
      at: a.at,
      what: AUDIT_WORDS[a.action] ?? a.action,
      old: a.old === null ? null : brief(a.old),
      new: a.new === null ? null : brief(a.new),
      comment: (a.new as { comment?: string } | null)?.comment ?? null,
    }));
  const items = q.scheme.map((s) => {
    const it = d.items.find((i) => i.itemId === s.id);
    const ov = d.overridesList.find((o) => o.itemId === s.id);
    return {
      itemId: s.id,
      description: s.description,
      available: s.marks,
      awarded: it?.awarded ?? null,
      outcome: it?.outcome ?? (s.manual ? 'manual' : 'undecided'),
      match: it?.match ?? (s.manual ? 'manual' : (s.match ?? '')),
      evidence: it?.evidence ?? [],
      ...(it?.note ? { note: it.note } : !it ? { note: 'not marked yet' } : {}),
      ...(ov ? { override: { marks: ov.awarded, comment: ov.comment, at: ov.createdAt } } : {}),
      final: ov ? ov.awarded : (it?.awarded ?? null),
    } as Detail['items'][number];
  });
  const vars = q.variables.map((v) => v.name);
  const current = x ? reading(x, vars) : null;
  // Each reader's list, from the model record stored with the extraction it produced.
  const rec = ctx.ws.getModelRecord(responseId);
  const stored = rec && rec.current ? rec.record.readings : [];
  const others = stored.map((r) =>
    reading(
      {
        source: (r.reader.startsWith('model:') || r.reader === 'embedded' ? r.reader : `model:${r.reader}`) as Extraction['source'],
        status: 'read',
        flags: [],
        unread: [],
        notes: [],
        equations: r.equations.map((source) => ({ source })),
      },
      vars,
    ),
  );
  return {
    responseId: String(responseId),
    studentId: d.studentId,
    questionId: d.questionId,
    text: d.text ?? '',
    variables: vars,
    target: q.target ?? null,
    current,
    readings: others.length > 1 ? others : current ? [current] : [],
    items,
    inconsistent: (d.marks?.inconsistent ?? []).map((i) => ({ student: i.student, ...(i.note ? { note: i.note } : {}) })),
    ...(d.marks?.dimensions?.length
      ? { dimensions: d.marks.dimensions.map((i) => ({ studentIndex: i.studentIndex, student: i.student, left: i.left, right: i.right, note: i.note })) }
      : {}),
    total: effectiveTotal(d),
    available: q.scheme.reduce((s, i) => s + i.marks, 0),
    chips: chips(d, exam),
    needsReview: reviewOfResponse(d, exam).needsReview,
    openManual: openManualItems(d, q.scheme),
    audit,
    heldBack: heldBack(ctx, responseId, key, x, vars),
    earlier: ctx.ws.earlierChanges(responseId).map((c) => ({
      id: c.id,
      kind: c.kind,
      itemId: c.itemId,
      equations: c.equations?.map((source) => ({ source, latex: latexOf(source, vars) })) ?? null,
      awarded: c.awarded,
      comment: c.comment,
      madeAt: c.madeAt,
      earlierText: c.earlierText,
    })),
    regrades: ctx.ws.regradeRequests({ responseId }).map(regradeView),
  };
}

/** A regrade request as the API gives it. */
export function regradeView(q: RegradeRequest): RegradeRequestView {
  return {
    id: q.id,
    responseId: String(q.responseId),
    studentId: q.studentId,
    questionId: q.questionId,
    body: q.body,
    requestedOn: q.requestedOn,
    reply: q.reply,
    resolvedAt: q.resolvedAt,
    changes: q.changes,
  };
}

/**
 * Confirm a change made on an earlier text (it is made again, on the current text: a correction
 * re-marks at once, an override is set anew) or drop it; either way it leaves the list, audited.
 */
export async function resolveEarlier(ctx: AppContext, responseId: number, earlierId: number, action: 'confirm' | 'drop', comment: string): Promise<void> {
  const c = ctx.ws.earlierChange(earlierId);
  if (!c || c.responseId !== responseId) notFound(`no change made on earlier text with id ${earlierId} on this response`);
  if (action === 'confirm') {
    if (c!.kind === 'correction') await correct(ctx, responseId, c!.equations ?? [], `confirmed a correction made on earlier text: ${comment}`);
    else override(ctx, responseId, c!.itemId!, c!.awarded, `${c!.comment ?? ''} (confirmed on the new text: ${comment})`.trim());
  }
  ctx.ws.closeEarlierChange(earlierId, action === 'confirm' ? 'confirmed' : 'dropped', comment);
}

/** The detail never waits for SymPy: cached evidence is included, else 'pending' while it is computed (the view asks again). */
export async function withSympy(ctx: AppContext, d: Detail): Promise<Detail> {
  const sources = (d.current?.equations ?? []).map((e) => e.source);
  if (!sources.length) return d;
  const r = ctx.ws.getResponseDetail(Number(d.responseId));
  const cq = r ? ctx.loaded(r.examId).questions.get(d.questionId) : undefined;
  if (!cq) return d;
  const engine = await Promise.race([ctx.engine().catch(() => null), new Promise<'starting'>((ok) => setTimeout(() => ok('starting'), 0))]);
  if (engine === 'starting') return { ...d, sympy: SympyDetails.pending("The symbolic engine is starting; SymPy's evidence follows.") };
  if (!engine) return d;
  return { ...d, sympy: await ctx.sympyDetails.get(engine, cq, sources, 0) };
}

/**
 * The equations a model proposed that grounding held back as possibly invented (symbols or
 * numbers not in the text), with who proposed each and why: from the model's record while its
 * reading is current, or was since changed only by the instructor's corrections (so accepting
 * one of two keeps the other listed). Those already in the current list are left out.
 */
function heldBack(ctx: AppContext, responseId: number, key: string, current: Extraction | null, variables: string[]): Detail['heldBack'] {
  const rec = ctx.ws.getModelRecord(responseId);
  const ungrounded = rec?.record.ungrounded ?? [];
  if (!rec || !current || ungrounded.length === 0) return [];
  if (!rec.current && !(current.source === 'manual' && onlyCorrectedSince(ctx, key))) return [];
  const canon = (s: string) => {
    const p = parseEquation(s, { variables });
    return p.ok ? equationToSympy(p.value) : s;
  };
  const have = new Set(current.equations.map((e) => canon(e.source)));
  const readerName = (r: string) => r.replace(/^model:/, '');
  const seen = new Set<string>();
  return ungrounded.flatMap((u) => {
    const source = canon(u.source);
    if (have.has(source) || seen.has(source)) return [];
    seen.add(source);
    const by = rec.record.readings.filter((r) => r.equations.some((e) => canon(e) === source)).map((r) => readerName(r.reader));
    return [{ source, latex: latexOf(u.source, variables), proposedBy: by.length ? [...new Set(by)] : rec.models.map((m) => m.name), reasons: u.reasons }];
  });
}

/**
 * Whether the response's reading has been changed only by the instructor's corrections since the
 * last reading that came with a model's record (no new text, no new reading or imported list).
 */
function onlyCorrectedSince(ctx: AppContext, key: string): boolean {
  let fromModel = false;
  for (const a of ctx.ws.auditLog({ keyPrefix: key })) {
    if (a.entityKey !== key) continue;
    if (a.action === 'response.update') fromModel = false;
    else if (a.action === 'extraction.save') {
      const n = (a.new ?? {}) as { source?: string; models?: unknown };
      if (Array.isArray(n.models)) fromModel = true;
      else if (n.source !== 'manual') fromModel = false;
    }
  }
  return fromModel;
}

/** Replace a response's equations with the instructor's list and re-mark it at once. */
export async function correct(ctx: AppContext, responseId: number, sources: string[], comment?: string): Promise<void> {
  const d = ctx.ws.getResponseDetail(responseId) ?? notFound(`no response with id ${responseId}`);
  const lx = ctx.loaded(d.examId);
  const cq = lx.questions.get(d.questionId)!;
  const eqs: Equation[] = [];
  const problems: string[] = [];
  sources.forEach((s, i) => {
    const p = parseEquation(s, { variables: cq.variables });
    if (p.ok) eqs.push(p.value);
    else problems.push(`equation ${i + 1} ${JSON.stringify(s)}: ${formatErrors(p.errors)}`);
  });
  if (problems.length) throw new ApiFailure({ code: 'invalid-request', message: problems.join('; ') });
  const old = d.extractionDetail;
  const oldSpans = new Map((old?.equations ?? []).map((e) => [e.source, e.span]));
  const canon = eqs.map(equationToSympy);
  // Equations held back as possibly invented that the instructor now accepts: said so in the
  // reading's notes and in the audited comment.
  const key = `${d.examId}/${d.studentId}/${d.questionId}`;
  const accepted = heldBack(ctx, responseId, key, old, cq.variables).filter((h) => canon.includes(h.source));
  const acceptedText = accepted.map((h) => `${h.source} (proposed by ${h.proposedBy.join(' and ')}; ${h.reasons.join('; ')})`);
  const x: Extraction = {
    equations: canon.map((source) => (oldSpans.get(source) ? { source, span: oldSpans.get(source) } : { source })),
    status: canon.length ? 'read' : 'blank',
    source: 'manual',
    flags: [],
    unread: [],
    notes: [
      note('instructor', `corrected by the instructor${old ? ` (first read by ${old.source === 'given' ? 'an imported list' : old.source})` : ''}`),
      ...acceptedText.map((t) => note('instructor', `accepted by the instructor although possibly invented: ${t}`)),
    ],
  };
  const engine = await ctx.engine();
  ctx.ws.saveExtraction(responseId, x, 'manual');
  const said = [
    ...(acceptedText.length
      ? [`Accepted ${accepted.length === 1 ? 'a possibly-invented equation' : 'possibly-invented equations'}: ${acceptedText.join('; ')}.`]
      : []),
    ...(comment?.trim() ? [comment.trim()] : []),
  ];
  if (said.length) ctx.ws.addComment(responseId, said.join(' '));
  // The engine's one marking step: an engine failure leaves the response needs-review (flag 'engine-error'), shown in its detail.
  await markResponse(ctx.ws, engine, cq, { id: responseId, studentId: d.studentId, questionId: d.questionId });
}

/** The instructor picks one reading of a choice: the engine's pickReading (audited, re-marked at once); a choice or reading out of range is a bad request. */
export async function pick(ctx: AppContext, responseId: number, choice: number, reading: number): Promise<void> {
  const d = ctx.ws.getResponseDetail(responseId) ?? notFound(`no response with id ${responseId}`);
  const cq = ctx.loaded(d.examId).questions.get(d.questionId);
  const x = ctx.ws.getExtraction(responseId);
  const alt = x?.alternatives?.[choice];
  if (!alt) throw new ApiFailure({ code: 'invalid-request', message: `this response has no reading choice ${choice + 1}` });
  if (reading >= alt.readings.length)
    throw new ApiFailure({ code: 'invalid-request', message: `choice ${choice + 1} has ${alt.readings.length} readings, not ${reading + 1}` });
  const engine = await ctx.engine();
  await pickReading(ctx.ws, engine, cq, { id: responseId, studentId: d.studentId, questionId: d.questionId }, choice, reading);
}

/** The instructor's mark for an item; the store applies the rule for reasons (required only to override an automatic item). */
export function override(ctx: AppContext, responseId: number, itemId: string, marks: number | null, comment?: string): void {
  if (marks === null) ctx.ws.clearOverride(responseId, itemId, comment);
  else ctx.ws.setOverride(responseId, itemId, marks, comment);
}
