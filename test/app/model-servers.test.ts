// The app's Settings for the model pipeline: more Ollama servers (a grading spreads its responses
// over all of them) and the per-request model time-out, kept in the settings file and used by
// grading; a server given twice is refused, and a server off this machine is warned about.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppService } from '../../electron/app/service.ts';
import { openService, serviceApi } from '../support/app-service.ts';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MODEL = 'fake-llm:7b';
const TEXTS = Array.from({ length: 8 }, (_, i) => `At the top t = u/g, and then H = u^2/(2g) (attempt ${i + 1})`);

describe('Settings: several Ollama servers and the model time-out', () => {
  let dir: string;
  let a: FakeOllama;
  let b: FakeOllama;
  let service: AppService;
  const { call, settle } = serviceApi(() => service, 50);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-servers-'));
    const script = { rules: [{ match: 'At the top', reply: ['Eq(t, u/g)', 'Eq(H, u**2/(2*g))'], latencyMs: 20 }] };
    a = await startFakeOllama(script);
    b = await startFakeOllama(script);
    service = openService(join(dir, 'w.sqlite'));
  });
  after(async () => {
    await service?.close();
    await a?.close();
    await b?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps more servers and the time-out in the settings file; refuses a server given twice', async () => {
    const s = await call('settings.set', { ollamaUrl: a.url, ollamaMoreUrls: [b.url], modelTimeoutSeconds: 30, models: [MODEL], pythonPath: '' });
    assert.deepEqual(s.ollamaMoreUrls, [b.url]);
    assert.equal(s.modelTimeoutSeconds, 30);
    const file = JSON.parse(readFileSync(join(dir, 'w.sqlite.settings.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(file.ollamaMoreUrls, [b.url]);
    assert.equal(file.modelTimeoutSeconds, 30);
    await assert.rejects(
      call('settings.set', { ollamaUrl: a.url, ollamaMoreUrls: [a.url], models: [MODEL], pythonPath: '' }),
      /invalid-request: Ollama server http:\/\/127\.0\.0\.1:\d+ is given twice/,
    );
    await assert.rejects(call('settings.set', { ollamaUrl: a.url, modelTimeoutSeconds: 0, models: [MODEL], pythonPath: '' }), /invalid-request/);
  });

  it('grading spreads the responses over both servers', async () => {
    await call('settings.set', { ollamaUrl: a.url, ollamaMoreUrls: [b.url], modelTimeoutSeconds: 30, models: [MODEL], pythonPath: '' });
    const ex = await call('exam.import', { json: readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8') });
    assert.ok(ex.ok);
    const csv = `student_id,question_id,response\n${TEXTS.map((t, i) => `S${i + 1},q1,"${t}"`).join('\n')}\n`;
    assert.equal((await call('responses.import', { examId: ex.examId, csv, fileName: 'r.csv' })).imported, TEXTS.length);
    await call('grade.start', { examId: ex.examId, technique: 'llm-modulo', models: [MODEL] });
    const p = await settle();
    assert.equal(p.state, 'done', p.message ?? '');
    assert.equal(a.count('chat') + b.count('chat'), TEXTS.length);
    assert.ok(a.count('chat') > 0 && b.count('chat') > 0, `a ${a.count('chat')}, b ${b.count('chat')}`);
  });

  it('a model that differs between the servers: grading refuses, naming the hosts and digests, and stores no reading', async () => {
    const c = await startFakeOllama({ models: [{ name: MODEL, digest: 'c'.repeat(64) }] });
    try {
      await call('settings.set', { ollamaUrl: a.url, ollamaMoreUrls: [c.url], models: [MODEL], pythonPath: '' });
      const ex = await call('exam.import', { json: readFileSync(join(REPO, 'resources/demo/exam.json'), 'utf8').replace('"id": "demo', '"id": "demo-2') });
      assert.ok(ex.ok);
      const csv = `student_id,question_id,response\nS1,q1,"${TEXTS[0]}"\n`;
      await call('responses.import', { examId: ex.examId, csv, fileName: 'r.csv' });
      await call('grade.start', { examId: ex.examId, technique: 'llm-modulo', models: [MODEL] });
      const p = await settle();
      assert.notEqual(p.state, 'done');
      assert.match(p.message ?? '', /not the same on every Ollama server/);
      assert.ok((p.message ?? '').includes(`${c.url} has digest cccccccccccc`), p.message ?? '');
      const rows = (await call('review.list', { examId: ex.examId })).rows;
      assert.ok(
        rows.every((r) => !r.chips.includes('engine-error' as never) && r.total === null),
        'nothing read, nothing marked',
      );
    } finally {
      await c.close();
    }
  });

  it('warns, in what the app can do, about a server off this machine', async () => {
    await call('settings.set', { ollamaUrl: a.url, ollamaMoreUrls: ['http://gpu2.example.invalid:11434'], models: [MODEL], pythonPath: '' });
    const info = await call('app.info', {});
    const note = info.features['Ollama models']?.note ?? '';
    assert.match(note, /Warning: Ollama at http:\/\/gpu2\.example\.invalid:11434 is not on this machine/);
  });
});
