// Every reader's list side by side (models, the embedded extractor), an equation only one has highlighted.
import { Tex } from '../../tex.tsx';
import type { ResponseDetail } from '../../../shared/api.ts';
import { sourceLabel } from './words.ts';

export function Readings({ d }: { d: ResponseDetail }) {
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
