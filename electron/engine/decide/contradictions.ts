// Contradictions inside one reading (issue 11, item 2): two equations of a reader's list that can't
// both hold under the question's domain ("t = d/v" and "t = 2d/v" with d ≠ 0; "T + mg = X" and
// "T − mg = X" with m, g > 0) are a sign that the text was misread (a self-correction no phrase
// marked, a '±' for two situations, a symbol reused), so the reading loses its confidence: status
// 'needs-review', flag 'contradiction', a note naming the pair. The reading itself is never changed
// (student algebra errors are real and stay as written); only its status.
//
// Which pairs: "one quantity given two values", two equations with a side in common (the same
// expression up to the order of terms: "t = d/v" and "t = 2d/v"; "T + mg = X" and "T − mg = X"),
// each consistent on its own (one that isn't is flagged by marking already). A later step that
// merely doesn't follow from an earlier one ("v² − w² = uv", then a wrong quadratic formula) is
// student algebra, kept as written and not flagged: on the development set's gold lists the wider
// test (any pair whose conjunction has no admissible solution) flags 3 more correct readings, all
// of them algebra errors.
//
// Every flag is exact: the pair's other sides set equal (A ∧ B implies it) must be proved to have
// no admissible solution by Z3 (the engine's consistency check, behind its hard deadline), and
// proved again with every number written widened to the values its digits could be a rounding
// of (2.35 → (2.34, 2.36); 41 → (40.5, 41.5)): "t = 2.35" after "t = 2.3456" is rounding, not
// doubt. Anything sampled, undecided or unknown raises nothing.
//
// Not flagged, being normal in student work: the two equations of one '±'; two values of x that
// are both roots of another equation of the reading with x squared (or offered with "or" between
// them); an equation its sentence sets in a situation of its own ("when N = 0", "over a year this
// is m = …", after a label "t = 1 s:"), the question's parts asking for one quantity twice; a
// symbol of the common side written differently in the two places, or not written in
// one (t1 and t2 both read as t, "time S/(v + w)" read from words: convention 3); for a reading
// without spans (a model's), the text writing the variable in several forms, or as a side ("t =")
// fewer times than the reading has equations of it.
//
// Cost on correct readings: of the gold lists themselves (read as readings, no spans), none of the
// development set's 85 is flagged; of the fixtures', one held-out (a request to the marker to
// accept another answer) and one blind (a charge in mC beside one in C).
import { variableUnits } from '../../../shared/units/infer-unit.ts';
import { equationToSympy, parseEquation, substituteEquation, symbolsOf, type Equation, type Expr } from '../../../shared/equation/index.ts';
import { questionDomain, type Domain, type Question } from '../../../shared/exam.ts';
import { note, type ExtractedEquation, type Extraction } from '../../../shared/extraction.ts';
import type { Consistency, EntailmentEngine } from './entail/types.ts';
import { PROOF_METHODS } from '../../../shared/verdict.ts';
import { sameDimension } from '../../../shared/units/dimension.ts';
import { SYMBOL_REUSED_FLAG } from './symbol-reuse.ts';
import { asWritten, checksReader } from './reading-doubt.ts';

export const CONTRADICTION_FLAG = 'contradiction';

/**
 * What the check needs of the engine: exact (Z3) consistency, cached per equation and domain; and
 * entailment, where given, to find a pair that holds together only if two quantities are equal.
 */
export type ContradictionEngine = Pick<EntailmentEngine, 'consistent'> & Partial<Pick<EntailmentEngine, 'entails'>>;

/**
 * Two equations of a reading (indices into its `equations`) that can't both hold ('contradiction'),
 * or that hold together only if two quantities of the question are equal ('forced-equal': "p − p₀ =
 * ρgh" and "p − p₀ = ρ_w g h" need ρ = ρ_w: h written for the water's column h_w, or a slip taken
 * back in words no cue marked).
 */
export type Contradiction = { a: number; b: number; text: string; kind: 'contradiction' | 'forced-equal' };

/** Pairs of quantities tried per implied equation at most. */
const MAX_EQUAL_PAIRS = 6;

/**
 * Two distinct variables of the question, of one dimension (units from the exam or the
 * descriptions), that the equation forces equal, proved exactly under the domain; or null.
 */
async function forcedEqual(
  engine: ContradictionEngine,
  eq: Equation,
  consistency: Consistency,
  question: Question,
  domain: Domain,
): Promise<[string, string] | null> {
  if (!engine.entails) return null;
  if (consistency.satisfiable !== true) return null; // a solution found is a proved one (exact or a bracketed root)
  const units = variableUnits(question);
  const syms = symbolsOf(eq).filter((s) => units.has(s));
  let tried = 0;
  for (let i = 0; i < syms.length; i++) {
    for (let j = i + 1; j < syms.length; j++) {
      const [a, b] = [syms[i], syms[j]];
      if (!sameDimension(units.get(a)!.dimension, units.get(b)!.dimension)) continue;
      if (++tried > MAX_EQUAL_PAIRS) return null;
      const v = await engine.entails(eq, { lhs: { kind: 'sym', name: a }, rhs: { kind: 'sym', name: b } }, domain);
      if (v.holds === true && PROOF_METHODS.has(v.method)) return [a, b];
    }
  }
  return null;
}

/** Pairs with a side in common decided per reading at most (a response of 60 equations is not worth 1,770 checks). */
const MAX_PAIRS = 400;

// ------------------------------------------------------------------------------------------------
// Expressions

const isSym = (e: Expr, name?: string): e is Extract<Expr, { kind: 'sym' }> => e.kind === 'sym' && (name === undefined || e.name === name);

/** `x = e` (either way round) with x not in e: [x, e]; else null. */
function solvedForm(eq: Equation): [string, Expr] | null {
  if (isSym(eq.lhs) && !symbolsOf(eq.rhs).includes(eq.lhs.name)) return [eq.lhs.name, eq.rhs];
  if (isSym(eq.rhs) && !symbolsOf(eq.lhs).includes(eq.rhs.name)) return [eq.rhs.name, eq.lhs];
  return null;
}

/** A side up to the order of terms and factors (m*g + T is g*m + T). */
function sideKey(e: Expr): string {
  const terms = (x: Expr, sign: string, out: string[]): string[] => {
    if (x.kind === 'bin' && (x.op === '+' || x.op === '-')) {
      terms(x.left, sign, out);
      terms(x.right, x.op === '-' ? (sign === '-' ? '+' : '-') : sign, out);
    } else if (x.kind === 'neg') terms(x.arg, sign === '-' ? '+' : '-', out);
    else out.push(sign + sideKey(x));
    return out;
  };
  const factors = (x: Expr, out: string[]): string[] => {
    if (x.kind === 'bin' && x.op === '*') {
      factors(x.left, out);
      factors(x.right, out);
    } else out.push(sideKey(x));
    return out;
  };
  switch (e.kind) {
    case 'num':
      return e.text;
    case 'sym':
      return `$${e.name}`;
    case 'const':
      return e.name;
    case 'call':
      return `${e.fn}(${e.args.map(sideKey).join(',')})`;
    case 'neg':
      return `(${terms(e, '+', []).sort().join(' ')})`;
    case 'bin':
      if (e.op === '+' || e.op === '-') return `(${terms(e, '+', []).sort().join(' ')})`;
      if (e.op === '*') return `[${factors(e, []).sort().join('*')}]`;
      return `{${sideKey(e.left)}${e.op}${sideKey(e.right)}}`;
  }
}

/**
 * "One quantity given two values": A and B have a side in common (the same expression, canonically),
 * and the equation of their other sides, which A ∧ B implies. Null when they share no side.
 */
function twoValues(a: Equation, b: Equation): { common: Expr; implied: Equation } | null {
  const k = sideKey;
  const [al, ar, bl, br] = [k(a.lhs), k(a.rhs), k(b.lhs), k(b.rhs)];
  if (al === bl) return { common: a.lhs, implied: { lhs: a.rhs, rhs: b.rhs } };
  if (al === br) return { common: a.lhs, implied: { lhs: a.rhs, rhs: b.lhs } };
  if (ar === bl) return { common: a.rhs, implied: { lhs: a.lhs, rhs: b.rhs } };
  if (ar === br) return { common: a.rhs, implied: { lhs: a.lhs, rhs: b.lhs } };
  return null;
}

/** Whether x appears squared or to a higher whole power in the equation. */
function higherPowerOf(eq: Equation, x: string): boolean {
  const walk = (e: Expr): boolean => {
    switch (e.kind) {
      case 'bin':
        if (e.op === '**' && isSym(e.left, x) && e.right.kind === 'num' && /^\d+$/.test(e.right.text) && Number(e.right.text) >= 2) return true;
        if (e.op === '*' && isSym(e.left, x) && isSym(e.right, x)) return true;
        return walk(e.left) || walk(e.right);
      case 'neg':
        return walk(e.arg);
      case 'call':
        return e.args.some(walk);
      default:
        return false;
    }
  };
  return walk(eq.lhs) || walk(eq.rhs);
}

/**
 * Every number written (not an exponent, not the base of a power) replaced by an unknown that
 * ranges over the values its digits could round from, with one unit of the last digit either side
 * for a decimal (2.35 → (2.34, 2.36): truncation and rounding twice included) and half a unit for
 * a whole number (41 → (40.5, 41.5); 2 → (1.5, 2.5), so "t = a" and "t = 2a" still differ).
 */
function relaxNumbers(eqs: Equation[]): { eqs: Equation[]; extra: Domain['variables'] } {
  const extra: Domain['variables'] = [];
  const relax = (e: Expr): Expr => {
    switch (e.kind) {
      case 'num': {
        const m = /^(\d*)(?:\.(\d*))?$/.exec(e.text);
        const value = Number(e.text);
        if (!m || !Number.isFinite(value) || value === 0) return e;
        const decimals = (m[2] ?? '').length;
        const half = m[2] !== undefined ? 10 ** -decimals : 0.5;
        const name = `rounded~${extra.length}`;
        extra.push({ name, assumptions: [], range: [value - half, value + half] });
        return { kind: 'sym', name };
      }
      case 'neg':
        return { kind: 'neg', arg: relax(e.arg) };
      case 'bin':
        if (e.op === '**') return e; // exponents and the bases of powers (10**24) stay exact
        return { kind: 'bin', op: e.op, left: relax(e.left), right: relax(e.right) };
      case 'call':
        return { kind: 'call', fn: e.fn, args: e.args.map(relax) };
      default:
        return e;
    }
  };
  return { eqs: eqs.map((q) => ({ lhs: relax(q.lhs), rhs: relax(q.rhs) })), extra };
}

// ------------------------------------------------------------------------------------------------
// What the text says around the pair

const PLUS_MINUS = /±|∓|\+\s*\/\s*-|\+-|-\+|\\pm|\\mp/;

/** The two equations of one '±' (or '∓'): one span with a '±' in it, or sources differing only in signs. */
function onePlusMinus(a: ExtractedEquation, b: ExtractedEquation, text: string | undefined): boolean {
  if (a.span && b.span && text !== undefined && a.span.start === b.span.start && a.span.end === b.span.end)
    return PLUS_MINUS.test(text.slice(a.span.start, a.span.end));
  const unsigned = (s: string): string => s.replace(/[+\-\s]/g, '');
  return text !== undefined && PLUS_MINUS.test(text) && unsigned(a.source) === unsigned(b.source);
}

/** An equation read from a span with a '±' in it (a reading without spans: the text has one). */
const fromPlusMinus = (x: ExtractedEquation, text: string | undefined): boolean =>
  text !== undefined && PLUS_MINUS.test(x.span ? text.slice(x.span.start, x.span.end) : text);

/** "t = 0 or t = 2v sinθ/g": the words between two spans offer alternatives. */
function orBetween(a: ExtractedEquation, b: ExtractedEquation, text: string | undefined): boolean {
  if (!a.span || !b.span || text === undefined) return false;
  const [first, second] = a.span.start <= b.span.start ? [a.span, b.span] : [b.span, a.span];
  if (second.start < first.end) return false;
  return /\b(or|either)\b/i.test(text.slice(first.end, second.start));
}

/** A condition right before an equation ("when N = 0"), and a period its sentence names ("over a year … m = 1.17"). */
const CONDITION_BEFORE = /\b(?:when|if|once|until|whenever)\s+(?:[A-Za-z']+\s+){0,3}$/i;
const PERIOD = /\b(?:per|each|every|over\s+(?:a|one|the)|in\s+(?:a|one))\s+(?:second|minute|hour|day|week|month|year)s?\b/gi;

/**
 * The situation its sentence sets an equation in, or null: a condition right before it ("Leaves
 * the road when N = 0"), a period ("Over a year this is m = 1.17 kg"), a label before it ("t = 1 s:
 * m = …"), or itself a situation's label (followed by a colon, "t = 1 s:").
 */
function situationOf(x: ExtractedEquation, text: string | undefined): string | null {
  if (!x.span || text === undefined) return null;
  const upTo = text.slice(0, x.span.start);
  const from = Math.max(upTo.lastIndexOf('\n'), upTo.search(/[.!?]\s[^.!?]*$/)) + 1;
  const before = upTo.slice(from);
  if (CONDITION_BEFORE.test(before)) return 'condition';
  if (/^[^=\n.]{0,20}:/.test(text.slice(x.span.end, x.span.end + 25))) return `label ${text.slice(x.span.start, x.span.end)}`;
  const label = /([^=\n]*=[^=\n]*):\s*$/.exec(before);
  if (label) return `after ${label[1].trim()}`;
  // (The nearest period before it: "each second … so m = …; over a year m = …".)
  const period = [...before.matchAll(PERIOD)].at(-1);
  return period ? `period ${period[0].toLowerCase()}` : null;
}

/**
 * "Leaves the road when N = 0", "t = 1 s: m = … / t = 3.16 × 10⁷ s: m = …", "each second … m = …
 * / over a year … m = …": a condition set on one of the pair, or two different situations, give
 * the quantity a value in each, not two values of one: the question's parts, not a misreading.
 * One equation after a label and the other after none stay a pair ("Terminal when a = 0: v_t =
 * √(−…) which is impossible … v_t = √(…)" revises v_t in one situation).
 */
function inSituations(a: ExtractedEquation, b: ExtractedEquation, text: string | undefined): boolean {
  const sa = situationOf(a, text);
  const sb = situationOf(b, text);
  return sa === 'condition' || sb === 'condition' || (sa !== null && sb !== null && sa !== sb);
}

/** How a variable's letter is decorated where it is written in a span (t1, t_2, t₁ → '1', '2'; plain t → ''). */
function writtenForms(span: string, variable: string): Set<string> {
  const out = new Set<string>();
  const base = variable.replace(/_.*$/, '');
  if (!/^[A-Za-z]$/.test(base)) return out;
  const re = new RegExp(`(?<![A-Za-z0-9_])${base}(?:_?\\{?(\\d+)\\}?|([₀-₉]+))?(?![A-Za-z])`, 'gi');
  for (const m of span.matchAll(re)) out.add(m[1] ?? m[2] ?? '');
  return out;
}

/**
 * A symbol of the common side is written differently in the two places (t1 and t2, both read as
 * t) or not written in one of them (read from words: "Going: time S/(v + w)", "Returning: time
 * S/(v − w)"): the reader's mapping put two quantities on one variable (convention 3), not the student.
 */
function notWrittenAlike(a: ExtractedEquation, b: ExtractedEquation, shared: string[], text: string | undefined, all: readonly ExtractedEquation[]): boolean {
  if (text === undefined) return false;
  if (!a.span || !b.span) return shared.some((v) => mappedInText(text, v, all));
  const sa = text.slice(a.span.start, a.span.end);
  const sb = text.slice(b.span.start, b.span.end);
  return shared.some((v) => {
    const fa = writtenForms(sa, v);
    const fb = writtenForms(sb, v);
    return fa.size === 0 || fb.size === 0 || [...fa].every((f) => !fb.has(f));
  });
}

/**
 * The same for a reading without spans (a model's): the text writes the variable in more than
 * one form (t1, t2), or writes it as a side ("t =") fewer times than the reading has equations
 * with it alone on a side, so some of them were read from words.
 */
function mappedInText(text: string, v: string, all: readonly ExtractedEquation[]): boolean {
  if (writtenForms(text, v).size > 1) return true;
  const base = v.replace(/_.*$/, '');
  if (!/^[A-Za-z]$/.test(base)) return false;
  const written = text.match(new RegExp(`(?<![A-Za-z0-9_])${base}(?:_?\\{?\\d+\\}?|[₀-₉]+)?\\s*=|=\\s*${base}(?![A-Za-z0-9_(])`, 'g'))?.length ?? 0;
  const read = all.filter((e) => e.source.startsWith(`Eq(${v}, `) || e.source.endsWith(`, ${v})`)).length;
  return written < read;
}

// ------------------------------------------------------------------------------------------------

/** No admissible assignment satisfies it, proved by Z3 (a sampled or unknown answer is not a proof). */
const impossible = (c: Consistency): boolean => c.satisfiable === false && c.method === 'z3';

/** The same, asked of the engine. */
async function provedImpossible(engine: ContradictionEngine, eq: Equation, domain: Domain): Promise<boolean> {
  return impossible(await engine.consistent(eq, domain));
}

/**
 * The first pair of equations of the reading that can't both hold under the question's domain,
 * for reasons rounding doesn't explain, or null. `text` is the response (for spans and the words
 * between equations); without it only the equations are looked at.
 */
export async function findContradiction(
  engine: ContradictionEngine,
  question: Question,
  equations: readonly ExtractedEquation[],
  text?: string,
): Promise<Contradiction | null> {
  const domain = questionDomain(question);
  const variables = question.variables.map((v) => v.name);
  const parsed: Parsed[] = [];
  for (let i = 0; i < equations.length; i++) {
    const p = parseEquation(equations[i].source, { variables });
    if (!p.ok) continue;
    const syms = symbolsOf(p.value);
    if (syms.length === 0) continue;
    // An equation with no admissible solution of its own is marking's business (it earns nothing, flagged).
    if ((await engine.consistent(p.value, domain)).satisfiable === false) continue;
    parsed.push({ i, eq: p.value, syms: new Set(syms), key: equationToSympy(p.value) });
  }
  // A chain "E = A = B" says E = B too: its ends are compared with the other equations as its
  // links are ("E = A = B₁₆" then, after a slip is noticed, "E = B₃₂"). Implied by the reading, so
  // exact as the links are; named by the chain's last link.
  for (const chainEnd of chainEnds(parsed)) parsed.push(chainEnd);
  let pairs = 0;
  for (let j = 1; j < parsed.length; j++) {
    for (let k = 0; k < j; k++) {
      const A = parsed[k];
      const B = parsed[j];
      if (A.key === B.key || ![...A.syms].some((s) => B.syms.has(s))) continue;
      const xa = equations[A.i];
      const xb = equations[B.i];
      const two = twoValues(A.eq, B.eq);
      if (!two) continue; // a later step inconsistent with an earlier one is student algebra, kept as written
      if (++pairs > MAX_PAIRS) return null;
      if (onePlusMinus(xa, xb, text) || notWrittenAlike(xa, xb, symbolsOf(two.common), text, equations)) continue;
      if (inSituations(xa, xb, text)) continue;
      const implied = await engine.consistent(two.implied, domain);
      if (!impossible(implied)) {
        // Not where one of the pair is a '±' branch (the other sign is often rejected in words),
        // nor two links of one chain (the equality is the chain's own: "v = (u + √u²)/2 = u"),
        // nor where the pair can't hold at all (then every equality follows, vacuously).
        if (fromPlusMinus(xa, text) || fromPlusMinus(xb, text) || sameChain(A, B)) continue;
        const equal = await forcedEqual(engine, two.implied, implied, question, domain);
        if (!equal) continue;
        const [P, Q] = A.i <= B.i ? [A, B] : [B, A];
        return {
          a: P.i,
          b: Q.i,
          kind: 'forced-equal',
          text: `${JSON.stringify(asWritten(equations[P.i], text))} and ${JSON.stringify(asWritten(equations[Q.i], text))} hold together only if ${equal[0]} = ${equal[1]} (proved exactly), two quantities of the question: one symbol may stand for the other's quantity, or one of them was taken back`,
        };
      }
      const relaxed = relaxNumbers([two.implied]);
      if (relaxed.extra.length) {
        const wider: Domain = { variables: [...domain.variables, ...relaxed.extra] };
        if (!(await provedImpossible(engine, relaxed.eqs[0], wider))) continue;
      }
      if (await bothRoots(engine, A.eq, B.eq, parsed, domain, xa, xb, text)) continue;
      // In the order written (a chain's ends come after every equation read).
      const [P, Q] = A.i <= B.i ? [A, B] : [B, A];
      return {
        a: P.i,
        b: Q.i,
        kind: 'contradiction',
        text: `${JSON.stringify(asWritten(equations[P.i], text))} and ${JSON.stringify(asWritten(equations[Q.i], text))} can't both hold under the question's assumptions (${P.key} and ${Q.key}: no admissible values satisfy both, proved exactly, rounding of the numbers written allowed for); one of them may be misread, a correction, or another situation`,
      };
    }
  }
  return null;
}

/** An equation of the reading (`i`), or a chain's ends (`links`: the first and last link's indices). */
type Parsed = { i: number; eq: Equation; syms: Set<string>; key: string; links?: [number, number] };

/** Links of one chain, or a chain's ends and one of its links: what the pair implies the chain itself says. */
function sameChain(A: Parsed, B: Parsed): boolean {
  const range = (p: Parsed): [number, number] => p.links ?? [p.i, p.i];
  const [a0, a1] = range(A);
  const [b0, b1] = range(B);
  if (A.links || B.links) return a0 <= b1 && b0 <= a1;
  return Math.abs(A.i - B.i) === 1 && (sideKey(A.eq.rhs) === sideKey(B.eq.lhs) || sideKey(B.eq.rhs) === sideKey(A.eq.lhs));
}

/** For each chain of two links or more in `parsed` (consecutive, the left side of one the right of the one before), its ends as an equation. */
function chainEnds(parsed: readonly Parsed[]): Parsed[] {
  const out: Parsed[] = [];
  let start = 0;
  for (let j = 1; j <= parsed.length; j++) {
    const links = j < parsed.length && parsed[j].i === parsed[j - 1].i + 1 && sideKey(parsed[j].eq.lhs) === sideKey(parsed[j - 1].eq.rhs);
    if (links) continue;
    if (j - start >= 2) {
      const eq: Equation = { lhs: parsed[start].eq.lhs, rhs: parsed[j - 1].eq.rhs };
      const syms = symbolsOf(eq);
      if (syms.length) out.push({ i: parsed[j - 1].i, eq, syms: new Set(syms), key: equationToSympy(eq), links: [parsed[start].i, parsed[j - 1].i] });
    }
    start = j;
  }
  return out;
}

/** x = e1 and x = e2 that are both roots of another equation of the reading with x squared, or offered with "or". */
async function bothRoots(
  engine: ContradictionEngine,
  a: Equation,
  b: Equation,
  all: readonly { eq: Equation }[],
  domain: Domain,
  xa: ExtractedEquation,
  xb: ExtractedEquation,
  text: string | undefined,
): Promise<boolean> {
  const sa = solvedForm(a);
  const sb = solvedForm(b);
  if (!sa || !sb || sa[0] !== sb[0]) return false;
  if (orBetween(xa, xb, text)) return true;
  const x = sa[0];
  for (const { eq } of all) {
    if (eq === a || eq === b || !higherPowerOf(eq, x)) continue;
    const ra = await engine.consistent(substituteEquation(eq, x, sa[1]), domain);
    if (ra.satisfiable === false) continue;
    const rb = await engine.consistent(substituteEquation(eq, x, sb[1]), domain);
    if (rb.satisfiable !== false) return true;
  }
  return false;
}

/**
 * A reading with its confidence lowered when two of its equations contradict each other: status
 * 'needs-review', flag 'contradiction', a 'contradiction' note naming the pair; the equations are
 * kept exactly as read. Returns the reading itself when there is nothing to say (nothing read, a
 * reader not checked, already flagged, no contradiction).
 */
export async function withContradictionCheck(engine: ContradictionEngine, question: Question, x: Extraction, text?: string): Promise<Extraction> {
  if (!checksReader(x) || x.equations.length < 2 || x.flags.includes(CONTRADICTION_FLAG)) return x;
  if (x.status === 'blank' || x.status === 'abstained') return x;
  const c = await findContradiction(engine, question, x.equations, text);
  if (!c) return x;
  if (c.kind === 'forced-equal') {
    // One symbol for two quantities, which the pair shows (symbol-reuse.ts shows it by dimensions).
    if (x.flags.includes(SYMBOL_REUSED_FLAG)) return x;
    return {
      ...x,
      status: x.status === 'read' ? 'needs-review' : x.status,
      flags: [...x.flags, SYMBOL_REUSED_FLAG],
      notes: [...x.notes, note('symbol-reused', c.text)],
    };
  }
  return { ...x, status: 'needs-review', flags: [...x.flags, CONTRADICTION_FLAG], notes: [...x.notes, note('contradiction', c.text)] };
}
