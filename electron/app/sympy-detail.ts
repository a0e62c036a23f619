// The "SymPy" part of a response's detail: evidence for the instructor, never marks.
//  - simplified: a simplified display form of each student equation;
//  - solved: the student's equations solved for the question's target under its assumptions
//    (each equation alone; and, when none of those gives the accepted answer, the list together
//    with the other quantities eliminated), each value labelled by the engine as equivalent or
//    not to an accepted final answer, and as ruled out where no admissible value satisfies it;
//  - limits: for a manual item that names regimes ("v -> u when u >> w"), the limits and
//    second-order expansions of the student's final expression for the target.
// Every worker call has its own time limit; results are cached per (question, canonical equation
// list), so reopening a response, or another response with the same list, costs nothing.
import type { SympyDetail } from '../../shared/api.ts';
import { equationToSympy, exprToLatex, exprToSympy, parseEquation, symbolsOf, type Equation, type Expr } from '../../shared/equation/index.ts';
import { questionDomain } from '../../shared/exam.ts';
import type { Engine } from '../engine/decide/engine-factory.ts';
import type { CompiledQuestion } from '../engine/io/exam.ts';
import { solvedFor } from '../engine/decide/marking.ts';
import type { SympyValue } from '../engine/decide/sympy/index.ts';

export type SympyDetailOptions = {
  /** Time limit of one simplify call (ms). */
  simplifyMs?: number;
  /** Time limit of one solve or limits call (ms). */
  solveMs?: number;
  /** Most cached lists kept. */
  cacheSize?: number;
};

type Value = { text: string; latex: string };
type Solved = SympyDetail['solved'][number];
const MAX_SOLUTIONS = 6;
const MAX_REGIMES = 6;

const value = (v: SympyValue): Value => ({ text: v.ast ? exprToSympy(v.ast) : v.text, latex: v.ast ? exprToLatex(v.ast) : v.latex });
const why = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Regimes named in a manual item's description: "u >> w", "w ≫ u" (both question variables). */
export function namedRegimes(description: string, variables: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const m of description.matchAll(/([A-Za-z][A-Za-z0-9_]*)\s*(?:>>|≫)\s*([A-Za-z][A-Za-z0-9_]*)/g)) {
    const [a, b] = [m[1], m[2]];
    if (a !== b && variables.includes(a) && variables.includes(b) && !out.some(([x, y]) => x === a && y === b)) out.push([a, b]);
  }
  return out;
}

export class SympyDetails {
  private readonly cache = new Map<string, Promise<SympyDetail>>();
  private readonly opts: Required<SympyDetailOptions>;

  constructor(options: SympyDetailOptions = {}) {
    this.opts = { simplifyMs: 2000, solveMs: 4000, cacheSize: 500, ...options };
  }

  static pending(note = 'SymPy is still working on these equations; its evidence follows.'): SympyDetail {
    return { state: 'pending', note, simplified: [], solved: [], limits: [] };
  }

  /** Forget everything (the Python or the exam changed). */
  clear(): void {
    this.cache.clear();
  }

  /**
   * The SymPy evidence for `sources` (canonical equations of the current reading) under question
   * `cq`. Waits at most `budgetMs` (0: answers at once from the cache); past it, answers state
   * 'pending' and goes on computing into the cache (ask again). Never rejects.
   */
  async get(engine: Engine, cq: CompiledQuestion, sources: readonly string[], budgetMs = 4000): Promise<SympyDetail> {
    const empty = { simplified: [], solved: [], limits: [] };
    const worker = engine.sympy;
    if (!worker) return { state: 'unavailable', note: 'SymPy is turned off: marks and checks use Z3 and sampling only.', ...empty };
    const st = worker.status();
    if (st.state === 'unavailable' || st.state === 'closed') return { state: 'unavailable', note: st.message, ...empty };
    const q = cq.question;
    const key = JSON.stringify([q.variables, q.target ?? null, q.answer ?? null, q.scheme, sources]);
    let p = this.cache.get(key);
    if (p) {
      // Most recently used last.
      this.cache.delete(key);
      this.cache.set(key, p);
    } else {
      p = this.compute(engine, cq, sources).catch((e) => ({ state: 'failed' as const, note: `SymPy evidence could not be computed: ${why(e)}`, ...empty }));
      this.cache.set(key, p);
      void p.then((d) => {
        // Don't keep answers that only say SymPy was missing or failed: a new Python may fix them.
        if (d.state !== 'ready' && this.cache.get(key) === p) this.cache.delete(key);
      });
      while (this.cache.size > this.opts.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<SympyDetail>((resolve) => {
      timer = setTimeout(() => resolve(SympyDetails.pending()), budgetMs);
    });
    try {
      return await Promise.race([p, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async compute(engine: Engine, cq: CompiledQuestion, sources: readonly string[]): Promise<SympyDetail> {
    const worker = engine.sympy!;
    const q = cq.question;
    const domain = questionDomain(q);
    const parsed = sources.map((s) => parseEquation(s, { variables: cq.variables }));
    const equations: { index: number; eq: Equation }[] = [];
    parsed.forEach((r, index) => r.ok && equations.push({ index, eq: r.value }));
    const notes: string[] = [];
    const unavailable = (): SympyDetail | null => {
      const s = worker.status();
      return s.state === 'unavailable' ? { state: 'unavailable', note: s.message, simplified: [], solved: [], limits: [] } : null;
    };

    // 1. Simplified display form of each equation.
    const simplified: SympyDetail['simplified'] = [];
    for (let i = 0; i < sources.length; i++) {
      const r = parsed[i];
      if (!r.ok) {
        simplified.push({ source: sources[i], simplified: null, note: 'not an equation SymPy can read' });
        continue;
      }
      try {
        const s = await worker.simplify(r.value, domain, { timeoutMs: this.opts.simplifyMs });
        if ('lhs' in s) {
          const lhs = value(s.lhs);
          const rhs = value(s.rhs);
          const text = `Eq(${lhs.text}, ${rhs.text})`;
          simplified.push({
            source: sources[i],
            simplified: { text, latex: `${lhs.latex} = ${rhs.latex}` },
            ...(text === sources[i] ? { note: 'already simplest' } : {}),
          });
        } else simplified.push({ source: sources[i], simplified: value(s.expr) });
      } catch (e) {
        const u = unavailable();
        if (u) return u;
        simplified.push({ source: sources[i], simplified: null, note: why(e) });
      }
    }

    // 2. Solved for the target.
    const target = q.target;
    const solved: { s: Solved; ast: Expr | null }[] = [];
    const answers: Equation[] = [];
    for (const item of q.scheme) if (item.match === 'answer') answers.push(...(cq.accept.get(item.id) ?? []));
    if (cq.answer && !answers.some((a) => equationToSympy(a) === equationToSympy(cq.answer!))) answers.push(cq.answer);
    const judge = async (expr: Expr): Promise<{ admissible: boolean | null; matchesAnswer: boolean | null; how: string }> => {
      const cand: Equation = { lhs: { kind: 'sym', name: target! } as Expr, rhs: expr };
      const c = await engine.consistent(cand, domain);
      if (c.satisfiable === false) return { admissible: false, matchesAnswer: false, how: 'ruled out: no admissible value satisfies it under the assumptions' };
      if (!answers.length) return { admissible: c.satisfiable, matchesAnswer: null, how: 'the question has no accepted final answer to compare with' };
      let undecided = '';
      for (const a of answers) {
        const f = await engine.entails(cand, a, domain);
        const b = f.holds === true ? await engine.entails(a, cand, domain) : null;
        if (f.holds === true && b?.holds === true)
          return { admissible: c.satisfiable, matchesAnswer: true, how: `equivalent to the accepted answer ${equationToSympy(a)} (${f.method})` };
        if (f.holds === null || b?.holds === null) undecided = `equivalence to ${equationToSympy(a)} undecided`;
      }
      return { admissible: c.satisfiable, matchesAnswer: undecided ? null : false, how: undecided || 'not equivalent to the accepted answer' };
    };
    const addSolutions = async (from: string, equationIndex: number | null, values: SympyValue[], complete: boolean | null): Promise<void> => {
      for (const v of values.slice(0, MAX_SOLUTIONS)) {
        const j = v.ast ? await judge(v.ast) : { admissible: null, matchesAnswer: null, how: 'outside the equation grammar: not compared' };
        solved.push({ s: { from, equationIndex, value: value(v), ...j, complete }, ast: v.ast ?? null });
      }
    };
    if (target) {
      const unsolved = equations.filter(({ eq }) => symbolsOf(eq).includes(target) && !solvedFor(eq, target));
      for (const { index, eq } of unsolved) {
        try {
          const r = await worker.solveFor([eq], target, domain, { timeoutMs: this.opts.solveMs });
          for (const res of r.results) await addSolutions(`equation ${index + 1}`, index, res.solutions, res.complete);
        } catch (e) {
          const u = unavailable();
          if (u) return u;
          notes.push(`equation ${index + 1} could not be solved for ${target}: ${why(e)}`);
        }
      }
      // The list together, other quantities eliminated, when no single equation gave the answer.
      const answered = equations.some(({ eq }) => solvedFor(eq, target)) || solved.some((x) => x.s.matchesAnswer === true);
      if (!answered && equations.length >= 2 && equations.some(({ eq }) => symbolsOf(eq).includes(target))) {
        const keep = new Set([target, ...answers.flatMap((a) => symbolsOf(a))]);
        const counts = new Map<string, number>();
        for (const { eq } of equations) for (const s of symbolsOf(eq)) if (!keep.has(s)) counts.set(s, (counts.get(s) ?? 0) + 1);
        const others = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : 1));
        // All of them first; then each alone (a quantity that cancels, like S in q1, can't be eliminated).
        const tries = others.length > 1 ? [others, ...others.slice(0, 3).map((o) => [o])] : [others];
        for (const eliminate of tries) {
          try {
            const r = await worker.solveFor(
              equations.map((e) => e.eq),
              target,
              domain,
              { timeoutMs: this.opts.solveMs, eliminate },
            );
            const values = r.results.flatMap((x) => x.solutions);
            if (!values.length) continue;
            await addSolutions(`equations together${eliminate.length ? ` (${eliminate.join(', ')} eliminated)` : ''}`, null, values, null);
            break;
          } catch (e) {
            const u = unavailable();
            if (u) return u;
            notes.push(`the equations together could not be solved for ${target}: ${why(e)}`);
            break;
          }
        }
      }
    }

    // 3. Limits of the final expression, for manual items that name regimes.
    const limits: SympyDetail['limits'] = [];
    const regimes: { itemId: string; large: string; small: string }[] = [];
    for (const item of q.scheme) {
      if (!item.manual) continue;
      for (const [large, small] of namedRegimes(item.description, cq.variables)) regimes.push({ itemId: item.id, large, small });
    }
    if (target && regimes.length) {
      const last = [...equations].reverse().find(({ eq }) => solvedFor(eq, target));
      const fromSolved = [...solved].reverse();
      const pick = fromSolved.find((x) => x.ast && x.s.matchesAnswer === true) ?? fromSolved.find((x) => x.ast && x.s.admissible !== false);
      const final: { expr: Expr; from: string } | null = last
        ? { expr: (last.eq.lhs.kind === 'sym' && last.eq.lhs.name === target ? last.eq.rhs : last.eq.lhs) as Expr, from: `equation ${last.index + 1}` }
        : pick?.ast
          ? { expr: pick.ast, from: `${target} solved from ${pick.s.from}` }
          : null;
      if (!final) notes.push(`no final expression for ${target} to take limits of`);
      else {
        for (const r of regimes.slice(0, MAX_REGIMES)) {
          const regime = `${r.large} >> ${r.small}`;
          const syms = symbolsOf(final.expr);
          if (!syms.includes(r.large) && !syms.includes(r.small)) {
            limits.push({
              itemId: r.itemId,
              regime,
              from: final.from,
              expr: { text: exprToSympy(final.expr), latex: exprToLatex(final.expr) },
              limit: null,
              series: null,
              note: `the final expression has neither ${r.large} nor ${r.small}`,
            });
            continue;
          }
          try {
            const res = await worker.limits({ expr: final.expr }, r.large, r.small, domain, { timeoutMs: this.opts.solveMs });
            const x = res.results[0];
            const note = [x.limitNote, x.seriesNote].filter(Boolean).join('; ');
            limits.push({
              itemId: r.itemId,
              regime,
              from: final.from,
              expr: value(x.expr),
              limit: x.limit ? value(x.limit) : null,
              series: x.series ? value(x.series) : null,
              ...(note ? { note } : {}),
            });
          } catch (e) {
            const u = unavailable();
            if (u) return u;
            limits.push({
              itemId: r.itemId,
              regime,
              from: final.from,
              expr: { text: exprToSympy(final.expr), latex: exprToLatex(final.expr) },
              limit: null,
              series: null,
              note: why(e),
            });
          }
        }
      }
    }

    const st = worker.status();
    return {
      state: 'ready',
      note: [`${st.message}. Evidence for you only: it never changes a mark.`, ...notes].join(' '),
      simplified,
      solved: solved.map((x) => x.s),
      limits,
    };
  }
}
