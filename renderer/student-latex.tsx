// A student's response typed in LaTeX, rendered with KaTeX. This is the one place student text
// reaches KaTeX: with trust off (no \href, \url, \includegraphics, \htmlClass...), a bounded macro
// expansion and errors shown in place, so the worst a student's LaTeX can do is render badly. The
// equations that are marked still come from our own grammar, never from this rendering.
import katex from 'katex';
import { Fragment, useMemo } from 'react';

/** Math between $…$, $$…$$, \(…\) or \[…\]. */
const DELIMITED = /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)|\$([^$\n]+?)\$/g;
/** A LaTeX command a plain-text answer wouldn't have. */
const COMMAND =
  /\\(frac|dfrac|tfrac|sqrt|cdot|times|left|right|theta|alpha|beta|omega|pi|mu|Delta|delta|approx|to|infty|sin|cos|tan|ln|log|exp|quad|text|mathrm|pm|geq|leq|neq)\b/;

/** Whether a response was typed in LaTeX: delimited maths, or LaTeX commands. */
export function looksLikeLatex(text: string): boolean {
  DELIMITED.lastIndex = 0;
  return DELIMITED.test(text) || COMMAND.test(text);
}

/** Whether an undelimited line is maths (LaTeX commands, and no word of prose left once they are removed). */
function mathLine(line: string): boolean {
  if (!COMMAND.test(line)) return false;
  const rest = line.replace(/\\[A-Za-z]+/g, ' ').replace(/\{[^{}]*\}/g, (m) => m.replace(/[A-Za-z]{4,}/g, ''));
  return !/[A-Za-z]{4,}/.test(rest);
}

function render(tex: string, display: boolean): string {
  return katex.renderToString(tex, { throwOnError: false, displayMode: display, trust: false, strict: 'ignore', maxExpand: 200, maxSize: 20, output: 'html' });
}

type Part = { kind: 'text' | 'math' | 'display'; text: string };

export function latexParts(text: string): Part[] {
  const out: Part[] = [];
  const plain = (t: string) => {
    // Undelimited maths line by line; prose stays prose.
    t.split(/(\n)/).forEach((line) => {
      if (line && line !== '\n' && mathLine(line)) out.push({ kind: 'display', text: line });
      else if (line) out.push({ kind: 'text', text: line });
    });
  };
  let at = 0;
  DELIMITED.lastIndex = 0;
  for (let m = DELIMITED.exec(text); m; m = DELIMITED.exec(text)) {
    if (m.index > at) plain(text.slice(at, m.index));
    const display = m[1] !== undefined || m[2] !== undefined;
    out.push({ kind: display ? 'display' : 'math', text: m[1] ?? m[2] ?? m[3] ?? m[4] ?? '' });
    at = m.index + m[0].length;
  }
  if (at < text.length) plain(text.slice(at));
  return out;
}

export function StudentLatex({ text }: { text: string }) {
  const parts = useMemo(() => latexParts(text), [text]);
  return (
    <div className="student-text student-latex" data-testid="student-latex">
      {parts.map((p, i) =>
        p.kind === 'text' ? (
          <Fragment key={i}>{p.text}</Fragment>
        ) : (
          <span key={i} className={p.kind === 'display' ? 'tex tex-block' : 'tex'} dangerouslySetInnerHTML={{ __html: render(p.text, p.kind === 'display') }} />
        ),
      )}
    </div>
  );
}
