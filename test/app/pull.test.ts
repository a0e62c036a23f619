// Downloading a model into Ollama from the app (ollama.pull, ollama.pullStatus), through the same
// validated entry point the IPC handler and the HTTP server use (`dispatch`), against our
// Ollama-compatible test server: a model the server can pull downloads with progress and is then
// listed by grade.options with its digest; an unknown model fails with Ollama's message; Ollama
// gone fails saying so; one download at a time; a bad name is refused before anything is sent.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppService } from '../../electron/app/service.ts';
import { OllamaModelNameSchema, dispatch, type ApiError, type ApiMethod, type ApiResponse, type PullProgress } from '../../shared/api.ts';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PULLABLE = 'tiny-reader:1b';
const SECOND = 'tiny-checker:1b';

describe('downloading a model into Ollama from the app', () => {
  let dir: string;
  let fake: FakeOllama;
  let service: AppService;

  const send = (m: ApiMethod, req: unknown) => dispatch(service.handlers(), m, req);
  const call = async <M extends ApiMethod>(m: M, req: unknown): Promise<ApiResponse<M>> => {
    const r = await send(m, req);
    if (!r.ok) throw new Error(`${m}: ${r.error.code}: ${r.error.message}`);
    return r.value as ApiResponse<M>;
  };
  const refused = async (m: ApiMethod, req: unknown): Promise<ApiError> => {
    const r = await send(m, req);
    assert.equal(r.ok, false, `${m} ${JSON.stringify(req)} is refused`);
    return (r as { ok: false; error: ApiError }).error;
  };
  /** Poll until the download ends; every progress seen on the way. */
  const finish = async (): Promise<{ last: PullProgress; seen: PullProgress[] }> => {
    const seen: PullProgress[] = [];
    for (let i = 0; i < 2000; i++) {
      const p = await call('ollama.pullStatus', {});
      seen.push(p);
      if (p.state !== 'running') return { last: p, seen };
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('the download did not end');
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-pull-'));
    fake = await startFakeOllama({
      models: [],
      pullable: [
        { name: PULLABLE, parameterSize: '1.5B', family: 'qwen2' },
        { name: SECOND, parameterSize: '1.2B', family: 'llama' },
      ],
      pullDelayMs: 40,
    });
    service = new AppService({ workspacePath: join(dir, 'w.sqlite'), mode: 'browser', resourcesDir: resolve(REPO, 'resources') });
    await call('settings.set', { ollamaUrl: fake.url, models: [], pythonPath: '' });
  });
  after(async () => {
    await service?.close();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says nothing has been downloaded yet, and Ollama has no models', async () => {
    const p = await call('ollama.pullStatus', {});
    assert.equal(p.state, 'idle');
    assert.equal(p.model, null);
    const o = await call('grade.options', {});
    assert.equal(o.ollama.reachable, true);
    assert.deepEqual(o.ollama.models, []);
  });

  it('downloads a model with progress; grade.options then lists it with its digest and recommends it', async () => {
    const started = await call('ollama.pull', { model: PULLABLE });
    assert.equal(started.state, 'running');
    assert.equal(started.model, PULLABLE);
    const { last, seen } = await finish();
    assert.equal(last.state, 'done', last.error ?? '');
    assert.equal(last.status, 'success');
    assert.equal(last.fraction, 1);
    assert.equal(last.error, null);
    const statuses = new Set(seen.map((p) => p.status));
    assert.ok(statuses.has('pulling manifest'), `the manifest step is seen (${[...statuses].join(', ')})`);
    assert.ok(statuses.has(`pulling ${fake.digest(PULLABLE).slice(0, 12)}`), 'the layer download is seen');
    assert.ok(
      [...statuses].some((s) => /verifying|writing manifest|removing/.test(s)),
      'a step after the download is seen',
    );
    const partial = seen.find((p) => p.fraction !== null && p.fraction > 0 && p.fraction < 1);
    assert.ok(partial, 'a partial fraction is seen');
    assert.equal(partial.total, 4_683_073_184, 'bytes to download');
    assert.equal(partial.completed, Math.round(partial.fraction! * partial.total!), 'bytes downloaded');
    // The fraction only moves forward.
    const fr = seen.map((p) => p.fraction ?? 0);
    assert.ok(
      fr.every((f, i) => i === 0 || f >= fr[i - 1]),
      `fractions never go back (${fr.join(' ')})`,
    );
    assert.equal(fake.count('pull', PULLABLE), 1, 'one request to Ollama');

    const o = await call('grade.options', {});
    const m = o.ollama.models.find((x) => x.name === PULLABLE);
    assert.ok(m, 'the pulled model is installed');
    assert.equal(m.digest, fake.digest(PULLABLE), 'listed with its digest');
    assert.deepEqual(o.recommended, { technique: 'hybrid', models: [PULLABLE] }, 'and offered for grading');
    // What the last download did stays readable.
    assert.equal((await call('ollama.pullStatus', {})).state, 'done');
  });

  it('refuses a second download while one runs, then takes it when the first is done', async () => {
    await call('ollama.pull', { model: SECOND });
    const err = await refused('ollama.pull', { model: PULLABLE });
    assert.equal(err.code, 'conflict');
    assert.match(err.message, new RegExp(`'${SECOND}' is still being downloaded.*wait until it is done`));
    assert.equal((await call('ollama.pullStatus', {})).model, SECOND, 'the running download goes on');
    assert.equal((await finish()).last.state, 'done');
    assert.equal(fake.count('pull', PULLABLE), 1, 'the refused one never reached Ollama');
    assert.ok((await call('grade.options', {})).ollama.models.some((x) => x.name === SECOND));
  });

  it('says plainly, with Ollama\u2019s message, when Ollama has no such model', async () => {
    await call('ollama.pull', { model: 'no-such-model:70b' });
    const { last } = await finish();
    assert.equal(last.state, 'failed');
    assert.equal(last.model, 'no-such-model:70b');
    assert.match(last.error ?? '', /Ollama could not download 'no-such-model:70b': (Ollama at \S+ failed: )?pull model manifest: file does not exist/);
    assert.equal((await call('grade.options', {})).ollama.models.length, 2, 'nothing was added');
  });

  it('refuses a bad name as an invalid request, before anything is sent to Ollama', async () => {
    const before = fake.count('pull');
    for (const model of ['', '   ', 'two words', 'name:tag:more', '../../etc/passwd', 'a;rm -rf', `${'x'.repeat(201)}`, ':tag', 'name:']) {
      const err = await refused('ollama.pull', { model });
      assert.equal(err.code, 'invalid-request', model);
      assert.equal(err.issues?.[0]?.path, 'model', model);
    }
    assert.equal((await refused('ollama.pull', {})).code, 'invalid-request', 'no name at all');
    assert.equal(fake.count('pull'), before);
    // Names Ollama takes pass.
    for (const name of [
      'qwen2.5:14b',
      'llama3.2',
      'library/qwen2.5:7b',
      'hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M',
      'registry.example.com:5000/team/model:v1.2',
      'phi3:3.8b-mini-4k-instruct-q4_K_M',
    ]) {
      assert.ok(OllamaModelNameSchema.safeParse(name).success, name);
    }
  });

  it('says so when Ollama is gone', async () => {
    await fake.stop();
    try {
      await call('ollama.pull', { model: PULLABLE });
      const { last } = await finish();
      assert.equal(last.state, 'failed');
      assert.match(last.error ?? '', new RegExp(`'${PULLABLE}' was not downloaded: cannot reach Ollama at ${fake.url.replace(/\./g, '\\.')}`));
    } finally {
      await fake.start();
    }
  });
});
