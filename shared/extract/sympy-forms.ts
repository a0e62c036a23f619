// Equations already written in the grammar's own form, Eq(left, right). Pure.

import { equationToSympy, parseEquation } from '../equation/index.ts';
import { blankOut, type Ctx } from './context.ts';

/**
 * Equations already written in the grammar's own form, `Eq(left, right)` (students who copy the
 * scheme's notation, or a list pasted from elsewhere): parsed by the strict grammar as they stand
 * and blanked out of the text. One that doesn't parse is left for the ordinary reading, which
 * reports it unread.
 */
export function readSympyForms(text: string, ctx: Ctx): string {
  let s = text;
  for (const m of text.matchAll(/\bEq\s*\(/g)) {
    let depth = 0;
    let end = -1;
    for (let k = m.index! + m[0].length - 1; k < text.length; k++) {
      if (text[k] === '(') depth++;
      else if (text[k] === ')' && --depth === 0) {
        end = k + 1;
        break;
      } else if (text[k] === '\n') break;
    }
    if (end < 0) continue;
    const p = parseEquation(text.slice(m.index!, end), { variables: ctx.lex.variables });
    if (!p.ok) continue;
    ctx.mathSeen = true;
    ctx.equations.push({ source: equationToSympy(p.value), span: { start: m.index!, end } });
    s = blankOut(s, m.index!, end);
  }
  return s;
}
