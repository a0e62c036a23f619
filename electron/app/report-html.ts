// One student's report as a self-contained HTML page: what they wrote, the equations read
// (rendered by KaTeX on this side, so the page needs no script), each mark and why, the
// instructor's reasons, and their regrade requests with the replies. KaTeX's stylesheet is
// inlined with its fonts as data: URLs, so the file shows the same maths offline, anywhere.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import katex from 'katex';
import type { ApiResponse } from '../../shared/api.ts';
import type { Exam } from '../../shared/exam.ts';
import { verdictLine } from '../../shared/format/verdict.ts';

type Detail = ApiResponse<'response.get'>;

let katexCss: string | null = null;

/** KaTeX's CSS with every font it names inlined (woff2 only: every current browser reads it). */
function inlinedKatexCss(): string {
  if (katexCss !== null) return katexCss;
  const dir = dirname(createRequire(import.meta.url).resolve('katex/dist/katex.min.css'));
  const css = readFileSync(join(dir, 'katex.min.css'), 'utf8');
  katexCss = css.replace(/src:([^;}]*)/g, (_m, srcs: string) => {
    const woff2 = /url\((fonts\/[^)]+\.woff2)\)/.exec(srcs)?.[1];
    if (!woff2) return `src:${srcs}`;
    const data = readFileSync(join(dir, woff2)).toString('base64');
    return `src:url(data:font/woff2;base64,${data}) format("woff2")`;
  });
  return katexCss;
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const tex = (latex: string, display = false): string => katex.renderToString(latex, { throwOnError: false, displayMode: display, output: 'htmlAndMathml' });

const fmt = (n: number | null): string => (n === null ? 'open' : Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000));

function section(d: Detail, exam: Exam): string {
  const q = exam.questions.find((x) => x.id === d.questionId);
  const eqs = d.current?.equations ?? [];
  const items = d.items
    .map((it) => {
      const ev = it.evidence[0];
      // In words first; the engine's verdict (method, counterexample) one click away.
      const how = ev
        ? `<details><summary>how this was decided</summary>${
            ev.followThrough?.relation ? `Checked against ${esc(ev.followThrough.relation)}, this item's relation with your own result put in: ` : ''
          }${esc(verdictLine(ev.forward))}${ev.backward ? `; the reverse: ${esc(verdictLine(ev.backward))}` : ''}</details>`
        : '';
      const num = ev?.numeric;
      const why =
        ev && num
          ? `${esc(num.source === 'stated' ? `You wrote ${num.written}: ` : `Your equation ${ev.studentIndex + 1} with the question's values: `)}${esc(num.note)}.${
              it.outcome === 'undecided' ? ' The instructor looks at it.' : ''
            }${how}`
          : ev
            ? `${
                it.outcome === 'awarded' && ev.followThrough
                  ? `Earned by follow-through from your equation ${ev.followThrough.fromStudent.map((k) => k + 1).join(', ')}: your result for item ${esc(
                      ev.followThrough.fromItem,
                    )} was wrong, but your equation ${ev.studentIndex + 1} follows correctly from it.`
                  : it.outcome === 'awarded'
                    ? `Earned by your equation ${ev.studentIndex + 1}.`
                    : it.outcome === 'undecided'
                      ? 'Not decided automatically: the instructor looks at it.'
                      : 'Not earned: none of your equations gives an accepted form.'
              }${how}`
            : it.outcome === 'manual'
              ? 'Marked by the instructor.'
              : esc(it.note ?? '');
      const ov = it.override ? `<div class="ov">Set by the instructor: “${esc(it.override.comment)}” (automatic mark ${fmt(it.awarded)})</div>` : '';
      return `<tr><td class="id">${esc(it.itemId)}</td><td>${esc(it.description)}<div class="why">${why}</div>${ov}</td><td class="m">${fmt(it.final)} / ${fmt(it.available)}</td></tr>`;
    })
    .join('');
  const regrades = (d.regrades ?? [])
    .map(
      (r) =>
        `<div class="rq"><div><strong>Your request</strong> (${esc(r.requestedOn)}): ${esc(r.body)}</div>${
          r.reply === null
            ? '<div class="muted">Not answered yet.</div>'
            : `<div><strong>Reply</strong> (${esc(r.resolvedAt?.slice(0, 10) ?? '')}): ${esc(r.reply)}</div>${
                r.changes.length
                  ? `<div class="muted">Marks changed: ${r.changes.map((c) => `${esc(c.itemId)} ${fmt(c.from)} → ${fmt(c.to)}`).join(', ')}</div>`
                  : ''
              }`
        }</div>`,
    )
    .join('');
  return `<section>
<h2>Question ${esc(d.questionId)}${q?.title ? `: ${esc(q.title)}` : ''} <span class="total">${fmt(d.total)} / ${fmt(d.available)}</span></h2>
<h3>What you wrote</h3>
<pre class="text">${esc(d.text) || '<span class="muted">(nothing)</span>'}</pre>
<h3>Equations read</h3>
${eqs.length ? `<ol class="eqs">${eqs.map((e) => `<li>${tex(e.latex, true)}</li>`).join('')}</ol>` : '<p class="muted">None.</p>'}
${d.inconsistent.length ? `<p class="warn">${d.inconsistent.map((x) => `${esc(x.student)} has no solution under the question's assumptions, so it earns nothing.`).join(' ')}</p>` : ''}
<h3>Marks</h3>
<table><thead><tr><th>Item</th><th>What it asks, and why</th><th>Mark</th></tr></thead><tbody>${items}</tbody></table>
${regrades ? `<h3>Regrade requests</h3>${regrades}` : ''}
</section>`;
}

/** The report of one student over every question they answered. */
export function studentReportHtml(exam: Exam, studentId: string, details: Detail[]): string {
  const total = details.reduce((s, d) => s + (d.total ?? 0), 0);
  const available = details.reduce((s, d) => s + d.available, 0);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(exam.title || exam.id)}: ${esc(studentId)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${inlinedKatexCss()}</style>
<style>
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;max-width:52rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.25rem;border-bottom:1px solid #d8dde6;padding-bottom:.3rem;margin-top:2.2rem}
h3{font-size:1rem;color:#4a5568;margin:1.2rem 0 .4rem}.total{float:right;font-weight:600}
pre.text{white-space:pre-wrap;font:inherit;background:#f6f7f9;border-left:3px solid #c7ced9;padding:.6rem .9rem;margin:0}
ol.eqs li{margin:.2rem 0}.katex-display{margin:.3rem 0;text-align:left}.katex-display>.katex{text-align:left}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.45rem .5rem;border-bottom:1px solid #e6e9ef}
td.id{font-weight:600;width:2.5rem}td.m{white-space:nowrap;width:5rem;font-variant-numeric:tabular-nums}
.why{color:#4a5568;font-size:.9rem}.ov{color:#6b3fa0;font-size:.9rem}.muted{color:#6b7280}.warn{color:#9a3412}
details summary{cursor:pointer;font-size:.85rem}details{font-size:.85rem}
.rq{background:#f6f7f9;padding:.5rem .8rem;margin:.4rem 0;border-radius:4px}
.summary{font-size:1.1rem}
</style></head><body>
<h1>${esc(exam.title || exam.id)}</h1>
<p class="summary">Student <strong>${esc(studentId)}</strong> · total <strong>${fmt(total)} / ${fmt(available)}</strong></p>
${details.map((d) => section(d, exam)).join('\n')}
<p class="muted">Marked with Equimark: each mark comes from the marking scheme, checked by a symbolic engine; the instructor's changes are shown with their reasons.</p>
</body></html>
`;
}
