// Downloading a model into Ollama from the app (ollama.pull / ollama.pullStatus): one download
// at a time, in the background, with progress summed over the model's layers so the bar only
// moves forward; Ollama's own message when it fails; aborted when the app closes.
import { ApiFailure, type PullProgress } from '../../shared/api.ts';
import { OllamaClient, OllamaError } from '../engine/read/ollama/client.ts';

type PullJob = {
  model: string;
  client: OllamaClient;
  state: 'running' | 'done' | 'failed';
  /** Ollama's last status line. */
  status: string;
  /** Layer digest -> bytes to download and downloaded. */
  layers: Map<string, { total: number; completed: number }>;
  error: string | null;
  startedAt: number;
  endedAt: number | null;
  /** Settles (never rejects) when the download ends. */
  run: Promise<void>;
};

/** A large model over a slow line takes hours: the whole download may take this long. */
const PULL_TIME_LIMIT_MS = 6 * 3600_000;

/** Why a download failed, with Ollama's own message where it gave one. */
function pullError(model: string, e: unknown): string {
  const msg = (e instanceof Error ? e.message : String(e)).replace(/^pulling '.*?' failed: /s, '');
  if (e instanceof OllamaError && (e.kind === 'server' || e.kind === 'request' || e.kind === 'model-not-found' || e.kind === 'malformed')) {
    return `Ollama could not download '${model}': ${msg.replace(/^Ollama failed: /, '')}`;
  }
  if (e instanceof OllamaError && e.kind === 'aborted') return `the download of '${model}' was stopped (Equimark was closing)`;
  return `'${model}' was not downloaded: ${msg}`;
}

export class ModelDownloads {
  /** The download running or last finished. */
  private job: PullJob | null = null;

  start(model: string, ollamaUrl: string): PullProgress {
    const cur = this.job;
    if (cur?.state === 'running') {
      const p = this.progress();
      const how = p.fraction !== null ? ` (${Math.floor(100 * p.fraction)}%)` : '';
      throw new ApiFailure({ code: 'conflict', message: `'${cur.model}' is still being downloaded${how}: wait until it is done, then download '${model}'` });
    }
    // Retries would start the download over: none; Ollama itself resumes a pull asked again.
    const client = new OllamaClient({ url: ollamaUrl, timeoutMs: PULL_TIME_LIMIT_MS, retries: 0 });
    const job: PullJob = {
      model,
      client,
      state: 'running',
      status: 'starting',
      layers: new Map(),
      error: null,
      startedAt: Date.now(),
      endedAt: null,
      run: Promise.resolve(),
    };
    job.run = client
      .pull(model, (p) => {
        job.status = p.status;
        // Every layer together, so the bar only moves forward (a model has a big layer and small ones).
        if (p.digest && p.total) job.layers.set(p.digest, { total: p.total, completed: Math.min(p.total, p.completed ?? 0) });
      })
      .then(
        () => {
          job.state = 'done';
          job.status = 'success';
        },
        (e: unknown) => {
          job.state = 'failed';
          job.error = pullError(model, e);
        },
      )
      .finally(() => (job.endedAt = Date.now()));
    this.job = job;
    return this.progress();
  }

  progress(): PullProgress {
    const j = this.job;
    if (!j) return { state: 'idle', model: null, status: '', fraction: null, completed: null, total: null, error: null, startedAt: null, elapsedSeconds: 0 };
    let total = 0;
    let completed = 0;
    for (const l of j.layers.values()) {
      total += l.total;
      completed += l.completed;
    }
    const fraction = j.state === 'done' ? 1 : total > 0 ? completed / total : null;
    return {
      state: j.state,
      model: j.model,
      status: j.status,
      fraction,
      completed: total > 0 ? completed : null,
      total: total > 0 ? total : null,
      error: j.error,
      startedAt: new Date(j.startedAt).toISOString(),
      elapsedSeconds: ((j.endedAt ?? Date.now()) - j.startedAt) / 1000,
    };
  }

  /** Stop a running download (the app is closing). */
  async close(): Promise<void> {
    this.job?.client.abort();
    await this.job?.run;
  }
}
