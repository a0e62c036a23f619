// A scheme change previewed before it is saved (scheme.preview): per item, how many responses
// gain or lose it; the students who gain or lose which mark; their totals; the overrides the
// change would make the automatic mark disagree or agree with; then Apply (exam.save) or Discard.
// And the overrides the automatic marks disagree with now (overrides.cases), kept in view in the
// Exam step: each override is a regression case for the scheme.
import { useEffect } from 'react';
import { api } from '../api.ts';
import { fmtSeconds, useLoad } from '../util.ts';
import type { SchemePreview, SchemePreviewStatus } from '../../shared/scheme-preview.ts';

const mark = (n: number | null, outcome: string): string => (outcome === 'absent' ? '—' : n === null ? outcome : String(n));
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Poll a running preview until it is done (or discarded). */
export function usePreviewPolling(status: SchemePreviewStatus | undefined, set: (s: SchemePreviewStatus) => void): void {
  const running = status?.state === 'running';
  useEffect(() => {
    if (!running) return;
    let live = true;
    const timer = setInterval(() => {
      api['scheme.previewStatus']({}).then(
        (s) => live && set(s),
        () => {},
      );
    }, 300);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [running, set]);
}

export function SchemePreviewPanel({
  status,
  busy,
  onApply,
  onDiscard,
  onStop,
}: {
  status: SchemePreviewStatus;
  busy: boolean;
  onApply(): void;
  /** Discard the edit (back to the saved exam). */
  onDiscard(): void;
  /** Stop a preview still running (the edit stays). */
  onStop(): void;
}) {
  if (status.state === 'running') {
    const pct = status.total ? Math.round((100 * status.done) / status.total) : 0;
    return (
      <div className="card" data-testid="scheme-preview" data-state="running">
        <strong>
          Marking {status.done} of {status.total} responses again with the edited scheme (nothing is saved)…
        </strong>{' '}
        <span className="muted">time left {status.etaSeconds === null ? 'estimating…' : fmtSeconds(status.etaSeconds)}</span>
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={status.total} aria-valuenow={status.done}>
          <div style={{ width: `${pct}%` }} />
        </div>
        <button onClick={onStop}>Stop the preview</button>
      </div>
    );
  }
  if (status.state === 'failed')
    return (
      <div className="banner error" data-testid="scheme-preview" data-state="failed">
        The preview could not be made: {status.message}
      </div>
    );
  if (status.state !== 'done' || !status.result) return null;
  return <PreviewResult p={status.result} busy={busy} onApply={onApply} onDiscard={onDiscard} />;
}

function PreviewResult({ p, busy, onApply, onDiscard }: { p: SchemePreview; busy: boolean; onApply(): void; onDiscard(): void }) {
  const moves = p.changes.filter((c) => c.direction !== 'same');
  const outcomeOnly = p.changes.length - moves.length;
  const o = p.overrides;
  const reasons = new Map<string, number>();
  for (const n of p.notPreviewed) reasons.set(n.reason, (reasons.get(n.reason) ?? 0) + 1);
  return (
    <div className="card scheme-preview" data-testid="scheme-preview" data-state="done">
      <h3>What saving this change would do</h3>
      {p.changedQuestions.length === 0 ? (
        <p data-testid="preview-summary">No question&apos;s marking changes: every mark stays as it is.</p>
      ) : (
        <p data-testid="preview-summary">
          {count(p.remarked, 'response')} of {p.changedQuestions.join(', ')} marked again with the edited scheme, by the same marking as a re-grade.{' '}
          {count(moves.filter((c) => c.direction === 'gain').length, 'mark')} gained, {count(moves.filter((c) => c.direction === 'loss').length, 'mark')} lost.
          Nothing is saved until you apply.
        </p>
      )}
      {p.items.length > 0 && (
        <table className="plain small" data-testid="preview-items">
          <thead>
            <tr>
              <th>Item</th>
              <th>Gain it</th>
              <th>Lose it</th>
              <th>Unchanged</th>
            </tr>
          </thead>
          <tbody>
            {p.items.map((i) => (
              <tr key={`${i.questionId}.${i.itemId}`} data-item={`${i.questionId}.${i.itemId}`}>
                <td className="mono">
                  {i.questionId}.{i.itemId}
                  {i.status !== 'kept' && <span className="muted"> ({i.status})</span>}
                </td>
                <td className={i.gained ? 'gain' : 'muted'} data-count="gained">
                  {i.gained}
                </td>
                <td className={i.lost ? 'loss' : 'muted'} data-count="lost">
                  {i.lost}
                </td>
                <td className="muted" data-count="unchanged">
                  {i.unchanged}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(o.newlyDisagree > 0 || o.newlyAgree > 0 || o.disagreeAfter > 0) && (
        <div className={`banner ${o.newlyDisagree ? 'warn' : 'info'}`} data-testid="preview-overrides">
          This change would make the automatic mark disagree with {count(o.newlyDisagree, 'override')} and agree with {o.newlyAgree} more
          {o.disagreeAfter ? ` (${o.disagreeAfter} would disagree after it, ${o.disagreeBefore} do now)` : ''}. Overrides stay in force: the final mark is the
          one you gave. After you apply, those that disagree are listed below.
        </div>
      )}
      {moves.length > 0 && (
        <>
          <h4>Who gains or loses which mark</h4>
          <table className="plain small" data-testid="preview-changes">
            <thead>
              <tr>
                <th>Student</th>
                <th>Item</th>
                <th>Automatic mark</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {moves.map((c) => (
                <tr key={`${c.responseId}.${c.itemId}`} data-student={c.studentId} data-direction={c.direction}>
                  <td className="mono">{c.studentId}</td>
                  <td className="mono">
                    {c.questionId}.{c.itemId}
                  </td>
                  <td className={c.direction} data-testid="change-marks">
                    {mark(c.before, c.outcomeBefore)} → {mark(c.after, c.outcomeAfter)}
                  </td>
                  <td className="small">{c.override !== null ? `your override (${c.override}) stays the final mark` : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {(outcomeOnly > 0 || p.changesOmitted > 0) && (
        <p className="muted small">
          {outcomeOnly > 0 ? `${count(outcomeOnly, 'item')} change only in outcome (say undecided to withheld), with no marks gained or lost. ` : ''}
          {p.changesOmitted > 0 ? `${p.changesOmitted} more changes are not listed here (the command line's grade --dry-run --diff writes them all).` : ''}
        </p>
      )}
      {p.students.length > 0 && (
        <details data-testid="preview-students">
          <summary>
            Totals that move: {count(p.students.length, 'student')} ({p.studentsUnchanged} unchanged)
          </summary>
          <table className="plain small">
            <tbody>
              {p.students.map((s) => (
                <tr key={s.studentId} data-student={s.studentId}>
                  <td className="mono">{s.studentId}</td>
                  <td className={s.after > s.before ? 'gain' : 'loss'}>
                    {s.before} → {s.after}
                  </td>
                  <td className="muted small">{s.partial ? 'some responses not previewed' : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      {reasons.size > 0 && (
        <div className="banner warn" data-testid="preview-not-previewed">
          Not previewed:
          <ul>
            {[...reasons].map(([why, n]) => (
              <li key={why}>
                {count(n, 'response')}: {why}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="row">
        <button className="primary" disabled={busy} onClick={onApply} data-testid="preview-apply">
          Apply: save the exam and re-mark
        </button>
        <button disabled={busy} onClick={onDiscard} data-testid="preview-discard">
          Discard the changes
        </button>
      </div>
    </div>
  );
}

/** The overrides the automatic marks disagree with now: each a regression case for the scheme. */
export function OverrideCasesSection({ examId, reloadKey, onOpen }: { examId: string; reloadKey: number; onOpen(responseId: string): void }) {
  const [cases, error] = useLoad(() => api['overrides.cases']({ examId }), [examId, reloadKey]);
  if (error) return <div className="banner error">{error}</div>;
  if (!cases || cases.overrides === 0) return null;
  return (
    <div className="card" data-testid="override-cases">
      <h3>Your overrides as regression cases</h3>
      <p className="muted small">
        You overrode {count(cases.overrides, 'automatic mark')}: the automatic mark agrees with {cases.agreeing} now
        {cases.open ? `, ${cases.open} have no automatic mark (undecided)` : ''}
        {cases.disagreeing.length ? `, and disagrees with ${cases.disagreeing.length}` : ''}. Your overrides stay in force; a scheme change that parts from them
        is listed here.
      </p>
      {cases.disagreeing.length === 0 ? (
        <p data-testid="override-cases-none">No automatic mark disagrees with an override.</p>
      ) : (
        <table className="plain small">
          <thead>
            <tr>
              <th>Student</th>
              <th>Item</th>
              <th>Automatic</th>
              <th>Your override</th>
              <th>Why you overrode it</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {cases.disagreeing.map((c) => (
              <tr key={`${c.responseId}.${c.itemId}`} data-student={c.studentId} data-changed={c.schemeChangedSince ? 'yes' : 'no'}>
                <td className="mono">
                  <button className="link" onClick={() => onOpen(String(c.responseId))}>
                    {c.studentId}
                  </button>
                </td>
                <td className="mono">
                  {c.questionId}.{c.itemId}
                </td>
                <td>{c.automatic}</td>
                <td className="human">{c.override}</td>
                <td className="small">{c.comment}</td>
                <td className="small">{c.schemeChangedSince ? <span className="preview-change">the scheme changed since</span> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
