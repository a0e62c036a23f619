// Follow-through marks (error carried forward, issue 15 part 2): an item that declares
// `follow_through: ["c"]` may still be earned when the student's own result for item c is wrong,
// if what the student did next is this item's physics done correctly on their wrong value.
//
// The rule, for item d with `follow_through: ["c"]` (marking.ts marks every item first; this runs
// after, on the items' own outcomes, so the order of the scheme never matters and a chain
// b → c → d follows through link by link):
//   - c's quantity q is the variable c's first accepted form has alone on one side (`t` for
//     `Eq(t, u/g)`; for a numeric item, its quantity or the question's target).
//   - d's relations are d's accepted forms that use q (`Eq(H, u*t - g*t**2/2)`); validation
//     (io/exam.ts) refuses a follow_through whose item has none. For an implied or equivalent
//     item they also earn d directly when the student writes them; for an answer item they are
//     relations only (`v = a*T` is not a final answer): marking.ts skips them
//     (`relationOnlyForms`), so they earn it only with the student's own result put in.
//   - The student's result for c is their last equation with q alone on one side (`t = 2*u/g`,
//     index k) before the equation that follows through; its other side V is their value.
//   - Student equation E (index j > k, consistent, without q, and for an `answer` item solved for
//     the target) follows through when E is equivalent (both directions proved) to a relation F
//     with V put for q: E ⟺ F[q := V]. Equivalence, not only "E entails": a second error in d's
//     own physics makes E differ from F[q := V] and earns nothing. F[q := V] must also say
//     something given the student's result: if their `q = V` alone entails it (the wrong value
//     makes the relation trivially true), nothing is earned.
//   - d is awarded by follow-through only when c was withheld by the engine (the student's own
//     result for c is wrong). c awarded: d is marked normally, no follow-through. c manual: no
//     follow-through (validation refuses it). c undecided: a follow-through that would hold
//     leaves d undecided (the instructor decides), never awarded; one that cannot hold leaves d
//     as marked. Any check the engine can't decide leaves d undecided, never awarded.
// The evidence of a follow-through award is the check itself (E against F[q := V]) with
// `followThrough: { fromItem: c, fromStudent: [k], relation: F[q := V] }`; the UI says
// "follow-through from your equation k + 1". An instructor's override of c changes nothing here:
// no action changes a mark the instructor didn't see.
import { equationToSympy, substituteEquation, symbolsOf, type Equation, type Expr } from '../../../shared/equation/index.ts';
import type { Domain, Question, SchemeItem } from '../../../shared/exam.ts';
import type { ItemMark, MarkEvidence } from '../../../shared/marks.ts';
import type { EntailmentEngine, Verdict } from './entail/types.ts';
import type { CompiledQuestion } from '../io/exam.ts';

/** Whether `eq` has `name` alone on one side and not on the other (marking.ts's rule for answers). */
function isSolvedFor(eq: Equation, name: string): boolean {
  if (eq.lhs.kind === 'sym' && eq.lhs.name === name) return !symbolsOf(eq.rhs).includes(name);
  if (eq.rhs.kind === 'sym' && eq.rhs.name === name) return !symbolsOf(eq.lhs).includes(name);
  return false;
}

/** The variable alone on one side of `eq` and absent from the other (`t = u/g` → `t`; the left side's first), if any. */
export function solvedSymbol(eq: Equation): string | undefined {
  if (eq.lhs.kind === 'sym' && isSolvedFor(eq, eq.lhs.name)) return eq.lhs.name;
  if (eq.rhs.kind === 'sym' && isSolvedFor(eq, eq.rhs.name)) return eq.rhs.name;
  return undefined;
}

/** The other side of an equation solved for `q` (`t = 2*u/g` → `2*u/g`). */
function valueOf(eq: Equation, q: string): Expr {
  return eq.lhs.kind === 'sym' && eq.lhs.name === q && !symbolsOf(eq.rhs).includes(q) ? eq.rhs : eq.lhs;
}

/**
 * The quantity item `item`'s result is for: the variable its first accepted form is solved for;
 * for a numeric item, its quantity (default the question's target). Undefined for a manual item
 * or one whose first form is not solved for a variable.
 */
export function resultQuantity(item: SchemeItem, forms: readonly Equation[], question: Pick<Question, 'target'>): string | undefined {
  if (item.manual || !item.match) return undefined;
  if (item.match === 'numeric') return item.numeric?.quantity ?? question.target;
  return forms[0] ? solvedSymbol(forms[0]) : undefined;
}

/**
 * The accepted forms of an `answer` item with follow-through that use the quantity of an item it
 * follows from (`Eq(v, a*T)`): relations, not answers. They earn the item only through
 * follow-through, with the student's own result put in; written as they are ("v = a*T") they are
 * not a final answer. Empty for other items, whose relations earn them directly as well.
 */
export function relationOnlyForms(cq: CompiledQuestion, item: SchemeItem): Set<number> {
  const out = new Set<number>();
  if (item.match !== 'answer' || !item.follow_through?.length) return out;
  const forms = cq.accept.get(item.id) ?? [];
  for (const from of item.follow_through) {
    const c = cq.question.scheme.find((s) => s.id === from);
    const q = c && resultQuantity(c, cq.accept.get(from) ?? [], cq.question);
    if (q) forms.forEach((f, a) => symbolsOf(f).includes(q) && out.add(a));
  }
  return out;
}

/** What marking hands over: the response's equations and which of them may earn anything. */
export type FollowThroughInput = {
  engine: Pick<EntailmentEngine, 'entails'>;
  cq: CompiledQuestion;
  domain: Domain;
  equations: readonly Equation[];
  /** Canonical SymPy source of each equation (as in the evidence). */
  sources: readonly string[];
  /**
   * Whether equation i may take part in following through to `item`: consistent (inconsistent
   * ones earn nothing and give no result), and dimensionally consistent where the item requires it.
   */
  usable(i: number, item: SchemeItem): boolean;
};

/** What one follow-through attempt found: the award, whether some check was undecided, whether the student gave a result at all. */
type Attempt = { won?: MarkEvidence; undecided: boolean; result: boolean };

/** Whether some later equation is item `d`'s relation done on the student's own value for `q` (from item `from`). */
async function followFrom(x: FollowThroughInput, d: SchemeItem, from: string, q: string): Promise<Attempt> {
  const { engine, cq, domain, equations, sources } = x;
  const forms = cq.accept.get(d.id) ?? [];
  const relations = forms.map((f, a) => ({ f, a })).filter(({ f }) => symbolsOf(f).includes(q));
  const target = cq.question.target ?? '';
  let undecided = false;
  let result: number | undefined; // the student's last equation solved for q so far
  for (let j = 0; j < equations.length; j++) {
    if (!x.usable(j, d)) continue;
    const e = equations[j];
    if (isSolvedFor(e, q)) {
      result = j;
      continue;
    }
    const syms = symbolsOf(e);
    if (result === undefined || syms.includes(q) || syms.length === 0) continue;
    if (d.match === 'answer' && !isSolvedFor(e, target)) continue;
    const k = result;
    const value = valueOf(equations[k], q);
    for (const { f, a } of relations) {
      const carried = substituteEquation(f, q, value);
      const forward = await engine.entails(e, carried, domain);
      if (forward.holds !== true) {
        undecided ||= forward.holds === null;
        continue;
      }
      const backward = await engine.entails(carried, e, domain);
      if (backward.holds !== true) {
        undecided ||= backward.holds === null;
        continue;
      }
      // The relation must not hold merely because of the student's value (their q = V entailing it).
      const trivial: Verdict = await engine.entails(equations[k], carried, domain);
      if (trivial.holds !== false) {
        undecided ||= trivial.holds === null;
        continue;
      }
      const relation = equationToSympy(carried);
      return {
        undecided,
        result: true,
        won: {
          studentIndex: j,
          student: sources[j],
          acceptIndex: a,
          accepted: d.accept[a],
          forward,
          backward,
          solvedForTarget: d.match === 'answer' ? true : undefined,
          followThrough: {
            fromItem: from,
            fromStudent: [k],
            relation,
            note: `${sources[k]} (equation ${k + 1}) put into ${d.accept[a]} gives ${relation}`,
          },
        },
      };
    }
  }
  return { undecided, result: result !== undefined };
}

/**
 * Apply follow-through to the marked items of one response (`items` as marking.ts made them, in
 * scheme order): returns the items with follow-through awards (or doubts) applied. Items without
 * `follow_through`, and items already awarded, are returned as they are.
 */
export async function applyFollowThrough(x: FollowThroughInput, items: readonly ItemMark[]): Promise<ItemMark[]> {
  const q = x.cq.question;
  const own = new Map(items.map((it) => [it.itemId, it]));
  const out: ItemMark[] = [];
  for (const it of items) {
    const d = q.scheme.find((s) => s.id === it.itemId);
    const froms = d?.follow_through ?? [];
    if (!d || froms.length === 0 || (it.outcome !== 'withheld' && it.outcome !== 'undecided') || it.match === 'numeric' || it.match === 'manual') {
      out.push(it);
      continue;
    }
    let won: MarkEvidence | undefined;
    const doubts: string[] = [];
    const misses: string[] = [];
    for (const from of froms) {
      const c = own.get(from);
      const cItem = q.scheme.find((s) => s.id === from);
      // Only a result the engine found wrong (withheld) carries forward; undecided may be wrong.
      if (!c || !cItem || (c.outcome !== 'withheld' && c.outcome !== 'undecided')) continue;
      const quantity = resultQuantity(cItem, x.cq.accept.get(from) ?? [], q);
      if (!quantity) continue;
      const r = await followFrom(x, d, from, quantity);
      if (r.won && c.outcome === 'withheld') {
        won = r.won;
        break;
      }
      if (r.won) doubts.push(`it follows through from item ${from}, which is undecided: whether the result for ${from} is wrong decides it`);
      else if (r.undecided) doubts.push(`whether it follows through from item ${from} could not be decided`);
      else if (r.result)
        misses.push(`no follow-through from item ${from}: no later equation is this item's relation worked with the student's own result for ${from}`);
    }
    if (won) {
      const k = won.followThrough!.fromStudent[0];
      out.push({
        itemId: it.itemId,
        available: it.available,
        awarded: it.available,
        outcome: 'awarded',
        match: it.match,
        evidence: [won],
        note: `follow-through from equation ${k + 1}: the result for item ${won.followThrough!.fromItem} was wrong, and equation ${won.studentIndex + 1} follows correctly from it`,
      });
    } else if (doubts.length > 0)
      out.push({
        ...it,
        awarded: null,
        outcome: 'undecided',
        note: [it.note, ...doubts].filter(Boolean).join('; '),
      });
    else out.push(misses.length ? { ...it, note: [it.note, ...misses].filter(Boolean).join('; ') } : it);
  }
  return out;
}
