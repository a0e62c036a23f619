// Exams: the empty state (demo exam), importing exam.v1 JSON, and editing questions, variables,
// target and marking scheme with accepted forms checked as you type.
import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { FileDrop } from '../drop.tsx';
import { EquationField } from '../tex.tsx';
import { errorText, useLoad } from '../util.ts';
import { ASSUMPTIONS, type Exam, type Question, type SchemeItem } from '../../shared/exam.ts';
import type { ValidationIssue } from '../../shared/api.ts';
import type { SchemePreviewStatus } from '../../shared/scheme-preview.ts';
import { OverrideCasesSection, SchemePreviewPanel, usePreviewPolling } from './SchemePreview.tsx';

type ExamRow = { id: string; title: string; questions: number; responses: number; graded: number };

export function ExamsView({ nav, exams }: { nav: Nav; exams: ExamRow[] }) {
  const [issues, setIssues] = useState<ValidationIssue[]>([]);
  const [msg, setMsg] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Bumped when a re-mark after a scheme change has finished: the overrides' list is read again.
  const [remarked, setRemarked] = useState(0);
  // A changed version of a marked exam, imported: the editor opens with it as unsaved changes and previews them.
  const [staged, setStaged] = useState<{ exam: Exam; n: number }>();
  const current = exams.find((e) => e.id === nav.examId);

  const importJson = async (text: string, fileName: string) => {
    setIssues([]);
    setMsg(undefined);
    try {
      const r = await api['exam.import']({ json: text });
      if (r.ok && r.staged) {
        setStaged({ exam: r.staged, n: (staged?.n ?? 0) + 1 });
        setMsg(`${fileName} changes an exam that is already marked: nothing is saved yet. Its changes are previewed below; apply or discard them.`);
        nav.setExam(r.examId);
      } else if (r.ok) {
        setStaged(undefined);
        setMsg(`Imported ${fileName}.`);
        nav.setExam(r.examId);
        nav.refreshExams();
      } else setIssues(r.issues);
    } catch (e) {
      setIssues([{ path: fileName, message: errorText(e) }]);
    }
  };
  const demo = async () => {
    setBusy(true);
    try {
      const r = await api['exam.loadDemo']({});
      nav.setExam(r.examId);
      nav.refreshExams();
      setMsg(`Demo exam loaded with ${r.responses} responses. Next: grade them.`);
    } catch (e) {
      setMsg(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>Exam</h1>
      {exams.length === 0 && (
        <div className="empty">
          <h2>Welcome to Equimark</h2>
          <p>
            Equimark reads typed physics answers, finds the equations in them, and marks them against your marking scheme with a symbolic engine. Models only
            read; marks always come from the scheme, and you can check and change every one.
          </p>
          <p>To try it, open the demo exam: a short mechanics paper with a class of typed answers.</p>
          <button className="primary" onClick={demo} disabled={busy}>
            Open the demo exam
          </button>
          <p className="muted small">Or import your own exam below (exam.v1 JSON).</p>
        </div>
      )}
      <FileDrop accept=".json,application/json" label="Import an exam (exam.v1 JSON)" onText={importJson} testId="exam-file" />
      {msg && <div className="banner ok">{msg}</div>}
      {issues.length > 0 && (
        <div className="banner error" role="alert">
          <strong>The exam was not imported. Fix these and try again:</strong>
          <ul>
            {issues.map((i, k) => (
              <li key={k}>
                <code>{i.path}</code>: {i.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {nav.examId && (
        <ExamEditor
          key={`${nav.examId}:${staged?.exam.id === nav.examId ? staged.n : 0}`}
          examId={nav.examId}
          draft={staged?.exam.id === nav.examId ? staged.exam : undefined}
          graded={current?.graded ?? 0}
          onSaved={nav.refreshExams}
          onRemarked={() => {
            setRemarked((n) => n + 1);
            nav.refreshExams();
          }}
        />
      )}
      {nav.examId && (current?.responses ?? 0) > 0 && <OverrideCasesSection examId={nav.examId} reloadKey={remarked} onOpen={(id) => nav.openResponse(id)} />}
      {exams.length > 0 && (
        <p className="muted small">
          <button className="link" onClick={demo} disabled={busy}>
            Load the demo exam
          </button>{' '}
          as well.
        </p>
      )}
    </section>
  );
}

/**
 * The exam's editor. Once responses are marked, a change is previewed before it is saved
 * ("Preview changes": who gains or loses which mark), then applied or discarded; an exam with no
 * marks yet is saved at once.
 */
function ExamEditor({
  examId,
  draft,
  graded,
  onSaved,
  onRemarked,
}: {
  examId: string;
  /** Unsaved changes to start from (an imported version of this exam), previewed at once. */
  draft?: Exam;
  graded: number;
  onSaved(): void;
  onRemarked(): void;
}) {
  const [loaded, error, reload] = useLoad(() => api['exam.get']({ examId }), [examId]);
  const [exam, setExamState] = useState<Exam>();
  const [qi, setQi] = useState(0);
  const [issues, setIssues] = useState<ValidationIssue[]>([]);
  const [saved, setSaved] = useState<string>();
  const [preview, setPreview] = useState<SchemePreviewStatus>();
  const [busy, setBusy] = useState(false);
  // Bumped by Discard: the question's fields are drawn again from the saved exam.
  const [drawn, setDrawn] = useState(0);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  // An imported draft replaces the saved exam once, when that is loaded, and is previewed at once;
  // a later load (after Discard) shows the saved exam.
  const draftShown = useRef(false);
  useEffect(() => {
    if (loaded && draft && !draftShown.current) {
      draftShown.current = true;
      setExamState(draft);
      void runPreviewOf(draft);
    } else setExamState(loaded);
  }, [loaded]); // eslint-disable-line react-hooks/exhaustive-deps
  usePreviewPolling(preview, setPreview);
  if (error) return <div className="banner error">{error}</div>;
  if (!exam) return <div className="muted">Loading the exam…</div>;
  const q = exam.questions[qi] ?? exam.questions[0];
  /** An edit: a preview made of the exam before it no longer says what saving would do. */
  const setExam = (next: Exam) => {
    setSaved(undefined);
    if (preview) {
      if (preview.state === 'running') api['scheme.previewDiscard']({}).catch(() => {});
      setPreview(undefined);
    }
    setExamState(next);
  };
  const setQ = (nq: Question) => setExam({ ...exam, questions: exam.questions.map((x, i) => (i === qi ? nq : x)) });
  /** After a save, wait for the re-mark to finish, then let the overrides' list be read again. */
  const afterRemark = async () => {
    for (let i = 0; i < 7200 && live.current; i++) {
      const p = await api['grade.status']({}).catch(() => null);
      if (!p || (p.state !== 'running' && p.state !== 'pausing')) break;
      await new Promise((ok) => setTimeout(ok, 500));
    }
    if (live.current) onRemarked();
  };
  const save = async () => {
    setIssues([]);
    setBusy(true);
    try {
      const r = await api['exam.save']({ exam });
      if (r.ok) {
        setPreview(undefined);
        setSaved(r.remarking ? `Saved. Re-marking ${r.remarking} responses with the changed scheme now (progress under Grade).` : 'Saved.');
        onSaved();
        if (r.remarking) void afterRemark();
      } else setIssues(r.issues);
    } catch (e) {
      setIssues([{ path: '', message: errorText(e) }]);
    } finally {
      setBusy(false);
    }
  };
  const runPreview = () => runPreviewOf(exam);
  async function runPreviewOf(exam: Exam) {
    setIssues([]);
    setSaved(undefined);
    setBusy(true);
    try {
      const s = await api['scheme.preview']({ exam });
      if (s.state === 'invalid') setIssues(s.issues ?? []);
      else setPreview(s);
    } catch (e) {
      setIssues([{ path: '', message: errorText(e) }]);
    } finally {
      setBusy(false);
    }
  }
  const discard = async () => {
    await api['scheme.previewDiscard']({}).catch(() => {});
    setPreview(undefined);
    setExamState(loaded);
    reload();
    setDrawn((n) => n + 1);
    setSaved('Changes discarded: the exam is as it was saved.');
  };
  return (
    <div className="card editor">
      <div className="row spread">
        <input className="title-input" aria-label="exam title" value={exam.title} onChange={(e) => setExam({ ...exam, title: e.target.value })} />
        {graded > 0 ? (
          <button className="primary" onClick={runPreview} disabled={busy || preview?.state === 'running'} data-testid="preview-changes">
            Preview changes
          </button>
        ) : (
          <button className="primary" onClick={save} disabled={busy}>
            Save exam
          </button>
        )}
      </div>
      {saved && <div className="banner ok">{saved}</div>}
      {preview && (
        <SchemePreviewPanel
          status={preview}
          busy={busy}
          onApply={save}
          onDiscard={discard}
          onStop={() => {
            api['scheme.previewDiscard']({}).catch(() => {});
            setPreview(undefined);
          }}
        />
      )}
      {issues.length > 0 && (
        <div className="banner error" role="alert">
          <ul>
            {issues.map((i, k) => (
              <li key={k}>
                <code>{i.path}</code>: {i.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="tabs" role="tablist">
        {exam.questions.map((x, i) => (
          <button key={x.id} role="tab" aria-selected={i === qi} className={i === qi ? 'tab active' : 'tab'} onClick={() => setQi(i)}>
            {x.id}
            {x.title ? `: ${x.title}` : ''}
          </button>
        ))}
      </div>
      <QuestionEditor key={drawn} q={q} onChange={setQ} />
    </div>
  );
}

function QuestionEditor({ q, onChange }: { q: Question; onChange(q: Question): void }) {
  const names = useMemo(() => q.variables.map((v) => v.name), [q.variables]);
  const setItem = (i: number, it: SchemeItem) => onChange({ ...q, scheme: q.scheme.map((x, k) => (k === i ? it : x)) });
  return (
    <div className="question">
      <label className="field">
        <span>Title</span>
        <input value={q.title} onChange={(e) => onChange({ ...q, title: e.target.value })} />
      </label>
      <label className="field">
        <span>Question</span>
        <textarea rows={4} value={q.prompt} onChange={(e) => onChange({ ...q, prompt: e.target.value })} />
      </label>
      <h3>Variables</h3>
      <table className="plain">
        <thead>
          <tr>
            <th>Name</th>
            <th>Meaning</th>
            <th>Assumptions</th>
            <th>Range (open)</th>
            <th>Unit (SI)</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {q.variables.map((v, i) => {
            const set = (nv: typeof v) => onChange({ ...q, variables: q.variables.map((x, k) => (k === i ? nv : x)) });
            return (
              <tr key={i}>
                <td>
                  <input className="mono narrow" aria-label="variable name" value={v.name} onChange={(e) => set({ ...v, name: e.target.value })} />
                </td>
                <td>
                  <input value={v.description} aria-label="variable meaning" onChange={(e) => set({ ...v, description: e.target.value })} />
                </td>
                <td className="nowrap">
                  {ASSUMPTIONS.filter((a) => a !== 'real').map((a) => (
                    <label key={a} className="check">
                      <input
                        type="checkbox"
                        checked={v.assumptions.includes(a)}
                        onChange={(e) => set({ ...v, assumptions: e.target.checked ? [...v.assumptions, a] : v.assumptions.filter((x) => x !== a) })}
                      />
                      {a}
                    </label>
                  ))}
                </td>
                <td className="nowrap">
                  <RangeInput value={v.range} onChange={(range) => set({ ...v, range })} />
                </td>
                <td>
                  <input
                    className="mono narrow"
                    aria-label="variable unit"
                    title="SI unit as a physicist writes it (m/s, kg, N, J/kg K, 1 for dimensionless); empty: no dimension check"
                    placeholder="unit"
                    value={v.unit ?? ''}
                    onChange={(e) => set({ ...v, unit: e.target.value || undefined })}
                  />
                </td>
                <td>
                  <button className="icon" title="Remove variable" onClick={() => onChange({ ...q, variables: q.variables.filter((_, k) => k !== i) })}>
                    ×
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button className="link" onClick={() => onChange({ ...q, variables: [...q.variables, { name: '', description: '', assumptions: ['positive'] }] })}>
        + add a variable
      </button>
      <label className="field inline">
        <span>Target (what the answer solves for)</span>
        <select value={q.target ?? ''} onChange={(e) => onChange({ ...q, target: e.target.value || undefined })}>
          <option value="">(none)</option>
          {names.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </label>
      <h3>Marking scheme</h3>
      {q.scheme.map((it, i) => (
        <div className="scheme-item" key={i}>
          <div className="row">
            <input className="mono narrow" aria-label="item id" value={it.id} onChange={(e) => setItem(i, { ...it, id: e.target.value })} />
            <input className="grow" aria-label="item description" value={it.description} onChange={(e) => setItem(i, { ...it, description: e.target.value })} />
            <label className="check">
              marks
              <input
                type="number"
                min={0}
                className="narrow"
                value={it.marks}
                onChange={(e) => setItem(i, { ...it, marks: Math.max(0, Number(e.target.value) || 0) })}
              />
            </label>
            <select
              aria-label="how it is matched"
              value={it.manual ? 'manual' : (it.match ?? 'implied')}
              onChange={(e) =>
                setItem(
                  i,
                  e.target.value === 'manual' ? { ...it, manual: true, match: undefined } : { ...it, manual: undefined, match: e.target.value as 'implied' },
                )
              }
            >
              <option value="implied">implied by a student equation</option>
              <option value="equivalent">equivalent to a student equation</option>
              <option value="answer">final answer (solved for the target)</option>
              <option value="numeric">a number with a unit (see the exam file's "numeric")</option>
              <option value="manual">marked by hand</option>
            </select>
            <button className="icon" title="Remove item" onClick={() => onChange({ ...q, scheme: q.scheme.filter((_, k) => k !== i) })}>
              ×
            </button>
          </div>
          {!it.manual && (
            <div className="accepts">
              <span className="muted small">Accepted forms</span>
              {it.accept.map((a, k) => (
                <EquationField
                  key={k}
                  value={a}
                  variables={names}
                  label={`accepted form ${k + 1} of item ${it.id}`}
                  onChange={(v) => setItem(i, { ...it, accept: it.accept.map((x, j) => (j === k ? v : x)) })}
                  onRemove={() => setItem(i, { ...it, accept: it.accept.filter((_, j) => j !== k) })}
                />
              ))}
              <button className="link" onClick={() => setItem(i, { ...it, accept: [...it.accept, ''] })}>
                + add an accepted form
              </button>
              <FollowThroughField item={it} onChange={(follow_through) => setItem(i, { ...it, follow_through })} />
            </div>
          )}
        </div>
      ))}
      <button
        className="link"
        onClick={() =>
          onChange({
            ...q,
            scheme: [...q.scheme, { id: String.fromCharCode(97 + q.scheme.length), description: '', marks: 1, match: 'implied', accept: [''] }],
          })
        }
      >
        + add a scheme item
      </button>
    </div>
  );
}

/** Item ids typed with commas or spaces between them. */
const idsOf = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/**
 * The items this one may follow through from (error carried forward), as ids separated by commas.
 * The text is kept as typed; the list is what it names. The engine validates it on saving.
 */
function FollowThroughField({ item, onChange }: { item: SchemeItem; onChange(list: string[] | undefined): void }) {
  const [text, setText] = useState((item.follow_through ?? []).join(', '));
  const listed = (item.follow_through ?? []).join(',');
  // Another item shown here (a question switched): its own list, not the text typed for the last one.
  useEffect(() => {
    if (idsOf(text).join(',') !== listed) setText(listed.split(',').filter(Boolean).join(', '));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the item's list changes
  }, [listed]);
  return (
    <label
      className="field inline small"
      title="When the student's own result for one of these items is wrong, this item can still be earned by working on it correctly (the accepted form that uses that result is the relation)."
    >
      <span>Follow-through from (item ids)</span>
      <input
        className="mono"
        aria-label={`follow-through of item ${item.id}`}
        placeholder="none"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const ids = idsOf(e.target.value);
          onChange(ids.length ? ids : undefined);
        }}
      />
    </label>
  );
}

function RangeInput({ value, onChange }: { value?: [number, number]; onChange(v: [number, number] | undefined): void }) {
  const [lo, setLo] = useState(value ? String(value[0]) : '');
  const [hi, setHi] = useState(value ? String(value[1]) : '');
  const commit = (l: string, h: string) => {
    if (l.trim() === '' && h.trim() === '') onChange(undefined);
    else if (Number.isFinite(Number(l)) && Number.isFinite(Number(h)) && l.trim() && h.trim()) onChange([Number(l), Number(h)]);
  };
  return (
    <>
      <input className="narrow" aria-label="range low" value={lo} placeholder="low" onChange={(e) => (setLo(e.target.value), commit(e.target.value, hi))} />
      {' – '}
      <input className="narrow" aria-label="range high" value={hi} placeholder="high" onChange={(e) => (setHi(e.target.value), commit(lo, e.target.value))} />
    </>
  );
}
