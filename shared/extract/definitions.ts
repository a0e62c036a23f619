// Symbols the student defined in words ("let x = Mali's speed", "u = launch speed", "denote the
// angular frequency by w"): each becomes an alias of the variable the phrase names. Pure.

import type { Ctx } from './context.ts';
import { note } from '../extraction.ts';

const DEF_LET = /\blet[\s$]+([A-Za-z][A-Za-z0-9_]*)[\s$]+(?:be|denote|denotes|represent|represents|stand\s+for|=)\s+([^.,;:\n()=]+)/gi;
const DEF_EQ =
  /(?:^|[\n,;:(]|\band\b|\bwhere\b)[ \t$]*([A-Za-z][A-Za-z0-9_]*)[ \t$]*(?:=|\bdenotes\b|\brepresents\b)[ \t]*((?:the\s+|a\s+|an\s+)?[A-Za-z][A-Za-z' ]*?)[ \t]*(?=$|[\n,;.)])/gm;

/**
 * "enters with speed V0", "moving at speed u", "a block of mass m": a quantity named right before
 * its symbol (one letter, perhaps with digits or a subscript: never a word).
 */
const DEF_NOUN =
  /\b(?:with|at|of|has)\s+(?:a\s+|an\s+|the\s+)?((?:[a-z]+\s+)?[a-z]{3,})\s+\$?([A-Za-z](?:[0-9]+|_[A-Za-z0-9]+)?)\$?(?=\s*(?:[.,;:)]|$|\s+and\b|\s+(?:at|from|in|on|through|towards?|into|with)\b))/gm;

/** "where F is the tension", "T is the period": a symbol said to be a quantity, at a clause's start. */
const DEF_IS =
  /(?:^|[\n,;:.]\s*|\bwhere\s+|\band\s+)\$?([A-Za-z](?:[0-9]+|_[A-Za-z0-9]+)?)\$?\s+is\s+((?:the|a|an)\s+[A-Za-z' ]+?)\s*(?=$|[\n,;.)]|\s+(?:and|so|which|then)\b)/gm;

const DEF_AND = /\s+and\s+([A-Za-z][A-Za-z0-9_]*)\s+(?:be\s+|is\s+)?(?=(?:the|a|an)\s)/i;
const DEF_DENOTE = /\bdenote\s+((?:the|a|an)\s+[A-Za-z' ]+?)\s+by\s+\$?\s*([A-Za-z][A-Za-z0-9_]*)\b/gi;

/** Symbols the student defined in words ("let x = Mali's speed", "u = launch speed"). */
export function findDefinitions(s: string, ctx: Ctx): void {
  const seen = new Set<string>();
  const found: { sym: string; phrase: string; at: number; end: number }[] = [];
  for (const re of [DEF_LET, DEF_EQ, DEF_IS]) {
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      // "let x be the current and y the equivalent resistance": two definitions.
      const [first, ...more] = m[2].split(DEF_AND);
      found.push({ sym: m[1], phrase: first, at: m.index, end: m.index + m[0].length });
      for (let k = 0; k + 1 < more.length; k += 2) found.push({ sym: more[k], phrase: more[k + 1], at: m.index, end: m.index + m[0].length });
    }
  }
  // "denote the angular frequency by w", "enters with speed V0": the phrase first, then the symbol.
  for (const re of [DEF_DENOTE, DEF_NOUN]) {
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) found.push({ sym: m[2], phrase: m[1], at: m.index, end: m.index + m[0].length });
  }
  {
    for (const { sym, phrase, at, end } of found) {
      if (!/[A-Za-z]{3,}/.test(phrase)) continue;
      ctx.definitions.push([at, end]);
      if (seen.has(sym)) continue;
      const v = ctx.lex.labelVariable(phrase);
      if (!v) continue;
      seen.add(sym);
      const already = ctx.lex.resolve(sym, ctx.aliases);
      // "(M = hanging mass)" with the question's m: the student's capital is that variable, said so,
      // so it is no longer a change of the question's capitals (an alias, as any defined symbol is).
      if (already === v) {
        if (sym !== v && !ctx.lex.variables.includes(sym)) ctx.aliases.set(sym, v);
        continue;
      }
      // A symbol that is (or reads as) another variable of the question, defined as this one: which
      // one each use means can't be told, so the response is not read with confidence.
      if (ctx.lex.variables.includes(sym) || (already !== null && already !== v)) {
        ctx.notes.push(
          note(
            'unmapped-symbol',
            `'${sym}' reads as ${already ?? sym}, a variable of the question, but was defined as "${phrase.trim()}" (${v}): not remapped`,
          ),
        );
        ctx.flags.add('unmapped-symbol');
        ctx.needsReview = true;
        continue;
      }
      ctx.aliases.set(sym, v);
      ctx.notes.push(note('unmapped-symbol', `read '${sym}' as ${v} (the student defined it as "${phrase.trim()}")`));
    }
  }
}
