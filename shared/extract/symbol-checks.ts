// Checks on which written symbols can stand for which variable across a response: numbered forms
// (I1, I2) that name other quantities, capitals the response doesn't keep (g for G), a numbered
// form beside the plain symbol in one equation, a positive variable set to 0 in a condition. Pure.

import type { Ctx } from './context.ts';
import type { Tok } from './tokens.ts';
import { note } from '../extraction.ts';

const MATH_NEIGHBOUR = new Set(['eq', 'op', 'lp', 'rp', 'pm', 'rel', 'id', 'num']);

/**
 * Numbered symbols (I1, I_2, T1) are read as the variable they number (t1, t2 -> t) only when
 * that can be one quantity: when the variable's description names one particular quantity ("total
 * current", not "a journey time") and the response writes two numbered forms (I1 and I2) or a
 * numbered form beside the plain symbol in its maths (I = I1 + I2, T1 ... T), they are other
 * quantities (branch currents, another orbit's period): marked as not variables, so the equations
 * with them are left unread. Returns whether anything was marked.
 */
export function numberedQuantities(ctx: Ctx, toks: Tok[]): boolean {
  const numbered = new Map<string, Set<string>>(); // variable -> written forms
  const plain = new Set<string>();
  toks.forEach((t, k) => {
    if (t.kind !== 'id') return;
    for (const p of t.pieces!) {
      if (p.kind !== 'sym') continue;
      if (ctx.lex.numberedRoot(p.text, ctx.aliases) === p.name) {
        numbered.set(p.name, (numbered.get(p.name) ?? new Set()).add(p.text));
      } else if (!/\d/.test(p.text) && (t.pieces!.length > 1 || MATH_NEIGHBOUR.has(toks[k - 1]?.kind) || MATH_NEIGHBOUR.has(toks[k + 1]?.kind))) {
        plain.add(p.name);
      }
    }
  });
  let marked = false;
  for (const [v, forms] of numbered) {
    const distinct = new Set([...forms].map((f) => f.replace(/_/g, '')));
    if (!ctx.lex.describesOne(v) || (distinct.size < 2 && !plain.has(v))) continue;
    for (const f of forms) ctx.aliases.set(f, '');
    ctx.notes.push(
      note(
        'unmapped-symbol',
        `${[...forms].map((f) => `'${f}'`).join(', ')}${plain.has(v) ? ` beside '${v}'` : ''} name quantities other than ${v}, which is one particular quantity in this question: not read as ${v}`,
      ),
    );
    marked = true;
  }
  return marked;
}

/**
 * A question with both cases of a letter as variables (m and M, t and T) relies on capitalisation.
 * A response that changed the case of another variable (g for G, V for v, P1 for p_1) doesn't keep
 * it, so its m could be the question's M: equations with either are left unread.
 */
export function caseTrust(ctx: Ctx, toks: Tok[]): void {
  const vars = ctx.lex.variables;
  const pairs = vars.filter((v) => /^[A-Za-z]$/.test(v) && v !== v.toLowerCase() && vars.includes(v.toLowerCase()));
  if (pairs.length === 0) return;
  const flat = (x: string): string => x.replace(/_/g, '');
  const folded = toks
    .flatMap((t) => (t.kind === 'id' ? t.pieces! : []))
    .filter((p) => p.kind === 'sym' && flat(p.text) !== flat(p.name) && flat(p.text).toLowerCase() === flat(p.name).toLowerCase());
  // Lowering a capital (g for G) makes its lowercase letters doubtful (m could be M); raising a
  // small letter (R for r) makes its capitals doubtful.
  for (const p of folded) {
    const lowered = /[a-z]/.test(p.text) && p.text.toLowerCase() === p.text && /[A-Z]/.test(p.name);
    const raised = /[A-Z]/.test(p.text) && p.text.toUpperCase() === p.text && /[a-z]/.test(p.name);
    for (const v of pairs) {
      const doubtful = lowered ? v.toLowerCase() : raised ? v : null;
      if (!doubtful || ctx.caseUntrusted.has(doubtful)) continue;
      ctx.caseUntrusted.add(doubtful);
      ctx.notes.push(
        note('unmapped-symbol', `the response wrote '${p.text}' for ${p.name}, so its '${doubtful}' could be ${doubtful === v ? v.toLowerCase() : v} too`),
      );
    }
  }
}

/**
 * "v" read as the question's V (the other case) where the question also has v_t: the student may
 * mean v_t with its subscript dropped, unless the response writes v_t itself (then its "v" is
 * not v_t). Where it doesn't, equations with that "v" are left unread (emit.ts).
 */
export function droppedSubscripts(ctx: Ctx, toks: Tok[]): void {
  const flat = (x: string): string => x.replace(/_/g, '');
  const pieces = toks.flatMap((t) => (t.kind === 'id' ? t.pieces! : [])).filter((p) => p.kind === 'sym');
  const written = new Set(pieces.map((p) => p.name));
  for (const p of pieces) {
    if (flat(p.text) === flat(p.name) || ctx.subscriptDropped.has(p.text)) continue;
    const rivals = ctx.lex.variables.filter((v) => v !== p.name && v.includes('_') && v.split('_')[0] === p.text);
    if (rivals.length && !rivals.some((r) => written.has(r))) ctx.subscriptDropped.set(p.text, rivals);
  }
}

/**
 * 'v1' read as v (convention: t1, t2 journey times -> t) is only safe when the plain symbol isn't
 * in the same equation ("v1 = v + w" is about another quantity).
 */
export function numberedClash(t: Tok[]): string | null {
  const pieces = t.flatMap((x) => x.pieces ?? []).filter((p) => p.kind === 'sym');
  for (const p of pieces) {
    if (!/^[A-Za-z]+_?\d+$/.test(p.text) || p.text.replace(/_/g, '').toLowerCase() === p.name.replace(/_/g, '').toLowerCase()) continue;
    const plain = pieces.find((o) => o.name === p.name && !/\d/.test(o.text));
    if (plain) return `'${p.text}' and '${plain.text}' in one equation: can't tell whether they are the same quantity`;
  }
  return null;
}

/**
 * "w = 0" for a positive w, in a conditional ("if w = 0", "w = 0 gives v = u"): the student is
 * taking a limit, not stating a value. ("so t = 0 or t = 2v_0 sinθ/g" is a root, and is recorded.)
 */
export function positiveSetToZero(ctx: Ctx, parts: Tok[][]): string | null {
  const lone = (p: Tok[]): string | null =>
    p.length === 1 && p[0].kind === 'id' && p[0].pieces?.length === 1 && p[0].pieces[0].kind === 'sym' ? p[0].pieces[0].name : null;
  const zero = (p: Tok[]): boolean => p.length === 1 && p[0].kind === 'num' && Number(p[0].text) === 0;
  const [a, b] = parts;
  const v = zero(b) ? lone(a) : zero(a) ? lone(b) : null;
  return v && ctx.positive.has(v) ? v : null;
}
