// Review: every response in one virtualised table (thousands stay smooth), with status chips,
// filters, sorting and marks per scheme item. Filters, search, sort and the focused row live in
// the address (nav.ts), the scroll beside it: going back from a response finds the list as it was.
// Keys: ↓/↑ or j/k move between rows, Home/End, Enter opens, / goes to the search.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { api } from '../api.ts';
import { filterRows, routeToHash, type Nav, type SortKey } from '../nav.ts';
import { Chips, CHIP_LABEL } from '../chips.tsx';
import { errorText } from '../util.ts';
import { CHIPS, type ApiResponse } from '../../shared/api.ts';

type List = ApiResponse<'review.list'>;

/** The last list loaded, shown at once when the view comes back (and refreshed behind it). */
let lastList: { examId: string; data: List } | null = null;
/** The table's scroll per list (its filters), for this tab: kept across views and reloads. */
const scrollKey = (examId: string, nav: Nav) =>
  `equimark-review-scroll:${routeToHash({ view: 'review', examId, responseId: null, review: nav.review, focus: null })}`;

function useReviewList(examId: string): [List | undefined, string | undefined] {
  const [data, setData] = useState<List | undefined>(lastList?.examId === examId ? lastList.data : undefined);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    setData(lastList?.examId === examId ? lastList.data : undefined);
    api['review.list']({ examId }).then(
      (d) => {
        lastList = { examId, data: d };
        if (live) setData(d);
      },
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [examId]);
  return [data, error];
}

export function ReviewView({ nav, examId }: { nav: Nav; examId: string }) {
  const [data, error] = useReviewList(examId);
  const f = nav.review;
  const rows = useMemo(() => filterRows(data?.rows ?? [], f), [data, f]);

  const questions = Object.keys(data?.items ?? {});
  const itemCols = f.question === 'all' ? [] : (data?.items[f.question] ?? []);
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => 52, overscan: 12 });
  const needing = (data?.rows ?? []).filter((r) => r.needsReview).length;
  const openManual = (data?.rows ?? []).filter((r) => (r.openManual?.length ?? 0) > 0).length;

  // The focused row: the address's, else the first. Moving focus keeps it in the address (replaced, not a new entry).
  const focusIndex = Math.max(
    0,
    rows.findIndex((r) => r.responseId === nav.focus),
  );
  const focusId = rows[focusIndex]?.responseId ?? null;
  const [wantFocus, setWantFocus] = useState(true);
  const moveTo = (i: number) => {
    const k = Math.min(rows.length - 1, Math.max(0, i));
    if (!rows[k]) return;
    nav.setFocus(rows[k].responseId);
    virtual.scrollToIndex(k, { align: 'auto' });
    setWantFocus(true);
  };
  // Restore the scroll once the rows are there, then put the keyboard's focus on the focused row.
  const restored = useRef(false);
  useLayoutEffect(() => {
    if (restored.current || !rows.length || !parent.current) return;
    restored.current = true;
    const saved = Number(sessionStorage.getItem(scrollKey(examId, nav)) ?? 'NaN');
    if (Number.isFinite(saved)) parent.current.scrollTop = saved;
    const rowTop = focusIndex * 52;
    const el = parent.current;
    if (rowTop < el.scrollTop || rowTop > el.scrollTop + el.clientHeight - 52) virtual.scrollToIndex(focusIndex, { align: 'center' });
  });
  const shownFrom = virtual.getVirtualItems()[0]?.index ?? -1;
  useEffect(() => {
    if (!wantFocus || !focusId) return;
    const el = parent.current?.querySelector<HTMLElement>(`[data-response="${CSS.escape(focusId)}"]`);
    if (!el) return; // not rendered yet: tried again once the table has scrolled to it
    // Never take the focus from a filter being typed in.
    const typing = document.activeElement && ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement.tagName);
    if (!typing) el.focus({ preventScroll: true });
    setWantFocus(false);
  }, [wantFocus, focusId, rows, shownFrom]);
  const onScroll = () => {
    if (parent.current) sessionStorage.setItem(scrollKey(examId, nav), String(Math.round(parent.current.scrollTop)));
  };

  const onKey = (e: React.KeyboardEvent) => {
    const page = Math.max(1, Math.floor((parent.current?.clientHeight ?? 520) / 52) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) moveTo(focusIndex + moves[e.key]);
    else if (e.key === 'Home') moveTo(0);
    else if (e.key === 'End') moveTo(rows.length - 1);
    else if (e.key === 'Enter' && focusId) nav.openResponse(focusId, rows);
    else if (e.key === '/') document.querySelector<HTMLInputElement>('.review input[type="search"]')?.focus();
    else return;
    e.preventDefault();
  };

  const notGraded = (data?.rows ?? []).filter((r) => r.chips.includes('not-graded')).length;
  const th = (key: SortKey, label: string) => (
    <button className="th" onClick={() => nav.setReview({ sort: key, dir: f.sort === key ? (-f.dir as 1 | -1) : 1 })}>
      {label}
      {f.sort === key ? (f.dir === 1 ? ' ▲' : ' ▼') : ''}
    </button>
  );
  // Narrow minimums so that the Total column stays on screen at 1,024 px with every item shown.
  const grid = `minmax(64px, 96px) 34px minmax(90px, 1fr) minmax(110px, 1.1fr) ${itemCols.map(() => '30px').join(' ')} 58px`;

  return (
    <section className="review">
      <h1>Review</h1>
      {error && <div className="banner error">{error}</div>}
      {!data && !error && (
        <p className="muted" data-testid="review-loading">
          Loading the responses…
        </p>
      )}
      {data && data.rows.length === 0 && (
        <div className="empty">
          <p>No responses yet. Import the class's CSV first.</p>
          <button className="primary" onClick={() => nav.go('responses')}>
            Import responses
          </button>
        </div>
      )}
      {data && data.rows.length > 0 && (
        <>
          <p className="lead">
            {needing ? (
              <>
                <strong>{needing}</strong> of {data.rows.length} responses need your eyes.{' '}
              </>
            ) : notGraded ? (
              <>
                <strong>{notGraded}</strong> of {data.rows.length} responses are not graded yet.
              </>
            ) : (
              <>All {data.rows.length} responses were read with confidence. </>
            )}
            {openManual > 0 && (
              <>
                <strong>{openManual}</strong> wait for a manual mark.{' '}
              </>
            )}
            Move with <kbd>↑</kbd> <kbd>↓</kbd>, open with <kbd>Enter</kbd>; in a response, type a manual item's mark (<kbd>0</kbd>…) and press <kbd>Enter</kbd>{' '}
            for the next one needing you.
          </p>
          <div className="filters row">
            <select aria-label="question" value={f.question} onChange={(e) => nav.setReview({ question: e.target.value })}>
              <option value="all">All questions</option>
              {questions.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
            <select aria-label="status" value={f.chip} onChange={(e) => nav.setReview({ chip: e.target.value })}>
              <option value="all">Any status</option>
              {CHIPS.map((c) => (
                <option key={c} value={c}>
                  {CHIP_LABEL[c]}
                </option>
              ))}
            </select>
            <label className="check">
              <input type="checkbox" checked={f.onlyReview} onChange={(e) => nav.setReview({ onlyReview: e.target.checked })} /> only those needing review
            </label>
            <label className="check">
              <input type="checkbox" data-testid="filter-manual" checked={f.onlyManual} onChange={(e) => nav.setReview({ onlyManual: e.target.checked })} />{' '}
              only open manual items
            </label>
            <input
              type="search"
              placeholder="Search student or text"
              aria-label="search"
              value={f.search}
              onChange={(e) => nav.setReview({ search: e.target.value })}
            />
            <span className="muted small" data-testid="shown">
              {rows.length} shown
            </span>
          </div>
          <div className="vtable" role="table" aria-rowcount={rows.length}>
            <div className="vrow vhead" role="row" style={{ gridTemplateColumns: grid }}>
              {th('student', 'Student')}
              {th('question', 'Q')}
              <span>Answer (start)</span>
              {th('status', 'Status')}
              {itemCols.map((it) => (
                <span key={it.id} className="num" title={`item ${it.id} (${it.marks})`}>
                  {it.id}
                </span>
              ))}
              {th('total', 'Total')}
            </div>
            <div ref={parent} className="vbody" data-testid="review-table" onKeyDown={onKey} onScroll={onScroll}>
              <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
                {virtual.getVirtualItems().map((v) => {
                  const r = rows[v.index];
                  return (
                    <div
                      key={r.responseId}
                      role="row"
                      tabIndex={r.responseId === focusId ? 0 : -1}
                      data-response={r.responseId}
                      className={`vrow ${r.needsReview ? 'attention' : ''} ${r.responseId === focusId ? 'current' : ''}`}
                      style={{ transform: `translateY(${v.start}px)`, height: v.size, gridTemplateColumns: grid }}
                      onClick={() => nav.openResponse(r.responseId, rows)}
                      onFocus={() => r.responseId !== focusId && nav.setFocus(r.responseId)}
                    >
                      <span className="mono ellipsis">{r.studentId}</span>
                      <span>{r.questionId}</span>
                      <span className="excerpt">{r.excerpt || <em className="muted">(blank)</em>}</span>
                      <Chips chips={r.chips} />
                      {itemCols.map((it) => (
                        <span key={it.id} className={`num ${r.openManual?.includes(it.id) ? 'open-manual' : ''}`}>
                          {r.marks[it.id] ?? '·'}
                        </span>
                      ))}
                      <span className="num strong" data-total>
                        {r.total ?? '—'}/{r.available}
                      </span>
                    </div>
                  );
                })}
              </div>
            </div>
          </div>
          <p className="muted small">Choose one question to see the marks for each scheme item.</p>
        </>
      )}
    </section>
  );
}
