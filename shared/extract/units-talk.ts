// Talk about units, not about the question's quantities: "Check units: mgh is in J, k is in N/m,
// so J/(N/m) = m²". Gold records equations of the question's variables (convention 1), and units
// are dropped (convention 2), so neither of these is an equation:
//   - unit arithmetic: a maths run made only of unit symbols and numbers (J/(N/m) = m², N/m, kg m/s²)
//     with at least one symbol that is not a variable of the question, in a sentence that speaks of
//     units or dimensions, or right after "in" or "of" ("k is in N/m", "units of J/kg");
//   - a unit stated for a quantity: maths followed by "is in" / "are in" / "has units" ("mgh is in J").
// Anything else made of unit letters ("N = mg" for a normal force) is left to the reader's usual
// rules (an unmapped symbol is a doubt, never dropped unseen). Pure.

import { UNIT_WORDS } from './lexicon.ts';
import type { Ctx } from './context.ts';
import type { Tok } from './tokens.ts';

const UNITS_WORD = /^(units?|dimensions?|dimensionally|dimensional|SI)$/i;
const BEFORE_UNIT = /^(in|of)$/i;
const HAS = /^(is|are|has|have)$/i;
const UNIT_NOUN = /^(in|units?|dimensions?)$/i;

const endsSentence = (x: Tok): boolean => x.kind === 'nl' || (x.kind === 'punct' && /^[.;!?]$/.test(x.text));

/** Whether a symbol as written is a unit (`J`, `kg` even when the question reads it as k·g). */
const isUnitSymbol = (x: Tok): boolean => (x.kind === 'usym' || x.kind === 'id') && UNIT_WORDS.has(x.text);

/** Whether some word of the sentence holding tokens [i0, i1) speaks of units or dimensions. */
function sentenceSpeaksOfUnits(toks: Tok[], i0: number, i1: number): boolean {
  for (let k = i0 - 1; k >= 0 && !endsSentence(toks[k]); k--) if (toks[k].kind === 'word' && UNITS_WORD.test(toks[k].text)) return true;
  for (let k = i1; k < toks.length && !endsSentence(toks[k]); k++) if (toks[k].kind === 'word' && UNITS_WORD.test(toks[k].text)) return true;
  return false;
}

/**
 * Why the maths run `t` (tokens [i0, i1) of `toks`) is talk about units, or null. `i0` is the
 * index of the run's first token.
 */
export function unitsTalk(ctx: Ctx, toks: Tok[], i0: number, i1: number, t: Tok[]): string | null {
  const after = toks[i1];
  const then = toks[i1 + 1];
  if (after?.kind === 'word' && HAS.test(after.text) && then?.kind === 'word' && UNIT_NOUN.test(then.text))
    return `its unit is stated ("${after.text} ${then.text}")`;
  const symbols = t.filter((x) => x.kind === 'id' || x.kind === 'usym');
  if (symbols.length === 0) return null;
  if (!t.every((x) => isUnitSymbol(x) || ['num', 'op', 'lp', 'rp', 'eq'].includes(x.kind))) return null;
  if (symbols.every((x) => ctx.lex.variables.includes(x.text))) return null; // all the question's own letters: maths, not units
  const before = toks[i0 - 1];
  if (before?.kind === 'word' && BEFORE_UNIT.test(before.text)) return `a unit, after "${before.text}"`;
  if (sentenceSpeaksOfUnits(toks, i0, i1)) return 'unit arithmetic in a sentence about units';
  return null;
}
