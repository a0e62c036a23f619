// One response: the text with each equation's source highlighted, the equations in KaTeX with
// their SymPy source editable (checked as you type), every reading side by side when models
// disagree, the reader's choices (a reading to pick where the text can be read more than one
// way), each scheme item's mark with its evidence, and marks by hand.
// Keys (grading at keyboard speed: a manual item takes ≤ 2 keystrokes per response):
//   0…9 mark the active manual item (then the next open one of this response is active, or the
//   focus goes to "Next needing you"), Enter or n next response needing the instructor, p previous
//   one, j / k next / previous response, Escape back to the list (as it was left).
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api.ts';
import { needsInstructor, type Nav } from '../../nav.ts';
import { Chips } from '../../chips.tsx';
import { download, errorText } from '../../util.ts';
import type { ResponseDetail, SympyDetail } from '../../../shared/api.ts';
import { StudentCard } from './StudentText.tsx';
import { EquationsEditor } from './Equations.tsx';
import { HeldBack } from './HeldBack.tsx';
import { Choices } from './Choices.tsx';
import { Readings } from './Readings.tsx';
import { Marks, QuickMark, isManual } from './Items.tsx';
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
  const [said, setSaid] = useState<string>();
  const step = (dir: 1 | -1, needing: boolean) => {
    for (let i = idx + dir; i >= 0 && i < queue.length; i += dir) if (!needing || needsInstructor(queue[i])) return nav.openResponse(queue[i].responseId);
    setSaid(needing ? 'No response after this one needs you in this list. Escape goes back to it.' : undefined);
  };

  // The manual item the number keys mark: the first one still open, else the first manual item.
  const [active, setActive] = useState<string | null>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const manualItems = (d?.items ?? []).filter(isManual);
  const focusFor = (itemId: string | null) => {
    // Focus lands where the next keystroke goes: the item to mark, or the way to the next response.
    requestAnimationFrame(() => {
      const el = itemId ? document.querySelector<HTMLElement>(`[data-quick="${CSS.escape(itemId)}"]`) : null;
      (el ?? nextButton.current)?.focus({ preventScroll: true });
    });
  };
  const arrived = useRef<string | null>(null);
  useEffect(() => {
    if (!d || arrived.current === d.responseId) return;
    arrived.current = d.responseId;
    setSaid(undefined);
    const open = d.openManual ?? manualItems.filter((it) => it.final === null).map((it) => it.itemId);
    const first = open[0] ?? manualItems[0]?.itemId ?? null;
    setActive(first);
    focusFor(first);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [d]);

  const saved = (x: ResponseDetail) => {
    setD(x);
    nav.updateQueued({
      responseId: x.responseId,
      marks: Object.fromEntries(x.items.map((i) => [i.itemId, i.final])),
      total: x.total,
      chips: x.chips,
      ...(x.needsReview !== undefined ? { needsReview: x.needsReview } : {}),
      ...(x.openManual ? { openManual: x.openManual } : {}),
    });
  };
  const quickMark = async (itemId: string, marks: number) => {
    const it = d?.items.find((i) => i.itemId === itemId);
    if (!d || !it) return;
    if (marks > it.available) return setSaid(`Item ${itemId} is worth ${it.available}: ${marks} is more than that.`);
    setSaid(undefined);
    // Where the next keystroke goes is decided now, not when the reply comes: the next open manual item, or "next".
    const after = manualItems.filter((m) => m.itemId !== itemId && m.final === null).map((m) => m.itemId);
    const nextItem = after.find((m) => manualItems.findIndex((x) => x.itemId === m) > manualItems.findIndex((x) => x.itemId === itemId)) ?? after[0] ?? null;
    if (nextItem) setActive(nextItem);
    focusFor(nextItem);
    try {
      const x = await api['response.override']({ responseId: d.responseId, itemId, marks });
      if (x.responseId === responseIdRef.current) saved(x);
      else nav.updateQueued({ responseId: x.responseId, ...(x.openManual ? { openManual: x.openManual } : {}), total: x.total });
    } catch (e) {
      setSaid(`Item ${itemId} was not marked: ${errorText(e)}`);
    }
  };
  const responseIdRef = useRef(responseId);
  responseIdRef.current = responseId;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      // A key already used (the list's Enter that opened this response) is not used twice.
      if (e.defaultPrevented) return;
      if (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || e.ctrlKey || e.metaKey || e.altKey) return;
      // Enter on a button or a link is that button's; anywhere else it goes on.
      if (e.key === 'Enter' && (t.tagName === 'BUTTON' || t.tagName === 'A' || t.tagName === 'SUMMARY')) return;
      if (/^[0-9]$/.test(e.key) && active) quickMark(active, Number(e.key));
      else if (e.key === 'n' || e.key === 'Enter') step(1, true);
      else if (e.key === 'j') step(1, false);
      else if (e.key === 'p') step(-1, true);
      else if (e.key === 'k') step(-1, false);
      else if (e.key === 'Escape') nav.go('review');
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (error) return <div className="banner error">{error}</div>;
  if (!d) return <div className="muted">Loading…</div>;
  const hasNextReview = queue.slice(idx + 1).some(needsInstructor);
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
        <button ref={nextButton} className={hasNextReview ? 'primary' : ''} onClick={() => step(1, true)} data-testid="next-needing">
          Next needing you <kbd>Enter</kbd> <kbd>n</kbd>
        </button>
        {idx >= 0 && (
          <span className="muted small">
            {idx + 1} of {queue.length}
          </span>
        )}
      </div>
      {manualItems.length > 0 && (
        <div className="manual-bar card" data-testid="manual-bar">
          {manualItems.map((it) => (
            <div key={it.itemId} className={`manual-item ${active === it.itemId ? 'active' : ''}`} onClick={() => setActive(it.itemId)}>
              <span className="manual-label">
                <strong>{it.itemId}</strong> <span className="muted small">{it.description}</span>
              </span>
              <QuickMark it={it} active={active === it.itemId} onMark={(v) => (setActive(it.itemId), quickMark(it.itemId, v))} focusTarget />
              <span className="muted small" data-testid={`manual-mark-${it.itemId}`}>
                {it.final === null ? 'open' : `${it.final} / ${it.available}`}
              </span>
            </div>
          ))}
          <span className="muted small">
            Type the mark, then <kbd>Enter</kbd> for the next response needing you.
          </span>
        </div>
      )}
      <EarlierChanges d={d} onSaved={setD} />
      <div className="columns">
        <StudentCard d={d} hover={hover} />
        <div className="column-stack">
          <EquationsEditor d={d} onSaved={saved} onHover={setHover} />
          <Choices d={d} onSaved={saved} />
          {d.heldBack.length > 0 && <HeldBack d={d} onSaved={saved} />}
        </div>
      </div>
      {d.readings.length > 1 && <Readings d={d} />}
      {said && (
        <div className="banner warn" role="status">
          {said}
        </div>
      )}
      <Marks d={d} sympy={sympy} onSaved={saved} active={active} onQuickMark={quickMark} />
      {sympy && <SympyPanel s={sympy} target={d.target} />}
      <History audit={d.audit} />
    </section>
  );
}
