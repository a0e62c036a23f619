// The equation grammar's tokenizer and its errors: text in, tokens out, or a ParseError that says
// what and at which column. Unicode the strict grammar does not take (Greek letters, √, ×, −) is
// refused with the ASCII to write instead.
import { GREEK_CHARS } from '../text/greek.ts';

export type ParseErrorCode =
  | 'unexpected-character'
  | 'unbalanced'
  | 'arity'
  | 'unknown-function'
  | 'not-a-function'
  | 'not-an-equation'
  | 'missing-operator'
  | 'forbidden'
  | 'unknown-symbol'
  | 'syntax'
  | 'too-complex';

export type ParseError = { code: ParseErrorCode; message: string; column?: number };

/** Digits a number may have (a longer one is refused before anything computes with it). */
export const MAX_NUMBER_DIGITS = 60;

export type TokKind = 'num' | 'ident' | 'op' | 'eof';
export type Token = { kind: TokKind; text: string; col: number };

export class Fail extends Error {
  constructor(readonly error: ParseError) {
    super(error.message);
  }
}

export const fail = (code: ParseErrorCode, message: string, column?: number): never => {
  throw new Fail({ code, message: column === undefined ? message : `${message} at column ${column}`, column });
};

export function tokenize(src: string): Token[] {
  const toks: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const col = i + 1;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const numMatch = /^(\d+(\.\d*)?|\.\d+)/.exec(src.slice(i));
    if (numMatch) {
      const text = numMatch[0];
      if (text.replace('.', '').length > MAX_NUMBER_DIGITS) fail('too-complex', `number with more than ${MAX_NUMBER_DIGITS} digits`, col);
      const after = src[i + text.length];
      if (after === 'e' || after === 'E') {
        if (/^[eE][+-]?\d/.test(src.slice(i + text.length))) {
          fail('syntax', `scientific notation '${text}e...' is not allowed; write '${text}*10**n'`, col);
        }
      }
      if (after === 'j' || after === 'J') fail('forbidden', 'complex literals are not allowed', col);
      toks.push({ kind: 'num', text: text.startsWith('.') ? `0${text}` : text.endsWith('.') ? text.slice(0, -1) : text, col });
      i += text.length;
      continue;
    }
    const idMatch = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (idMatch) {
      toks.push({ kind: 'ident', text: idMatch[0], col });
      i += idMatch[0].length;
      continue;
    }
    if (src.startsWith('**', i)) {
      toks.push({ kind: 'op', text: '**', col });
      i += 2;
      continue;
    }
    if (src.startsWith('==', i)) fail('syntax', "'==' is a comparison; write 'left = right' or Eq(left, right)", col);
    if ('+-*/(),='.includes(c)) {
      toks.push({ kind: 'op', text: c, col });
      i++;
      continue;
    }
    if (c === '^') fail('syntax', "'^' is not a power operator in SymPy; use '**'", col);
    if (c === '"' || c === "'") fail('forbidden', 'strings are not allowed', col);
    if (c === '[' || c === ']') fail('forbidden', "subscripts '[...]' are not allowed", col);
    if (c === '.') fail('forbidden', "attribute access ('.') is not allowed", col);
    if (c === '{' || c === '}') fail('forbidden', "braces '{...}' are not allowed", col);
    if (c === ';') fail('forbidden', "';' is not allowed: give one equation at a time", col);
    if (GREEK_CHARS[c]) fail('unexpected-character', `unexpected character '${c}'; write '${GREEK_CHARS[c]}'`, col);
    if (c === '√') fail('unexpected-character', "unexpected character '√'; write 'sqrt(...)'", col);
    if (c === '×' || c === '·') fail('unexpected-character', `unexpected character '${c}'; write '*'`, col);
    if (c === '−') fail('unexpected-character', "unexpected character '−' (unicode minus); write '-'", col);
    fail('unexpected-character', `unexpected character '${c}'`, col);
  }
  toks.push({ kind: 'eof', text: '', col: src.length + 1 });
  return toks;
}
