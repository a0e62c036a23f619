// Answer groups: responses whose equation lists are proved equivalent, largest first. A
// correction of the equations (which is also how a held-back equation is accepted) or an
// override can be applied to a whole group; each member is still audited.
import { useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { EquationListEditor, Tex, checkEquation } from '../tex.tsx';
import { errorText, useLoad } from '../util.ts';
import { GroupMark, GroupMembers } from './GroupMark.tsx';

export function GroupsView({ nav, examId }: { nav: Nav; examId: string }) {
  const [exam] = useLoad(() => api['exam.get']({ examId }), [examId]);
  const [qid, setQid] = useState<string>();
  const questionId = qid ?? exam?.questions[0]?.id;
  const [groups, error, reload] = useLoad(() => (questionId ? api['groups.list']({ examId, questionId }) : Promise.resolve([])), [examId, questionId]);
  // The members' names, texts and marks (the review list's rows), for each group's member list.
  const [list, , reloadList] = useLoad(() => api['review.list']({ examId }), [examId]);
  const members = list ? new Map(list.rows.map((r) => [r.responseId, r])) : undefined;
  const [target, setTarget] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [eqs, setEqs] = useState<string[]>([]);
  const [itemId, setItemId] = useState('');
  const [marks, setMarks] = useState('');
  const [comment, setComment] = useState('');
  const [msg, setMsg] = useState<string>();
  const q = exam?.questions.find((x) => x.id === questionId);
  const variables = q?.variables.map((v) => v.name) ?? [];
  const correct = async (responseIds: string[]) => {
    setMsg(undefined);
    try {
      const r = await api['groups.apply']({
        responseIds,
        action: { kind: 'equations', equations: eqs.filter((e) => e.trim()), comment: comment.trim() || undefined },
      });
      setMsg(`Equations corrected and re-marked for ${r.changed} responses; each is in its history.`);
      setEditing(null);
      setComment('');
      reload();
    } catch (e) {
      setMsg(errorText(e));
    }
  };
  const apply = async (responseIds: string[]) => {
    setMsg(undefined);
    try {
      const r = await api['groups.apply']({ responseIds, action: { kind: 'override', itemId, marks: Number(marks), comment } });
      setMsg(`Override applied to ${r.changed} responses; each is in its history.`);
      setTarget(null);
      setComment('');
      reload();
    } catch (e) {
      setMsg(errorText(e));
    }
  };
  return (
    <section>
      <h1>Answer groups</h1>
      <p className="lead">Most students write the same few things. Responses whose equations are proved equivalent are grouped here, largest group first.</p>
      <div className="tabs">
        {exam?.questions.map((x) => (
          <button key={x.id} className={x.id === questionId ? 'tab active' : 'tab'} onClick={() => setQid(x.id)}>
            {x.id}
          </button>
        ))}
      </div>
      {error && <div className="banner error">{error}</div>}
      {msg && <div className="banner ok">{msg}</div>}
      {groups && groups.length === 0 && <p className="muted">No graded responses for this question yet.</p>}
      {groups?.map((g) => (
        <div className="card group" key={g.key} data-group={g.key}>
          <div className="row spread">
            <strong>
              {g.responseIds.length} response{g.responseIds.length === 1 ? '' : 's'}
            </strong>
            <span className="muted">mark {g.total ?? '—'}</span>
          </div>
          {g.equations.length ? (
            <ol className="inline-eqs">
              {g.equations.map((e, i) => (
                <li key={i}>
                  <Tex latex={e.latex} />
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">no equations</p>
          )}
          <GroupMembers
            ids={g.responseIds}
            rows={members}
            onOpen={(id) =>
              nav.openResponse(
                id,
                g.responseIds.flatMap((x) => members?.get(x) ?? []),
              )
            }
          />
          <div className="row">
            <button
              className="link"
              onClick={() =>
                nav.openResponse(
                  g.responseIds[0],
                  g.responseIds.flatMap((x) => members?.get(x) ?? []),
                )
              }
            >
              open one
            </button>
            {q && <GroupMark ids={g.responseIds} question={q} onDone={(m) => (setMsg(m), reload(), reloadList())} />}
            <button className="link" onClick={() => (setTarget(target === g.key ? null : g.key), setEditing(null))} data-testid="group-override">
              override a mark for the whole group
            </button>
            <button
              className="link"
              onClick={() => {
                setTarget(null);
                setEditing(editing === g.key ? null : g.key);
                setEqs(g.equations.map((e) => e.source));
              }}
              data-testid="group-correct"
            >
              correct the equations for the whole group
            </button>
          </div>
          {editing === g.key && (
            <div className="group-edit">
              <EquationListEditor equations={eqs} onChange={setEqs} variables={variables} />
              <div className="save-bar">
                <input
                  placeholder="Why (optional, kept in each response's history)"
                  aria-label="group correction comment"
                  value={comment}
                  onChange={(e) => setComment(e.target.value)}
                />
                <button
                  className="primary"
                  disabled={!eqs.filter((e) => e.trim()).every((e) => checkEquation(e, variables).ok)}
                  onClick={() => correct(g.responseIds)}
                  data-testid="group-correct-apply"
                >
                  Save and re-mark {g.responseIds.length}
                </button>
              </div>
            </div>
          )}
          {target === g.key && q && (
            <div className="override-form">
              <select aria-label="scheme item" value={itemId} onChange={(e) => setItemId(e.target.value)}>
                <option value="">item…</option>
                {q.scheme.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.id} ({s.marks}) {s.description}
                  </option>
                ))}
              </select>
              <input className="narrow" type="number" min={0} aria-label="marks" value={marks} onChange={(e) => setMarks(e.target.value)} />
              <input placeholder="Reason (required)" aria-label="group override reason" value={comment} onChange={(e) => setComment(e.target.value)} />
              <button className="primary" disabled={!itemId || marks === '' || !comment.trim()} onClick={() => apply(g.responseIds)}>
                Apply to {g.responseIds.length}
              </button>
            </div>
          )}
        </div>
      ))}
    </section>
  );
}
