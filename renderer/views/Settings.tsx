import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import { errorText, useLoad } from '../util.ts';
import type { ApiResponse, Settings } from '../../shared/api.ts';

export function SettingsView({ info: initialInfo }: { info?: ApiResponse<'app.info'> }) {
  const [loaded, error] = useLoad(() => api['settings.get']({}), []);
  const [s, setS] = useState<Settings>();
  const [msg, setMsg] = useState<string>();
  // What the app can do depends on the settings (a new Python path changes the SymPy checker):
  // asked again after each save.
  const [info, setInfo] = useState(initialInfo);
  useEffect(() => setInfo(initialInfo), [initialInfo]);
  useEffect(() => setS(loaded), [loaded]);
  const save = async () => {
    if (!s) return;
    try {
      setS(await api['settings.set'](s));
      setMsg('Saved.');
      setInfo(await api['app.info']({}));
    } catch (e) {
      setMsg(errorText(e));
    }
  };
  return (
    <section>
      <h1>Settings</h1>
      {error && <div className="banner error">{error}</div>}
      {s && (
        <div className="card">
          <label className="field">
            <span>Ollama address</span>
            <input value={s.ollamaUrl} onChange={(e) => setS({ ...s, ollamaUrl: e.target.value })} />
          </label>
          <label className="field">
            <span>More Ollama servers (comma-separated; responses are spread over all of them, each must have the same model)</span>
            <input
              value={(s.ollamaMoreUrls ?? []).join(', ')}
              placeholder="http://gpu2.example.edu:11434"
              onChange={(e) =>
                setS({
                  ...s,
                  ollamaMoreUrls: e.target.value
                    .split(',')
                    .map((x) => x.trim())
                    .filter(Boolean),
                })
              }
            />
          </label>
          <label className="field">
            <span>Model time-out per request (seconds)</span>
            <input
              type="number"
              min={1}
              max={3600}
              value={s.modelTimeoutSeconds ?? ''}
              placeholder="120"
              onChange={(e) => setS({ ...s, modelTimeoutSeconds: e.target.value.trim() === '' ? undefined : Number(e.target.value) })}
            />
          </label>
          <label className="field">
            <span>Preferred models (comma-separated)</span>
            <input
              value={s.models.join(', ')}
              onChange={(e) =>
                setS({
                  ...s,
                  models: e.target.value
                    .split(',')
                    .map((x) => x.trim())
                    .filter(Boolean),
                })
              }
            />
          </label>
          <label className="field">
            <span>GPU Ollama runs on (for the energy estimate)</span>
            <input
              value={s.gpu ?? ''}
              placeholder="RTX 4090, or its board power such as 320W (blank: 250 W assumed)"
              onChange={(e) => setS({ ...s, gpu: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Python (for the SymPy checker)</span>
            <input value={s.pythonPath} onChange={(e) => setS({ ...s, pythonPath: e.target.value })} />
          </label>
          <button className="primary" onClick={save}>
            Save settings
          </button>
          {msg && <span className="muted"> {msg}</span>}
        </div>
      )}
      {info && (
        <div className="card">
          <h2>What this copy of Equimark can do</h2>
          <p className="muted small">Workspace: {info.workspace}</p>
          <ul className="plain-list">
            {Object.entries(info.features).map(([k, f]) => (
              <li key={k}>
                <span className={f.available ? 'ok-dot' : 'off-dot'} aria-hidden /> <strong>{k}</strong>: {f.note}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
