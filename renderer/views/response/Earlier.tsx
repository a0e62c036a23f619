// Changes made on an earlier text of this answer (a re-import replaced the text): never applied
// to the new text. Each is shown with what it was and the text it was made on; the instructor
// confirms it (made again, now, on the new text) or drops it, with a reason kept in the history.
import { useState } from 'react';
import { api } from '../../api.ts';
import { errorText } from '../../util.ts';
import { Tex } from '../../tex.tsx';
import type { ResponseDetail } from '../../../shared/api.ts';

export function EarlierChanges({ d, onSaved }: { d: ResponseDetail; onSaved(d: ResponseDetail): void }) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const earlier = d.earlier ?? [];
  if (!earlier.length) return null;
  const resolve = async (earlierId: number, action: 'confirm' | 'drop') => {
    setError(undefined);
    try {
      onSaved(await api['response.resolveEarlier']({ responseId: d.responseId, earlierId, action, comment }));
      setComment('');
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <div className="card earlier" data-testid="earlier-changes">
      <h2>Made on earlier text</h2>
      <p className="muted">
        A new import replaced this answer's text. What you did on the old text is <strong>not applied</strong> to the new one: confirm each to make it again on
        the new text, or drop it.
      </p>
      {earlier.map((c) => (
        <div className="earlier-item" key={c.id} data-earlier={c.kind}>
          <div>
            {c.kind === 'correction' ? (
              <>
                <strong>Corrected equations</strong>{' '}
                {c.equations?.length ? c.equations.map((e, i) => <Tex key={i} latex={e.latex} />) : <em className="muted">(none)</em>}
              </>
            ) : (
              <>
                <strong>
                  Override of {c.itemId}: {c.awarded}
                </strong>{' '}
                <span className="muted">“{c.comment}”</span>
              </>
            )}
            <span className="muted small"> · made {c.madeAt.slice(0, 16).replace('T', ' ')}</span>
          </div>
          {c.earlierText !== null && (
            <details>
              <summary className="small">the text it was made on</summary>
              <pre className="small">{c.earlierText}</pre>
            </details>
          )}
          <div className="row">
            <button disabled={!comment.trim()} onClick={() => resolve(c.id, 'confirm')} data-testid={`earlier-confirm-${c.kind}`}>
              Confirm on the new text
            </button>
            <button disabled={!comment.trim()} onClick={() => resolve(c.id, 'drop')} data-testid={`earlier-drop-${c.kind}`}>
              Drop
            </button>
          </div>
        </div>
      ))}
      <input
        placeholder="Why (required, kept in the history)"
        aria-label="earlier change reason"
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
      {error && <div className="banner error">{error}</div>}
    </div>
  );
}
