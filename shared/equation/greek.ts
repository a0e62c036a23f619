// Greek letter names as SymPy spells them (and LaTeX, with a backslash): the table is shared/text/greek.ts.
export { GREEK_LOWER, GREEK_UPPER, GREEK_NAMES } from '../text/greek.ts';
