// Review: every response in one virtualised table (thousands stay smooth), with status chips,
// filters, sorting and marks per scheme item. Filters, search, sort and the focused row live in
// the address (nav.ts), the scroll beside it: going back from a response finds the list as it was.
// A list of up to WHOLE_LIST rows is held whole and filtered at once as the instructor types; a
// longer one (an olympiad: 67,500) is filtered, searched and sorted by the main process, and its
// rows are fetched a page at a time as they come into view (review-query.ts).
// Keys: ↓/↑ or j/k move between rows, Home/End, Enter opens, / goes to the search.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { api } from '../api.ts';
import { filterRows, routeToHash, type Nav, type ReviewFilters, type SortKey } from '../nav.ts';
import { Chips, CHIP_LABEL } from '../chips.tsx';
import { errorText } from '../util.ts';
import { CHIPS, type ApiResponse, type ReviewRow } from '../../shared/api.ts';
import { filtersRequest, PAGE, WHOLE_LIST } from '../review-query.ts';

type List = ApiResponse<'review.list'>;
type Counts = NonNullable<List['counts']>;
/**
 * What the view knows of the exam's list: every row when it is short (else null), the items, the
 * counts (null while the main process still reads a long list: `all` is then known, the others
 * are being counted and never shown as final).
 */
type Base = { examId: string; whole: ReviewRow[] | null; items: List['items']; counts: Counts | null; all: number };
/** Pages of a long list under one set of filters (`key`). */
type Pages = { key: string; total: number; counts: Counts | null; located: { id: string; at: number | null } | null; rows: Map<number, ReviewRow[]> };

/** The last list loaded, shown at once when the view comes back (and refreshed behind it). */
let lastBase: Base | null = null;
/** The table's scroll per list (its filters), for this tab: kept across views and reloads. */
const scrollKey = (examId: string, nav: Nav) =>
  `equimark-review-scroll:${routeToHash({ view: 'review', examId, responseId: null, review: nav.review, focus: null })}`;

const countsOf = (rows: readonly ReviewRow[]): Counts => ({
  all: rows.length,
  needing: rows.filter((r) => r.needsReview).length,
  openManual: rows.filter((r) => (r.openManual?.length ?? 0) > 0).length,
  notGraded: rows.filter((r) => r.chips.includes('not-graded')).length,
});

/** The rows under the filters: all of them in hand (a short list), or the pages fetched so far (a long one). */
type Shown = {
  base: Base | undefined;
  error: string | undefined;
  /** Whether the rows under the current filters are known (a long list: its first page came). */
  ready: boolean;
  total: number;
  counts: Counts | null;
  rowAt(i: number): ReviewRow | undefined;
  /** The row's place in the filtered list, -1 when not known. */
  indexOf(id: string | null): number;
  /** The rows held, in the list's order (the detail view's queue). */
  held(): ReviewRow[];
  /** Fetch the pages holding rows `from`..`to` (a long list). */
  ensure(from: number, to: number): void;
};

function useReviewRows(examId: string, f: ReviewFilters, focus: string | null): Shown {
  const [base, setBase] = useState<Base | undefined>(lastBase?.examId === examId ? lastBase : undefined);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    setBase(lastBase?.examId === examId ? lastBase : undefined);
    // First how long the list is (one row): a long one's rows come by pages; a short one is then read whole.
    const load = async (): Promise<Base> => {
      let d = await api['review.list']({ examId, limit: 1 });
      const total = d.total ?? d.rows.length;
      if (total > 1 && total <= WHOLE_LIST) d = await api['review.list']({ examId, limit: WHOLE_LIST });
      const whole = total <= WHOLE_LIST ? d.rows : null;
      // While a long list is read, its counts are not known yet (`counting`): said so, and read once it is.
      if (d.counting && live)
        api['review.ready']({ examId }).then(
          () => live && load().then(show, fail),
          () => undefined,
        );
      return {
        examId,
        whole,
        items: d.items,
        counts: d.counts ?? (whole && !d.counting ? countsOf(whole) : null),
        all: d.counts?.all ?? d.counting?.all ?? total,
      };
    };
    const show = (b: Base) => {
      lastBase = b;
      if (live) setBase(b);
    };
    const fail = (e: unknown) => live && setError(errorText(e));
    load().then(show, fail);
    return () => {
      live = false;
    };
  }, [examId]);

  // A short list: filtered here, at once.
  const local = useMemo(() => (base?.whole ? filterRows(base.whole, f) : null), [base, f]);

  // A long list: pages under the current filters, fetched as they come into view.
  const key = JSON.stringify([examId, filtersRequest(f)]);
  const keyRef = useRef(key);
  keyRef.current = key;
  const fRef = useRef(f);
  fRef.current = f;
  const [pages, setPages] = useState<Pages | null>(null);
  const inflight = useRef(new Set<string>());
  const fetchPage = useCallback(
    (p: number, locate?: string) => {
      const k = keyRef.current;
      const tag = `${k}\u0000${p}\u0000${locate ?? ''}`;
      if (inflight.current.has(tag)) return;
      inflight.current.add(tag);
      api['review.list']({ examId, ...filtersRequest(fRef.current), offset: p * PAGE, limit: PAGE, ...(locate ? { locate } : {}) }).then(
        (d) => {
          inflight.current.delete(tag);
          if (keyRef.current !== k) return; // the filters changed meanwhile: another answer is coming
          setPages((cur) => {
            const same = cur && cur.key === k ? cur : null;
            const rows = new Map(same?.rows ?? []);
            rows.set(p, d.rows);
            const located = locate ? { id: locate, at: d.located ?? null } : (same?.located ?? null);
            return { key: k, total: d.total ?? d.rows.length, counts: d.counts ?? null, located, rows };
          });
          // The focused row is further down: its page too.
          if (locate && d.located !== null && d.located !== undefined && Math.floor(d.located / PAGE) !== p) fetchPage(Math.floor(d.located / PAGE));
        },
        (e) => {
          inflight.current.delete(tag);
          setError(errorText(e));
        },
      );
    },
    [examId],
  );
  const held = pages?.key === key ? pages : null;
  useEffect(() => {
    if (!base || base.whole) return;
    // New filters, or the list read again: the first page (with where the focused row is), and the pages already shown.
    fetchPage(0, focus ?? undefined);
    for (const p of held?.rows.keys() ?? []) if (p !== 0) fetchPage(p);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, base]);

  if (local)
    return {
      base,
      error,
      ready: true,
      total: local.length,
      counts: base?.counts ?? null,
      rowAt: (i) => local[i],
      indexOf: (id) => (id === null ? -1 : local.findIndex((r) => r.responseId === id)),
      held: () => local,
      ensure: () => {},
    };
  return {
    base,
    error,
    ready: !!held,
    total: held?.total ?? 0,
    counts: held?.counts ?? base?.counts ?? null,
    rowAt: (i) => held?.rows.get(Math.floor(i / PAGE))?.[i % PAGE],
    indexOf: (id) => {
      if (id === null || !held) return -1;
      for (const [p, rows] of held.rows) {
        const k = rows.findIndex((r) => r.responseId === id);
        if (k >= 0) return p * PAGE + k;
      }
      return held.located?.id === id && held.located.at !== null ? held.located.at : -1;
    },
    held: () => [...(held?.rows.entries() ?? [])].sort(([a], [b]) => a - b).flatMap(([, rows]) => rows),
    ensure: (from, to) => {
      if (!held) return;
      for (let p = Math.floor(Math.max(0, from) / PAGE); p <= Math.floor(Math.max(0, to) / PAGE); p++) if (!held.rows.has(p)) fetchPage(p);
    },
  };
}

export function ReviewView({ nav, examId }: { nav: Nav; examId: string }) {
  const f = nav.review;
  const shown = useReviewRows(examId, f, nav.focus);
  const { base, error, counts } = shown;
  const total = shown.total;

  const questions = Object.keys(base?.items ?? {});
  const itemCols = f.question === 'all' ? [] : (base?.items[f.question] ?? []);
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: total, getScrollElement: () => parent.current, estimateSize: () => 52, overscan: 12 });
  const needing = counts?.needing ?? 0;
  const openManual = counts?.openManual ?? 0;
  const all = counts?.all ?? base?.all ?? 0;

  // The focused row: the address's, else the first. Moving focus keeps it in the address (replaced, not a new entry).
  const focusIndex = Math.max(0, shown.indexOf(nav.focus));
  const focusId = shown.rowAt(focusIndex)?.responseId ?? null;
  const [wantFocus, setWantFocus] = useState(true);
  /** A row moved to before its page came: focused when it comes. */
  const [pendingMove, setPendingMove] = useState<number | null>(null);
  const moveTo = (i: number) => {
    const k = Math.min(total - 1, Math.max(0, i));
    if (k < 0) return;
    virtual.scrollToIndex(k, { align: 'auto' });
    const r = shown.rowAt(k);
    if (!r) {
      setPendingMove(k);
      shown.ensure(k, k);
      return;
    }
    nav.setFocus(r.responseId);
    setWantFocus(true);
  };
  const pendingRow = pendingMove === null ? undefined : shown.rowAt(pendingMove);
  useEffect(() => {
    if (!pendingRow) return;
    setPendingMove(null);
    nav.setFocus(pendingRow.responseId);
    setWantFocus(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pendingRow]);
  // Restore the scroll once the rows are there, then put the keyboard's focus on the focused row.
  const restored = useRef(false);
  useLayoutEffect(() => {
    if (restored.current || !shown.ready || !total || !parent.current) return;
    restored.current = true;
    const saved = Number(sessionStorage.getItem(scrollKey(examId, nav)) ?? 'NaN');
    if (Number.isFinite(saved)) parent.current.scrollTop = saved;
    const rowTop = focusIndex * 52;
    const el = parent.current;
    if (rowTop < el.scrollTop || rowTop > el.scrollTop + el.clientHeight - 52) virtual.scrollToIndex(focusIndex, { align: 'center' });
  });
  const visible = virtual.getVirtualItems();
  const shownFrom = visible[0]?.index ?? -1;
  const shownTo = visible[visible.length - 1]?.index ?? -1;
  // A long list: the pages of the rows in view (and the overscan).
  useEffect(() => {
    if (shownFrom >= 0) shown.ensure(shownFrom, shownTo);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownFrom, shownTo, shown.ready, shown.total]);
  useEffect(() => {
    if (!wantFocus || !focusId) return;
    const el = parent.current?.querySelector<HTMLElement>(`[data-response="${CSS.escape(focusId)}"]`);
    if (!el) return; // not rendered yet: tried again once the table has scrolled to it
    // Never take the focus from a filter being typed in.
    const typing = document.activeElement && ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement.tagName);
    if (!typing) el.focus({ preventScroll: true });
    setWantFocus(false);
  }, [wantFocus, focusId, shown, shownFrom]);
  const onScroll = () => {
    if (parent.current) sessionStorage.setItem(scrollKey(examId, nav), String(Math.round(parent.current.scrollTop)));
  };

  const onKey = (e: React.KeyboardEvent) => {
    const page = Math.max(1, Math.floor((parent.current?.clientHeight ?? 520) / 52) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) moveTo(focusIndex + moves[e.key]);
    else if (e.key === 'Home') moveTo(0);
    else if (e.key === 'End') moveTo(total - 1);
    else if (e.key === 'Enter' && focusId) nav.openResponse(focusId, shown.held());
    else if (e.key === '/') document.querySelector<HTMLInputElement>('.review input[type="search"]')?.focus();
    else return;
    e.preventDefault();
  };

  const notGraded = counts?.notGraded ?? 0;
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
      {!base && !error && (
        <p className="muted" data-testid="review-loading">
          Loading the responses…
        </p>
      )}
      {base && all === 0 && (
        <div className="empty">
          <p>No responses yet. Import the class's CSV first.</p>
          <button className="primary" onClick={() => nav.go('responses')}>
            Import responses
          </button>
        </div>
      )}
      {base && all > 0 && (
        <>
          <p className="lead">
            {!counts ? (
              <span data-testid="counting">{all} responses; counting those that need your eyes… </span>
            ) : needing ? (
              <>
                <strong>{needing}</strong> of {all} responses need your eyes.{' '}
              </>
            ) : notGraded ? (
              <>
                <strong>{notGraded}</strong> of {all} responses are not graded yet.
              </>
            ) : (
              <>All {all} responses were read with confidence. </>
            )}
            {counts && openManual > 0 && (
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
            {shown.ready && (
              <span className="muted small" data-testid="shown">
                {total} shown
              </span>
            )}
          </div>
          <div className="vtable" role="table" aria-rowcount={total}>
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
                {visible.map((v) => {
                  const r = shown.rowAt(v.index);
                  if (!r)
                    return (
                      <div
                        key={`waiting-${v.index}`}
                        role="row"
                        className="vrow waiting"
                        style={{ transform: `translateY(${v.start}px)`, height: v.size, gridTemplateColumns: grid }}
                      >
                        <span className="muted">…</span>
                      </div>
                    );
                  return (
                    <div
                      key={r.responseId}
                      role="row"
                      tabIndex={r.responseId === focusId ? 0 : -1}
                      data-response={r.responseId}
                      className={`vrow ${r.needsReview ? 'attention' : ''} ${r.responseId === focusId ? 'current' : ''}`}
                      style={{ transform: `translateY(${v.start}px)`, height: v.size, gridTemplateColumns: grid }}
                      onClick={() => nav.openResponse(r.responseId, shown.held())}
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
