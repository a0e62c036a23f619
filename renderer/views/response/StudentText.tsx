// What the student wrote, each equation's source highlighted (and lit while its equation is
// hovered) and tagged with its number as a boxed chip (⟨1⟩, never a superscript, which reads as an
// exponent), with what could not be read and the reader's notes. A response typed in LaTeX is
// shown rendered (KaTeX), the text as typed one click away.
import { Fragment, useMemo, useState } from 'react';
import type { ResponseDetail } from '../../../shared/api.ts';
import { StudentLatex, looksLikeLatex } from '../../student-latex.tsx';

/** The card: the text, the spans not read with confidence, and the reader's notes. */
export function StudentCard({ d, hover }: { d: ResponseDetail; hover: number | null }) {
  // The held-back equations and the readers' lists have cards of their own: their notes are not repeated here.
  const notes = (d.current?.notes ?? []).filter(
    (n) => !(d.heldBack.length > 0 && n.kind === 'held-back') && !(d.readings.length > 1 && n.kind === 'disagreement'),
  );
  const latex = looksLikeLatex(d.text);
  const [asTyped, setAsTyped] = useState(false);
  return (
    <div className="card">
      {latex && (
        <button className="link text-toggle" onClick={() => setAsTyped(!asTyped)} data-testid="text-toggle">
          {asTyped ? 'show the LaTeX rendered' : 'show the text as typed'}
        </button>
      )}
      <h2>What the student wrote</h2>
      {latex && !asTyped ? <StudentLatex text={d.text} /> : <StudentText text={d.text} spans={(d.current?.equations ?? []).map((e) => e.span)} hover={hover} />}
      {(d.current?.unread.length ?? 0) > 0 && (
        <div className="banner warn">
          <strong>Not read with confidence:</strong>
          <ul>
            {d.current!.unread.map((u, i) => (
              <li key={i}>
                “{u.text}”: {u.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.length > 0 && (
        <ul className="notes muted">
          {notes.map((n, i) => (
            <li key={i}>{n.text}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function StudentText({ text, spans, hover }: { text: string; spans: ({ start: number; end: number } | undefined)[]; hover: number | null }) {
  const parts = useMemo(() => {
    const marks = spans
      .map((s, i) => (s && s.end > s.start && s.end <= text.length ? { ...s, i } : null))
      .filter((x): x is { start: number; end: number; i: number } => x !== null)
      .sort((a, b) => a.start - b.start);
    const out: { text: string; eq: number[] }[] = [];
    let at = 0;
    for (const m of marks) {
      if (m.start < at) {
        // Overlaps the previous highlight (a chain a = b = c gives two equations): share it.
        const last = out[out.length - 1];
        if (last && m.end <= at) last.eq.push(m.i);
        continue;
      }
      if (m.start > at) out.push({ text: text.slice(at, m.start), eq: [] });
      out.push({ text: text.slice(m.start, m.end), eq: [m.i] });
      at = m.end;
    }
    out.push({ text: text.slice(at), eq: [] });
    return out;
  }, [text, spans]);
  if (!text.trim()) return <p className="muted">(blank response)</p>;
  return (
    <div className="student-text" data-testid="student-text">
      {parts.map((p, k) =>
        p.eq.length ? (
          <mark key={k} className={p.eq.includes(hover ?? -1) ? 'hot' : ''} title={`equation ${p.eq.map((i) => i + 1).join(', ')}`}>
            {p.text}
            <span className="eq-tag" aria-label={`equation ${p.eq.map((i) => i + 1).join(', ')}`} data-eq-tag>
              ⟨{p.eq.map((i) => i + 1).join(',')}⟩
            </span>
          </mark>
        ) : (
          <Fragment key={k}>{p.text}</Fragment>
        ),
      )}
    </div>
  );
}
