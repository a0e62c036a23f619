// Equations a model proposed that the student's text doesn't support, each with its Accept form.
import { Fragment, useState } from 'react';
import { api } from '../../api.ts';
import { Tex } from '../../tex.tsx';
import { errorText } from '../../util.ts';
import type { ResponseDetail } from '../../../shared/api.ts';

/**
 * Equations a model proposed that the student's text doesn't support: they earn nothing until
 * the instructor accepts one (with a comment), which adds it to the equations and re-marks.
 */
export function HeldBack({ d, onSaved }: { d: ResponseDetail; onSaved(d: ResponseDetail): void }) {
  return (
    <div className="card held-back" data-testid="held-back">
      <h2>Held back: possibly invented</h2>
      <p className="muted small">
        A model proposed {d.heldBack.length === 1 ? 'this equation' : 'these equations'}, but the student's text doesn't support{' '}
        {d.heldBack.length === 1 ? 'it' : 'them'}: a symbol or number in {d.heldBack.length === 1 ? 'it' : 'each'} is not in what they wrote.{' '}
        {d.heldBack.length === 1 ? 'It earns' : 'They earn'} no marks unless you accept {d.heldBack.length === 1 ? 'it' : 'one'}, for example when the working
        is elsewhere.
      </p>
      <ul className="held-list">
        {d.heldBack.map((h) => (
          <HeldBackItem key={h.source} h={h} d={d} onSaved={onSaved} />
        ))}
      </ul>
    </div>
  );
}

function HeldBackItem({ h, d, onSaved }: { h: ResponseDetail['heldBack'][number]; d: ResponseDetail; onSaved(d: ResponseDetail): void }) {
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const accept = async () => {
    setBusy(true);
    setError(undefined);
    try {
      // The saved list plus this equation, through the instructor's correction: re-marked at once;
      // the service notes in the history that it was held back as possibly invented.
      const equations = [...(d.current?.equations ?? []).map((e) => e.source), h.source];
      onSaved(await api['response.setEquations']({ responseId: d.responseId, equations, comment: comment.trim() }));
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };
  const who = h.proposedBy.map((m) => (m === 'embedded' ? 'the embedded extractor' : m));
  return (
    <li data-held={h.source}>
      <div className="held-eq">
        <Tex latex={h.latex} /> <code className="small muted">{h.source}</code>
      </div>
      <div className="small">
        <span className="held-why">{h.reasons.join('; ')}</span>
        {who.length > 0 && (
          <span className="muted">
            {' '}
            · proposed by{' '}
            {who.map((m, i) => (
              <Fragment key={m}>
                {i > 0 && ' and '}
                <span className="nowrap">{m}</span>
              </Fragment>
            ))}
          </span>
        )}
      </div>
      {!open ? (
        <button className="held-accept" onClick={() => setOpen(true)} data-testid="held-accept">
          Accept…
        </button>
      ) : (
        <div className="override-form held-form">
          <input
            className="grow"
            autoFocus
            placeholder="Why you accept it (required), e.g. the working is on page 2"
            aria-label="acceptance comment"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && comment.trim() && !busy && accept()}
          />
          <button className="primary" disabled={!comment.trim() || busy} onClick={accept} data-testid="held-confirm">
            Accept and re-mark
          </button>
          <button className="link" onClick={() => setOpen(false)}>
            cancel
          </button>
        </div>
      )}
      {error && <div className="banner error">{error}</div>}
    </li>
  );
}
