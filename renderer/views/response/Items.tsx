// The marks card: each scheme item's mark, why (its evidence), and the override form (a comment
// is required; everything is audited).
import { useState } from 'react';
import { api } from '../../api.ts';
import { errorText } from '../../util.ts';
import type { ResponseDetail, SympyDetail } from '../../../shared/api.ts';
import { ItemEvidence, ItemLimits } from './Evidence.tsx';

type Item = ResponseDetail['items'][number];

export function Marks({ d, sympy, onSaved }: { d: ResponseDetail; sympy: SympyDetail | undefined; onSaved(d: ResponseDetail): void }) {
  return (
    <div className="card">
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
}: {
  it: Item;
  responseId: string;
  onSaved(d: ResponseDetail): void;
  limits?: SympyDetail['limits'];
  target?: string | null;
}) {
  const [open, setOpen] = useState(false);
  const [marks, setMarks] = useState(String(it.override?.marks ?? it.awarded ?? ''));
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (value: number | null) => {
    setError(undefined);
    try {
      onSaved(await api['response.override']({ responseId, itemId: it.itemId, marks: value, comment }));
      setOpen(false);
      setComment('');
    } catch (e) {
      setError(errorText(e));
    }
  };
  const ev = it.evidence[0];
  const num = Number(marks);
  const validMarks = marks.trim() !== '' && Number.isFinite(num) && num >= 0 && num <= it.available;
  return (
    <tr data-item={it.itemId} className={it.override ? 'overridden' : ''}>
      <td>
        <strong>{it.itemId}</strong>
        <div className="muted small">{it.description}</div>
      </td>
      <td className="nowrap" data-mark>
        <span className={`mark mark-${it.outcome}`}>{it.final ?? '—'}</span> / {it.available}
        {it.override && <div className="small human">overridden (was {it.awarded ?? 'open'})</div>}
      </td>
      <td className="why">
        {it.outcome === 'manual' && <span className="muted">Marked by hand: set it with Override.</span>}
        <ItemLimits it={it} limits={limits} target={target} />
        <ItemEvidence it={it} />
        {!ev && it.outcome === 'withheld' && <span className="muted">No equation implies an accepted form.</span>}
        {it.note && <div className="muted small">{it.note}</div>}
        {it.override && <div className="small human">“{it.override.comment}”</div>}
      </td>
      <td>
        {!open ? (
          <button onClick={() => setOpen(true)} data-testid={`override-${it.itemId}`}>
            Override
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
              value={marks}
              onChange={(e) => setMarks(e.target.value)}
            />
            <input placeholder="Reason (required)" aria-label="override reason" value={comment} onChange={(e) => setComment(e.target.value)} />
            <button className="primary" disabled={!validMarks || !comment.trim()} onClick={() => submit(num)}>
              Set
            </button>
            {it.override && (
              <button disabled={!comment.trim()} onClick={() => submit(null)}>
                Remove override
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
