// Answer groups: responses whose equation lists are proved equivalent, largest first. A
// correction of the equations (which is also how a held-back equation is accepted) or an
// override can be applied to a whole group; each member is still audited. A correction reaches
// only the members whose own equations are the list edited, and nothing is saved before the
// instructor has seen every member, its marks now and after (groups.preview).
import { useState } from 'react';
import { api } from '../api.ts';
import type { ApiResponse } from '../../shared/api.ts';
import type { Nav } from '../nav.ts';
import { EquationListEditor, Tex, checkEquation } from '../tex.tsx';
import { errorText, useLoad } from '../util.ts';
import { GroupMark, GroupMembers, MEMBERS_SHOWN } from './GroupMark.tsx';

export function GroupsView({ nav, examId }: { nav: Nav; examId: string }) {
  const [exam] = useLoad(() => api['exam.get']({ examId }), [examId]);
  const [qid, setQid] = useState<string>();
  const questionId = qid ?? exam?.questions[0]?.id;
  const [groups, error, reload] = useLoad(() => (questionId ? api['groups.list']({ examId, questionId }) : Promise.resolve([])), [examId, questionId]);
  // The members' names, texts and marks (their review list rows), for the members each group lists: never the whole list.
  const shownIds = (groups ?? []).flatMap((g) => g.responseIds.slice(0, MEMBERS_SHOWN));
  const [list, , reloadList] = useLoad(
    () => (groups ? api['review.list']({ examId, responseIds: shownIds }) : Promise.resolve(undefined)),
    [examId, questionId, groups],
  );
  const members = list ? new Map(list.rows.map((r) => [r.responseId, r])) : undefined;
  const [target, setTarget] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [eqs, setEqs] = useState<string[]>([]);
  const [itemId, setItemId] = useState('');
  const [marks, setMarks] = useState('');
  const [comment, setComment] = useState('');
  const [msg, setMsg] = useState<{ ok: boolean; text: string }>();
  const [preview, setPreview] = useState<{ key: string; members: ApiResponse<'groups.preview'>['members'] }>();
  const q = exam?.questions.find((x) => x.id === questionId);
  const variables = q?.variables.map((v) => v.name) ?? [];
  const itemMax = q?.scheme.find((s) => s.id === itemId)?.marks;
  const fromOf = (key: string) => JSON.parse(key) as string[];
  const showPreview = async (key: string, responseIds: string[]) => {
    setMsg(undefined);
    try {
      const r = await api['groups.preview']({ responseIds, from: fromOf(key), equations: eqs.filter((e) => e.trim()) });
      setPreview({ key, members: r.members });
    } catch (e) {
      setMsg({ ok: false, text: errorText(e) });
    }
  };
  const correct = async (key: string, responseIds: string[]) => {
    setMsg(undefined);
    try {
      const r = await api['groups.apply']({
        responseIds,
        action: { kind: 'equations', from: fromOf(key), equations: eqs.filter((e) => e.trim()), comment: comment.trim() || undefined },
      });
      const skipped = r.skipped?.length ?? 0;
      setMsg({
        ok: true,
        text: `Equations corrected and re-marked for ${r.changed} responses; each is in its history.${skipped ? ` ${skipped} left as they were: their own equations are written differently.` : ''}`,
      });
      setEditing(null);
      setPreview(undefined);
      setComment('');
      reload();
    } catch (e) {
      setMsg({ ok: false, text: errorText(e) });
    }
  };
  const apply = async (responseIds: string[]) => {
    setMsg(undefined);
    try {
      const r = await api['groups.apply']({ responseIds, action: { kind: 'override', itemId, marks: Number(marks), comment } });
      setMsg({ ok: true, text: `Override applied to ${r.changed} responses; each is in its history.` });
      setTarget(null);
      setComment('');
      reload();
    } catch (e) {
      setMsg({ ok: false, text: errorText(e) });
    }
  };
  const tooMany = itemMax !== undefined && marks !== '' && Number(marks) > itemMax;
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
      {msg && (
        <div className={msg.ok ? 'banner ok' : 'banner error'} role={msg.ok ? undefined : 'alert'} data-testid="groups-message">
          {msg.text}
        </div>
      )}
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
            {q && <GroupMark ids={g.responseIds} question={q} onDone={(m) => (setMsg({ ok: true, text: m }), reload(), reloadList())} />}
            <button className="link" onClick={() => (setTarget(target === g.key ? null : g.key), setEditing(null))} data-testid="group-override">
              override a mark for the whole group
            </button>
            <button
              className="link"
              onClick={() => {
                setTarget(null);
                setPreview(undefined);
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
                  onClick={() => showPreview(g.key, g.responseIds)}
                  data-testid="group-correct-preview"
                >
                  Show who changes…
                </button>
              </div>
              {preview?.key === g.key && (
                <GroupPreview
                  members={preview.members}
                  items={q?.scheme.map((s) => s.id) ?? []}
                  onCancel={() => setPreview(undefined)}
                  onSave={() => correct(g.key, g.responseIds)}
                />
              )}
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
              <input
                className="narrow"
                type="number"
                min={0}
                max={itemMax}
                step="any"
                aria-label="marks"
                value={marks}
                onChange={(e) => setMarks(e.target.value)}
                aria-invalid={tooMany}
              />
              {tooMany && <span className="error-text small">at most {itemMax}</span>}
              <input placeholder="Reason (required)" aria-label="group override reason" value={comment} onChange={(e) => setComment(e.target.value)} />
              <button className="primary" disabled={!itemId || marks === '' || tooMany || !comment.trim()} onClick={() => apply(g.responseIds)}>
                Apply to {g.responseIds.length}
              </button>
            </div>
          )}
        </div>
      ))}
    </section>
  );
}

/** Every member of the group before a correction is saved: its text, its marks now, and after (or why it is left alone). */
function GroupPreview({
  members,
  items,
  onCancel,
  onSave,
}: {
  members: ApiResponse<'groups.preview'>['members'];
  items: string[];
  onCancel(): void;
  onSave(): void;
}) {
  const reached = members.filter((m) => m.reached);
  const changes = reached.filter((m) => m.after && m.after.total !== m.before.total).length;
  const cell = (v: number | null | undefined) => (v === null || v === undefined ? '·' : String(v));
  return (
    <div className="group-preview" role="dialog" aria-label="who changes" data-testid="group-preview">
      <p>
        <strong>{reached.length}</strong> of {members.length} will be corrected
        {changes ? (
          <>
            ; the total changes for <strong>{changes}</strong>
          </>
        ) : (
          '; no total changes'
        )}
        . Members whose own equations are written differently keep theirs.
      </p>
      <table className="plain">
        <thead>
          <tr>
            <th>Student</th>
            <th>What they wrote</th>
            {items.map((i) => (
              <th key={i} className="num">
                {i}
              </th>
            ))}
            <th className="num">Total</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const changed = m.after && m.after.total !== m.before.total;
            return (
              <tr key={m.responseId} data-member={m.studentId} data-reached={m.reached} className={changed ? 'changes' : m.reached ? '' : 'muted'}>
                <td className="mono">{m.studentId}</td>
                <td className="excerpt">
                  {m.excerpt || <em>(blank)</em>}
                  {m.reason && <div className="small muted">{m.reason}</div>}
                </td>
                {items.map((i) => {
                  const b = m.before.marks[i];
                  const a = m.after?.marks[i];
                  return (
                    <td key={i} className="num">
                      {m.after && a !== b ? (
                        <span className="delta">
                          {cell(b)} → <strong>{cell(a)}</strong>
                        </span>
                      ) : (
                        cell(b)
                      )}
                    </td>
                  );
                })}
                <td className="num" data-total>
                  {m.after && changed ? (
                    <span className="delta">
                      {cell(m.before.total)} → <strong>{cell(m.after.total)}</strong>
                    </span>
                  ) : (
                    cell(m.before.total)
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="row">
        <button className="primary" onClick={onSave} data-testid="group-correct-apply" disabled={!reached.length}>
          Save and re-mark {reached.length}
        </button>
        <button onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}
