// An answer group's members (student, what they wrote, their mark) and a manual mark or a comment
// for the whole group: previewed member by member (who changes, from what to what) before it is
// applied; each member that changes gets its own audited mark or comment (groups.mark). A reason is
// asked only to override an automatic item, as the engine asks.
import { useState } from 'react';
import { api } from '../api.ts';
import { errorText } from '../util.ts';
import type { ApiResponse, ReviewRow } from '../../shared/api.ts';
import type { Exam } from '../../shared/exam.ts';

type Preview = ApiResponse<'groups.mark'>;

/** How many members a group lists by name (a group of an olympiad's question can hold thousands). */
export const MEMBERS_SHOWN = 200;

export function GroupMembers({ ids, rows, onOpen }: { ids: string[]; rows: Map<string, ReviewRow> | undefined; onOpen(id: string): void }) {
  if (!rows) return null;
  const more = ids.length - MEMBERS_SHOWN;
  return (
    <details className="group-members" data-testid="group-members">
      <summary>
        {ids.length === 1 ? 'The student' : `The ${ids.length} students`}:{' '}
        {ids
          .slice(0, 6)
          .map((id) => rows.get(id)?.studentId ?? id)
          .join(', ')}
        {ids.length > 6 ? ', …' : ''}
      </summary>
      <table className="plain small">
        <tbody>
          {ids.slice(0, MEMBERS_SHOWN).map((id) => {
            const r = rows.get(id);
            return (
              <tr key={id} data-member={id}>
                <td className="mono nowrap">
                  <button className="link" onClick={() => onOpen(id)}>
                    {r?.studentId ?? id}
                  </button>
                </td>
                <td className="excerpt">{r?.excerpt || <em className="muted">(blank)</em>}</td>
                <td className="nowrap">
                  {r?.total ?? '—'}/{r?.available ?? '?'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {more > 0 && <p className="muted small">and {more} more: the review list shows every answer to the question.</p>}
    </details>
  );
}

export function GroupMark({ ids, question, onDone }: { ids: string[]; question: Exam['questions'][number]; onDone(message: string): void }) {
  const manualFirst = [...question.scheme].sort((a, b) => Number(!!b.manual) - Number(!!a.manual));
  const [open, setOpen] = useState(false);
  const [itemId, setItemId] = useState(manualFirst[0]?.id ?? '');
  const [marks, setMarks] = useState('');
  const [comment, setComment] = useState('');
  const [preview, setPreview] = useState<Preview>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const item = question.scheme.find((s) => s.id === itemId);
  const num = Number(marks);
  const marking = marks.trim() !== '';
  const marksOk = !marking || (item !== undefined && Number.isFinite(num) && num >= 0 && num <= item.marks);
  const reasonOk = !marking || !!item?.manual || comment.trim() !== '';
  const ready = marksOk && reasonOk && (marking || comment.trim() !== '');
  const request = (dry: boolean) => ({
    responseIds: ids,
    ...(marking ? { itemId, marks: num } : {}),
    ...(comment.trim() ? { comment: comment.trim() } : {}),
    preview: dry,
  });
  const run = async (dry: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const r = await api['groups.mark'](request(dry));
      if (dry) setPreview(r);
      else {
        setPreview(undefined);
        setOpen(false);
        setMarks('');
        setComment('');
        onDone(`${marking ? `Item ${itemId} marked ${num}` : 'Comment added'} for ${r.applied} of ${ids.length} responses; each is in its own history.`);
      }
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const changed = (f: () => void) => {
    f();
    setPreview(undefined);
  };
  if (!open)
    return (
      <button className="link" onClick={() => setOpen(true)} data-testid="group-mark">
        mark or comment the whole group
      </button>
    );
  const changes = preview?.members.filter((m) => m.changes).length ?? 0;
  return (
    <div className="group-mark card" data-testid="group-mark-form">
      <div className="override-form">
        <select aria-label="scheme item to mark" value={itemId} onChange={(e) => changed(() => setItemId(e.target.value))}>
          {manualFirst.map((s) => (
            <option key={s.id} value={s.id}>
              {s.id} ({s.marks}){s.manual ? ' manual' : ''}: {s.description.slice(0, 50)}
            </option>
          ))}
        </select>
        <input
          className="narrow"
          type="number"
          min={0}
          max={item?.marks}
          step="any"
          aria-label="group mark"
          placeholder={`0–${item?.marks ?? ''}`}
          value={marks}
          autoFocus
          onChange={(e) => changed(() => setMarks(e.target.value))}
          onKeyDown={(e) => e.key === 'Enter' && ready && !busy && run(!preview)}
        />
        <input
          className="grow"
          aria-label="group comment"
          placeholder={marking && item && !item.manual ? 'Reason (required to override an automatic mark)' : 'Comment (optional; in each history)'}
          value={comment}
          onChange={(e) => changed(() => setComment(e.target.value))}
          onKeyDown={(e) => e.key === 'Enter' && ready && !busy && run(!preview)}
        />
        <button disabled={!ready || busy} onClick={() => run(true)} data-testid="group-mark-preview">
          Preview
        </button>
        <button className="link" onClick={() => (setOpen(false), setPreview(undefined))}>
          cancel
        </button>
      </div>
      {!marksOk && (
        <div className="error small">
          Item {itemId} is worth {item?.marks}: give a mark from 0 to {item?.marks}.
        </div>
      )}
      {marksOk && !reasonOk && <div className="error small">Item {itemId} is marked automatically: overriding it needs a reason.</div>}
      {error && <div className="banner error">{error}</div>}
      {preview && (
        <div data-testid="group-mark-changes">
          <table className="plain small">
            <thead>
              <tr>
                <th>Student</th>
                <th>Answer (start)</th>
                {preview.itemId && <th>Item {preview.itemId}</th>}
                <th />
              </tr>
            </thead>
            <tbody>
              {preview.members.map((m) => (
                <tr key={m.responseId} data-change={m.changes ? 'yes' : 'no'}>
                  <td className="mono">{m.studentId}</td>
                  <td className="excerpt">{m.excerpt}</td>
                  {preview.itemId && (
                    <td className="nowrap">
                      {m.old ?? 'open'} → {m.new ?? 'open'}
                    </td>
                  )}
                  <td className={m.changes ? 'preview-change' : 'muted'}>{m.changes ? 'changes' : 'unchanged'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button className="primary" disabled={busy || changes === 0} onClick={() => run(false)} data-testid="group-mark-apply">
            Apply to {changes} of {preview.members.length}
          </button>
        </div>
      )}
    </div>
  );
}
