// Summary: the mark distribution per question (SVG), what still needs review, and accuracy
// against the instructor's reference lists when there are some.
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { CHIP_LABEL } from '../chips.tsx';
import { useLoad } from '../util.ts';
import type { Chip } from '../../shared/api.ts';

export function SummaryView({ nav, examId }: { nav: Nav; examId: string }) {
  const [s, error] = useLoad(() => api['summary.get']({ examId }), [examId]);
  if (error) return <div className="banner error">{error}</div>;
  if (!s) return <div className="muted">Loading…</div>;
  return (
    <section>
      <h1>Summary</h1>
      <dl className="stats big-stats">
        <div>
          <dt>Responses</dt>
          <dd>{s.responses}</dd>
        </div>
        <div>
          <dt>Graded</dt>
          <dd>{s.graded}</dd>
        </div>
        <div>
          <dt>Need review</dt>
          <dd>
            {s.needsReview}{' '}
            {s.needsReview > 0 && (
              <button className="link small" onClick={() => nav.go('review')}>
                review
              </button>
            )}
          </dd>
        </div>
        <div>
          <dt>Overridden</dt>
          <dd>{s.overridden}</dd>
        </div>
        <div>
          <dt>Reading accuracy</dt>
          <dd data-stat="accuracy">
            {s.accuracy && s.accuracy.compared ? `${Math.round((100 * s.accuracy.equivalent) / s.accuracy.compared)}% of ${s.accuracy.compared}` : '—'}
          </dd>
        </div>
      </dl>
      {!s.accuracy && <p className="muted small">Import reference equation lists (Responses) to see how often the reading matched them.</p>}
      <div className="charts">
        {s.distribution.map((d) => (
          <div className="card" key={d.questionId}>
            <h2>
              {d.questionId}: marks out of {d.available}
            </h2>
            <Histogram counts={d.counts} available={d.available} />
          </div>
        ))}
      </div>
      <div className="card">
        <h2>Statuses</h2>
        <ul className="plain-list">
          {Object.entries(s.chips).map(([c, n]) => (
            <li key={c}>
              {CHIP_LABEL[c as Chip] ?? c}: <strong>{n}</strong>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** Marks (x) against how many responses scored them (y), both axes titled. */
function Histogram({ counts, available }: { counts: number[]; available: number }) {
  const W = 380;
  const H = 160;
  const left = 44;
  const right = 12;
  const max = Math.max(1, ...counts);
  const bw = (W - left - right) / Math.max(1, counts.length);
  return (
    <svg viewBox={`0 0 ${W} ${H + 38}`} className="chart" role="img" aria-label={`mark distribution: ${counts.map((c, i) => `${c} scored ${i}`).join(', ')}`}>
      <line x1={left} y1={H} x2={W - right} y2={H} className="axis" />
      <line x1={left} y1={20} x2={left} y2={H} className="axis" />
      <text x={left - 6} y={H} textAnchor="end" className="label">
        0
      </text>
      <text x={left - 6} y={26} textAnchor="end" className="label">
        {max}
      </text>
      <text className="axis-title" textAnchor="middle" transform={`translate(12 ${(H + 20) / 2}) rotate(-90)`} data-axis="y">
        responses
      </text>
      <text className="axis-title" x={left + (W - left - right) / 2} y={H + 34} textAnchor="middle" data-axis="x">
        mark (out of {available})
      </text>
      {counts.map((c, i) => {
        const h = ((H - 20) * c) / max;
        return (
          <g key={i}>
            <rect x={left + i * bw + 4} y={H - h} width={bw - 8} height={h} rx={3} className="bar" />
            <text x={left + i * bw + bw / 2} y={H - h - 4} textAnchor="middle" className="count">
              {c}
            </text>
            <text x={left + i * bw + bw / 2} y={H + 14} textAnchor="middle" className="label">
              {i}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
