import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../electron/cli/main.ts';
import { ROOT } from './helpers.ts';

const DEMO = join(ROOT, 'resources/demo/exam.json');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false };
  const code = await main(args, io);
  return { code, out, err };
}

test('bad arguments: exit 2 with what is wrong and the usage', async () => {
  let r = await cli(['frobnicate']);
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown command 'frobnicate'/);
  r = await cli(['grade', '--exam', DEMO, '--out', '/tmp/x']);
  assert.match(r.err, /exactly one of --responses R.csv or --equations L.csv/);
  r = await cli(['grade', '--exam', DEMO, '--responses', 'r.csv', '--out', '/tmp/x', '--fast']);
  assert.match(r.err, /unknown option --fast/);
  r = await cli(['grade', '--exam']);
  assert.match(r.err, /--exam needs a value/);
  r = await cli(['grade', '--exam', DEMO, '--responses', 'r.csv', '--out', '/tmp/x', '--technique', 'psychic']);
  assert.match(r.err, /unknown technique 'psychic' \(available: embedded, plain, direct, llm-modulo, consensus, per-line, hybrid\)/);
  r = await cli(['check', '--exam', DEMO, '--question', 'q1', 'H = 1']);
  assert.match(r.err, /exactly two equations/);
  const help = await cli(['help']);
  assert.equal(help.code, 0);
  // The usage documents the techniques, the model options, exit status 3 and the environment.
  for (const s of ['--technique T', '--model M', '--ollama-url URL', '--gpu NAME', '--cache FILE|none', 'hybrid', 'embedded', '3 some responses wait', 'EQUIMARK_MODEL', 'OLLAMA_HOST']) assert.ok(help.out.includes(s), s);
});

test('bad files: exit 1 naming the file, the place and the problem; a rejected CSV stores nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-cli-'));
  try {
    let r = await cli(['grade', '--exam', join(dir, 'nope.json'), '--responses', 'r.csv', '--out', dir]);
    assert.equal(r.code, 1);
    assert.match(r.err, /nope\.json: invalid exam:\n {2}\(top level\): cannot read file: ENOENT/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, readFileSync(DEMO, 'utf8').replace('"Eq(t, u/g)"', '"Eq(t, U/g)"'));
    r = await cli(['check', '--exam', bad, '--question', 'q1', 'H = 1', 'H = 2']);
    assert.match(r.err, /questions\[0\]\.scheme\[0\]\.accept\[0\]: symbol 'U' is not a variable of this question \(u, g, t, H\); did you mean 'u'\?/);
    const csv = join(dir, 'r.csv');
    writeFileSync(csv, 'student_id,question_id,response\nS1,q1,"H = 1"\nS1,q1,again\nS2,q3,x\n');
    r = await cli(['grade', '--exam', DEMO, '--responses', csv, '--out', join(dir, 'out')]);
    assert.equal(r.code, 1);
    assert.match(r.err, /line 3: duplicate response for student 'S1', question 'q1' \(first on line 2\)/);
    assert.match(r.err, /line 4: unknown question id 'q3'/);
    assert.equal(existsSync(join(dir, 'out', 'workspace.sqlite')), false, 'nothing stored');
    r = await cli(['check', '--exam', DEMO, '--question', 'q9', 'H = 1', 'H = 2']);
    assert.match(r.err, /question 'q9' is not in the exam \(questions: q1, q2\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: both directions with method and evidence, parse errors by equation', async () => {
  let r = await cli(['check', '--exam', DEMO, '--question', 'q1', 'H = u**2/(2*g)', 'u**2 = 2*g*H']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /EQ1 => EQ2: holds \(/);
  assert.match(r.out, /EQ2 => EQ1: holds \(/);
  assert.match(r.out, /equivalent: yes/);
  r = await cli(['check', '--exam', DEMO, '--question', 'q1', 'H = u**2/g', 'H = u**2/(2*g)', '--json']);
  const j = JSON.parse(r.out);
  assert.equal(j.forward.holds, false);
  assert.ok(j.forward.counterexample || j.forward.samples, 'a refutation comes with evidence');
  r = await cli(['check', '--exam', DEMO, '--question', 'q1', 'H = -u**2/(2*g)', 'H = 1']);
  assert.match(r.out, /EQ1 .* consistent: NO: inconsistent/);
  r = await cli(['check', '--exam', DEMO, '--question', 'q1', 'H = x', "__import__('os')"]);
  assert.equal(r.code, 1);
  assert.match(r.err, /EQ1 "H = x": symbol 'x' is not a variable/);
  assert.match(r.err, /EQ2 .*/);
});

test('grade the demo: marks.csv with the union of item columns, manual items empty; equations.csv', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-demo-'));
  try {
    // As `npm run demo` runs it: no model configured, so the embedded extractor reads everything.
    const r = await cli(['grade', '--exam', DEMO, '--responses', join(ROOT, 'resources/demo/responses.csv'), '--out', dir]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /graded 15 responses/);
    const marks = readFileSync(join(dir, 'marks.csv'), 'utf8').trim().split('\n');
    assert.equal(marks[0], 'student_id,question_id,a,b,c,d,r1,r2,total,status');
    assert.ok(marks.includes('D01,q1,1,1,2,,,,4,manual-open'), marks.join('\n'));
    assert.ok(marks.includes('D01,q2,,,,,1,1,2,complete'));
    assert.ok(marks.includes('D05,q1,0,0,0,,,,0,blank'));
    assert.ok(marks.includes('D03,q1,0,1,0,,,,1,manual-open'), 'an unsolved equivalent equation is not an answer');
    const eqs = readFileSync(join(dir, 'equations.csv'), 'utf8');
    assert.match(eqs, /^student_id,question_id,equations,source,status,flags\n/);
    assert.match(eqs, /D04,q1,"\[""Eq\(H, -u\*\*2\/\(2\*g\)\)""\]",embedded,read,inconsistent/);
    // A rerun does no work and writes the same files.
    const again = await cli(['grade', '--exam', DEMO, '--responses', join(ROOT, 'resources/demo/responses.csv'), '--out', dir, '--technique', 'plain']);
    assert.match(again.out, /this run: extracted 0, marked 0/);
    assert.equal(readFileSync(join(dir, 'marks.csv'), 'utf8').trim(), marks.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
