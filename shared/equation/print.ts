// Printers: canonical SymPy source (re-parses to the same tree) and LaTeX for KaTeX.

import type { Equation, Expr } from './ast.ts';
import { GREEK_NAMES } from './greek.ts';

// Binding strength: + - 1, * / 2, unary minus 3, ** 4, atoms 5.
function prec(e: Expr): number {
  switch (e.kind) {
    case 'bin':
      return e.op === '+' || e.op === '-' ? 1 : e.op === '**' ? 4 : 2;
    case 'neg':
      return 3;
    default:
      return 5;
  }
}

const wrap = (s: string, yes: boolean): string => (yes ? `(${s})` : s);

export function exprToSympy(e: Expr): string {
  switch (e.kind) {
    case 'num':
      return e.text;
    case 'sym':
    case 'const':
      return e.name;
    case 'call':
      return `${e.fn}(${e.args.map(exprToSympy).join(', ')})`;
    case 'neg':
      // Keep the tree: -(a*b) must not print as -a*b, which re-parses as (-a)*b.
      return `-${wrap(exprToSympy(e.arg), prec(e.arg) < 3 || e.arg.kind === 'neg')}`;
    case 'bin': {
      const p = prec(e);
      if (e.op === '**') {
        const l = wrap(exprToSympy(e.left), prec(e.left) <= 4);
        const r = wrap(exprToSympy(e.right), prec(e.right) < 4 || e.right.kind === 'neg');
        return `${l}**${r}`;
      }
      const l = wrap(exprToSympy(e.left), prec(e.left) < p);
      const r = wrap(exprToSympy(e.right), prec(e.right) <= p || e.right.kind === 'neg');
      return p === 1 ? `${l} ${e.op} ${r}` : `${l}${e.op}${r}`;
    }
  }
}

export function equationToSympy(eq: Equation): string {
  return `Eq(${exprToSympy(eq.lhs)}, ${exprToSympy(eq.rhs)})`;
}

function symbolToLatex(name: string): string {
  const one = (part: string): string => {
    if (GREEK_NAMES.has(part)) return `\\${part}`;
    if (part.length === 1 || /^\d+$/.test(part)) return part;
    return `\\mathit{${part}}`;
  };
  const i = name.indexOf('_');
  if (i <= 0) return one(name);
  return `${one(name.slice(0, i))}_{${name
    .slice(i + 1)
    .split('_')
    .map(one)
    .join(',')}}`;
}

const FN_LATEX: Record<string, string> = {
  sin: '\\sin',
  cos: '\\cos',
  tan: '\\tan',
  asin: '\\arcsin',
  acos: '\\arccos',
  atan: '\\arctan',
  exp: '\\exp',
  log: '\\ln',
};

export function exprToLatex(e: Expr): string {
  switch (e.kind) {
    case 'num':
      return e.text;
    case 'sym':
      return symbolToLatex(e.name);
    case 'const':
      return e.name === 'pi' ? '\\pi' : 'e';
    case 'call': {
      const a = exprToLatex(e.args[0]);
      if (e.fn === 'sqrt') return `\\sqrt{${a}}`;
      if (e.fn === 'Abs') return `\\left|${a}\\right|`;
      return `${FN_LATEX[e.fn]}\\left(${a}\\right)`;
    }
    case 'neg':
      return `-${wrapTex(exprToLatex(e.arg), prec(e.arg) < 2)}`;
    case 'bin': {
      if (e.op === '/') return `\\frac{${exprToLatex(e.left)}}{${exprToLatex(e.right)}}`;
      if (e.op === '**') {
        const base = wrapTex(exprToLatex(e.left), prec(e.left) <= 4 || e.left.kind === 'call');
        return `${base}^{${exprToLatex(e.right)}}`;
      }
      const p = prec(e);
      const l = wrapTex(exprToLatex(e.left), prec(e.left) < p);
      const rNeedsParens = e.op === '*' ? prec(e.right) < 2 || e.right.kind === 'neg' : prec(e.right) <= 1 && e.op === '-';
      const r = wrapTex(exprToLatex(e.right), rNeedsParens || (e.op === '+' && e.right.kind === 'neg'));
      if (e.op === '*') {
        // Juxtapose unless two digits would run together.
        return /^[\d.]/.test(r) || /^-/.test(r) ? `${l} \\cdot ${r}` : `${l} ${r}`;
      }
      return `${l} ${e.op} ${r}`;
    }
  }
}

function wrapTex(s: string, yes: boolean): string {
  return yes ? `\\left(${s}\\right)` : s;
}

export function equationToLatex(eq: Equation): string {
  return `${exprToLatex(eq.lhs)} = ${exprToLatex(eq.rhs)}`;
}
