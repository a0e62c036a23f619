// Marking: a student's equation list against a question's scheme, following the semantics of
// ../shared/data/README.md exactly:
//   implied     some single student equation entails some accepted form;
//   equivalent  some single student equation entails and is entailed by some accepted form;
//   answer      as equivalent, and the student equation has the target alone on one side and
//               not on the other;
//   numeric     a value with a unit, read from the text or the student's symbolic answer with the
//               given values put in, within a tolerance (decide/numeric.ts; no entailment);
//   manual      never awarded automatically (left open).
// An item with `follow_through` may also be earned on the student's own wrong earlier result
// (error carried forward): ./follow-through.ts, applied once every item's own outcome is known.
// Where the exam declares units, every equation's dimensions are checked (decide/dimensions.ts):
// inconsistent ones are listed in `dimensions` beside the marks, and an item with
// `require_dimensions` is not earned by one (its note says so); no other mark changes.
// A student equation that no admissible assignment satisfies entails nothing: it earns nothing
// and is reported in `inconsistent`. Verdicts use the question's domain (its assumptions).
import { equationToSympy, symbolsOf, type Equation } from '../../../shared/equation/index.ts';
import { questionDomain, type Question, type SchemeItem } from '../../../shared/exam.ts';
import { resultOf, type DimensionIssue, type ItemMark, type MarkEvidence, type ResponseMarks, type InconsistentEquation } from '../../../shared/marks.ts';
import type { EntailmentEngine, Verdict } from './entail/types.ts';
import type { CompiledQuestion } from '../io/exam.ts';
import { applyFollowThrough, relationOnlyForms } from './follow-through.ts';
import { dimensionIssues } from './dimensions.ts';
import { markNumeric } from './numeric.ts';

export type { ItemMark, MarkEvidence, ResponseMarks };

/** Evidence kept for a withheld item: at most this many checks. */
const MAX_WITHHELD_EVIDENCE = 4;

/** Whether `eq` has `target` alone on one side and not on the other (`v = ...`, or `... = v`). */
export function solvedFor(eq: Equation, target: string): boolean {
  const alone = (side: Equation['lhs']): boolean => side.kind === 'sym' && side.name === target;
  if (alone(eq.lhs)) return !symbolsOf(eq.rhs).includes(target);
  if (alone(eq.rhs)) return !symbolsOf(eq.lhs).includes(target);
  return false;
}

/** One domain object per question, so the engine's keys for it are computed once. */
const domains = new WeakMap<Question, ReturnType<typeof questionDomain>>();
function domainOf(q: Question): ReturnType<typeof questionDomain> {
  let d = domains.get(q);
  if (!d) domains.set(q, (d = questionDomain(q)));
  return d;
}

const isVacuous = (v: Verdict): boolean => v.method === 'vacuous-premise';

/**
 * Mark one equation list. `equations` are already parsed against the question's variables.
 * Deterministic: the same equations, question and engine verdicts give the same marks.
 */
export async function markEquations(
  engine: EntailmentEngine,
  cq: CompiledQuestion,
  equations: readonly Equation[],
  /** The response's text, for numeric items (the numbers with their units); null for a given list. */
  opts: { text?: string | null } = {},
): Promise<ResponseMarks> {
  const { items, inconsistent, dimensions } = await marked(engine, cq, equations, opts);
  const { total, available, status } = resultOf(items);
  return { items, total, available, inconsistent, status, ...(dimensions.length ? { dimensions } : {}) };
}

/**
 * Only the items named of a list's marks (in scheme order), with the inconsistent equations and
 * dimension issues found on the way: what a scheme change that edits only those items changes.
 * They are the items markEquations gives where no other item met a vacuous premise (an
 * inconsistent entry with method 'entailment' sets the equation aside for the items after it)
 * and this marking meets none either: the caller compares `inconsistent` with the stored
 * marks' to know. Not for a question with follow-through (an item's outcome then rests on others').
 */
export async function markItems(
  engine: EntailmentEngine,
  cq: CompiledQuestion,
  equations: readonly Equation[],
  only: ReadonlySet<string>,
  opts: { text?: string | null } = {},
): Promise<{ items: ItemMark[]; inconsistent: InconsistentEquation[]; dimensions: DimensionIssue[] }> {
  if (cq.question.scheme.some((s) => s.follow_through?.length)) throw new Error(`question '${cq.question.id}' has follow-through: mark it whole`);
  return marked(engine, cq, equations, opts, only);
}

/**
 * An equation's text as SymPy reads it (the evidence's `student`), kept per parsed equation: grade.ts
 * parses a source once per question, and a class's lists repeat their equations, so a re-grade
 * printed the same trees tens of thousands of times.
 */
const printed = new WeakMap<Equation, string>();
function sympyOf(eq: Equation): string {
  let s = printed.get(eq);
  if (s === undefined) printed.set(eq, (s = equationToSympy(eq)));
  return s;
}

async function marked(
  engine: EntailmentEngine,
  cq: CompiledQuestion,
  equations: readonly Equation[],
  opts: { text?: string | null },
  only?: ReadonlySet<string>,
): Promise<{ items: ItemMark[]; inconsistent: InconsistentEquation[]; dimensions: DimensionIssue[] }> {
  const q: Question = cq.question;
  const domain = domainOf(q);
  const sources = equations.map(sympyOf);
  // Dimensions (where the exam declares units): evidence beside the marks (decide/dimensions.ts).
  const dims = dimensionIssues(equations, sources, cq.units?.bySymbol);

  // 1. Inconsistent student equations entail nothing: set them aside.
  const inconsistent: InconsistentEquation[] = [];
  const usable: number[] = [];
  for (let i = 0; i < equations.length; i++) {
    const c = engine.consistentKnown?.(equations[i], domain) ?? (await engine.consistent(equations[i], domain));
    if (c.satisfiable === false)
      inconsistent.push({ studentIndex: i, student: sources[i], method: c.method, note: c.note ?? 'no admissible assignment satisfies it' });
    else usable.push(i);
  }
  const flagVacuous = (i: number, v: Verdict): void => {
    if (!inconsistent.some((x) => x.studentIndex === i))
      inconsistent.push({ studentIndex: i, student: sources[i], method: 'entailment', note: v.note ?? 'vacuous premise' });
  };

  const items: ItemMark[] = [];
  for (const item of q.scheme) {
    if (only && !only.has(item.id)) continue;
    if (item.manual || !item.match) {
      items.push({
        itemId: item.id,
        available: item.marks,
        awarded: null,
        outcome: 'manual',
        match: 'manual',
        evidence: [],
        note: 'decided by the instructor',
      });
      continue;
    }
    const match = item.match;
    if (match === 'numeric') {
      items.push(
        markNumeric(item, {
          question: q,
          units: cq.units?.bySymbol ?? new Map(),
          values: cq.units?.values ?? new Map(),
          text: opts.text,
          equations,
          sources,
          usable: usable.filter((i) => !inconsistent.some((x) => x.studentIndex === i)),
          checks: dims.checks,
        }),
      );
      continue;
    }
    const forms = cq.accept.get(item.id) ?? [];
    const relationsOnly = relationOnlyForms(cq, item); // used only by follow-through
    const considered: MarkEvidence[] = [];
    let won: MarkEvidence | undefined;
    let undecided = false;
    // An item requiring dimensional consistency is not earned by an inconsistent equation.
    const heldForDimensions = item.require_dimensions ? dims.issues.filter((d) => usable.includes(d.studentIndex)) : [];
    outer: for (const i of usable) {
      if (inconsistent.some((x) => x.studentIndex === i)) continue;
      if (heldForDimensions.some((d) => d.studentIndex === i)) continue;
      const solved = match === 'answer' ? solvedFor(equations[i], q.target ?? '') : undefined;
      for (let a = 0; a < forms.length; a++) {
        if (relationsOnly.has(a)) continue;
        const base = { studentIndex: i, student: sources[i], acceptIndex: a, accepted: item.accept[a], solvedForTarget: solved };
        if (solved === false) {
          // Not an answer whatever it entails; keep one line of evidence, no engine call.
          if (a === 0)
            considered.push({
              ...base,
              forward: {
                holds: null,
                method: 'unknown',
                note: `not solved for ${q.target}: the target must stand alone on one side and not appear on the other`,
              },
            });
          continue;
        }
        const forward = engine.entailsKnown?.(equations[i], forms[a], domain) ?? (await engine.entails(equations[i], forms[a], domain));
        if (isVacuous(forward)) {
          flagVacuous(i, forward);
          continue outer;
        }
        if (forward.holds !== true) {
          if (forward.holds === null) undecided = true;
          considered.push({ ...base, forward });
          continue;
        }
        if (match === 'implied') {
          won = { ...base, forward };
          break outer;
        }
        const backward = engine.entailsKnown?.(forms[a], equations[i], domain) ?? (await engine.entails(forms[a], equations[i], domain));
        const ev = { ...base, forward, backward };
        if (backward.holds === true) {
          won = ev;
          break outer;
        }
        if (backward.holds === null) undecided = true;
        considered.unshift(ev); // one direction holds: the closest miss, shown first
      }
    }
    const dimensionsNote = heldForDimensions.length
      ? `not counted, as this item requires dimensional consistency: ${heldForDimensions.map((d) => `equation ${d.studentIndex + 1} ${d.student} (${d.note})`).join('; ')}`
      : undefined;
    if (won)
      items.push({
        itemId: item.id,
        available: item.marks,
        awarded: item.marks,
        outcome: 'awarded',
        match,
        evidence: [won],
        ...(dimensionsNote ? { note: dimensionsNote } : {}),
      });
    else if (undecided)
      items.push({
        itemId: item.id,
        available: item.marks,
        awarded: null,
        outcome: 'undecided',
        match,
        evidence: considered.slice(0, MAX_WITHHELD_EVIDENCE),
        note: `the engine could not decide some check: the instructor decides${dimensionsNote ? `; ${dimensionsNote}` : ''}`,
      });
    else
      items.push({
        itemId: item.id,
        available: item.marks,
        awarded: 0,
        outcome: 'withheld',
        match,
        evidence: considered.slice(0, MAX_WITHHELD_EVIDENCE),
        note: dimensionsNote ?? (usable.length === 0 ? (equations.length ? 'every equation is inconsistent' : 'no equations') : undefined),
      });
  }
  // Error carried forward (follow-through.ts): after every item's own outcome is known.
  if (!only && q.scheme.some((s) => s.follow_through?.length)) {
    // As for the item's own marking: an item requiring dimensional consistency follows through only along consistent equations.
    const usableNow = (i: number, it: SchemeItem): boolean =>
      usable.includes(i) && !inconsistent.some((x) => x.studentIndex === i) && !(it.require_dimensions && dims.issues.some((d) => d.studentIndex === i));
    items.splice(0, items.length, ...(await applyFollowThrough({ engine, cq, domain, equations, sources, usable: usableNow }, items)));
  }
  inconsistent.sort((a, b) => a.studentIndex - b.studentIndex);
  return { items, inconsistent, dimensions: dims.issues };
}
