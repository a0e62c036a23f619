// The equations read, each editable as SymPy source (checked as you type); saving re-marks.
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../api.ts';
import { EquationListEditor, checkEquation } from '../../tex.tsx';
import { errorText } from '../../util.ts';
import type { ResponseDetail } from '../../../shared/api.ts';
import { sourceLabel } from './words.ts';

export function EquationsEditor({ d, onSaved, onHover }: { d: ResponseDetail; onSaved(d: ResponseDetail): void; onHover(i: number | null): void }) {
  const original = useMemo(() => (d.current?.equations ?? []).map((e) => e.source), [d]);
  const [eqs, setEqs] = useState<string[]>(original);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => setEqs(original), [original]);
  const dirty = eqs.length !== original.length || eqs.some((e, i) => e !== original[i]);
  const nonEmpty = eqs.filter((e) => e.trim());
  const allValid = nonEmpty.every((e) => checkEquation(e, d.variables).ok);
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      onSaved(await api['response.setEquations']({ responseId: d.responseId, equations: nonEmpty, comment: comment.trim() || undefined }));
      setComment('');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="card">
      <h2>Equations read</h2>
      <p className="muted small">
        {d.current
          ? `Read by ${d.current.flags.includes('models-disagree') ? 'two models that disagree (only the equations both read are kept)' : sourceLabel(d.current.source)}.`
          : 'Not read yet.'}{' '}
        Correct any equation below; the marks are recomputed as soon as you save. Variables: {d.variables.join(', ')}.
      </p>
      <EquationListEditor equations={eqs} onChange={setEqs} variables={d.variables} onHover={onHover} />
      {dirty && (
        <div className="save-bar">
          <input
            placeholder="Why (optional, kept in the history)"
            aria-label="correction comment"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
          <button className="primary" disabled={!allValid || busy} onClick={save} data-testid="save-equations">
            Save and re-mark
          </button>
          <button onClick={() => setEqs(original)}>Undo</button>
          {!allValid && <span className="error small">Fix the equations marked in red first.</span>}
        </div>
      )}
      {error && <div className="banner error">{error}</div>}
    </div>
  );
}
