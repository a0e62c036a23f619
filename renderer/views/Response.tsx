// One response: the text with each equation's source highlighted, the equations in KaTeX with
// their SymPy source editable (checked as you type), every reading side by side when models
// disagree, each scheme item's mark with its evidence, and overrides with a required comment.
// Keys: n / j next response needing review, p / k previous, Escape back to the table.
import { Fragment, useEffect, useMemo, useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../App.tsx';
import { Chips } from '../chips.tsx';
import { EquationListEditor, Tex, checkEquation } from '../tex.tsx';
import { download, errorText } from '../util.ts';
import type { ResponseDetail, SympyDetail } from '../../shared/api.ts';
import { exprToLatex } from '../../shared/equation/index.ts';

type Item = ResponseDetail['items'][number];
type Verdict = Item['evidence'][number]['forward'];

export function ResponseView({ nav, responseId }: { nav: Nav; responseId: string }) {
  const [d, setD] = useState<ResponseDetail>();
  const [error, setError] = useState<string>();
  const [hover, setHover] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    setD(undefined);
    api['response.get']({ responseId }).then(
      (x) => live && setD(x),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [responseId]);
  // SymPy's evidence still being computed: ask again shortly (the marks are already shown). Kept
  // apart from `d`, so a late answer never resets equations being edited.
  const [lateSympy, setLateSympy] = useState<SympyDetail>();
  useEffect(() => setLateSympy(undefined), [d]);
  const sympy = lateSympy ?? d?.sympy;
  useEffect(() => {
    if (sympy?.state !== 'pending' || d?.responseId !== responseId) return;
    const t = setTimeout(() => api['response.get']({ responseId }).then((x) => x.responseId === responseId && setLateSympy(x.sympy), () => {}), 600);
    return () => clearTimeout(t);
  }, [sympy, d, responseId]);

  const queue = nav.queue;
  const idx = queue.findIndex((r) => r.responseId === responseId);
  const step = (dir: 1 | -1, needing: boolean) => {
    for (let i = idx + dir; i >= 0 && i < queue.length; i += dir) if (!needing || queue[i].needsReview) return nav.openResponse(queue[i].responseId);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return;
      if (e.key === 'n' || e.key === 'j') step(1, e.key === 'n');
      else if (e.key === 'p' || e.key === 'k') step(-1, e.key === 'p');
      else if (e.key === 'Escape') nav.go('review');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (error) return <div className="banner error">{error}</div>;
  if (!d) return <div className="muted">Loading…</div>;
  const hasNextReview = queue.slice(idx + 1).some((r) => r.needsReview);
  // The held-back equations and the readers' lists have cards of their own: their notes are not repeated here.
  const notes = (d.current?.notes ?? []).filter(
    (n) =>
      !(d.heldBack.length > 0 && n.startsWith('possibly invented, held back')) &&
      !(d.readings.length > 1 && /^the (models still disagree|embedded extractor and the model read this response differently)/.test(n)),
  );
  return (
    <section className="detail" data-testid="response-detail" data-response-id={d.responseId}>
      <div className="row spread">
        <div>
          <button className="link" onClick={() => nav.go('review')}>
            ← All responses
          </button>
          <h1>
            {d.studentId} · {d.questionId}
          </h1>
          <Chips chips={d.chips} />
        </div>
        <div className="total-side">
          <div className="total-box" data-testid="detail-total">
            <span className="big">{d.total ?? '—'}</span>
            <span className="muted">/ {d.available}</span>
          </div>
          <button
            className="link small"
            data-testid="detail-report"
            title="What the student wrote, the equations read and why each mark was given"
            onClick={() => api['export.report']({ responseId: d.responseId }).then((r) => download(r.fileName, r.text, 'text/plain'), (e) => setError(errorText(e)))}
          >
            Download the report for the student
          </button>
        </div>
      </div>
      <div className="row nav-keys">
        <button disabled={idx <= 0} onClick={() => step(-1, false)}>
          ← Previous <kbd>k</kbd>
        </button>
        <button disabled={idx < 0 || idx >= queue.length - 1} onClick={() => step(1, false)}>
          Next <kbd>j</kbd> →
        </button>
        <button className={hasNextReview ? 'primary' : ''} disabled={!hasNextReview} onClick={() => step(1, true)}>
          Next needing review <kbd>n</kbd>
        </button>
        {idx >= 0 && (
          <span className="muted small">
            {idx + 1} of {queue.length}
          </span>
        )}
      </div>
      <div className="columns">
        <div className="card">
          <h2>What the student wrote</h2>
          <StudentText text={d.text} spans={(d.current?.equations ?? []).map((e) => e.span)} hover={hover} />
          {(d.current?.unread.length ?? 0) > 0 && (
            <div className="banner warn">
              <strong>Not read with confidence:</strong>
              <ul>
                {d.current!.unread.map((u, i) => (
                  <li key={i}>
                    “{u.text}”: {u.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {notes.length > 0 && (
            <ul className="notes muted">
              {notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="column-stack">
          <EquationsEditor d={d} onSaved={setD} onHover={setHover} />
          {d.heldBack.length > 0 && <HeldBack d={d} onSaved={setD} />}
        </div>
      </div>
      {d.readings.length > 1 && <Readings d={d} />}
      <div className="card">
        <h2>Marks</h2>
        {d.inconsistent.length > 0 && (
          <div className="banner warn">
            {d.inconsistent.map((x, i) => (
              <div key={i}>
                <code>{x.student}</code> has no solution with the question's assumptions, so it earns nothing{x.note ? ` (${x.note})` : ''}.
              </div>
            ))}
          </div>
        )}
        <table className="plain items">
          <thead>
            <tr>
              <th>Item</th>
              <th>Mark</th>
              <th>Why</th>
              <th>Override</th>
            </tr>
          </thead>
          <tbody>
            {d.items.map((it) => (
              <ItemRow key={it.itemId} it={it} responseId={d.responseId} onSaved={setD} limits={sympy?.limits.filter((l) => l.itemId === it.itemId)} target={d.target} />
            ))}
          </tbody>
        </table>
      </div>
      {sympy && <SympyPanel s={sympy} target={d.target} />}
      {d.audit.length > 0 && (
        <details className="card">
          <summary>History of changes ({d.audit.length})</summary>
          <table className="plain small">
            <tbody>
              {d.audit.map((a, i) => (
                <tr key={i}>
                  <td className="nowrap muted">{new Date(a.at).toLocaleString()}</td>
                  <td>{a.what}</td>
                  <td className="mono">{a.old ?? ''}</td>
                  <td className="mono">{a.new ?? ''}</td>
                  <td>{a.comment ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}

function StudentText({ text, spans, hover }: { text: string; spans: ({ start: number; end: number } | undefined)[]; hover: number | null }) {
  const parts = useMemo(() => {
    const marks = spans
      .map((s, i) => (s && s.end > s.start && s.end <= text.length ? { ...s, i } : null))
      .filter((x): x is { start: number; end: number; i: number } => x !== null)
      .sort((a, b) => a.start - b.start);
    const out: { text: string; eq: number[] }[] = [];
    let at = 0;
    for (const m of marks) {
      if (m.start < at) {
        // Overlaps the previous highlight (a chain a = b = c gives two equations): share it.
        const last = out[out.length - 1];
        if (last && m.end <= at) last.eq.push(m.i);
        continue;
      }
      if (m.start > at) out.push({ text: text.slice(at, m.start), eq: [] });
      out.push({ text: text.slice(m.start, m.end), eq: [m.i] });
      at = m.end;
    }
    out.push({ text: text.slice(at), eq: [] });
    return out;
  }, [text, spans]);
  if (!text.trim()) return <p className="muted">(blank response)</p>;
  return (
    <div className="student-text" data-testid="student-text">
      {parts.map((p, k) =>
        p.eq.length ? (
          <mark key={k} className={p.eq.includes(hover ?? -1) ? 'hot' : ''} title={`equation ${p.eq.map((i) => i + 1).join(', ')}`}>
            {p.text}
            <sup>{p.eq.map((i) => i + 1).join(',')}</sup>
          </mark>
        ) : (
          <Fragment key={k}>{p.text}</Fragment>
        ),
      )}
    </div>
  );
}

function EquationsEditor({ d, onSaved, onHover }: { d: ResponseDetail; onSaved(d: ResponseDetail): void; onHover(i: number | null): void }) {
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
        {d.current ? `Read by ${d.current.flags.includes('models-disagree') ? 'two models that disagree (only the equations both read are kept)' : sourceLabel(d.current.source)}.` : 'Not read yet.'} Correct any equation below; the marks are recomputed as soon as
        you save. Variables: {d.variables.join(', ')}.
      </p>
      <EquationListEditor equations={eqs} onChange={setEqs} variables={d.variables} onHover={onHover} />
      {dirty && (
        <div className="save-bar">
          <input placeholder="Why (optional, kept in the history)" aria-label="correction comment" value={comment} onChange={(e) => setComment(e.target.value)} />
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

/**
 * Equations a model proposed that the student's text doesn't support: they earn nothing until
 * the instructor accepts one (with a comment), which adds it to the equations and re-marks.
 */
function HeldBack({ d, onSaved }: { d: ResponseDetail; onSaved(d: ResponseDetail): void }) {
  return (
    <div className="card held-back" data-testid="held-back">
      <h2>Held back: possibly invented</h2>
      <p className="muted small">
        A model proposed {d.heldBack.length === 1 ? 'this equation' : 'these equations'}, but the student's text doesn't support {d.heldBack.length === 1 ? 'it' : 'them'}: a symbol or number in{' '}
        {d.heldBack.length === 1 ? 'it' : 'each'} is not in what they wrote. {d.heldBack.length === 1 ? 'It earns' : 'They earn'} no marks unless you accept {d.heldBack.length === 1 ? 'it' : 'one'}, for
        example when the working is elsewhere.
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

const sourceLabel = (s: string) =>
  s === 'embedded' ? 'the embedded extractor' : s.startsWith('model:') ? `the model ${s.slice(6)}` : s === 'consensus' ? 'two models in agreement' : s === 'manual' ? 'you (corrected by hand)' : s === 'given' ? 'a given list' : s;

function Readings({ d }: { d: ResponseDetail }) {
  // An equation only one reader has is highlighted (compared by its source, spaces ignored).
  const key = (s: string) => s.replace(/\s+/g, '');
  const sets = d.readings.map((r) => new Set(r.equations.map((e) => key(e.source))));
  const disagree = d.current?.flags.includes('models-disagree') ?? false;
  const agreed = !disagree && d.current?.source === 'consensus';
  return (
    <div className="card" data-testid="readings">
      <h2>Each reader's reading</h2>
      <p className={disagree ? 'banner warn' : 'muted small'}>
        {disagree
          ? 'The models still disagree after comparing their readings. The marks use only the equations both read; correct the list above if the student wrote more.'
          : agreed
            ? 'The models agree (consensus reached): the marks use their common reading.'
            : 'Each reader listed these equations; the marks use the reading above.'}
      </p>
      <div className="side-by-side">
        {d.readings.map((r, i) => (
          <div key={i} className="reading">
            <h3>{sourceLabel(r.source)}</h3>
            <ol>
              {r.equations.map((e, k) => {
                const alone = sets.some((s, j) => j !== i && !s.has(key(e.source)));
                return (
                  <li key={k} className={alone ? 'only-here' : ''} title={alone ? 'not in the other reading' : undefined}>
                    <Tex latex={e.latex} /> <code className="small muted">{e.source}</code>
                  </li>
                );
              })}
            </ol>
            {r.equations.length === 0 && <p className="muted">no equations</p>}
          </div>
        ))}
      </div>
    </div>
  );
}

/** Counterexample values as a teacher reads them: 4 significant figures. */
const roundText = (x: string) => (/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(x) && x.length > 7 ? String(Number(Number(x).toPrecision(4))) : x);

function verdictText(v: Verdict): string {
  const m: Record<string, string> = {
    identical: 'the same equation',
    'z3-proved': 'proved (Z3)',
    'sympy-proved': 'proved (SymPy)',
    'z3-refuted': 'refuted',
    'numeric-counterexample': 'refuted',
    'numeric-agreement': `agrees numerically at ${v.samples ?? 'several'} points (not a proof)`,
    'vacuous-premise': 'the equation has no admissible solution',
    unknown: 'undecided',
  };
  let s = m[v.method] ?? v.method;
  if (v.counterexample) s += `: for example ${Object.entries(v.counterexample).map(([k, x]) => `${k} = ${roundText(x)}`).join(', ')}`;
  if (v.note && v.method !== 'numeric-agreement') s += ` (${v.note})`;
  return s;
}

const symTex = (name: string) => exprToLatex({ kind: 'sym', name });

/** SymPy's evidence for the instructor: simplified forms, the equations solved for the target. Never marks. */
function SympyPanel({ s, target }: { s: SympyDetail; target: string | null }) {
  if (s.state !== 'ready') {
    return (
      <div className="card" data-testid="sympy">
        <h2>SymPy</h2>
        <p className="muted">{s.state === 'pending' ? 'SymPy is still working on these equations…' : s.note}</p>
      </div>
    );
  }
  const verdict = (x: SympyDetail['solved'][number]) =>
    x.admissible === false ? 'ruled out by the assumptions' : x.matchesAnswer === true ? 'equivalent to the accepted answer' : x.matchesAnswer === false ? 'not the accepted answer' : 'equivalence undecided';
  return (
    <div className="card" data-testid="sympy">
      <h2>SymPy</h2>
      <p className="muted small">{s.note}</p>
      <h3>Simplified</h3>
      <ol className="eqlist">
        {s.simplified.map((x, i) => (
          <li key={i}>
            {x.simplified ? <Tex latex={x.simplified.latex} /> : null} {x.note && <span className="muted small">{x.note}</span>}
          </li>
        ))}
      </ol>
      {target && s.solved.length > 0 && (
        <>
          <h3>Solved for {target}</h3>
          <ul data-testid="sympy-solved">
            {s.solved.map((x, i) => (
              <li key={i} title={x.how}>
                <Tex latex={`${symTex(target)} = ${x.value.latex}`} /> <span className="muted small">from {x.from}</span> · <span className={x.matchesAnswer ? 'human' : 'muted'}>{verdict(x)}</span>
                {x.complete === false && <span className="muted small"> (SymPy may have missed other solutions)</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function ItemRow({ it, responseId, onSaved, limits, target }: { it: Item; responseId: string; onSaved(d: ResponseDetail): void; limits?: SympyDetail['limits']; target?: string | null }) {
  const [open, setOpen] = useState(false);
  const [marks, setMarks] = useState(String(it.override?.marks ?? it.awarded ?? ''));
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (value: number | null) => {
    setError(undefined);
    try {
      onSaved(await api['response.override']({ responseId, itemId: it.itemId, marks: value, comment }));
      setOpen(false);
      setComment('');
    } catch (e) {
      setError(errorText(e));
    }
  };
  const ev = it.evidence[0];
  const num = Number(marks);
  const validMarks = marks.trim() !== '' && Number.isFinite(num) && num >= 0 && num <= it.available;
  return (
    <tr data-item={it.itemId} className={it.override ? 'overridden' : ''}>
      <td>
        <strong>{it.itemId}</strong>
        <div className="muted small">{it.description}</div>
      </td>
      <td className="nowrap" data-mark>
        <span className={`mark mark-${it.outcome}`}>{it.final ?? '—'}</span> / {it.available}
        {it.override && <div className="small human">overridden (was {it.awarded ?? 'open'})</div>}
      </td>
      <td className="why">
        {it.outcome === 'manual' && <span className="muted">Marked by hand: set it with Override.</span>}
        {limits && limits.length > 0 && (
          <div className="small" data-testid={`sympy-limits-${it.itemId}`}>
            SymPy, limits of {limits[0].from}:
            <ul>
              {limits.map((l, i) => (
                <li key={i}>
                  {l.regime}: {l.limit ? <Tex latex={`${target ? symTex(target) : ''} \\to ${l.limit.latex}`} /> : 'no limit found'}
                  {l.series && (
                    <>
                      {' '}
                      (<Tex latex={`\\approx ${l.series.latex}`} />)
                    </>
                  )}
                  {l.note && <span className="muted"> {l.note}</span>}
                </li>
              ))}
            </ul>
          </div>
        )}
        {ev && (
          <div>
            {it.outcome === 'awarded' ? 'Earned by ' : 'Closest: '}equation {ev.studentIndex + 1}{' '}
            <span className="mono small">{ev.student}</span> vs accepted <span className="mono small">{ev.accepted}</span>
            <div className="small">
              {it.outcome === 'awarded' ? '' : 'student ⇒ accepted: '}
              {verdictText(ev.forward)}
              {ev.backward && <> · accepted ⇒ student: {verdictText(ev.backward)}</>}
              {ev.solvedForTarget === false && ' · not solved for the target'}
            </div>
          </div>
        )}
        {!ev && it.outcome === 'withheld' && <span className="muted">No equation implies an accepted form.</span>}
        {it.note && <div className="muted small">{it.note}</div>}
        {it.override && <div className="small human">“{it.override.comment}”</div>}
      </td>
      <td>
        {!open ? (
          <button onClick={() => setOpen(true)} data-testid={`override-${it.itemId}`}>
            Override
          </button>
        ) : (
          <div className="override-form">
            <input className="narrow" type="number" min={0} max={it.available} step="any" aria-label="marks" value={marks} onChange={(e) => setMarks(e.target.value)} />
            <input placeholder="Reason (required)" aria-label="override reason" value={comment} onChange={(e) => setComment(e.target.value)} />
            <button className="primary" disabled={!validMarks || !comment.trim()} onClick={() => submit(num)}>
              Set
            </button>
            {it.override && (
              <button disabled={!comment.trim()} onClick={() => submit(null)}>
                Remove override
              </button>
            )}
            <button className="link" onClick={() => setOpen(false)}>
              cancel
            </button>
            {error && <div className="error small">{error}</div>}
          </div>
        )}
      </td>
    </tr>
  );
}
