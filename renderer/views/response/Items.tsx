// The marks card: each scheme item's mark, why (its evidence), and the override form. A manual
// item is marked with its quick-mark buttons or a number key (the response view's keyboard: no
// reason asked); overriding an automatic mark needs a reason (the engine refuses without one).
// Everything is audited.
import { useState } from 'react';
import { api } from '../../api.ts';
import { errorText } from '../../util.ts';
import type { ResponseDetail, SympyDetail } from '../../../shared/api.ts';
import { EvidenceEquation, ItemEvidence, ItemLimits } from './Evidence.tsx';

type Item = ResponseDetail['items'][number];

/** Whether an item is the instructor's to mark (a manual item of the scheme). */
export const isManual = (it: Item) => it.match === 'manual' || it.outcome === 'manual';

export function Marks({
  d,
  sympy,
  onSaved,
  active,
  onQuickMark,
}: {
  d: ResponseDetail;
  sympy: SympyDetail | undefined;
  onSaved(d: ResponseDetail): void;
  /** The manual item number keys mark now. */
  active: string | null;
  onQuickMark(itemId: string, marks: number): void;
}) {
  const [showSource, setShowSource] = useState(false);
  return (
    <div className="card">
      <label className="check small text-toggle">
        <input type="checkbox" checked={showSource} onChange={(e) => setShowSource(e.target.checked)} data-testid="show-source" /> show the evidence as SymPy
        source
      </label>
      <h2>Marks</h2>
      {d.inconsistent.length > 0 && (
        <div className="banner warn">
          {d.inconsistent.map((x, i) => (
            <div key={i}>
              <code>{x.student}</code> has no solution with the question's assumptions, so it earns nothing{x.note ? ` (${x.note})` : ''}.
            </div>
          ))}
        </div>
      )}
      {d.dimensions && d.dimensions.length > 0 && (
        <div className="banner info" data-testid="dimensions">
          {d.dimensions.map((x, i) => (
            <div key={i}>
              Dimensions differ in equation {x.studentIndex + 1} <EvidenceEquation source={x.student} variables={d.variables} showSource={showSource} />:{' '}
              <strong>{x.note}</strong>.
            </div>
          ))}
          <div className="small muted">Evidence beside the marks: it changes a mark only for an item that requires dimensional consistency.</div>
        </div>
      )}
      <table className="plain items">
        <thead>
          <tr>
            <th>Item</th>
            <th>Mark</th>
            <th>Why</th>
            <th>Override</th>
          </tr>
        </thead>
        <tbody>
          {d.items.map((it) => (
            <ItemRow
              key={it.itemId}
              it={it}
              responseId={d.responseId}
              onSaved={onSaved}
              limits={sympy?.limits.filter((l) => l.itemId === it.itemId)}
              target={d.target}
              active={active === it.itemId}
              onQuickMark={onQuickMark}
              variables={d.variables}
              showSource={showSource}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ItemRow({
  it,
  responseId,
  onSaved,
  limits,
  target,
  active,
  onQuickMark,
  variables,
  showSource,
}: {
  variables: readonly string[];
  showSource: boolean;
  it: Item;
  responseId: string;
  onSaved(d: ResponseDetail): void;
  limits?: SympyDetail['limits'];
  target?: string | null;
  active: boolean;
  onQuickMark(itemId: string, marks: number): void;
}) {
  const [open, setOpen] = useState(false);
  const [marks, setMarks] = useState(String(it.override?.marks ?? it.awarded ?? ''));
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (value: number | null) => {
    setError(undefined);
    try {
      onSaved(await api['response.override']({ responseId, itemId: it.itemId, marks: value, comment: comment.trim() || undefined }));
      setOpen(false);
      setComment('');
    } catch (e) {
      setError(errorText(e));
    }
  };
  const ev = it.evidence[0];
  const num = Number(marks);
  const validMarks = marks.trim() !== '' && Number.isFinite(num) && num >= 0 && num <= it.available;
  const manual = isManual(it);
  // A reason is the engine's rule too: required to replace an automatic mark, optional for a manual item.
  const reasonOk = manual || comment.trim() !== '';
  const byHand = manual && it.override;
  return (
    <tr data-item={it.itemId} className={`${it.override && !manual ? 'overridden' : ''} ${active ? 'active-item' : ''}`}>
      <td>
        <strong>{it.itemId}</strong>
        <div className="muted small">{it.description}</div>
      </td>
      <td className="nowrap" data-mark>
        <span className={`mark mark-${it.outcome}`}>{it.final ?? '—'}</span> / {it.available}
        {it.override && !manual && <div className="small human">overridden (was {it.awarded ?? 'open'})</div>}
        {manual && <QuickMark it={it} active={active} onMark={(v) => onQuickMark(it.itemId, v)} />}
      </td>
      <td className="why">
        {manual && !byHand && (
          <span className="muted">
            Yours to mark: type {quickValues(it.available) ? `0–${it.available}` : 'the mark'}
            {active ? '' : ' (after choosing this item)'}, or use the buttons.
          </span>
        )}
        {byHand && <span className="small human">marked by you</span>}
        <ItemLimits it={it} limits={limits} target={target} />
        <ItemEvidence it={it} variables={variables} showSource={showSource} />
        {!ev && it.outcome === 'withheld' && it.match !== 'numeric' && <span className="muted">No equation implies an accepted form.</span>}
        {it.note && !(it.outcome === 'awarded' && ev?.followThrough) && <div className="muted small">{it.note}</div>}
        {it.override && it.override.comment !== NO_REASON && <div className="small human">“{it.override.comment}”</div>}
      </td>
      <td>
        {!open ? (
          <button onClick={() => setOpen(true)} data-testid={`override-${it.itemId}`}>
            {manual ? 'Other mark…' : 'Override'}
          </button>
        ) : (
          <div className="override-form">
            <input
              className="narrow"
              type="number"
              min={0}
              max={it.available}
              step="any"
              aria-label="marks"
              autoFocus
              value={marks}
              onChange={(e) => setMarks(e.target.value)}
            />
            <input
              placeholder={manual ? 'Reason (optional)' : 'Reason (required)'}
              aria-label="override reason"
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
            <button className="primary" disabled={!validMarks || !reasonOk} onClick={() => submit(num)}>
              Set
            </button>
            {it.override && (
              <button disabled={!reasonOk} onClick={() => submit(null)}>
                {manual ? 'Clear the mark' : 'Remove override'}
              </button>
            )}
            <button className="link" onClick={() => setOpen(false)}>
              cancel
            </button>
            {error && <div className="error small">{error}</div>}
          </div>
        )}
      </td>
    </tr>
  );
}

/** What the engine stores as the comment of a manual mark given without a reason (store/marks.ts). */
const NO_REASON = 'marked by hand';

/** The marks a number key can give: whole marks 0…max, for an item worth at most 9. */
export const quickValues = (available: number): number[] | null =>
  Number.isInteger(available) && available >= 1 && available <= 9 ? Array.from({ length: available + 1 }, (_, i) => i) : null;

/**
 * A manual item's marks as buttons (0…max); the active one also takes the number keys. It is the
 * focus target when a response opens, so the first keystroke is the mark.
 */
export function QuickMark({ it, active, onMark, focusTarget = false }: { it: Item; active: boolean; onMark(v: number): void; focusTarget?: boolean }) {
  const values = quickValues(it.available);
  if (!values) return null;
  return (
    <div
      className={`quick-mark ${active ? 'active' : ''}`}
      role="group"
      aria-label={`mark for item ${it.itemId}`}
      tabIndex={focusTarget ? 0 : -1}
      {...(focusTarget ? { 'data-testid': `quick-${it.itemId}`, 'data-quick': it.itemId } : {})}
    >
      {values.map((v) => (
        <button key={v} type="button" tabIndex={-1} className={it.final === v ? 'on' : ''} aria-pressed={it.final === v} onClick={() => onMark(v)}>
          {v}
        </button>
      ))}
    </div>
  );
}
