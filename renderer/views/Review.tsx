// Review: every response in one virtualised table (thousands stay smooth), with status chips,
// filters, sorting and marks per scheme item.
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { Chips, CHIP_LABEL } from '../chips.tsx';
import { useLoad } from '../util.ts';
import { CHIPS, type Chip, type ReviewRow } from '../../shared/api.ts';

type SortKey = 'student' | 'question' | 'total' | 'status';

export function ReviewView({ nav, examId }: { nav: Nav; examId: string }) {
  const [data, error] = useLoad(() => api['review.list']({ examId }), [examId]);
  const [question, setQuestion] = useState('all');
  const [chip, setChip] = useState<Chip | 'all'>('all');
  const [onlyReview, setOnlyReview] = useState(false);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'student', dir: 1 });

  const rows = useMemo(() => {
    const list = (data?.rows ?? []).filter(
      (r) =>
        (question === 'all' || r.questionId === question) &&
        (chip === 'all' || r.chips.includes(chip)) &&
        (!onlyReview || r.needsReview) &&
        (!search || r.studentId.toLowerCase().includes(search.toLowerCase()) || r.excerpt.toLowerCase().includes(search.toLowerCase())),
    );
    const cmp: Record<SortKey, (a: ReviewRow, b: ReviewRow) => number> = {
      student: (a, b) => a.studentId.localeCompare(b.studentId) || a.questionId.localeCompare(b.questionId),
      question: (a, b) => a.questionId.localeCompare(b.questionId) || a.studentId.localeCompare(b.studentId),
      total: (a, b) => (a.total ?? -1) - (b.total ?? -1),
      status: (a, b) => Number(b.needsReview) - Number(a.needsReview) || a.chips.join().localeCompare(b.chips.join()),
    };
    return list.sort((a, b) => sort.dir * cmp[sort.key](a, b));
  }, [data, question, chip, onlyReview, search, sort]);

  const questions = Object.keys(data?.items ?? {});
  const itemCols = question === 'all' ? [] : (data?.items[question] ?? []);
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => 52, overscan: 12 });
  const needing = (data?.rows ?? []).filter((r) => r.needsReview).length;
  const notGraded = (data?.rows ?? []).filter((r) => r.chips.includes('not-graded')).length;
  const th = (key: SortKey, label: string) => (
    <button className="th" onClick={() => setSort((s) => ({ key, dir: s.key === key ? (-s.dir as 1 | -1) : 1 }))}>
      {label}
      {sort.key === key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
    </button>
  );
  const grid = `110px 60px minmax(200px, 1fr) minmax(220px, 1.2fr) ${itemCols.map(() => '44px').join(' ')} 70px`;

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
                <strong>{needing}</strong> of {data.rows.length} responses need your eyes. Open one and press <kbd>n</kbd> to go to the next.
              </>
            ) : notGraded ? (
              <>
                <strong>{notGraded}</strong> of {data.rows.length} responses are not graded yet.
              </>
            ) : (
              <>All {data.rows.length} responses were read with confidence. Spot-check a few, or look at the answer groups.</>
            )}
          </p>
          <div className="filters row">
            <select aria-label="question" value={question} onChange={(e) => setQuestion(e.target.value)}>
              <option value="all">All questions</option>
              {questions.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
            <select aria-label="status" value={chip} onChange={(e) => setChip(e.target.value as Chip | 'all')}>
              <option value="all">Any status</option>
              {CHIPS.map((c) => (
                <option key={c} value={c}>
                  {CHIP_LABEL[c]}
                </option>
              ))}
            </select>
            <label className="check">
              <input type="checkbox" checked={onlyReview} onChange={(e) => setOnlyReview(e.target.checked)} /> only those needing review
            </label>
            <input type="search" placeholder="Search student or text" aria-label="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            <span className="muted small">{rows.length} shown</span>
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
            <div ref={parent} className="vbody" data-testid="review-table">
              <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
                {virtual.getVirtualItems().map((v) => {
                  const r = rows[v.index];
                  return (
                    <div
                      key={r.responseId}
                      role="row"
                      tabIndex={0}
                      data-response={r.responseId}
                      className={`vrow ${r.needsReview ? 'attention' : ''}`}
                      style={{ transform: `translateY(${v.start}px)`, height: v.size, gridTemplateColumns: grid }}
                      onClick={() => nav.openResponse(r.responseId, rows)}
                      onKeyDown={(e) => e.key === 'Enter' && nav.openResponse(r.responseId, rows)}
                    >
                      <span className="mono">{r.studentId}</span>
                      <span>{r.questionId}</span>
                      <span className="excerpt">{r.excerpt || <em className="muted">(blank)</em>}</span>
                      <Chips chips={r.chips} />
                      {itemCols.map((it) => (
                        <span key={it.id} className="num">
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
