// `equimark grade` against a faulty scripted Ollama server and against several servers: a failed
// read leaves the response waiting (exit 3, listed with the fault like an unreachable server) and
// a re-run once the fault is gone ends with the marks of a clean run; --model-timeout bounds a
// stall (no retry); the `ollama` library's noise never reaches the terminal; --ollama-url given
// several times spreads the work, refuses models that differ, and warns for every remote host.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOllama, type FakeOllama, type FakeScript } from '../support/fake-ollama.ts';
import { FALL } from '../ollama/helpers.ts';
import { OFFLINE_DNS, runCliAsync } from './helpers.ts';
import { waitingLines } from '../../electron/cli/report.ts';
import { tempDir } from '../support/temp-dir.ts';

const servers: FakeOllama[] = [];
after(async () => {
  for (const s of servers) await s.close();
});
const start = async (script: FakeScript) => {
  const f = await startFakeOllama(script);
  servers.push(f);
  return f;
};
const NO_ENV = { OLLAMA_HOST: undefined, EQUIMARK_MODEL: undefined, EQUIMARK_MODEL2: undefined };
const M = 'fake-llm:7b';

const TEXTS = ['the ball falls freely so v = sqrt(2gh)', 'energy: mgh = 1/2 m v^2', 'v^2 = 2gh hence v = sqrt(2gh)', 'it falls for t = sqrt(2h/g)'];
const READINGS = [['Eq(v, sqrt(2*g*h))'], ['Eq(m*g*h, m*v**2/2)'], ['Eq(v**2, 2*g*h)', 'Eq(v, sqrt(2*g*h))'], ['Eq(t, sqrt(2*h/g))']];
const script = (): FakeScript => ({ rules: TEXTS.map((t, i) => ({ match: t, reply: READINGS[i] })) });

function files() {
  const dir = tempDir('eqm-faults-');
  const exam = join(dir, 'exam.json');
  writeFileSync(exam, JSON.stringify({ format: 'exam.v1', id: 'fall-exam', title: 'Fall', questions: [FALL] }));
  const responses = join(dir, 'r.csv');
  writeFileSync(responses, `student_id,question_id,response\n${TEXTS.map((t, i) => `s${i + 1},fall,"${t}"`).join('\n')}\n`);
  return { dir, exam, responses };
}
const gradeArgs = (f: ReturnType<typeof files>, out: string, urls: string[], extra: string[] = []) => [
  'grade',
  '--exam',
  f.exam,
  '--responses',
  f.responses,
  '--out',
  join(f.dir, out),
  '--technique',
  'llm-modulo',
  '--model',
  M,
  ...urls.flatMap((u) => ['--ollama-url', u]),
  ...extra,
];
const marks = (f: ReturnType<typeof files>, out: string) => readFileSync(join(f.dir, out, 'marks.csv'), 'utf8');

let cleanMarks: string | null = null;
async function clean(): Promise<string> {
  if (cleanMarks) return cleanMarks;
  const s = await start(script());
  const f = files();
  const r = await runCliAsync(gradeArgs(f, 'clean', [s.url]), NO_ENV);
  assert.equal(r.status, 0, r.stderr);
  cleanMarks = marks(f, 'clean');
  return cleanMarks;
}

test('a stall: --model-timeout bounds it (one time-out per response, no retry); exit 3 lists the responses with the fault; the re-run gives the clean marks', async () => {
  const want = await clean();
  const s = await start(script());
  s.inject({ kind: 'stall', times: Infinity, match: 'energy' });
  const f = files();
  const r = await runCliAsync(gradeArgs(f, 'out', [s.url], ['--model-timeout', '0.4']), NO_ENV);
  assert.equal(r.status, 3, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `1 response waits for the model \\(Ollama at ${s.url.replace(/\./g, '\\.')} did not answer within 0\\.4 s \\(the model time-out\\)\\):\\n {2}s2/fall\\n`,
    ),
  );
  assert.equal(s.count('chat'), 4, 'the stalled request was not retried; the other responses were read');
  s.clearFaults();
  s.resetCounts();
  const again = await runCliAsync(gradeArgs(f, 'out', [s.url], ['--model-timeout', '0.4']), NO_ENV);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(s.count('chat'), 1, 'only the waiting response is read again');
  assert.equal(marks(f, 'out'), want);
});

for (const kind of ['garbled', 'http-500-text', 'prose'] as const) {
  test(`a reply that stays broken (${kind}): the response waits (exit 3), the library prints nothing, the re-run gives the clean marks`, async () => {
    const want = await clean();
    const s = await start(script());
    s.inject({ kind, times: Infinity, match: 'hence' });
    const f = files();
    const r = await runCliAsync(gradeArgs(f, 'out', [s.url]), NO_ENV);
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /for the model \(.*\):\n {2}s3\/fall\n/);
    assert.doesNotMatch(r.stderr + r.stdout, /invalid json|Getting text from response|Failed to parse/i);
    assert.doesNotMatch(r.stderr, / {4}at /, 'no stack trace');
    const eq = readFileSync(join(f.dir, 'out', 'equations.csv'), 'utf8');
    const s3 = eq.split('\n').find((l) => l.startsWith('s3,'))!;
    assert.match(s3, /waiting-for-model/);
    assert.doesNotMatch(s3, /parse-error/);
    s.clearFaults();
    const again = await runCliAsync(gradeArgs(f, 'out', [s.url]), NO_ENV);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(marks(f, 'out'), want);
  });
}

test('--model-timeout and --ollama-url are checked', async () => {
  const f = files();
  for (const bad of ['0', '-3', 'soon', '7200']) {
    const r = await runCliAsync(gradeArgs(f, 'x', ['http://127.0.0.1:9'], ['--model-timeout', bad]), NO_ENV);
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr, /--model-timeout must be a number of seconds above 0 and at most 3600/);
  }
  const twice = await runCliAsync(gradeArgs(f, 'x', ['http://127.0.0.1:9', '127.0.0.1:9']), NO_ENV);
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /Ollama server http:\/\/127\.0\.0\.1:9 is given twice/);
});

test('--ollama-url twice: both servers read, and the run ends with the clean marks', async () => {
  const want = await clean();
  const a = await start({ ...script(), latencyMs: 30 });
  const b = await start({ ...script(), latencyMs: 30 });
  const f = files();
  const r = await runCliAsync(gradeArgs(f, 'out', [a.url, b.url]), NO_ENV);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(a.count('chat') > 0 && b.count('chat') > 0, `a ${a.count('chat')}, b ${b.count('chat')}`);
  assert.match(r.stdout, new RegExp(`server ${a.url.replace(/\./g, '\\.')}: read \\d+ response`));
  assert.equal(marks(f, 'out'), want);
});

test('--ollama-url twice with another model digest on one: refused before anything is stored, naming hosts and digests', async () => {
  const a = await start(script());
  const b = await start({ ...script(), models: [{ name: M, digest: 'd'.repeat(64) }] });
  const f = files();
  const r = await runCliAsync(gradeArgs(f, 'out', [a.url, b.url]), NO_ENV);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /model 'fake-llm:7b' is not the same on every Ollama server/);
  assert.ok(r.stderr.includes(`${a.url} has digest ${a.digest(M).slice(0, 12)}`), r.stderr);
  assert.ok(r.stderr.includes(`${b.url} has digest dddddddddddd`), r.stderr);
  assert.equal(existsSync(join(f.dir, 'out', 'workspace.sqlite')), false, 'nothing stored');
  assert.equal(a.count('chat') + b.count('chat'), 0);
});

test('--ollama-url twice with one server down mid-run: what it failed on waits, the other reads the rest', async () => {
  const a = await start(script());
  const b = await start({ ...script(), faults: [{ kind: 'http-500', times: Infinity }] });
  const f = files();
  const r = await runCliAsync(gradeArgs(f, 'out', [a.url, b.url]), NO_ENV);
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, new RegExp(`wait(s)? for the model \\(Ollama at ${b.url.replace(/\./g, '\\.')} answered HTTP 500`));
  assert.match(r.stdout, new RegExp(`server ${b.url.replace(/\./g, '\\.')}: read 0 responses; taken out of the batch`));
});

test('every server off this machine is warned about', async () => {
  const f = files();
  const r = await runCliAsync(gradeArgs(f, 'out', ['http://gpu1.example.invalid:11434', 'http://gpu2.example.invalid:11434']), { ...NO_ENV, ...OFFLINE_DNS });
  assert.match(r.stderr, /warning: Ollama at http:\/\/gpu1\.example\.invalid:11434 is not on this machine/);
  assert.match(r.stderr, /warning: Ollama at http:\/\/gpu2\.example\.invalid:11434 is not on this machine/);
  assert.equal(r.status, 3, r.stderr);
});

test('waiting responses with different faults are listed grouped by fault', () => {
  const lines = waitingLines(
    [
      { studentId: 's1', questionId: 'q', reason: 'Ollama at http://a:1 did not answer within 120 s (the model time-out)' },
      { studentId: 's2', questionId: 'q', reason: 'm at http://a:1 replied outside the expected form: not JSON' },
      { studentId: 's3', questionId: 'q', reason: 'Ollama at http://a:1 did not answer within 120 s (the model time-out)' },
    ],
    undefined,
    'equimark grade ...',
  );
  assert.equal(lines[0], '3 responses wait for the model:');
  assert.equal(lines[1], '  s1/q, s3/q: Ollama at http://a:1 did not answer within 120 s (the model time-out)');
  assert.equal(lines[2], '  s2/q: m at http://a:1 replied outside the expected form: not JSON');
  assert.ok(lines.some((l) => l.startsWith('To finish them, mend the fault above')));
});
