// One response: the text with each equation's source highlighted, the equations in KaTeX with
// their SymPy source editable (checked as you type), every reading side by side when models
// disagree, each scheme item's mark with its evidence, and overrides with a required comment.
// Keys: n / j next response needing review, p / k previous, Escape back to the table.
import { useEffect, useState } from 'react';
import { api } from '../../api.ts';
import type { Nav } from '../../nav.ts';
import { Chips } from '../../chips.tsx';
import { download, errorText } from '../../util.ts';
import type { ResponseDetail, SympyDetail } from '../../../shared/api.ts';
import { StudentCard } from './StudentText.tsx';
import { EquationsEditor } from './Equations.tsx';
import { HeldBack } from './HeldBack.tsx';
import { Readings } from './Readings.tsx';
import { Marks } from './Items.tsx';
import { SympyPanel } from './Evidence.tsx';
import { History } from './History.tsx';
import { EarlierChanges } from './Earlier.tsx';

export function ResponseView({ nav, responseId }: { nav: Nav; responseId: string }) {
  const [d, setD] = useState<ResponseDetail>();
  const [error, setError] = useState<string>();
  const [hover, setHover] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    setD(undefined);
    api['response.get']({ responseId }).then(
      (x) => live && setD(x),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [responseId]);
  // SymPy's evidence still being computed: ask again shortly (the marks are already shown). Kept
  // apart from `d`, so a late answer never resets equations being edited.
  const [lateSympy, setLateSympy] = useState<SympyDetail>();
  useEffect(() => setLateSympy(undefined), [d]);
  const sympy = lateSympy ?? d?.sympy;
  useEffect(() => {
    if (sympy?.state !== 'pending' || d?.responseId !== responseId) return;
    const t = setTimeout(
      () =>
        api['response.get']({ responseId }).then(
          (x) => x.responseId === responseId && setLateSympy(x.sympy),
          () => {},
        ),
      600,
    );
    return () => clearTimeout(t);
  }, [sympy, d, responseId]);

  const queue = nav.queue;
  const idx = queue.findIndex((r) => r.responseId === responseId);
  const step = (dir: 1 | -1, needing: boolean) => {
    for (let i = idx + dir; i >= 0 && i < queue.length; i += dir) if (!needing || queue[i].needsReview) return nav.openResponse(queue[i].responseId);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return;
      if (e.key === 'n' || e.key === 'j') step(1, e.key === 'n');
      else if (e.key === 'p' || e.key === 'k') step(-1, e.key === 'p');
      else if (e.key === 'Escape') nav.go('review');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (error) return <div className="banner error">{error}</div>;
  if (!d) return <div className="muted">Loading…</div>;
  const hasNextReview = queue.slice(idx + 1).some((r) => r.needsReview);
  return (
    <section className="detail" data-testid="response-detail" data-response-id={d.responseId}>
      <div className="row spread">
        <div>
          <button className="link" onClick={() => nav.go('review')}>
            ← All responses
          </button>
          <h1>
            {d.studentId} · {d.questionId}
          </h1>
          <Chips chips={d.chips} />
        </div>
        <div className="total-side">
          <div className="total-box" data-testid="detail-total">
            <span className="big">{d.total ?? '—'}</span>
            <span className="muted">/ {d.available}</span>
          </div>
          <button
            className="link small"
            data-testid="detail-report"
            title="What the student wrote, the equations read and why each mark was given"
            onClick={() =>
              api['export.report']({ responseId: d.responseId }).then(
                (r) => download(r.fileName, r.text, 'text/plain'),
                (e) => setError(errorText(e)),
              )
            }
          >
            Download the report for the student
          </button>
        </div>
      </div>
      <div className="row nav-keys">
        <button disabled={idx <= 0} onClick={() => step(-1, false)}>
          ← Previous <kbd>k</kbd>
        </button>
        <button disabled={idx < 0 || idx >= queue.length - 1} onClick={() => step(1, false)}>
          Next <kbd>j</kbd> →
        </button>
        <button className={hasNextReview ? 'primary' : ''} disabled={!hasNextReview} onClick={() => step(1, true)}>
          Next needing review <kbd>n</kbd>
        </button>
        {idx >= 0 && (
          <span className="muted small">
            {idx + 1} of {queue.length}
          </span>
        )}
      </div>
      <EarlierChanges d={d} onSaved={setD} />
      <div className="columns">
        <StudentCard d={d} hover={hover} />
        <div className="column-stack">
          <EquationsEditor d={d} onSaved={setD} onHover={setHover} />
          {d.heldBack.length > 0 && <HeldBack d={d} onSaved={setD} />}
        </div>
      </div>
      {d.readings.length > 1 && <Readings d={d} />}
      <Marks d={d} sympy={sympy} onSaved={setD} />
      {sympy && <SympyPanel s={sympy} target={d.target} />}
      <History audit={d.audit} />
    </section>
  );
}
