// Regrade requests: record a student's request on one answer (their words, the date they
// asked); the open ones wait in this queue until answered with a reply. A mark changed in the
// answer is an override (audited, its reason the reply); requests and replies go into the
// student's report and the CSV below.
import { useEffect, useRef, useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { download, errorText, useLoad } from '../util.ts';
import type { RegradeRequestView, ReviewRow } from '../../shared/api.ts';

const today = () => new Date().toISOString().slice(0, 10);

export function RegradesView({ nav, examId }: { nav: Nav; examId: string }) {
  const [list, listError, reload] = useLoad(() => api['regrade.list']({ examId }), [examId]);
  // Only the rows the queue shows (the open requests' answers), never the whole list: it may be long.
  const openIds = (list ?? []).filter((r) => r.reply === null).map((r) => r.responseId);
  const [review, , reloadReview] = useLoad(() => api['review.list']({ examId, responseIds: openIds }), [examId, openIds.join(',')]);
  const [exam] = useLoad(() => api['exam.get']({ examId }), [examId]);
  const [student, setStudent] = useState('');
  const [question, setQuestion] = useState('');
  const [date, setDate] = useState(today());
  const [text, setText] = useState('');
  const [msg, setMsg] = useState<{ ok: boolean; text: string }>();
  const questions = exam?.questions.map((q) => q.id) ?? [];
  const qid = question || questions[0] || '';
  const add = async () => {
    setMsg(undefined);
    const who = student.trim();
    let row: ReviewRow | undefined;
    try {
      // The one answer named, looked up when asked for.
      row = (await api['review.list']({ examId, questionId: qid, studentId: who })).rows[0];
    } catch (e) {
      return setMsg({ ok: false, text: errorText(e) });
    }
    if (!row) return setMsg({ ok: false, text: `No answer from student '${who}' to ${qid} in this exam.` });
    try {
      await api['regrade.add']({ responseId: row.responseId, text, date });
      setMsg({ ok: true, text: `Request recorded for ${row.studentId}, ${row.questionId}.` });
      setText('');
      reload();
      reloadReview();
    } catch (e) {
      setMsg({ ok: false, text: errorText(e) });
    }
  };
  const open = list?.filter((r) => r.reply === null) ?? [];
  const closed = list?.filter((r) => r.reply !== null) ?? [];
  return (
    <section>
      <h1>Regrade requests</h1>
      <p className="lead">
        A student asks for an answer to be looked at again: record it here. It waits in the queue until you answer; a mark you change is an override with your
        reply as its reason, and both go into the student's report.
      </p>
      <div className="card">
        <h2>Record a request</h2>
        <div className="row wrap">
          <input placeholder="student id" aria-label="regrade student" value={student} onChange={(e) => setStudent(e.target.value)} />
          <select aria-label="regrade question" value={qid} onChange={(e) => setQuestion(e.target.value)}>
            {questions.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
          <input type="date" aria-label="date requested" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <textarea
          className="wide"
          rows={3}
          placeholder="What the student asks, in their words"
          aria-label="regrade request"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button className="primary" disabled={!student.trim() || !text.trim() || !date} onClick={add} data-testid="regrade-add">
          Record the request
        </button>
      </div>
      {msg && (
        <div className={msg.ok ? 'banner ok' : 'banner error'} role={msg.ok ? undefined : 'alert'}>
          {msg.text}
        </div>
      )}
      {listError && <div className="banner error">{listError}</div>}
      <h2>
        Open <span className="muted">({open.length})</span>
      </h2>
      {list && open.length === 0 && <p className="muted">No request waits for you.</p>}
      {open.map((r) => (
        <OpenRequest
          key={r.id}
          r={r}
          row={review?.rows.find((x) => x.responseId === r.responseId)}
          items={review?.items[r.questionId] ?? []}
          onOpen={() => nav.openResponse(r.responseId)}
          onDone={(t) => {
            setMsg({ ok: true, text: t });
            reload();
            reloadReview();
          }}
          onError={(t) => setMsg({ ok: false, text: t })}
        />
      ))}
      <h2>
        Answered <span className="muted">({closed.length})</span>
      </h2>
      {closed.map((r) => (
        <div className="card regrade done" key={r.id} data-regrade={r.id}>
          <div className="row spread">
            <strong>
              {r.studentId} · {r.questionId}
            </strong>
            <span className="muted small">asked {r.requestedOn}</span>
          </div>
          <p>“{r.body}”</p>
          <p>
            <strong>Reply:</strong> {r.reply}
          </p>
          {r.changes.length > 0 && <p className="muted small">Marks changed: {r.changes.map((c) => `${c.itemId} ${c.from ?? 'open'} → ${c.to}`).join(', ')}</p>}
        </div>
      ))}
      <button
        onClick={() =>
          api['export.regrades']({ examId }).then(
            (x) => download(x.fileName, x.csv),
            (e) => setMsg({ ok: false, text: errorText(e) }),
          )
        }
        data-testid="export-regrades"
      >
        Download every request and reply (CSV)
      </button>
    </section>
  );
}

function OpenRequest({
  r,
  row,
  items,
  onOpen,
  onDone,
  onError,
}: {
  r: RegradeRequestView;
  row: ReviewRow | undefined;
  items: { id: string; marks: number }[];
  onOpen(): void;
  onDone(text: string): void;
  onError(text: string): void;
}) {
  const [reply, setReply] = useState('');
  const current = () =>
    Object.fromEntries(items.map((i) => [i.id, row?.marks[i.id] === null || row?.marks[i.id] === undefined ? '' : String(row.marks[i.id])]));
  const [marks, setMarksNow] = useState<Record<string, string>>(current);
  // The answer's row comes after the request (it is fetched for the queue): its marks fill the form until one is typed.
  const typed = useRef(false);
  const setMarks = (m: Record<string, string>) => {
    typed.current = true;
    setMarksNow(m);
  };
  useEffect(() => {
    if (!typed.current && row) setMarksNow(current());
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [row, items.length]);
  const bad = items.find((i) => marks[i.id] !== '' && marks[i.id] !== undefined && !(Number(marks[i.id]) >= 0 && Number(marks[i.id]) <= i.marks));
  const resolve = async () => {
    try {
      const given = items.flatMap((i) => (marks[i.id] === '' || marks[i.id] === undefined ? [] : [{ itemId: i.id, marks: Number(marks[i.id]) }]));
      const done = await api['regrade.resolve']({ requestId: r.id, reply, marks: given });
      onDone(
        `Answered ${done.studentId}, ${done.questionId}${done.changes.length ? `: ${done.changes.length} mark${done.changes.length === 1 ? '' : 's'} changed` : ', no mark changed'}.`,
      );
    } catch (e) {
      onError(errorText(e));
    }
  };
  return (
    <div className="card regrade" data-regrade={r.id}>
      <div className="row spread">
        <strong>
          {r.studentId} · {r.questionId}
        </strong>
        <span className="muted small">asked {r.requestedOn}</span>
      </div>
      <p>“{r.body}”</p>
      {row && <p className="muted small excerpt">{row.excerpt}</p>}
      <div className="row wrap">
        {items.map((i) => (
          <label key={i.id} className="item-mark">
            {i.id}
            <input
              className="narrow"
              type="number"
              min={0}
              max={i.marks}
              step="any"
              aria-label={`mark ${i.id}`}
              value={marks[i.id] ?? ''}
              onChange={(e) => setMarks({ ...marks, [i.id]: e.target.value })}
            />
            <span className="muted small">/ {i.marks}</span>
          </label>
        ))}
        <button className="link" onClick={onOpen}>
          open the answer
        </button>
      </div>
      {bad && (
        <div className="error-text small">
          item {bad.id}: a mark from 0 to {bad.marks}
        </div>
      )}
      <textarea
        className="wide"
        rows={2}
        placeholder="Your reply to the student (required)"
        aria-label="regrade reply"
        value={reply}
        onChange={(e) => setReply(e.target.value)}
      />
      <button className="primary" disabled={!reply.trim() || !!bad} onClick={resolve} data-testid="regrade-resolve">
        Answer and close
      </button>
    </div>
  );
}
