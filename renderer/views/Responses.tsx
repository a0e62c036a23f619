// Responses: import the class's CSV (drag and drop or the file picker) and see what came in and
// what was rejected, with the line and the reason. Gold equation lists can be added for accuracy.
import { useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { FileDrop } from '../drop.tsx';
import { errorText } from '../util.ts';
import type { ApiResponse } from '../../shared/api.ts';

export function ResponsesView({ nav, examId }: { nav: Nav; examId: string }) {
  const [result, setResult] = useState<ApiResponse<'responses.import'> & { fileName: string; mode: 'ask' | 'replace' | 'keep' }>();
  const [gold, setGold] = useState<ApiResponse<'gold.import'>>();
  const [lists, setLists] = useState<ApiResponse<'equations.import'>>();
  const [error, setError] = useState<string>();
  /** A file whose changed rows wait for the instructor's decision (replace them, or keep the old texts). */
  const [pendingFile, setPendingFile] = useState<{ csv: string; fileName: string }>();
  const importCsv = async (csv: string, fileName: string, changed: 'ask' | 'replace' | 'keep' = 'ask') => {
    setError(undefined);
    setResult(undefined);
    try {
      const r = await api['responses.import']({ examId, csv, fileName, changed });
      setResult({ ...r, fileName, mode: changed });
      setPendingFile(r.needsDecision ? { csv, fileName } : undefined);
      nav.refreshExams();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const importGold = async (csv: string) => {
    try {
      setGold(await api['gold.import']({ examId, csv }));
    } catch (e) {
      setError(errorText(e));
    }
  };
  const importLists = async (csv: string) => {
    try {
      setLists(await api['equations.import']({ examId, csv }));
      nav.refreshExams();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section>
      <h1>Responses</h1>
      <p className="lead">
        Import the class's typed answers as a CSV file with the columns <code>student_id,question_id,response</code> (one row per student and question; answers
        may span several lines inside quotes).
      </p>
      <FileDrop accept=".csv,text/csv" label="Import responses (CSV)" onText={(t, f) => importCsv(t, f)} testId="responses-file" />
      {error && <div className="banner error">{error}</div>}
      {result && (
        <div className="card" data-testid="import-result">
          {result.error ? (
            <div className="banner error" role="alert">
              <strong>Nothing was imported from {result.fileName}.</strong> {result.error}
            </div>
          ) : result.needsDecision && result.counts ? (
            <div className="banner warn" role="alert" data-testid="import-decision">
              <p>
                <strong>{result.fileName}</strong>: {result.counts.new} new, {result.counts.unchanged} unchanged,{' '}
                <strong>{result.counts.changed} changed</strong> (a different text for an answer already here). Nothing has been imported yet.
              </p>
              <p>
                Replacing a changed answer drops its reading and marks. A correction or override you made on the old text is not applied to the new one: it is
                kept aside, flagged <em>made on earlier text</em>, for you to confirm or drop.
              </p>
              <table className="plain">
                <thead>
                  <tr>
                    <th>Student</th>
                    <th>Question</th>
                    <th>Text now</th>
                    <th>New text</th>
                    <th>Your work on it</th>
                  </tr>
                </thead>
                <tbody>
                  {result.changedRows?.map((c) => (
                    <tr key={`${c.studentId}/${c.questionId}`} data-changed={`${c.studentId}/${c.questionId}`}>
                      <td className="mono">{c.studentId}</td>
                      <td>{c.questionId}</td>
                      <td className="excerpt">{c.oldText ?? '(equations only)'}</td>
                      <td className="excerpt">{c.newText}</td>
                      <td>
                        {[c.corrected ? 'equations corrected' : '', c.overrides ? `${c.overrides} override${c.overrides === 1 ? '' : 's'}` : '']
                          .filter(Boolean)
                          .join(', ') || '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {pendingFile && (
                <div className="row">
                  <button className="primary" onClick={() => importCsv(pendingFile.csv, pendingFile.fileName, 'replace')} data-testid="import-replace">
                    Replace the {result.counts.changed} changed and import
                  </button>
                  <button onClick={() => importCsv(pendingFile.csv, pendingFile.fileName, 'keep')} data-testid="import-keep">
                    Keep the texts I have; import only the new
                  </button>
                </div>
              )}
            </div>
          ) : (
            <div className="banner ok">
              Imported <strong>{result.imported}</strong> response{result.imported === 1 ? '' : 's'} from {result.fileName}
              {result.rejected.length ? `; ${result.rejected.length} rejected (below).` : '.'}
              {result.counts && (
                <span data-testid="import-counts">
                  {' '}
                  {result.counts.new} new, {result.counts.unchanged} unchanged, {result.counts.changed} changed
                  {result.counts.changed ? (result.mode === 'keep' ? ' (kept as they were)' : ' (replaced)') : ''}.
                </span>
              )}
              {result.setAside ? (
                <strong>
                  {' '}
                  {result.setAside} correction{result.setAside === 1 ? '' : 's'} or override{result.setAside === 1 ? '' : 's'} made on the earlier text{' '}
                  {result.setAside === 1 ? 'waits' : 'wait'} for you in Review (flagged “made on earlier text”).
                </strong>
              ) : null}
            </div>
          )}
          {result.rejected.length > 0 && (
            <table className="plain">
              <thead>
                <tr>
                  <th>Line</th>
                  <th>Student</th>
                  <th>Question</th>
                  <th>Why it was rejected</th>
                </tr>
              </thead>
              <tbody>
                {result.rejected.map((r, i) => (
                  <tr key={i}>
                    <td>{r.line ?? '—'}</td>
                    <td>{r.studentId ?? '—'}</td>
                    <td>{r.questionId ?? '—'}</td>
                    <td>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {!result.error && !result.needsDecision && result.imported > 0 && (
            <button className="primary" onClick={() => nav.go('grade')}>
              Next: grade them
            </button>
          )}
        </div>
      )}
      <details className="card">
        <summary>Optional: reference equation lists (gold) for an accuracy figure</summary>
        <p className="muted">
          If you have typed out, for some responses, the equations a careful marker sees (<code>student_id,question_id,equations</code>, equations as a JSON
          list), the summary shows how often Equimark read the same.
        </p>
        <FileDrop accept=".csv,text/csv" label="Import reference equations (CSV)" onText={(t) => importGold(t)} testId="gold-file" />
        {gold && (
          <div className={gold.error ? 'banner error' : 'banner ok'}>
            {gold.error ?? `Imported ${gold.imported} reference lists${gold.rejected.length ? `; ${gold.rejected.length} rejected` : ''}.`}
            {gold.rejected.length > 0 && (
              <ul>
                {gold.rejected.slice(0, 20).map((r, i) => (
                  <li key={i}>
                    line {r.line ?? '?'}: {r.reason}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </details>
      <details className="card">
        <summary>Optional: equation lists to mark as they are</summary>
        <p className="muted">
          Already have each response's equations (<code>student_id,question_id,equations</code>)? Import them and Equimark marks exactly those lists, without
          reading any text. They replace any reading already stored for those responses.
        </p>
        <FileDrop accept=".csv,text/csv" label="Import equation lists (CSV)" onText={(t) => importLists(t)} testId="equations-file" />
        {lists && (
          <div className={lists.error ? 'banner error' : 'banner ok'} data-testid="equations-result">
            {lists.error ??
              `Imported ${lists.imported} equation lists${lists.rejected.length ? `; ${lists.rejected.length} rows skipped` : ''}. Grade to mark them.`}
          </div>
        )}
      </details>
    </section>
  );
}
