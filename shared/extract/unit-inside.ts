// "F = 5 kg × 9.8", "A = π(0.5mm)²/4": a unit word between a number and more maths ends one maths
// run and starts another, and each piece read alone says something the student didn't write
// ("F = 5", "A = π", the rest dropped as a fragment). Gold drops a value's unit and keeps the
// maths around it, but how far the unit reaches ("kg × 9.8": a unit, or kg·9.8?) is the reader's
// guess, so the joined stretch is left unread. A unit that goes on as a unit ("9.8 m/s²") is no
// such case.
import { parseUnit } from '../units/parse-unit.ts';
import { unread, type Ctx } from './context.ts';
import { isUnitWord } from './runs.ts';
import type { Tok } from './tokens.ts';

const operand = (x: Tok): boolean => x.kind === 'num' || x.kind === 'id' || x.kind === 'usym';

/** Whether the one token between two runs is a unit after a number, with the maths going on after it. */
function unitInside(toks: Tok[], end: number, next: [number, number]): boolean {
  const [a, b] = next;
  const u = toks[end];
  if (a !== end + 1 || !isUnitWord(u) || toks[end - 1]?.kind !== 'num') return false;
  const first = toks[a];
  if (!(first.kind === 'rp' || (first.kind === 'op' && first.text !== '-'))) return false;
  let e = a;
  while (e < b && toks[e].kind !== 'eq') e++;
  const rest = toks.slice(a, e);
  if (parseUnit(u.text + rest.map((x) => x.text).join('')).ok) return false; // "m/s^2": the unit goes on
  return rest.some(operand);
}

/**
 * The runs to read, with those joined by a unit inside the maths taken out and left unread
 * (marking the response as having maths: it is not words-only).
 */
export function withoutUnitsInside(ctx: Ctx, toks: Tok[], runs: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < runs.length; k++) {
    let j = k;
    while (j + 1 < runs.length && unitInside(toks, runs[j][1], runs[j + 1])) j++;
    if (j === k) {
      out.push(runs[k]);
      continue;
    }
    ctx.mathSeen = true;
    unread(
      ctx,
      toks.slice(runs[k][0], runs[j][1]),
      `a unit ('${toks[runs[k][1]].text}') inside the maths: where the value ends and the maths goes on can't be told`,
    );
    k = j;
  }
  return out;
}
