// The reader's choices: spans of the student's text that can be read more than one way (an
// unbracketed '√' or '/', a number said in words as a result, ...). Each shows the span and every reading in KaTeX with a button to use
// it; picking one re-marks at once (audited) and can be undone by picking another.
import { useState } from 'react';
import { api } from '../../api.ts';
import { Tex } from '../../tex.tsx';
import { errorText } from '../../util.ts';
import type { ResponseDetail } from '../../../shared/api.ts';

type Choice = NonNullable<NonNullable<ResponseDetail['current']>['alternatives']>[number];

/** The choices that matter: readings that differ (ambiguous), picked or not. */
export function Choices({ d, onSaved }: { d: ResponseDetail; onSaved(d: ResponseDetail): void }) {
  const choices = (d.current?.alternatives ?? []).map((c, i) => ({ c, i })).filter(({ c }) => c.ambiguous);
  if (choices.length === 0) return null;
  const open = choices.filter(({ c }) => c.chosen === undefined).length;
  return (
    <div className="card choices" data-testid="choices">
      <h2>Read more than one way</h2>
      <p className="muted small">
        {open > 0
          ? 'The student left something to the reader (where brackets go, whether a result said in words is recorded), and the readings differ. Reading 1 is marked until you pick one; the response is held back until you do.'
          : 'You picked a reading for each; pick another to change it.'}
      </p>
      {choices.map(({ c, i }) => (
        <ChoiceItem key={i} c={c} index={i} d={d} onSaved={onSaved} />
      ))}
    </div>
  );
}

function ChoiceItem({ c, index, d, onSaved }: { c: Choice; index: number; d: ResponseDetail; onSaved(d: ResponseDetail): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const use = async (reading: number) => {
    setBusy(true);
    setError(undefined);
    try {
      onSaved(await api['response.pickReading']({ responseId: d.responseId, choice: index, reading }));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const inUse = c.chosen ?? 0;
  return (
    <div className="choice" data-testid="choice" data-choice={index}>
      <div className="small">
        <code className="choice-span" data-testid="choice-span">
          {c.text}
        </code>{' '}
        <span className="muted">({c.reason})</span>
      </div>
      <ol className="choice-readings">
        {c.readings.map((r, k) => (
          <li key={k} data-testid="choice-reading" data-reading={k} className={k === inUse ? 'in-use' : ''}>
            {r.length === 0 ? (
              <span className="small">nothing recorded</span>
            ) : (
              <>
                <span className="choice-tex">
                  {c.latex[k].map((l, j) => (
                    <Tex key={j} latex={l} />
                  ))}
                </span>{' '}
                <code className="small muted">{r.join(', ')}</code>
              </>
            )}{' '}
            {c.chosen === k ? (
              <span className="small">picked</span>
            ) : (
              <button disabled={busy} onClick={() => use(k)} data-testid="choice-use">
                Use this reading
              </button>
            )}
            {c.chosen === undefined && k === 0 && <span className="small muted"> (marked for now)</span>}
          </li>
        ))}
      </ol>
      {error && <div className="banner error">{error}</div>}
    </div>
  );
}
