// A '±' that stands for two situations ("T ± mg = ma, + going up, − going down"): gold records its
// two equations (convention 6), but each is about its own situation, with the same letters for
// different quantities (the tension going up is not the tension going down), so the two are read
// as written and the response is held for review with a note. A '±' with no such words ("x = ±A")
// is one situation's two roots and is left alone. Pure.

import type { Ctx } from './context.ts';
import { note } from '../extraction.ts';
import { sentences } from '../text/marker.ts';

const PLUS_MINUS = /±|\+\s*\/?\s*-(?![->])|\+\s*\/?\s*−/g;

/** Words giving a sign its own situation: "+ going up", "the + sign for", "plus when", "upper sign". */
const SIGN_SITUATION =
  /(?:^|[\s,;(])(?:[+−-]|plus|minus|positive|negative)\s*(?:sign\s+)?(?:for|when|if|while|going|on|in|during|is|=)\s+[a-z]+|\b(?:upper|lower|top|bottom)\s+sign\b|\b(?:plus|minus|positive|negative)\s+sign\s+(?:for|when|if|is)\b/i;

/** Hold the response for review when a '±' of a read equation is followed, in its sentence, by words giving each sign a situation. */
export function plusMinusSituations(ctx: Ctx): void {
  const text = ctx.original;
  PLUS_MINUS.lastIndex = 0;
  if (!PLUS_MINUS.test(text)) return;
  for (const s of sentences(text)) {
    const body = text.slice(s.start, s.end);
    PLUS_MINUS.lastIndex = 0;
    const pm = PLUS_MINUS.exec(body);
    if (!pm) continue;
    const at = s.start + pm.index;
    const read = ctx.equations.some((e) => e.span && e.span.start <= at && at < e.span.end);
    const situation = SIGN_SITUATION.exec(body.slice(pm.index + pm[0].length));
    if (!read || !situation) continue;
    ctx.needsReview = true;
    ctx.notes.push(
      // Not 'ambiguous': that kind is kept for reading choices (alternatives.ts writes those notes).
      note(
        'other',
        `the '±' stands for two situations (${JSON.stringify(situation[0].trim())}): its two equations are read as written, but the same letters may mean different quantities in each`,
      ),
    );
  }
}
