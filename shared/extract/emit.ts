// Emitting a chain of sides (a = b = c) as equations: each side rendered into the grammar's
// source, each pair parsed by the strict grammar (shared/equation/parser.ts); '±' gives two. Pure.

import { equationToSympy, parseEquation, formatErrors } from '../equation/index.ts';
import type { ExtractedEquation } from '../extraction.ts';
import { spanOf, unread, type Ctx } from './context.ts';
import { render, type Tok } from './tokens.ts';
import { note } from '../extraction.ts';

export function emitChain(ctx: Ctx, parts: Tok[][], all: Tok[]): void {
  const untrusted = [...all, ...parts.flat()].flatMap((t) => t.pieces ?? []).find((p) => p.kind === 'sym' && ctx.caseUntrusted.has(p.name));
  if (untrusted) {
    unread(
      ctx,
      all,
      `'${untrusted.text}' could be ${untrusted.name.toLowerCase()} or ${untrusted.name.toUpperCase()}: this response changes the question's capitals`,
    );
    return;
  }
  const pmCount = all.filter((t) => t.kind === 'pm').length;
  const signs = pmCount ? ['+', '-'] : [''];
  const found: ExtractedEquation[] = [];
  const span = spanOf(ctx, all);
  for (const sign of signs) {
    const fix = (ts: Tok[]): Tok[] =>
      ts.map((t) => (t.kind === 'pm' ? { ...t, kind: 'op' as const, text: t.text === '∓' ? (sign === '+' ? '-' : '+') : sign } : t));
    const rendered = parts.map((p) => render(fix(p)));
    for (const r of rendered) {
      if (!r.ok) {
        if (r.unmapped) {
          ctx.flags.add('unmapped-symbol');
          for (const u of r.unmapped) {
            const text = note('unmapped-symbol', `symbol '${u}' could not be mapped to a variable (${ctx.lex.variables.join(', ')})`);
            if (!ctx.notes.includes(text)) ctx.notes.push(text);
          }
        }
        unread(ctx, all, r.reason);
        return;
      }
    }
    for (let k = 0; k + 1 < rendered.length; k++) {
      const l = rendered[k] as { src: string };
      const r = rendered[k + 1] as { src: string };
      const p = parseEquation(`${l.src} = ${r.src}`, { variables: ctx.lex.variables });
      if (!p.ok) {
        ctx.flags.add('parse-error');
        unread(ctx, all, formatErrors(p.errors));
        return;
      }
      found.push({ source: equationToSympy(p.value), span });
    }
  }
  ctx.equations.push(...found);
}
