// `equimark models` lists what Ollama has installed with digests; `equimark pull NAME` downloads a
// model showing progress; both against our fake Ollama server, both with clear errors.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.ts';
import { OFFLINE_DNS, runCliAsync } from './helpers.ts';

const servers: FakeOllama[] = [];
after(async () => {
  for (const s of servers) await s.close();
});
const NO_ENV = { OLLAMA_HOST: undefined };

test('models: installed models with parameters, size and digest; --json; OLLAMA_HOST', async () => {
  const f = await startFakeOllama({
    models: [
      { name: 'reader:7b', parameterSize: '7.6B' },
      { name: 'checker:8b', parameterSize: '8.0B' },
    ],
  });
  servers.push(f);
  const r = await runCliAsync(['models'], { OLLAMA_HOST: f.url.replace(/^http:\/\//, '') });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^model\s+parameters\s+size\s+digest$/);
  assert.equal(lines.length, 3);
  for (const name of ['reader:7b', 'checker:8b']) {
    const m = f.installed.find((x) => x.name === name)!;
    const line = lines.find((l) => l.startsWith(name))!;
    assert.ok(line, name);
    assert.ok(
      line.includes(
        f
          .digest(m.name)
          .replace(/^sha256:/, '')
          .slice(0, 12),
      ),
      `${name} shows its digest`,
    );
  }
  const j = await runCliAsync(['models', '--json', '--ollama-url', f.url], NO_ENV);
  const parsed = JSON.parse(j.stdout) as { url: string; models: { name: string; digest: string }[] };
  assert.deepEqual(parsed.models.map((m) => m.name).sort(), ['checker:8b', 'reader:7b']);
  assert.equal(f.count('tags'), 2);
});

test('pull: progress to the end, then the new model is installed; an unknown model is a clear error', async () => {
  const f = await startFakeOllama({ models: [], pullable: [{ name: 'reader:7b', parameterSize: '7.6B' }] });
  servers.push(f);
  const r = await runCliAsync(['pull', 'reader:7b', '--ollama-url', f.url], NO_ENV);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /pulling manifest/);
  assert.match(r.stderr, /pulling [0-9a-f]{12} 0% of 4\.7 GB/);
  assert.match(r.stderr, /verifying sha256 digest/);
  assert.match(r.stdout, new RegExp(`pulled reader:7b into Ollama at ${f.url.replace(/\./g, '\\.')} \\(digest [0-9a-f]{12}\\)`));
  assert.ok(f.installed.some((m) => m.name === 'reader:7b'));

  const bad = await runCliAsync(['pull', 'nosuch:1b', '--ollama-url', f.url], NO_ENV);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /pulling 'nosuch:1b' failed: .*file does not exist/);
  assert.doesNotMatch(bad.stderr, / {4}at /, 'no stack trace');
});

test('models and pull: Ollama not running is said plainly; arguments are checked', async () => {
  const f = await startFakeOllama({});
  const url = f.url;
  await f.close();
  const r = await runCliAsync(['models', '--ollama-url', url], NO_ENV);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^equimark: .*(refused|reach|connect)/im);
  assert.equal((await runCliAsync(['pull'], NO_ENV)).status, 2);
  assert.equal((await runCliAsync(['pull', 'a', 'b'], NO_ENV)).status, 2);
  // A host off this machine is warned about (the lookup is stubbed: nothing leaves the machine).
  const far = await runCliAsync(['models', '--ollama-url', 'http://ollama.example.invalid:11434'], { ...NO_ENV, ...OFFLINE_DNS });
  assert.match(far.stderr, /warning: Ollama at http:\/\/ollama\.example\.invalid:11434 is not on this machine/);
  assert.match(far.stderr, /ENOTFOUND/);
});
