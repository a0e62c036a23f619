// Export: the gradebook CSV Canvas and Moodle import as it is, the marks per student and per
// answer (item columns named by question, comments, overrides, review state), the regrade
// requests, and one student's report as a self-contained HTML page with rendered maths. Before
// a download, what is still open (manual items, responses needing review) is listed; exporting
// anyway is allowed.
import { useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { download, errorText } from '../util.ts';
import type { ApiResponse } from '../../shared/api.ts';

type Kind = 'gradebook' | 'student' | 'response';

export function ExportView({ nav, examId }: { nav: Nav; examId: string }) {
  const [preview, setPreview] = useState<string>();
  const [error, setError] = useState<string>();
  const [student, setStudent] = useState('');
  const [check, setCheck] = useState<{ kind: Kind; open: ApiResponse<'export.check'> }>();
  const fetchCsv = (kind: Kind) =>
    kind === 'gradebook' ? api['export.gradebook']({ examId }) : kind === 'student' ? api['export.studentMarks']({ examId }) : api['export.marks']({ examId });
  const save = async (kind: Kind) => {
    setCheck(undefined);
    const r = await fetchCsv(kind);
    setPreview(r.csv);
    download(r.fileName, r.csv);
  };
  /** Download, unless something is still open: then list it first (export anyway stays one click away). */
  const marks = async (kind: Kind) => {
    setError(undefined);
    try {
      const open = await api['export.check']({ examId });
      if (open.manualOpen.length || open.needsReview.length || open.pending) setCheck({ kind, open });
      else await save(kind);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const report = async () => {
    setError(undefined);
    try {
      const r = await api['export.studentReport']({ examId, studentId: student.trim() });
      setPreview(undefined);
      download(r.fileName, r.html, 'text/html');
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section>
      <h1>Export</h1>
      {check && (
        <OpenWork check={check.open} nav={nav} onAnyway={() => save(check.kind).catch((e) => setError(errorText(e)))} onCancel={() => setCheck(undefined)} />
      )}
      <div className="card">
        <h2>Gradebook for Canvas or Moodle</h2>
        <p className="muted">
          One row per student with the exam's total, in the columns of Canvas's gradebook (<code>Student, ID, SIS User ID, SIS Login ID, Section</code>, then
          the exam). Canvas matches students by <code>SIS User ID</code> and creates the exam as a new assignment; in Moodle's CSV grade import, map{' '}
          <code>SIS User ID</code> to the user's ID number.
        </p>
        <button className="primary" onClick={() => marks('gradebook')} data-testid="export-gradebook">
          Download gradebook CSV
        </button>
      </div>
      <div className="card">
        <h2>Marks</h2>
        <p className="muted">
          Item columns are named by question (<code>q1.a</code>, <code>q1.b</code>, …). Manual items not yet marked are left empty; the status column says what
          is still open. The per-answer file also carries the review state and its reasons, the items you overrode and every comment.
        </p>
        <div className="row">
          <button onClick={() => marks('student')} data-testid="export-student-marks">
            One row per student
          </button>
          <button onClick={() => marks('response')} data-testid="export-marks">
            One row per answer (student, question)
          </button>
        </div>
      </div>
      <div className="card">
        <h2>Report for one student</h2>
        <p className="muted">
          What the student wrote, the equations read (as mathematics), why each mark was or wasn't given, your reasons, and their regrade requests with your
          replies: a web page that opens anywhere, offline.
        </p>
        <div className="row">
          <input placeholder="student id" aria-label="student id" value={student} onChange={(e) => setStudent(e.target.value)} />
          <button disabled={!student.trim()} onClick={report} data-testid="export-report">
            Download report (HTML)
          </button>
        </div>
      </div>
      {error && <div className="banner error">{error}</div>}
      {preview && <pre className="preview">{preview.slice(0, 6000)}</pre>}
    </section>
  );
}

function OpenWork({ check, nav, onAnyway, onCancel }: { check: ApiResponse<'export.check'>; nav: Nav; onAnyway(): void; onCancel(): void }) {
  const list = <T extends { responseId: string; studentId: string; questionId: string }>(rows: T[], what: (r: T) => string) => (
    <ul className="open-list">
      {rows.slice(0, 12).map((r) => (
        <li key={r.responseId}>
          <button className="link" onClick={() => nav.openResponse(r.responseId)}>
            {r.studentId} · {r.questionId}
          </button>{' '}
          <span className="muted small">{what(r)}</span>
        </li>
      ))}
      {rows.length > 12 && <li className="muted">and {rows.length - 12} more</li>}
    </ul>
  );
  return (
    <div className="banner warn" role="alert" data-testid="export-warning">
      <strong>Not everything is marked yet.</strong>
      {check.manualOpen.length > 0 && (
        <>
          <p>
            {check.manualOpen.length} answer{check.manualOpen.length === 1 ? ' has' : 's have'} manual items open (exported as empty):
          </p>
          {list(check.manualOpen, (r) => `item${r.items.length === 1 ? '' : 's'} ${r.items.join(', ')}`)}
        </>
      )}
      {check.needsReview.length > 0 && (
        <>
          <p>
            {check.needsReview.length} answer{check.needsReview.length === 1 ? ' needs' : 's need'} your review:
          </p>
          {list(check.needsReview, (r) => r.reasons.join(', '))}
        </>
      )}
      {check.pending > 0 && <p>{check.pending} answers are not graded yet.</p>}
      <div className="row">
        <button className="primary" onClick={onAnyway} data-testid="export-anyway">
          Export anyway
        </button>
        <button onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}
