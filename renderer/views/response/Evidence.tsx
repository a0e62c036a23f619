// The evidence behind a mark: each check's verdict in words, SymPy's limits for an item, and
// SymPy's panel (simplified forms, the equations solved for the target). Evidence never marks.
import { Tex, checkEquation } from '../../tex.tsx';
import type { ResponseDetail, SympyDetail } from '../../../shared/api.ts';
import { verdictWords } from '../../../shared/format/verdict.ts';
import { symTex } from './words.ts';

type Item = ResponseDetail['items'][number];

/**
 * An equation of the evidence as mathematics (KaTeX, through our grammar and printer), its SymPy
 * source shown instead when asked; text the grammar can't parse is shown as it is.
 */
export function EvidenceEquation({ source, variables, showSource }: { source: string; variables: readonly string[]; showSource: boolean }) {
  const checked = checkEquation(source, variables);
  return (
    <span className="evidence-eq" data-source={source}>
      {showSource || !checked.ok ? <code className="small">{source}</code> : <Tex latex={checked.latex} />}
    </span>
  );
}

/** The check an item rests on (the one that earned it, or the closest), both ways where it matters. */
export function ItemEvidence({ it, variables, showSource }: { it: Item; variables: readonly string[]; showSource: boolean }) {
  const ev = it.evidence[0];
  if (!ev) return null;
  if (ev.followThrough && it.outcome === 'awarded') return <FollowThroughEvidence it={it} variables={variables} showSource={showSource} />;
  if (ev.numeric) return <NumericEvidence ev={ev} numeric={ev.numeric} variables={variables} showSource={showSource} />;
  return (
    <div>
      {it.outcome === 'awarded' ? 'Earned by ' : 'Closest: '}equation {ev.studentIndex + 1}{' '}
      <EvidenceEquation source={ev.student} variables={variables} showSource={showSource} /> vs accepted{' '}
      <EvidenceEquation source={ev.accepted} variables={variables} showSource={showSource} />
      <div className="small">
        {it.outcome === 'awarded' ? '' : 'student ⇒ accepted: '}
        {verdictWords(ev.forward)}
        {ev.backward && <> · accepted ⇒ student: {verdictWords(ev.backward)}</>}
        {ev.solvedForTarget === false && ' · not solved for the target'}
      </div>
    </div>
  );
}

/**
 * An item earned by follow-through (error carried forward): the student's wrong result it follows
 * from, the item's relation with that result put in, and the equation shown equivalent to it.
 */
function FollowThroughEvidence({ it, variables, showSource }: { it: Item; variables: readonly string[]; showSource: boolean }) {
  const ev = it.evidence[0];
  const ft = ev.followThrough!;
  const from = ft.fromStudent.map((k) => k + 1).join(', ');
  return (
    <div data-testid={`follow-through-${it.itemId}`}>
      <span className="human">Follow-through from equation {from}</span> (item {ft.fromItem} was wrong): equation {ev.studentIndex + 1}{' '}
      <EvidenceEquation source={ev.student} variables={variables} showSource={showSource} /> is accepted{' '}
      <EvidenceEquation source={ev.accepted} variables={variables} showSource={showSource} /> worked with the student's own result
      {ft.relation && (
        <>
          : <EvidenceEquation source={ft.relation} variables={variables} showSource={showSource} />
        </>
      )}
      <div className="small">
        equation ⇒ relation: {verdictWords(ev.forward)}
        {ev.backward && <> · relation ⇒ equation: {verdictWords(ev.backward)}</>}
      </div>
    </div>
  );
}

/** How a numeric item's value was read, converted and compared (the tolerance and significant figures in the note). */
function NumericEvidence({
  ev,
  numeric,
  variables,
  showSource,
}: {
  ev: Item['evidence'][number];
  numeric: NonNullable<Item['evidence'][number]['numeric']>;
  variables: readonly string[];
  showSource: boolean;
}) {
  return (
    <div data-testid="numeric-evidence">
      {numeric.source === 'stated' ? (
        <>
          Stated: <code>{numeric.written}</code>
        </>
      ) : (
        <>
          Equation {ev.studentIndex + 1} <EvidenceEquation source={ev.student} variables={variables} showSource={showSource} /> with the given values
        </>
      )}
      {numeric.value !== null && (
        <>
          {' '}
          → {Number(numeric.value.toPrecision(6))} {numeric.unit}
        </>
      )}{' '}
      · expected {numeric.expected} {numeric.unit} {numeric.tolerance}
      <div className="small">{numeric.note}</div>
    </div>
  );
}

/** SymPy's limits of the student's expression, for a manual item naming a regime. */
export function ItemLimits({ it, limits, target }: { it: Item; limits?: SympyDetail['limits']; target?: string | null }) {
  if (!limits || limits.length === 0) return null;
  return (
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
  );
}

/** SymPy's evidence for the instructor: simplified forms, the equations solved for the target. Never marks. */
export function SympyPanel({ s, target }: { s: SympyDetail; target: string | null }) {
  if (s.state !== 'ready') {
    return (
      <div className="card" data-testid="sympy">
        <h2>SymPy</h2>
        <p className="muted">{s.state === 'pending' ? 'SymPy is still working on these equations…' : s.note}</p>
      </div>
    );
  }
  const verdict = (x: SympyDetail['solved'][number]) =>
    x.admissible === false
      ? 'ruled out by the assumptions'
      : x.matchesAnswer === true
        ? 'equivalent to the accepted answer'
        : x.matchesAnswer === false
          ? 'not the accepted answer'
          : 'equivalence undecided';
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
                <Tex latex={`${symTex(target)} = ${x.value.latex}`} /> <span className="muted small">from {x.from}</span> ·{' '}
                <span className={x.matchesAnswer ? 'human' : 'muted'}>{verdict(x)}</span>
                {x.complete === false && <span className="muted small"> (SymPy may have missed other solutions)</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
