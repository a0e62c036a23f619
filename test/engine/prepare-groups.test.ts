// The grade's own comparisons for the answer groups (engine/review/prepare-groups.ts, issue 14: a
// workspace graded by the command line, opened in the app for the first time, waited for every
// list of a question to be compared). As a grade ends it compares each question's lists as the
// app's grouping will, keeping the answers and the canonical keys in the workspace: a new engine
// then forms the groups by look-ups, deciding no pair, and they are the groups a comparison from
// scratch forms. Only a question whose lists changed is compared again: a re-run with nothing to
// do and a re-grade after a scheme change compare nothing; a corrected reading is compared only
// with the lists of the groups, every pair of lists asked involving it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { equationToSympy, type Equation } from '../../shared/equation/index.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import type { EntailmentEngine } from '../../electron/engine/decide/entail/types.ts';
import { grade, type GradeOptions } from '../../electron/engine/grade.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { answerGroupsOf, type AnswerGroup, type CanonicalKeyStore } from '../../electron/engine/review/groups.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';

const examJson = (accept: string[]): unknown => ({
  format: 'exam.v1',
  id: 'prepared',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 'v', assumptions: ['positive'] },
        { name: 'u', assumptions: ['positive'] },
        { name: 'w', assumptions: ['positive'] },
        { name: 't', assumptions: ['positive'] },
        { name: 'S', assumptions: ['positive'] },
      ],
      target: 'v',
      scheme: [
        { id: 'a', marks: 1, match: 'implied', accept: ['Eq(t, 2*S/u)'] },
        { id: 'c', marks: 2, match: 'answer', accept },
      ],
    },
  ],
});
const exam: LoadedExam = validateExam(examJson(['Eq(v, u + w)']));
/** The same exam with one accepted form added to an item: marks may move, the lists don't. */
const changedExam: LoadedExam = validateExam(examJson(['Eq(v, u + w)', 'Eq(v + 1, u + w + 1)']));
const q = exam.exam.questions[0];

/** Identical lists, lists written differently, lists equivalent only by proof, and lists that are not. */
const LISTS: string[][] = [
  ['Eq(v, u + w)', 'Eq(t, 2*S/u)'],
  ['Eq(v, u + w)', 'Eq(t, 2*S/u)'],
  ['Eq(u + w, v)', 'Eq(2*(t), 2*(2*S/u))'],
  ['Eq(v - u - w, 0)', 'Eq(t*u, 2*S)'],
  ['Eq(u, v - w)', 'Eq(t, 2*S/u)'],
  ['Eq(v, u - w)', 'Eq(t, 2*S/u)'],
  ['Eq(v, 2*u)', 'Eq(t, 2*S/v)'],
  ['Eq(v, u + w)'],
  ['Eq(w, v - u)'],
  ['Eq(v**2, (u + w)**2)', 'Eq(t, 2*S/u)'],
];
const csv = (lists: string[][]): string =>
  `student_id,question_id,equations\n${lists.map((l, i) => `S${String(i).padStart(2, '0')},q1,"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;
const given = (lists: string[][]) => ({ kind: 'given' as const, rows: parseEquationsCsv(csv(lists), (x) => exam.questions.get(x)?.variables).rows });

/** Groups as member ids in order, with each group's list. */
const shape = (groups: AnswerGroup<{ id: number }>[]) => groups.map((g) => ({ key: g.key, ids: g.members.map((m) => m.id) }));

/** A key store over the workspace that counts the keys it is given. */
function countingKeys(ws: Workspace): CanonicalKeyStore & { added: number } {
  const s = {
    added: 0,
    canonicalKeys: (space: string) => ws.canonicalKeys(space),
    putCanonicalKeys: (space: string, keys: Iterable<readonly [string, string | null]>) => {
      const all = [...keys];
      s.added += all.length;
      ws.putCanonicalKeys(space, all);
    },
  };
  return s;
}

/** The groups of q1 as the app's worker forms them (its lists read from the workspace: store/group-lists.ts). */
const groupsOf = async (engine: EntailmentEngine, ws: Workspace, keys?: CanonicalKeyStore) =>
  shape(await answerGroupsOf(engine, q, ws.markedLists(exam.exam.id, 'q1'), (r) => r.equations, keys));

/** The groups of q1 compared from scratch: a new engine with nothing kept. */
async function fromScratch(ws: Workspace): Promise<ReturnType<typeof shape>> {
  const engine = await Entailer.create();
  try {
    return await groupsOf(engine, ws);
  } finally {
    await engine.close();
  }
}

/**
 * A grade of the workspace as the command line runs it (a new engine each time), recording the
 * pairs of lists its engine is asked while the answer groups are prepared: all of them, and those
 * it decided (not answered from the workspace's kept answers).
 */
async function gradeRecording(ws: Workspace, opts: Pick<GradeOptions, 'exam' | 'input'>) {
  const engine = await Entailer.create();
  const asked: [string[], string[]][] = [];
  const decided: [string[], string[]][] = [];
  let inGroups = false;
  const equivalentLists = engine.equivalentLists.bind(engine);
  const shown = (eqs: Equation[]) => eqs.map(equationToSympy);
  engine.equivalentLists = (a, b, domain, pause) => {
    const hits = engine.stats().storeHits ?? 0;
    // A kept answer is read before the comparison's first await: counted by the time it returns.
    const answer = equivalentLists(a, b, domain, pause);
    if (inGroups) {
      asked.push([shown(a), shown(b)]);
      if ((engine.stats().storeHits ?? 0) === hits) decided.push([shown(a), shown(b)]);
    }
    return answer;
  };
  try {
    const summary = await grade({ workspace: ws, engine, ...opts, onProgress: (p) => (inGroups = p.phase === 'groups') });
    return { summary, asked, decided };
  } finally {
    await engine.close();
  }
}

test('a grade compares the lists as it ends: a new engine forms the groups from what it kept, deciding nothing, and they are the groups compared from scratch', async () => {
  for (const prepare of [true, false]) {
    const ws = new Workspace(':memory:');
    const engine = await Entailer.create();
    let later: Entailer | undefined;
    try {
      const summary = await grade({ workspace: ws, exam, engine, input: given(LISTS), ...(prepare ? {} : { answerGroups: false }) });
      assert.deepEqual(summary.answerGroups, prepare ? { compared: ['q1'], unchanged: [] } : undefined);
      const expected = await fromScratch(ws);
      assert.ok(expected.length > 3 && expected.length < LISTS.length - 2, JSON.stringify(expected));
      // The app after the grade: a new engine on the workspace.
      later = await Entailer.create();
      later.setVerdictStore(ws.decidedStore());
      const keys = countingKeys(ws);
      assert.deepEqual(await groupsOf(later, ws, keys), expected);
      if (prepare) {
        assert.equal(later.stats().pairs, 0, 'no pair of equations decided');
        assert.equal(later.stats().z3Calls, 0);
        assert.ok((later.stats().storeHits ?? 0) > 0, 'the pairs of lists are look-ups');
        assert.equal(keys.added, 0, 'no canonical key computed');
      } else {
        // Without the grade's comparisons the same groups cost the comparisons (what the above spares).
        assert.ok(later.stats().pairs > 0);
        assert.ok(keys.added > 0);
      }
    } finally {
      await later?.close();
      await engine.close();
      ws.close();
    }
  }
});

test('a re-run with nothing to do and a re-grade after a scheme change compare no list again', async () => {
  const ws = new Workspace(':memory:');
  try {
    const first = await gradeRecording(ws, { exam, input: given(LISTS) });
    assert.deepEqual(first.summary.answerGroups, { compared: ['q1'], unchanged: [] });
    assert.ok(first.decided.length > 0);
    const expected = await fromScratch(ws);

    // Not even the kept answers are looked up: the question is not grouped again.
    const rerun = await gradeRecording(ws, { exam, input: { kind: 'none' } });
    assert.deepEqual(rerun.summary.answerGroups, { compared: [], unchanged: ['q1'] });
    assert.deepEqual(rerun.asked, []);

    const regrade = await gradeRecording(ws, { exam: changedExam, input: given(LISTS) });
    assert.ok(regrade.summary.markedNow > 0, 'the scheme change re-marked the responses');
    assert.deepEqual(regrade.summary.answerGroups, { compared: [], unchanged: ['q1'] });
    assert.deepEqual(regrade.asked, []);
    assert.deepEqual(await fromScratch(ws), expected);
  } finally {
    ws.close();
  }
});

test("a corrected reading: the next grade decides only the corrected list's pairs, and the groups are those compared from scratch", async () => {
  const ws = new Workspace(':memory:');
  let later: Entailer | undefined;
  try {
    await gradeRecording(ws, { exam, input: given(LISTS) });
    const before = await fromScratch(ws);
    // S07's part of the answer corrected to a wrong list never seen before.
    const corrected = 'Eq(v, u*w)';
    const id = ws.findResponse('prepared', 'S07', 'q1')!;
    ws.saveExtraction(id, { equations: [{ source: corrected }], status: 'read', source: 'manual', flags: [], unread: [], notes: [] }, 'instructor');
    const { summary, asked, decided } = await gradeRecording(ws, { exam, input: { kind: 'none' } });
    assert.equal(summary.markedNow, 1);
    assert.deepEqual(summary.answerGroups, { compared: ['q1'], unchanged: [] });
    assert.ok(decided.length > 0);
    assert.ok(asked.length > decided.length, 'the pairs of lists compared before are look-ups');
    for (const [a, b] of decided) assert.ok(a.includes(corrected) || b.includes(corrected), `decided without the corrected list: ${JSON.stringify([a, b])}`);
    const after = await fromScratch(ws);
    assert.notDeepEqual(after, before);
    later = await Entailer.create();
    later.setVerdictStore(ws.decidedStore());
    assert.deepEqual(await groupsOf(later, ws), after);
    assert.equal(later.stats().pairs, 0, 'no pair of equations decided after the grade');
  } finally {
    await later?.close();
    ws.close();
  }
});
