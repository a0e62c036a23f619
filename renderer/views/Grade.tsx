// Grade: choose how responses are read (embedded extractor, or installed Ollama models), start,
// pause and resume, and watch the progress. Where the models are listed, a model can be
// downloaded into Ollama (with progress); it is then listed and chosen.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import type { Nav } from '../nav.ts';
import { errorText, fmtSeconds, useLoad } from '../util.ts';
import { ApiFailure, type ApiResponse, type GradeProgress, type PullProgress, type TechniqueName } from '../../shared/api.ts';

export function GradeView({ nav, examId }: { nav: Nav; examId: string }) {
  const [options, optError, reloadOptions] = useLoad(() => api['grade.options']({}), []);
  const [technique, setTechnique] = useState<TechniqueName>('embedded');
  const [models, setModels] = useState<string[]>([]);
  /** A model just downloaded: chosen once the list has it. */
  const pulled = useRef<string | null>(null);
  // Start from what Equimark recommends: hybrid with a model when Ollama has one, else the embedded extractor.
  useEffect(() => {
    if (!options) return;
    setTechnique(options.recommended.technique);
    setModels(options.recommended.models);
    const m = pulled.current ? findModel(options.ollama.models, pulled.current) : undefined;
    if (m && options.techniques.some((t) => t.id === 'hybrid' && t.available)) {
      setTechnique('hybrid');
      setModels([m.name]);
      pulled.current = null;
    }
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
  // The bar counts responses finished (read and marked); the line above it says how many are read.
  const pct = p && p.total ? Math.floor((100 * p.done) / p.total) : 0;
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
                : `Ollama is running at ${ollama.url} but has no models installed: download one below to read responses with a model, or use the embedded extractor.`
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
        {ollama?.reachable && (
          <PullModel
            first={ollama.models.length === 0}
            onPulled={(name) => {
              pulled.current = name;
              reloadOptions();
            }}
          />
        )}
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
              <dd data-stat="eta">{p.state === 'done' ? '—' : running && p.etaSeconds === null ? 'estimating…' : fmtSeconds(p.etaSeconds)}</dd>
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
              <dt title="model time × the board power of the GPU named in Settings (250 W when none is named)">Energy (est.)</dt>
              <dd data-stat="energy">{p.energyJoules < 3600 ? `${Math.round(p.energyJoules)} J` : `${(p.energyJoules / 3600).toFixed(2)} Wh`}</dd>
            </div>
          </dl>
          {p.message && (
            <p className="muted" data-testid="progress-message">
              {p.message}
            </p>
          )}
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

type InstalledModel = ApiResponse<'grade.options'>['ollama']['models'][number];

/** The installed model a name refers to ("qwen2.5" means "qwen2.5:latest", as in Ollama). */
function findModel(installed: InstalledModel[], name: string): InstalledModel | undefined {
  const full = name.includes(':') ? name : `${name}:latest`;
  return installed.find((m) => m.name === name) ?? installed.find((m) => m.name === full);
}

const bytes = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : n >= 1e6 ? `${Math.round(n / 1e6)} MB` : `${Math.round(n / 1e3)} kB`);

/** Ollama's status in a line: "pulling 1a2b3c… 45% of 4.7 GB", "verifying sha256 digest". */
function pullLine(p: PullProgress): string {
  if (p.state === 'done') return 'downloaded';
  const layer = /^pulling ([0-9a-f]{6})[0-9a-f]*$/.exec(p.status);
  if (layer && p.fraction !== null && p.total) return `pulling ${layer[1]}… ${Math.floor(100 * p.fraction)}% of ${bytes(p.total)}`;
  return p.status === 'starting' ? 'asking Ollama…' : p.status;
}

/** "Download a model": a name, then the download's progress (polled), then the refreshed list. */
function PullModel({ first, onPulled }: { first: boolean; onPulled: (name: string) => void }) {
  const [name, setName] = useState('');
  const [p, setP] = useState<PullProgress>();
  const [error, setError] = useState<string>();
  const onPulledRef = useRef(onPulled);
  onPulledRef.current = onPulled;
  // Poll while a download runs (one may have been started before this view opened); say when it ends.
  const [polling, setPolling] = useState(true);
  /** Shown once a download was started here or found running: not a stale result from long ago. */
  const [watching, setWatching] = useState(false);
  useEffect(() => {
    if (!polling) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    let wasRunning = false;
    const poll = async () => {
      try {
        const s = await api['ollama.pullStatus']({});
        if (!live) return;
        setP(s);
        if (s.state === 'running') {
          wasRunning = true;
          setWatching(true);
          timer = setTimeout(poll, 300);
          return;
        }
        setPolling(false);
        if (wasRunning && s.state === 'done' && s.model) {
          setName('');
          onPulledRef.current(s.model);
        }
      } catch (e) {
        if (live) {
          setError(errorText(e));
          setPolling(false);
        }
      }
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [polling]);

  const start = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      setP(await api['ollama.pull']({ model: name }));
      setWatching(true);
      setPolling(true);
    } catch (err) {
      setError(err instanceof ApiFailure && err.error.issues?.length ? err.error.issues[0].message : errorText(err));
    }
  };
  const running = p?.state === 'running';
  const pct = p ? Math.floor(100 * (p.fraction ?? 0)) : 0;
  return (
    <div className={`pull ${first ? 'first' : ''}`} data-testid="pull">
      <form className="pull-form" onSubmit={start}>
        <label className="field">
          <span>{first ? 'Download a model' : 'Download another model'}</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="qwen2.5:7b"
            spellCheck={false}
            autoComplete="off"
            maxLength={200}
            aria-label="model to download"
            data-testid="pull-name"
          />
        </label>
        <button className={first ? 'primary' : ''} type="submit" disabled={running || !name.trim()} data-testid="pull-start">
          Download
        </button>
      </form>
      <p className="muted small pull-hint">
        A name from the Ollama library, such as <code>qwen2.5:7b</code> (about 4.7 GB). Ollama fetches it from its library; a large model takes a while, and you
        can go on working meanwhile.
      </p>
      {error && <div className="banner error">{error}</div>}
      {p && watching && p.state !== 'idle' && (
        <div className="pull-progress" data-testid="pull-progress" data-state={p.state}>
          {p.state === 'failed' ? (
            <div className="banner error" data-testid="pull-error">
              <strong>The download failed.</strong> {p.error}
            </div>
          ) : (
            <>
              <div className="row spread">
                <strong>{p.state === 'done' ? `Downloaded ${p.model}.` : `Downloading ${p.model}…`}</strong>
                <span className="muted" data-testid="pull-status">
                  {pullLine(p)} · {fmtSeconds(p.elapsedSeconds)}
                </span>
              </div>
              <div className="progress" role="progressbar" aria-label={`downloading ${p.model}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
                <div style={{ width: `${p.state === 'done' ? 100 : pct}%` }} />
              </div>
              {p.state === 'done' && <p className="muted small">It is listed with the models above and chosen for grading.</p>}
            </>
          )}
        </div>
      )}
    </div>
  );
}
