// Grade: choose how responses are read (embedded extractor, or installed Ollama models), start,
// pause and resume, and watch the progress.
import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../App.tsx';
import { errorText, fmtSeconds, useLoad } from '../util.ts';
import type { GradeProgress, TechniqueName } from '../../shared/api.ts';

export function GradeView({ nav, examId }: { nav: Nav; examId: string }) {
  const [options, optError] = useLoad(() => api['grade.options']({}), []);
  const [technique, setTechnique] = useState<TechniqueName>('embedded');
  const [models, setModels] = useState<string[]>([]);
  // Start from what Equimark recommends: hybrid with a model when Ollama has one, else the embedded extractor.
  useEffect(() => {
    if (!options) return;
    setTechnique(options.recommended.technique);
    setModels(options.recommended.models);
  }, [options]);
  const info = options?.techniques.find((t) => t.id === technique);
  const maxModels = info?.maxModels ?? 0;
  const enough = models.length >= (info?.minModels ?? 0);
  const [p, setP] = useState<GradeProgress>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const s = await api['grade.status']({});
        if (!live) return;
        setP(s);
        if (s.state === 'done') nav.refreshExams();
        timer = setTimeout(poll, s.state === 'running' || s.state === 'pausing' ? 400 : 2000);
      } catch (e) {
        if (live) setError(errorText(e));
      }
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const run = async (what: 'start' | 'pause' | 'resume') => {
    setError(undefined);
    try {
      if (what === 'start') setP(await api['grade.start']({ examId, technique, models: models.slice(0, maxModels) }));
      else if (what === 'pause') setP(await api['grade.pause']({}));
      else setP(await api['grade.resume']({}));
    } catch (e) {
      setError(errorText(e));
    }
  };
  const running = p?.state === 'running' || p?.state === 'pausing';
  // Two phases (read every response, then mark every one): the bar covers both.
  const pct = p && p.total ? Math.floor((100 * (p.read + p.done)) / (2 * p.total)) : 0;
  const ollama = options?.ollama;
  return (
    <section>
      <h1>Grade</h1>
      <p className="lead">Equimark reads each response, finds its equations, and marks them against the scheme. Nothing you have already corrected is lost.</p>
      {optError && <div className="banner error">{optError}</div>}
      <div className="card">
        <h2>How should the responses be read?</h2>
        {options?.techniques.map((t) => (
          <label key={t.id} className={`option ${t.available ? '' : 'disabled'}`}>
            <input
              type="radio"
              name="technique"
              value={t.id}
              disabled={!t.available || running}
              checked={technique === t.id}
              onChange={() => {
                setTechnique(t.id);
                if (t.maxModels > 0 && models.length === 0 && ollama?.models[0]) setModels([ollama.models[0].name]);
              }}
            />
            <span>
              <strong>{t.label}</strong>
              <span className="muted small block">{t.note}</span>
            </span>
          </label>
        ))}
        {ollama && (
          <div className={ollama.reachable ? 'banner info' : 'banner muted'} data-testid="ollama-status">
            {ollama.reachable
              ? ollama.models.length
                ? `Ollama is running at ${ollama.url} with ${ollama.models.length} model${ollama.models.length === 1 ? '' : 's'} installed.`
                : `Ollama is running at ${ollama.url} but has no models installed.`
              : `Ollama is not running at ${ollama.url}, so the models are not available: responses are read by the embedded extractor, which runs inside Equimark on this computer. Start Ollama (or change its address in Settings) to use a model.`}
          </div>
        )}
        {maxModels > 0 && ollama?.models.length ? (
          <fieldset className="models">
            <legend>Models ({info?.minModels === 2 ? 'choose two' : maxModels === 2 ? 'choose one, or two to have them agree' : 'choose one'})</legend>
            {ollama.models.map((m) => (
              <label key={m.name} className="check">
                <input
                  type="checkbox"
                  checked={models.includes(m.name)}
                  onChange={(e) => setModels(e.target.checked ? [...models, m.name].slice(-maxModels) : models.filter((x) => x !== m.name))}
                />
                <span className="model-name">{m.name}</span>
                <span className="muted small">
                  {[m.parameterSize ? `${m.parameterSize} parameters` : null, m.size ? `${(m.size / 1e9).toFixed(1)} GB` : null].filter(Boolean).join(' · ')}
                </span>
                {m.digest && (
                  <code className="small muted digest" title={`sha256:${m.digest}`} data-digest={m.digest}>
                    sha256:{m.digest.slice(0, 12)}
                  </code>
                )}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="row">
          <button className="primary" disabled={running || !options || !enough} onClick={() => run('start')} data-testid="grade-start">
            {p?.state === 'done' ? 'Grade again' : 'Start grading'}
          </button>
          <button disabled={p?.state !== 'running'} onClick={() => run('pause')}>
            Pause
          </button>
          <button disabled={p?.state !== 'paused'} onClick={() => run('resume')}>
            Resume
          </button>
        </div>
        {error && <div className="banner error">{error}</div>}
      </div>
      {p && p.state !== 'idle' && (
        <div className="card" data-testid="progress" data-state={p.state} data-started={p.startedAt ?? ''}>
          <div className="row spread">
            <strong>
              {p.state === 'done'
                ? 'Finished.'
                : p.state === 'paused'
                  ? 'Paused.'
                  : p.state === 'pausing'
                    ? 'Pausing after the current response…'
                    : p.state === 'failed'
                      ? 'Stopped with an error.'
                      : p.phase === 'marking'
                      ? 'Marking the equations read…'
                      : 'Reading the responses…'}
            </strong>
            <span className="muted" data-testid="progress-counts">
              {p.read} of {p.total} read · {p.done} of {p.total} responses marked ({pct}%)
            </span>
          </div>
          <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={p.total} aria-valuenow={p.done}>
            <div style={{ width: `${pct}%` }} />
          </div>
          <dl className="stats">
            <div>
              <dt>Time left</dt>
              <dd data-stat="eta">{p.state === 'done' ? '—' : fmtSeconds(p.etaSeconds)}</dd>
            </div>
            <div>
              <dt>Elapsed</dt>
              <dd data-stat="elapsed">{fmtSeconds(p.elapsedSeconds)}</dd>
            </div>
            <div>
              <dt>Need your review</dt>
              <dd data-stat="review">{p.needsReview}</dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd data-stat="failed">{p.failed}</dd>
            </div>
            <div>
              <dt>Model tokens</dt>
              <dd data-stat="tokens">{p.tokens.toLocaleString()}</dd>
            </div>
            <div>
              <dt>Energy (est.)</dt>
              <dd data-stat="energy">{p.energyJoules < 3600 ? `${Math.round(p.energyJoules)} J` : `${(p.energyJoules / 3600).toFixed(2)} Wh`}</dd>
            </div>
          </dl>
          {p.message && <p className="muted">{p.message}</p>}
          {p.state === 'done' && (
            <button className="primary" onClick={() => nav.go('review')}>
              Next: review the marks
            </button>
          )}
        </div>
      )}
    </section>
  );
}
