// Retractions in words: the lines and sentences the student took back ("ignore that line", "scratch
// that") are blanked before anything is read, each noted. Self-corrections ("no wait, ...: t = 2d/v",
// "oops, I mean ...") are settled after reading, on the equations read (applyCorrections): the
// earlier equation is dropped when the revision restates its left side, otherwise the response
// needs review. Nothing inside text addressed to the marker is obeyed (ctx.markerRanges). The
// phrases are shared/text/retractions.ts. Pure.

import { exprToSympy, parseEquation, symbolsOf } from '../equation/index.ts';
import { ATTEMPT_FIRST, CORRECTION, FORGOT_CORRECTION, LINE_RETRACTION, RETRACTION, WEAK_CORRECTION, mentionsRetraction } from '../text/retractions.ts';
import { sentences } from '../text/marker.ts';
import type { Ctx } from './context.ts';
import { note, type ExtractedEquation } from '../extraction.ts';

/** Whether offset at lies in text addressed to the marker (an instruction there is not obeyed). */
const inMarkerText = (ctx: Ctx, at: number): boolean => ctx.markerRanges.some(([a, b]) => at >= a && at < b);

/**
 * The text being blanked, as UTF-16 code units changed in place (blanking a range costs its length,
 * not the text's), with what the retraction rules ask of it.
 */
class Blankable {
  private readonly c: string[];
  constructor(s: string) {
    this.c = s.split('');
  }
  get length(): number {
    return this.c.length;
  }
  slice(a: number, b: number): string {
    return this.c.slice(a, b).join('');
  }
  /** Blank [a, b) but keep its line breaks. */
  blank(a: number, b: number): void {
    for (let k = Math.max(0, a); k < Math.min(b, this.c.length); k++) if (this.c[k] !== '\n') this.c[k] = ' ';
  }
  /** Whether [a, b) holds nothing but whitespace. */
  empty(a: number, b: number): boolean {
    for (let k = a; k < b; k++) if (!/\s/.test(this.c[k])) return false;
    return true;
  }
  /** Whether a sentence starts at p: the text's start, after a line break, or after . ! ? and whitespace (not decimal points). */
  startsSentence(p: number): boolean {
    if (p === 0) return true;
    const before = this.c[p - 1];
    return before === '\n' || ((before === '.' || before === '!' || before === '?') && p < this.c.length && /\s/.test(this.c[p]));
  }
  /** The start of the sentence holding at (the last start at or before it). */
  sentenceStart(at: number): number {
    let p = Math.min(at, this.c.length);
    while (p > 0 && !this.startsSentence(p)) p--;
    return p;
  }
  /** The [start, end) of the line holding offset at (end before the newline). */
  lineAt(at: number): [number, number] {
    let a = Math.min(at, this.c.length);
    while (a > 0 && this.c[a - 1] !== '\n') a--;
    let e = at;
    while (e < this.c.length && this.c[e] !== '\n') e++;
    return [a, e];
  }
  toString(): string {
    return this.c.join('');
  }
}

const looksMath = (s: string): boolean => /=|[+\-*/^√²]\s*\w|\d/.test(s);

/** Blank the lines the student retracted in words ("ignore that line"); returns the new text. */
function applyLineRetractions(text: string, ctx: Ctx): string {
  LINE_RETRACTION.lastIndex = 0;
  const any = LINE_RETRACTION.test(text);
  LINE_RETRACTION.lastIndex = 0; // matchAll starts where the last match left it
  if (!any) return text;
  const s = new Blankable(text);
  for (const h of text.matchAll(LINE_RETRACTION)) {
    const at = h.index!;
    const end = at + h[0].length;
    if (inMarkerText(ctx, at)) continue;
    // Group 2 is the "that" of "ignore that line": back to the line before, unless the phrase
    // follows maths on its own line ("u = kB/m (oops, ignore that line)"), which it then takes back.
    const that = h[2] !== undefined;
    const back = h.slice(1).some((g, j) => j !== 1 && g !== undefined);
    const [a, e] = s.lineAt(at);
    let range: [number, number] | null = null;
    const mathAfter = looksMath(s.slice(end, e));
    if (!back && looksMath(s.slice(a, at))) {
      // The line holding the phrase: all of it, unless maths follows the phrase on it.
      range = mathAfter ? [a, end] : [a, e];
    } else if (!back && !that && mathAfter) {
      range = [end, e]; // "Ignore this line: v = 2": the maths after it on its line
    } else {
      // The line before (the phrase's own words before it are prose, blanked with it below).
      for (let j = a - 1; j > 0;) {
        const [pa, pe] = s.lineAt(j);
        if (!s.empty(pa, pe)) {
          range = [pa, pe];
          break;
        }
        j = pa - 1;
      }
    }
    if (range && !s.empty(range[0], range[1])) {
      ctx.notes.push(
        note('retraction', `retracted by the student ("${h[0]}"), not recorded: ${JSON.stringify(s.slice(range[0], range[1]).trim().slice(0, 120))}`),
      );
      s.blank(range[0], range[1]);
    }
    s.blank(at, end);
  }
  return s.toString();
}

/** Blank what the student retracted in words; returns the new text. */
export function applyRetractions(text: string, ctx: Ctx): string {
  const lines = applyLineRetractions(text, ctx);
  const hits = [...lines.matchAll(RETRACTION)].filter((h) => !inMarkerText(ctx, h.index!));
  if (hits.length === 0) return lines;
  const s = new Blankable(lines);
  for (const h of hits) {
    const at = h.index!;
    const sStart = s.sentenceStart(at);
    let range: [number, number] | null = null;
    if (/above/i.test(h[0])) range = [0, sStart];
    // ("^ wrong way round, delete that": a caret pointing up at the line above is no maths.)
    else if (looksMath(s.slice(sStart, at).replace(/^\s*\^+\s/, ''))) range = [sStart, at];
    else {
      // The previous non-empty sentence.
      for (let b = sStart; b > 0;) {
        const a = s.sentenceStart(b - 1);
        if (!s.empty(a, b)) {
          range = [a, b];
          break;
        }
        b = a;
      }
    }
    if (range && range[1] > range[0] && !s.empty(range[0], range[1])) {
      ctx.notes.push(
        note('retraction', `retracted by the student ("${h[0]}"), not recorded: ${JSON.stringify(s.slice(range[0], range[1]).trim().slice(0, 120))}`),
      );
      s.blank(range[0], range[1]);
    }
  }
  return s.toString();
}

/** A statement's value where it gives its left side a plain number ("T = 70"), as written; else null. */
function writtenValue(st: Statement): string | null {
  return st.equations.length === 1 ? (/^Eq\([^,]+, (-?\d+(?:\.\d+)?)\)$/.exec(st.equations[0].source)?.[1] ?? null) : null;
}

/** Whether `later` gives the same number as `earlier` to the places `earlier` was written to (70, then 70.1). */
function sameValueRounded(earlier: Statement, later: Statement): boolean {
  const a = writtenValue(earlier);
  const b = writtenValue(later);
  if (a === null || b === null || a === b) return false;
  const places = (x: string): number => x.split('.')[1]?.length ?? 0;
  const coarse = places(a) <= places(b) ? a : b;
  return Math.abs(Number(a) - Number(b)) <= 0.5 * 10 ** -places(coarse) + 1e-12;
}

/** How many sentences after a strong correction cue its revision may come in. */
const REVISION_SENTENCES = 2;

type Statement = { span: { start: number; end: number }; equations: ExtractedEquation[]; lhs: string | null; symbols: string[] };

/** The equations read, grouped by the statement (one span: a chain) they came from, in text order. */
function statements(ctx: Ctx): Statement[] {
  const bySpan = new Map<string, Statement>();
  for (const e of ctx.equations) {
    if (!e.span) continue;
    const key = `${e.span.start}:${e.span.end}`;
    let st = bySpan.get(key);
    if (!st) {
      const p = parseEquation(e.source, { variables: ctx.lex.variables });
      st = { span: e.span, equations: [], lhs: p.ok ? exprToSympy(p.value.lhs) : null, symbols: p.ok ? symbolsOf(p.value) : [] };
      bySpan.set(key, st);
    }
    st.equations.push(e);
  }
  return [...bySpan.values()].sort((a, b) => a.span.start - b.span.start);
}

/**
 * Self-corrections: for each sentence with a correction cue (outside text addressed to the marker,
 * and not already a retraction), the statements that may be revised are the maths before the cue in
 * its sentence, else in the sentence before; the revision is an equation after the cue in its
 * sentence (after a strong cue, or in the next REVISION_SENTENCES sentences) restating the same left
 * side. When exactly one earlier statement is so restated, it is dropped (noted); when a strong cue
 * leaves the target unclear, the response needs review (noted); a weak cue ("actually") with no
 * restatement after it is ordinary prose.
 */
export function applyCorrections(ctx: Ctx): void {
  const text = ctx.original;
  if (!CORRECTION.test(text) && !WEAK_CORRECTION.test(text) && !FORGOT_CORRECTION.test(text)) return;
  const sents = sentences(text);
  const dropped = new Set<ExtractedEquation>();
  // The statements read, by the sentence they start in (both are in text order).
  const bySentence: Statement[][] = sents.map(() => []);
  let k = 0;
  for (const st of statements(ctx)) {
    while (k + 1 < sents.length && sents[k + 1].start <= st.span.start) k++;
    bySentence[k].push(st);
  }
  const live = (j: number): Statement[] => bySentence[j].filter((st) => !dropped.has(st.equations[0]));
  for (let i = 0; i < sents.length; i++) {
    const s = sents[i];
    const body = text.slice(s.start, s.end);
    const strong = CORRECTION.exec(body);
    // "hmm forgot the half" then "F = mu²/(2d)": a forgotten piece revises where a later statement
    // restates a left side from before it; "forgot to say, g = 9.8" revises nothing.
    // (Not beside a line struck through, "~~p2 = …~~ (forgot kelvin)", which it only explains.)
    const forgotAt = strong || body.includes('~~') ? null : FORGOT_CORRECTION.exec(body);
    const weak = strong ? null : WEAK_CORRECTION.exec(body);
    const forgot = forgotAt && (!weak || forgotAt.index < weak.index) ? forgotAt : null;
    const cue = strong ?? forgot ?? weak;
    if (!cue || inMarkerText(ctx, s.start + cue.index) || mentionsRetraction(body)) continue;
    const cueAt = s.start + cue.index;
    const cueEnd = cueAt + cue[0].length;
    let before = live(i).filter((st) => st.span.end <= cueAt);
    // "I first had V = A but … it must be V = B": the attempt follows the cue; a later statement of
    // the same left side revises it (dropped, noted); with none, which one stands is unclear.
    if (before.length === 0 && strong && ATTEMPT_FIRST.test(cue[0])) {
      const following: Statement[] = [];
      for (let j = i; j <= Math.min(i + REVISION_SENTENCES, sents.length - 1); j++) following.push(...live(j).filter((st) => st.span.start >= cueEnd));
      const attempt = following[0];
      const revision = attempt && attempt.lhs !== null ? following.slice(1).find((a) => a.lhs === attempt.lhs) : undefined;
      if (attempt && revision && attempt.equations.length === 1) {
        for (const e of attempt.equations) dropped.add(e);
        ctx.notes.push(
          note(
            'retraction',
            `an earlier attempt named by the student (${JSON.stringify(cue[0].trim())}), not recorded: ${JSON.stringify(text.slice(attempt.span.start, attempt.span.end).trim().slice(0, 120))}, revised by ${JSON.stringify(text.slice(revision.span.start, revision.span.end).trim().slice(0, 120))}`,
          ),
        );
      } else if (attempt) {
        ctx.needsReview = true;
        ctx.notes.push(
          note(
            'correction',
            `the student names an earlier attempt (${JSON.stringify(cue[0].trim())}) but which equation stands is unclear; all kept as written`,
          ),
        );
      }
      continue;
    }
    // Else the last sentence with maths before it, up to REVISION_SENTENCES back ("v = ±√(…)
    // / with the numbers this is negative?? / so I must have a sign wrong. Should be v = √(…)").
    // Reached that way, the cue revises only where a later statement restates one of its left sides
    // ("Hmm, it got smaller? That can't be right but I can't see the mistake." doubts, revises nothing).
    let reachedBack = false;
    for (let j = i - 1; before.length === 0 && j >= Math.max(0, i - 1 - REVISION_SENTENCES); j--) {
      before = live(j).filter((st) => st.span.end <= sents[j].end);
      reachedBack = j < i - 1;
    }
    if (before.length === 0) continue; // nothing read before it to revise
    // The revision: what follows the cue in its sentence; after a strong cue, also what the next
    // sentences say (a correction may take a step of working before it restates the quantity).
    const last = strong || forgot ? Math.min(i + REVISION_SENTENCES, sents.length - 1) : i;
    const after: Statement[] = [];
    for (let j = i; j <= last; j++) after.push(...live(j).filter((st) => st.span.start >= cueEnd));
    const targets = before.filter((st) => st.lhs !== null && after.some((a) => a.lhs === st.lhs));
    if (reachedBack && targets.length === 0) continue;
    const said = JSON.stringify(cue[0].trim());
    // A chain ("U = ½CV² = ε₀AV/(2d)", then "it should read U = ε₀AV²/(2d)") revised by one
    // equation: which of its links was wrong is not said, so the target is unclear.
    if (targets.length === 1 && targets[0].equations.length === 1) {
      const t = targets[0];
      const revision = after.find((a) => a.lhs === t.lhs)!;
      // "T = 70 … wait, should T be in kelvin? no, … T = 70.1 °C": the same value to the rounding
      // it was first written with is a restatement, not a revision: both stand, nothing to doubt.
      if (sameValueRounded(t, revision)) continue;
      // "u = √(2p/p)?? sorry the second p is rho. u = √(2 × 735/1.2)": the revision gives the
      // quantity in numbers only, so what the corrected formula is (said in words) is not
      // written: nothing is taken back, and which reading stands is the marker's call. (Unless
      // something between them was left unread: "E = mc² oops no … E = mcΔT" with ΔT unread, then
      // "E = 150 × 800 × 420": the corrected formula is there, as a doubt of its own.)
      const noFormula = (st: Statement): boolean => st.symbols.every((x) => x === st.lhs);
      const unreadBetween = ctx.unread.some((u) => u.span.start >= cueEnd && u.span.start < revision.span.start);
      if (!noFormula(t) && noFormula(revision) && !unreadBetween) {
        ctx.needsReview = true;
        ctx.notes.push(
          note(
            'correction',
            `the student corrects ${JSON.stringify(text.slice(t.span.start, t.span.end).trim().slice(0, 80))} (${said}) but restates it only in numbers: the corrected formula is not written; all kept as written`,
          ),
        );
        continue;
      }
      for (const e of t.equations) dropped.add(e);
      const was = text.slice(t.span.start, t.span.end).trim().slice(0, 120);
      ctx.notes.push(
        note(
          'retraction',
          `corrected by the student (${said}), not recorded: ${JSON.stringify(was)}, revised by ${JSON.stringify(text.slice(revision.span.start, revision.span.end).trim().slice(0, 120))}`,
        ),
      );
      // "v² = 2gh so v = √(2gh)... no wait, h is the height, the depth is d": the working beside
      // the revised equation, on the same symbols and not restated, may be taken back with it.
      const beside = strong ? before.filter((st) => st !== t && st.symbols.some((x) => t.symbols.includes(x)) && !after.some((a) => a.lhs === st.lhs)) : [];
      // "Φ = BA sin ωt / ε = NBAω cos ωt / wait, it should be cos: Φ = BA cos ωt, ε = NBAω sin ωt":
      // the revision restates a quantity of an earlier sentence too, which the cue may also take back.
      const earlier: Statement[] = [];
      for (let j = 0; j < i; j++) earlier.push(...live(j).filter((st) => st.span.end <= cueAt && st !== t && !before.includes(st)));
      // (Restated with the same symbols, "BA sin ωt" then "BA cos ωt", is a revision; with others,
      // "x = FL/(AE)" then "x = 4mgL/(πd²E)", the working goes on from the corrected step.)
      const sameSymbols = (a: Statement, b: Statement): boolean => a.symbols.length === b.symbols.length && a.symbols.every((x) => b.symbols.includes(x));
      const restated = strong ? earlier.filter((st) => st.lhs !== null && st.lhs !== t.lhs && after.some((a) => a.lhs === st.lhs && sameSymbols(a, st))) : [];
      if (restated.length) {
        ctx.needsReview = true;
        ctx.notes.push(
          note(
            'correction',
            `the correction (${said}) restates more than ${JSON.stringify(was)}: kept as written, ${restated.map((st) => JSON.stringify(text.slice(st.span.start, st.span.end).trim().slice(0, 80))).join(', ')}`,
          ),
        );
      }
      if (beside.length) {
        ctx.needsReview = true;
        ctx.notes.push(
          note(
            'correction',
            `the correction (${said}) may take back more than ${JSON.stringify(was)}: kept as written, ${beside.map((st) => JSON.stringify(text.slice(st.span.start, st.span.end).trim().slice(0, 80))).join(', ')}`,
          ),
        );
      }
    } else if (strong || (forgot && targets.length > 0)) {
      ctx.needsReview = true;
      const about = before.map((st) => text.slice(st.span.start, st.span.end).trim().slice(0, 80));
      ctx.notes.push(
        note(
          'correction',
          `the student corrects something (${said}) but which equation it replaces is unclear; all kept as written: ${about.map((a) => JSON.stringify(a)).join(', ')}`,
        ),
      );
    }
  }
  if (dropped.size) ctx.equations = ctx.equations.filter((e) => !dropped.has(e));
}
