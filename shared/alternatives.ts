// What a reading's choices (Extraction.alternatives) do to it: the 'ambiguous-reading' flag, the
// notes of kind 'ambiguous', the status, and the instructor's pick of a reading. One place, used
// by the embedded extractor (provisionally: every choice counts as ambiguous until compared), by
// the engine once it has compared the readings, and by the engine's pick. Pure.
import { note, type Alternative, type Extraction, type ExtractionNote } from './extraction.ts';

export const AMBIGUOUS_FLAG = 'ambiguous-reading';

/** Whether a choice still holds the reading back: its readings differ and nobody has picked one. */
export const unsettled = (a: Alternative): boolean => a.ambiguous && a.chosen === undefined;

export function ambiguousNote(a: Alternative): ExtractionNote {
  const readings = a.readings.map((r, i) => `(${i + 1}) ${r.length ? r.join(', ') : 'nothing recorded'}`).join('  ');
  return note(
    'ambiguous',
    `${JSON.stringify(a.text.slice(0, 160))} can be read more than one way (${a.reason}): ${readings}; reading 1 is recorded until one is picked`,
  );
}

/**
 * The reading with its flag, notes and status made to agree with its alternatives: an unsettled
 * choice adds the flag and a note and makes a 'read' response 'partial' (at most partial; a
 * response already partial, abstained or needing review stays so). Without one, a response that
 * was 'partial' only for its choices (nothing unread) is 'read' again.
 */
export function withAmbiguity(x: Extraction): Extraction {
  const alts = x.alternatives ?? [];
  const open = alts.filter(unsettled);
  const notes = [...x.notes.filter((n) => n.kind !== 'ambiguous'), ...open.map(ambiguousNote)];
  const flags = x.flags.filter((f) => f !== AMBIGUOUS_FLAG);
  let status = x.status;
  if (open.length) {
    flags.push(AMBIGUOUS_FLAG);
    if (status === 'read') status = 'partial';
  } else if (status === 'partial' && x.unread.length === 0 && x.flags.includes(AMBIGUOUS_FLAG)) status = 'read';
  return { ...x, flags, notes, status, ...(alts.length ? { alternatives: alts } : {}) };
}

/** Same span (the equations a choice covers carry its span). */
const sameSpan = (a: { start: number; end: number } | undefined, b: { start: number; end: number }): boolean => !!a && a.start === b.start && a.end === b.end;

/**
 * The reading after the instructor picked reading `pick` of choice `index`: that span's equations
 * replaced by the reading's (in place, order kept), `chosen` set, the flag and status settled by
 * withAmbiguity. Throws on an index out of range.
 */
export function pickReading(x: Extraction, index: number, pick: number): Extraction {
  const alts = x.alternatives ?? [];
  const alt = alts[index];
  if (!alt) throw new Error(`no reading choice ${index} in this response (it has ${alts.length})`);
  if (!Number.isInteger(pick) || pick < 0 || pick >= alt.readings.length)
    throw new Error(`choice ${index} has readings 1 to ${alt.readings.length}, not ${pick + 1}`);
  const at = x.equations.findIndex((e) => sameSpan(e.span, alt.span));
  const kept = x.equations.filter((e) => !sameSpan(e.span, alt.span));
  const replaced = alt.readings[pick].map((source) => ({ source, span: { ...alt.span } }));
  const equations = at < 0 ? [...kept, ...replaced] : [...kept.slice(0, at), ...replaced, ...kept.slice(at)];
  return withAmbiguity({ ...x, equations, alternatives: alts.map((a, i) => (i === index ? { ...a, chosen: pick } : a)) });
}
