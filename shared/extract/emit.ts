// Emitting a chain of sides (a = b = c) as equations: each side rendered into the grammar's
// source, each pair parsed by the strict grammar (shared/equation/parser.ts); '±' gives two. Where
// a side can be read more than one way (scope-choices.ts), reading 0 is emitted and every reading
// of the chain is recorded as an alternative of its span. Pure.

import { equationToSympy, parseEquation, formatErrors } from '../equation/index.ts';
import { spanOf, unread, type Ctx } from './context.ts';
import { renderReadings, type RenderedReadings, type Tok } from './tokens.ts';
import { MAX_SIDE_READINGS } from './scope-choices.ts';
import { UNIT_WORDS } from './lexicon.ts';
import { note } from '../extraction.ts';

export function emitChain(ctx: Ctx, parts: Tok[][], all: Tok[]): void {
  // "J = Δp = mv" where Δp is the question's J: two names of one variable side by side are one
  // side of the chain (no "J = J" link).
  const oneVariable = (p: Tok[]): string | null =>
    p.length === 1 && p[0].kind === 'id' && p[0].pieces?.length === 1 && p[0].pieces[0].kind === 'sym' ? p[0].pieces[0].name : null;
  const merged = parts.filter(
    (p, k) => k === 0 || oneVariable(p) === null || oneVariable(p) !== oneVariable(parts[k - 1]) || p[0].text === parts[k - 1][0].text,
  );
  if (merged.length >= 2 && merged.length < parts.length) parts = merged;
  const untrusted = [...all, ...parts.flat()].flatMap((t) => t.pieces ?? []).find((p) => p.kind === 'sym' && ctx.caseUntrusted.has(p.name));
  if (untrusted) {
    unread(
      ctx,
      all,
      `'${untrusted.text}' could be ${untrusted.name.toLowerCase()} or ${untrusted.name.toUpperCase()}: this response changes the question's capitals`,
    );
    return;
  }
  const dropped = [...all, ...parts.flat()]
    .flatMap((t) => t.pieces ?? [])
    .find((p) => p.kind === 'sym' && p.text !== p.name && ctx.subscriptDropped.has(p.text));
  if (dropped) {
    unread(ctx, all, `'${dropped.text}' could be ${dropped.name} or ${ctx.subscriptDropped.get(dropped.text)!.join(' or ')} with its subscript dropped`);
    return;
  }
  // "dL = αL dT" where the question has ΔL and ΔT and a d of its own (a diameter): a d glued to a
  // letter may be a change of it (ΔL) as much as d times it; which is the marker's call. Where the
  // question has no d, "dT" can only be the change (lexicon.ts resolve).
  // (Looked for in the text as typed: "dT" with no T in the question would lose its T as a unit.)
  const span = spanOf(ctx, all);
  const hasD = ctx.lex.variables.some((v) => v.toLowerCase() === 'd');
  const change = hasD
    ? [...ctx.original.slice(span.start, span.end).matchAll(/(?<![A-Za-z_])d([A-Za-z]+)(?![A-Za-z0-9_])/g)].find((m) => changeOf(ctx, m[1]))
    : undefined;
  if (change) {
    unread(ctx, all, `'${change[0]}' could be ${changeOf(ctx, change[1])} (a change of ${change[1]}) or d times ${change[1]}`);
    return;
  }
  // "F = eE = ma" in a question with no force: the link about the foreign quantity is left out
  // (gold convention 3), the links after it are between the question's quantities (convention 5).
  const lone = parts[0].length === 1 ? parts[0][0].text : null;
  if (parts.length >= 3) {
    const first = renderReadings(parts[0]);
    const foreign = first.ok ? null : foreignOnly(ctx, first.unmapped, lone);
    if (foreign) {
      const what = foreign.map(([u, q]) => `'${u}' (${q})`).join(', ');
      ctx.notes.push(note('unread', `left out the first link of a chain: ${what} is no quantity of the question`));
      emitChain(ctx, parts.slice(1), all);
      return;
    }
  }
  const pmCount = all.filter((t) => t.kind === 'pm').length;
  const signs = pmCount ? ['+', '-'] : [''];
  // Per sign, the readings of the chain: one equation list per combination of its sides' readings.
  const perSign: { sources: string[]; reasons: string[] }[][] = [];
  for (const sign of signs) {
    const fix = (ts: Tok[]): Tok[] =>
      ts.map((t) => (t.kind === 'pm' ? { ...t, kind: 'op' as const, text: t.text === '∓' ? (sign === '+' ? '-' : '+') : sign } : t));
    const rendered = parts.map((p) => renderReadings(fix(p)));
    for (const [k, r] of rendered.entries()) {
      if (!r.ok) {
        // "F = GMm/r²" in a question with no force: an equation about a quantity the question has
        // no variable for, left out (gold convention 3), not a doubt.
        const foreign = foreignOnly(ctx, r.unmapped, lone);
        // "= 10218 n": a letter after a value that is a unit in the other case (N) is a unit typed
        // in lower case, or the value times a quantity the question lacks: a doubt, never a link
        // left out unseen.
        const side = parts[k];
        if (foreign && side.length === 2 && side[0].kind === 'num' && /^[a-z]$/.test(side[1].text) && UNIT_WORDS.has(side[1].text.toUpperCase())) {
          const why = `'${side[0].text} ${side[1].text}': '${side[1].text}' after a value may be the unit ${side[1].text.toUpperCase()} typed in lower case`;
          // (The chain's last link: the links before it stand.)
          if (k === parts.length - 1 && parts.length >= 3) {
            unread(ctx, side, why);
            emitChain(ctx, parts.slice(0, -1), all);
          } else unread(ctx, all, why);
          return;
        }
        if (foreign) {
          const what = foreign.map(([u, q]) => `'${u.replace(/^[Dd]elta(?=[A-Za-z])/, 'Δ')}' (${/^[aeiou]/.test(q) ? 'an' : 'a'} ${q})`).join(', ');
          // "E = −N dΦ/dt = NBAω sin ωt": with the foreign quantity inside a chain, its two links
          // can't be written, but a marker may join the sides around it (E = NBAω sin ωt): a doubt.
          if (k > 0 && k < parts.length - 1) {
            unread(
              ctx,
              all,
              `${what} in the middle of a chain is no quantity of the question: whether its two sides are recorded as one equation is the marker's call`,
            );
            return;
          }
          // "v = √(2gh) = p/m" with no momentum: the links before the last are the question's.
          if (k === parts.length - 1 && parts.length >= 3) {
            ctx.notes.push(note('unread', `left out the last link of a chain: ${what} is no quantity of the question`));
            emitChain(ctx, parts.slice(0, -1), all);
            return;
          }
          ctx.notes.push(note('unread', `left out ${JSON.stringify(ctx.original.slice(span.start, span.end))}: ${what} is no quantity of the question`));
          return;
        }
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
    const sides = rendered.map((r) => (r as Extract<RenderedReadings, { ok: true }>).readings);
    const combos = sideCombinations(sides);
    if (!combos) {
      unread(ctx, all, 'too many ways to read where its brackets go');
      return;
    }
    const lists: { sources: string[]; reasons: string[] }[] = [];
    for (const combo of combos) {
      const sources: string[] = [];
      let failed: string | null = null;
      for (let k = 0; k + 1 < combo.length && !failed; k++) {
        const p = parseEquation(`${combo[k].src} = ${combo[k + 1].src}`, { variables: ctx.lex.variables });
        if (p.ok) sources.push(equationToSympy(p.value));
        else failed = formatErrors(p.errors);
      }
      if (failed && lists.length === 0) {
        // Reading 0 doesn't parse: nothing of the chain is recorded.
        ctx.flags.add('parse-error');
        unread(ctx, all, failed);
        return;
      }
      if (!failed) lists.push({ sources, reasons: [...new Set(combo.flatMap((c) => c.reasons))] });
    }
    perSign.push(lists);
  }
  // The same choices under both signs of a '±' (a reading that fails under one sign is dropped).
  const n = Math.min(...perSign.map((l) => l.length));
  const readings: { sources: string[]; reasons: string[] }[] = [];
  for (let i = 0; i < n; i++) {
    const sources = perSign.flatMap((l) => l[i].sources);
    if (!readings.some((r) => r.sources.join('\u0000') === sources.join('\u0000'))) readings.push({ sources, reasons: perSign[0][i].reasons });
  }
  ctx.equations.push(...readings[0].sources.map((source) => ({ source, span })));
  if (readings.length > 1) {
    ctx.alternatives.push({
      span,
      text: ctx.original.slice(span.start, span.end),
      reason: [...new Set(readings.flatMap((r) => r.reasons))].join('; '),
      readings: readings.map((r) => r.sources),
      // Until the engine has compared the readings (electron/engine/read/alternatives.ts), they may differ.
      ambiguous: true,
    });
  }
}

type SideReading = { src: string; reasons: string[] };

/** Every combination of the sides' readings (reading 0 of each first), or null past MAX_SIDE_READINGS. */
function sideCombinations(sides: SideReading[][]): SideReading[][] | null {
  let combos: SideReading[][] = [[]];
  for (const side of sides) {
    combos = combos.flatMap((c) => side.map((r) => [...c, r]));
    if (combos.length > MAX_SIDE_READINGS) return null;
  }
  return combos;
}

/** The question's variable for a change of `x` (Delta_L for "L"), or null. */
function changeOf(ctx: Ctx, x: string): string | null {
  return ctx.lex.variables.find((v) => v === `Delta_${x}` || v === `Delta${x}`) ?? null;
}

/**
 * Each unmapped symbol with the quantity it conventionally names, when every one names a quantity
 * the question has no variable for; else null. A unit letter (N, W, m, s) is foreign only as the
 * lone left side `lone` ("m = v/u"): after a number it is a unit ("G = 6.67 × 10^-11 N m^2/kg^2"),
 * and a value's unit is no reason to drop it.
 */
function foreignOnly(ctx: Ctx, unmapped: readonly string[] | undefined, lone: string | null): [string, string][] | null {
  if (!unmapped?.length) return null;
  const out: [string, string][] = [];
  for (const u of unmapped) {
    const q = UNIT_WORDS.has(u) && u !== lone ? null : ctx.lex.foreignQuantity(u);
    if (!q) return null;
    out.push([u, q]);
  }
  return out;
}
