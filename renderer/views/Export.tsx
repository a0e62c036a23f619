// Export: the marks CSV (one row per student, per-item columns, total) and a report for one
// response that a student contesting a grade could be shown.
import { useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { download, errorText } from '../util.ts';

export function ExportView({ examId }: { nav: Nav; examId: string }) {
  const [preview, setPreview] = useState<string>();
  const [error, setError] = useState<string>();
  const [student, setStudent] = useState('');
  const marks = async (by: 'student' | 'response') => {
    setError(undefined);
    try {
      const r = by === 'student' ? await api['export.studentMarks']({ examId }) : await api['export.marks']({ examId });
      setPreview(r.csv);
      download(r.fileName, r.csv);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const reports = async () => {
    setError(undefined);
    try {
      const rows = (await api['review.list']({ examId })).rows.filter((r) => r.studentId === student.trim());
      if (!rows.length) return setError(`No responses for student '${student.trim()}'.`);
      const parts = await Promise.all(rows.map((r) => api['export.report']({ responseId: r.responseId })));
      const text = parts.map((p) => p.text).join('\n\n');
      setPreview(text);
      download(`report-${student.trim()}.txt`, text, 'text/plain');
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section>
      <h1>Export</h1>
      <div className="card">
        <h2>Marks</h2>
        <p className="muted">
          One row per student: a column for each question's scheme items (<code>q1.a</code>, <code>q1.b</code>, …), each question's total and the overall total.
          Manual items not yet marked are left empty, and the status column says what is still open.
        </p>
        <div className="row">
          <button className="primary" onClick={() => marks('student')} data-testid="export-student-marks">
            Download marks CSV (one row per student)
          </button>
          <button onClick={() => marks('response')} data-testid="export-marks">
            One row per answer (student, question)
          </button>
        </div>
      </div>
      <div className="card">
        <h2>Report for one student</h2>
        <p className="muted">What the student wrote, the equations read, and why each mark was or wasn't given: the report to show a student who asks.</p>
        <div className="row">
          <input placeholder="student id" aria-label="student id" value={student} onChange={(e) => setStudent(e.target.value)} />
          <button disabled={!student.trim()} onClick={reports} data-testid="export-report">
            Download report
          </button>
        </div>
      </div>
      {error && <div className="banner error">{error}</div>}
      {preview && <pre className="preview">{preview.slice(0, 6000)}</pre>}
    </section>
  );
}
