// A letter read in the other case that leaves its equation unbalanced is a reading to doubt
// (issue 11: miscapitalised symbols). The extractor maps a letter the question lacks to the
// variable of the other case when there is one ("s" for the question's S), which is usually
// right; but "I = V/R" with V an emf, read as the question's speed v, is not, and dimensions show
// it: the equation balances with neither. So where an equation doesn't balance and its text writes
// one of its one-letter variables only in the other case (a letter the question doesn't have),
// the reading goes to review (flag 'unmapped-symbol', a note naming the letter and the equation as
// typed). The reading is never changed.
//
// And where both cases are the question's variables: "pV = NRT" with N the number of molecules
// and n the moles doesn't balance, and does with n in N's place. The student may mean n (gold
// maps a symbol by its meaning) or have slipped in the physics; the reader can't tell which.
//
// And for a Latin letter read as the Greek one it stands in for on a keyboard (u for μ, w for ω,
// shared/extract/lexicon.ts LOOKALIKE): "f = umg" is μmg, but "v² = u² + 2as" with u the student's
// own initial speed is not, and the equation read with μ doesn't balance.
//
// The same holds for a letter with a 2 or 3 glued after it ("v2 = 2gh"): read as the numbered
// symbol v₂, that is v by the gold conventions, but v² is as likely, and dimensions tell.
//
// Only equations with a span (the extractor's), whose numbers are plain coefficients, and whose
// dimensions are checked (every symbol has a unit from the exam or its description).
import { variableUnits } from '../../../shared/units/infer-unit.ts';
import { substituteEquation, symbolsOf, type Equation } from '../../../shared/equation/index.ts';
import type { Unit } from '../../../shared/units/parse-unit.ts';
import type { Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';
import { checkDimensions } from './dimensions.ts';
import { asWritten, checkable, lowered, parsedEquations } from './reading-doubt.ts';
import { onlyCoefficients } from './symbol-reuse.ts';
import { LOOKALIKE } from '../../../shared/extract/lexicon.ts';

export const CASE_MAPPED_FLAG = 'unmapped-symbol';

const otherCase = (c: string): string => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** A one-letter variable of the equation that `typed` writes alone only in the other case: [as written, the variable], or null. */
function writtenInOtherCase(names: readonly string[], typed: string, variables: ReadonlySet<string>): [string, string] | null {
  for (const v of names) {
    if (v.length !== 1) continue;
    const o = otherCase(v);
    if (o === v || variables.has(o)) continue;
    // Standing alone, not inside a run of letters ("BLv") or a subscripted name ("V_0").
    const alone = (c: string): RegExp => new RegExp(`(?<![A-Za-z_])${c}(?![A-Za-z_0-9₀-₉])`);
    if (alone(o).test(typed) && !alone(v).test(typed)) return [o, v];
  }
  return null;
}

/** A one-letter variable of the equation that `typed` writes with a 2 or 3 glued after it ("v2": v₂ read as v, or v²?), or null. */
function writtenWithPowerDigit(names: readonly string[], typed: string): [string, string] | null {
  for (const v of names) {
    if (v.length !== 1) continue;
    const m = new RegExp(`(?<![A-Za-z_])${v}([23])(?![0-9.])`).exec(typed);
    if (m) return [m[0], v];
  }
  return null;
}

/** A Greek variable of the equation that `typed` writes only with the Latin letter standing in for it ("umg" for μmg): [the letter, the variable], or null. */
function writtenAsStandIn(names: readonly string[], typed: string): [string, string] | null {
  for (const v of names) {
    const letter = LOOKALIKE[v.split('_')[0]];
    if (!letter) continue;
    const greek = v.startsWith('mu') ? /μ|µ|\\mu|mu/ : /ω|\\omega|omega/;
    if (!greek.test(typed) && typed.includes(letter)) return [letter, v];
  }
  return null;
}

/**
 * A one-letter variable of the unbalanced equation, typed as such, whose other case is a variable
 * too and makes the equation balance in its place ("pV = NRT" with N the molecules and n the
 * moles): [the letter, the other variable], or null. The student may have meant the other one
 * (gold maps a symbol by its meaning), or slipped in the physics: which, the reader can't tell.
 */
function balancesInOtherCase(eq: Equation, typed: string, variables: ReadonlySet<string>, units: ReadonlyMap<string, Unit>): [string, string] | null {
  for (const v of symbolsOf(eq)) {
    if (v.length !== 1) continue;
    const o = otherCase(v);
    if (o === v || !variables.has(o) || !units.has(o)) continue;
    if (!typed.includes(v)) continue; // read from words, not typed: the reader chose the letter
    if (checkDimensions(substituteEquation(eq, v, { kind: 'sym', name: o }), units).status === 'consistent') return [v, o];
  }
  return null;
}

/**
 * The reading with its confidence lowered when an unbalanced equation writes one of its letters
 * only in the other case: a `read` becomes `needs-review`. Returns the reading itself when there
 * is nothing to say (no text, no such equation).
 */
export function withCaseMappedCheck(question: Question, x: Extraction, response?: string): Extraction {
  if (response === undefined || !checkable(x, CASE_MAPPED_FLAG)) return x;
  const units = variableUnits(question);
  const variables = new Set(question.variables.map((v) => v.name));
  const { equations, from } = parsedEquations(question, x);
  for (let k = 0; k < equations.length; k++) {
    const eq = equations[k];
    const span = x.equations[from[k]].span;
    if (!span || !onlyCoefficients(eq.lhs) || !onlyCoefficients(eq.rhs)) continue;
    if (checkDimensions(eq, units).status !== 'inconsistent') continue;
    const typed = asWritten(x.equations[from[k]], response);
    const power = writtenWithPowerDigit(symbolsOf(eq), typed);
    if (power) {
      // "v2 = 2gh": the numbered symbol read as v (convention 3) leaves it unbalanced; v² balances.
      return lowered(
        x,
        CASE_MAPPED_FLAG,
        'unmapped-symbol',
        `${JSON.stringify(typed)}: '${power[0]}' was read as the question's ${power[1]}, and the equation then doesn't balance; '${power[0]}' may be ${power[1]} to the power ${power[0].slice(-1)}`,
      );
    }
    const swapped = balancesInOtherCase(eq, typed, variables, units);
    if (swapped) {
      const [letter, other] = swapped;
      return lowered(
        x,
        CASE_MAPPED_FLAG,
        'unmapped-symbol',
        `${JSON.stringify(typed)}: read with the question's ${letter}, the equation doesn't balance; with ${other} in its place it does: '${letter}' may stand for ${other}`,
      );
    }
    const standIn = writtenAsStandIn(symbolsOf(eq), typed);
    if (standIn) {
      return lowered(
        x,
        CASE_MAPPED_FLAG,
        'unmapped-symbol',
        `${JSON.stringify(typed)}: '${standIn[0]}' was read as the question's ${standIn[1]} (typed without the Greek letter), and the equation then doesn't balance; '${standIn[0]}' may be another quantity`,
      );
    }
    const found = writtenInOtherCase(symbolsOf(eq), typed, variables);
    if (!found) continue;
    const [written, read] = found;
    return lowered(
      x,
      CASE_MAPPED_FLAG,
      'unmapped-symbol',
      `${JSON.stringify(typed)}: '${written}' was read as the question's ${read}, and the equation then doesn't balance; '${written}' may be another quantity`,
    );
  }
  return x;
}
