// `equimark grade --dry-run --diff FILE.csv`: the demo exam graded, an override given, then the
// exam edited (item q1.a's accepted form made wrong): the dry run writes every change to the diff
// CSV, prints the per-item counts and the override the change would part from, and changes
// nothing in the workspace; its arguments are checked. Real engine (Z3), embedded extractor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../electron/cli/main.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { csvRows, ROOT } from './helpers.ts';

const DEMO = join(ROOT, 'resources/demo');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false };
  const code = await main(args, io);
  return { code, out, err };
}

const TABLES = ['exams', 'questions', 'responses', 'extractions', 'mark_results', 'marks', 'overrides', 'comments', 'audit'] as const;
function snapshot(path: string): string {
  const ws = new Workspace(path);
  try {
    return JSON.stringify([...TABLES.map((t) => ws.tableRows(t)), ws.decidedCount()]);
  } finally {
    ws.close();
  }
}

test('grade --dry-run: the diff CSV and the counts of an edited scheme; the workspace is left as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-dry-'));
  try {
    const out = join(dir, 'out');
    const graded = await cli(['grade', '--exam', join(DEMO, 'exam.json'), '--responses', join(DEMO, 'responses.csv'), '--out', out, '--technique', 'embedded']);
    assert.equal(graded.code, 0, graded.err);
    const wsPath = join(out, 'workspace.sqlite');
    // Who earns q1.a now; the instructor confirms one of them by hand (an override that agrees).
    const ws = new Workspace(wsPath);
    const rows = ws.listResponses('demo-physics', { questionId: 'q1' });
    const marks = ws.itemMarksOfExam('demo-physics');
    const earners = rows.filter((r) => marks.get(r.id)?.find((i) => i.itemId === 'a')?.awarded === 1);
    assert.ok(earners.length >= 2, 'the demo class has answers earning q1.a');
    ws.setOverride(earners[0].id, 'a', 1, 'checked by hand: t = u/g is right');
    ws.close();

    // The edit: q1.a accepts a wrong time; every answer that earned it would lose it.
    const exam = JSON.parse(readFileSync(join(DEMO, 'exam.json'), 'utf8'));
    exam.questions[0].scheme[0].accept = ['Eq(t, 2*u/g)'];
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify(exam));
    const before = snapshot(wsPath);
    const diff = join(dir, 'diff.csv');
    const r = await cli(['grade', '--dry-run', '--exam', edited, '--out', out, '--diff', diff]);
    assert.equal(r.code, 0, r.err);
    assert.equal(snapshot(wsPath), before, 'nothing in the workspace changed: marks, overrides, audit, exam, verdicts');

    const text = readFileSync(diff, 'utf8');
    assert.equal(text.split('\n')[0], 'student_id,question_id,item_id,before,after,outcome_before,outcome_after,override');
    const changes = csvRows(text);
    const lostA = changes.filter((c) => c.item_id === 'a' && c.before === '1');
    assert.deepEqual(lostA.map((c) => c.student_id).sort(), earners.map((e) => e.studentId).sort());
    for (const c of lostA) assert.deepEqual([c.question_id, c.after, c.outcome_before, c.outcome_after], ['q1', '0', 'awarded', 'withheld']);
    assert.equal(lostA.find((c) => c.student_id === earners[0].studentId)!.override, '1', 'the override is shown beside the change');
    assert.ok(lostA.filter((c) => c.student_id !== earners[0].studentId).every((c) => c.override === ''));
    // D08 wrote t = 2u/g: the edited form gives it item a.
    const gained = changes.filter((c) => c.before === '0');
    assert.deepEqual(
      gained.map((c) => [c.student_id, c.question_id, c.item_id, c.after, c.outcome_before, c.outcome_after, c.override]),
      [['D08', 'q1', 'a', '1', 'withheld', 'awarded', '']],
    );
    assert.equal(changes.length, lostA.length + gained.length, 'only item a moves');

    assert.match(r.out, /nothing is written to it/);
    assert.match(r.out, /re-marked \d+ responses of q1 with the edited scheme/);
    assert.match(r.out, new RegExp(`q1\\.a\\s+1\\s+${earners.length}\\s+\\d+`), r.out);
    assert.match(r.out, /disagree with 1 override and agree with 0 more/);
    assert.match(r.out, new RegExp(`1 would gain and ${earners.length - 1} would lose marks in total`), "the override keeps its student's total");
    assert.match(r.out, /wrote .*diff\.csv/);

    // The same exam again: nothing to re-mark.
    const same = await cli(['grade', '--dry-run', '--exam', join(DEMO, 'exam.json'), '--workspace', wsPath]);
    assert.equal(same.code, 0, same.err);
    assert.match(same.out, /changes no question's marking/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('grade --dry-run: its arguments are checked before anything is opened', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-dry-args-'));
  try {
    const exam = join(DEMO, 'exam.json');
    let r = await cli(['grade', '--exam', exam, '--responses', 'r.csv', '--out', dir, '--diff', join(dir, 'd.csv')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /--diff FILE\.csv goes with --dry-run/);
    r = await cli(['grade', '--dry-run', '--exam', exam, '--responses', 'r.csv', '--out', dir]);
    assert.equal(r.code, 2);
    assert.match(r.err, /leave out --responses/);
    r = await cli(['grade', '--dry-run', '--exam', exam, '--out', dir, '--model', 'm']);
    assert.equal(r.code, 2);
    assert.match(r.err, /--model has no use/);
    r = await cli(['grade', '--dry-run', '--exam', exam]);
    assert.equal(r.code, 2);
    assert.match(r.err, /give the graded workspace/);
    r = await cli(['grade', '--dry-run', '--exam', exam, '--workspace', join(dir, 'none.sqlite')]);
    assert.equal(r.code, 1);
    assert.match(r.err, /none\.sqlite: no workspace there/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
