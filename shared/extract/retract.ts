// Retractions in words: the lines and sentences the student took back ("ignore that line", "scratch
// that") are blanked before anything is read, each noted. The phrases are shared/text/retractions.ts. Pure.

import { LINE_RETRACTION, RETRACTION } from '../text/retractions.ts';
import type { Ctx } from './context.ts';
import { note } from '../extraction.ts';

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
    const back = h.slice(1).some((g) => g !== undefined);
    const [a, e] = s.lineAt(at);
    let range: [number, number] | null = null;
    const mathAfter = looksMath(s.slice(end, e));
    if (!back && looksMath(s.slice(a, at))) {
      // The line holding the phrase: all of it, unless maths follows the phrase on it.
      range = mathAfter ? [a, end] : [a, e];
    } else if (!back && mathAfter) {
      range = [end, e]; // "Ignore this line: v = 2": the maths after it on its line
    } else {
      // The line before (the phrase's own words before it are prose, blanked with it below).
      for (let j = a - 1; j > 0; ) {
        const [pa, pe] = s.lineAt(j);
        if (!s.empty(pa, pe)) {
          range = [pa, pe];
          break;
        }
        j = pa - 1;
      }
    }
    if (range && !s.empty(range[0], range[1])) {
      ctx.notes.push(note('retraction', `retracted by the student ("${h[0]}"), not recorded: ${JSON.stringify(s.slice(range[0], range[1]).trim().slice(0, 120))}`));
      s.blank(range[0], range[1]);
    }
    s.blank(at, end);
  }
  return s.toString();
}

/** Blank what the student retracted in words; returns the new text. */
export function applyRetractions(text: string, ctx: Ctx): string {
  const lines = applyLineRetractions(text, ctx);
  const hits = [...lines.matchAll(RETRACTION)];
  if (hits.length === 0) return lines;
  const s = new Blankable(lines);
  for (const h of hits) {
    const at = h.index!;
    const sStart = s.sentenceStart(at);
    let range: [number, number] | null = null;
    if (/above/i.test(h[0])) range = [0, sStart];
    else if (looksMath(s.slice(sStart, at))) range = [sStart, at];
    else {
      // The previous non-empty sentence.
      for (let b = sStart; b > 0; ) {
        const a = s.sentenceStart(b - 1);
        if (!s.empty(a, b)) {
          range = [a, b];
          break;
        }
        b = a;
      }
    }
    if (range && range[1] > range[0] && !s.empty(range[0], range[1])) {
      ctx.notes.push(note('retraction', `retracted by the student ("${h[0]}"), not recorded: ${JSON.stringify(s.slice(range[0], range[1]).trim().slice(0, 120))}`));
      s.blank(range[0], range[1]);
    }
  }
  return s.toString();
}
