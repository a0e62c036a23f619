// Answer groups at scale (issue 14): the engine's short list equivalence (equivalentLists: only
// the pairs the answer needs, cheap steps first, answers kept in the workspace) answers as the
// full comparison (compareLists) does, and the groups formed with it are the groups formed with
// the full comparison — the same members in the same order — on a workspace of identical lists,
// lists equivalent but written differently, lists equivalent only by proof, and lists that are
// not; also after a restart (a new engine on the same workspace: nothing decided again, no list
// parsed again) and after a correction changes a list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import { questionDomain } from '../../shared/exam.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import type { EntailmentEngine } from '../../electron/engine/decide/entail/types.ts';
import { grade, markResponse } from '../../electron/engine/grade.ts';
import { parseEquationsCsv } from '../../electron/engine/io/csv/equations.ts';
import { validateExam, type LoadedExam } from '../../electron/engine/io/exam.ts';
import { answerGroups, answerGroupsOf, type AnswerGroup, type CanonicalKeyStore } from '../../electron/engine/review/groups.ts';
import { Workspace, type ResponseSummary } from '../../electron/engine/store/workspace.ts';

const exam: LoadedExam = validateExam({
  format: 'exam.v1',
  id: 'groups',
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
        { id: 'c', marks: 2, match: 'answer', accept: ['Eq(v, u + w)'] },
      ],
    },
  ],
});
const q = exam.exam.questions[0];

/** Lists of every kind grouping meets (the comment says how each relates to the others). */
const LISTS: string[][] = [
  ['Eq(v, u + w)', 'Eq(t, 2*S/u)'], // A
  ['Eq(v, u + w)', 'Eq(t, 2*S/u)'], // A again, identical
  ['Eq(t, 2*S/u)', 'Eq(v, u + w)'], // A in another order
  ['Eq(u + w, v)', 'Eq(2*(t), 2*(2*S/u))'], // A written differently (sides swapped, both sides scaled)
  ['Eq(v - u - w, 0)', 'Eq(t*u, 2*S)'], // A moved to one side, t solved away: equivalent by proof
  ['Eq(u, v - w)', 'Eq(t, 2*S/u)'], // A solved for u: equivalent by proof
  ['Eq(v, u + w)'], // part of A: not equivalent to it
  ['Eq(w, v - u)'], // the part solved for w: equivalent to the one above
  ['Eq(v, u - w)', 'Eq(t, 2*S/u)'], // a sign wrong: not equivalent to A
  ['Eq(v, 2*u)', 'Eq(t, 2*S/v)'],
  ['Eq(v**2, (u + w)**2)', 'Eq(t, 2*S/u)'], // A squared: equivalent over positive values
  ['Eq(v, u + w)', 'Eq(t, 2*S/u)', 'Eq(v, u + w + 0*t)'], // A with a repeat
  ['Eq(v + 1, v)'], // no solution, written so
  ['Eq(v, v + 1)'], // the same written otherwise (entails nothing)
  ['Eq(v + 1, v)'],
  ['Eq(v, sin(u) + w)'], // trigonometry: sampling only
  ['Eq(w + sin(u), v)'],
  [], // blank
  [],
];

const csv = (lists: string[][]): string =>
  `student_id,question_id,equations\n${lists.map((l, i) => `S${String(i).padStart(2, '0')},q1,"${JSON.stringify(l).replace(/"/g, '""')}"`).join('\n')}\n`;
const given = (lists: string[][]) => ({ kind: 'given' as const, rows: parseEquationsCsv(csv(lists), (x) => exam.questions.get(x)?.variables).rows });

/** The full comparison only (compareLists): what grouping did before equivalentLists. */
const fullOnly = (engine: EntailmentEngine) => ({ compareLists: engine.compareLists.bind(engine) });

/** Groups as member ids in order, with each group's list. */
const shape = (groups: AnswerGroup<{ id: number }>[]) => groups.map((g) => ({ key: g.key, ids: g.members.map((m) => m.id) }));

/** A key store that counts the keys it is given (the workspace underneath). */
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

test('equivalentLists answers as compareLists for every ordered pair of lists, and a new engine reading the kept answers asks Z3 nothing', async () => {
  const ws = new Workspace(':memory:');
  const domain = questionDomain(q);
  const variables = q.variables.map((v) => v.name);
  const lists = LISTS.map((l) => l.map((s) => parseEquationOrThrow(s, { variables })));
  let engine = await Entailer.create();
  const reference = await Entailer.create();
  try {
    engine.setVerdictStore(ws.decidedStore());
    const expected: boolean[] = [];
    for (const a of lists) for (const b of lists) expected.push((await reference.compareLists(a, b, domain)).equivalent);
    assert.ok(expected.includes(true) && expected.includes(false));
    const got: boolean[] = [];
    for (const a of lists) for (const b of lists) got.push(await engine.equivalentLists(a, b, domain));
    assert.deepEqual(got, expected);
    assert.ok(engine.stats().pairs < reference.stats().pairs, `fewer pairs asked (${engine.stats().pairs} against ${reference.stats().pairs})`);
    ws.flushDecided();
    await engine.close();
    engine = await Entailer.create();
    engine.setVerdictStore(ws.decidedStore());
    const again: boolean[] = [];
    for (const a of lists) for (const b of lists) again.push(await engine.equivalentLists(a, b, domain));
    assert.deepEqual(again, expected);
    assert.equal(engine.stats().z3Calls, 0);
  } finally {
    await engine.close();
    await reference.close();
    ws.close();
  }
});

test('equivalentLists with a pause answers as without it, pausing before the pairs it decides: a task queued before a comparison runs before the comparison ends', async () => {
  const domain = questionDomain(q);
  const variables = q.variables.map((v) => v.name);
  const lists = LISTS.map((l) => l.map((s) => parseEquationOrThrow(s, { variables })));
  const engine = await Entailer.create();
  const reference = await Entailer.create();
  try {
    // Lists refuted by the screen alone (no Z3, no other wait): without a pause the comparison is one piece of work.
    const [a, b] = [
      ['Eq(v, u + w)', 'Eq(t, 2*S/u)', 'Eq(w, 3*u)'],
      ['Eq(v, 2*u)', 'Eq(t, 2*S/v)', 'Eq(w, 5*u)'],
    ].map((l) => l.map((s) => parseEquationOrThrow(s, { variables })));
    let pauses = 0;
    const pause = () => {
      pauses++;
      return new Promise<void>((r) => setImmediate(r));
    };
    let done = false;
    let ranBefore: boolean | undefined;
    setImmediate(() => (ranBefore = !done));
    assert.equal(await engine.equivalentLists(a, b, domain, pause), false);
    done = true;
    assert.ok(pauses > 0, 'paused before the pairs it decided');
    assert.equal(ranBefore, true, 'a task queued before the comparison ran before it ended');
    assert.equal(engine.stats().z3Calls, 0);
    for (const x of lists)
      for (const y of lists) assert.equal(await engine.equivalentLists(x, y, domain, pause), (await reference.compareLists(x, y, domain)).equivalent);
  } finally {
    await engine.close();
    await reference.close();
  }
});

test('answer groups are those the full comparison forms (members and order), also from rows of another shape, after a restart and after a correction', async () => {
  const ws = new Workspace(':memory:');
  let engine = await Entailer.create();
  const reference = await Entailer.create();
  try {
    // Graded without the grade's own comparisons of the lists (prepare-groups.test.ts tests those): the groups here start from nothing kept.
    await grade({ workspace: ws, exam, engine, input: given(LISTS), answerGroups: false });
    const rows = () => ws.listResponses('groups', { questionId: 'q1' });
    const expected = shape(await answerGroups(fullOnly(reference), q, rows()));
    // Identical lists, lists written differently and lists equivalent by proof are merged; the rest are not.
    assert.ok(expected.length > 3 && expected.length < LISTS.length - 2, JSON.stringify(expected));

    const keys = countingKeys(ws);
    engine.setVerdictStore(ws.decidedStore());
    assert.deepEqual(shape(await answerGroups(engine, q, rows())), expected);
    // The app's rows: the list as its review row gives it (sorted, repeats kept), no marks as a null total.
    const asReviewRows = (rs: ResponseSummary[]) =>
      rs.map((r) => ({ id: r.id, group: r.extraction ? JSON.stringify([...r.extraction.equations].sort()) : null, marked: r.marks !== null }));
    const fromReviewRows = await answerGroupsOf(
      engine,
      q,
      asReviewRows(rows()),
      (r) => (r.group !== null && r.marked ? (JSON.parse(r.group) as string[]) : null),
      keys,
    );
    assert.deepEqual(shape(fromReviewRows), expected);
    assert.ok(keys.added > 0, 'the canonical keys are kept');
    ws.flushDecided();

    // A restart: a new engine on the same workspace decides nothing again and parses no list again.
    await engine.close();
    engine = await Entailer.create();
    engine.setVerdictStore(ws.decidedStore());
    const added = keys.added;
    assert.deepEqual(shape(await answerGroupsOf(engine, q, rows(), (r) => (r.extraction && r.marks ? r.extraction.equations : null), keys)), expected);
    assert.equal(keys.added, added, 'no canonical key computed again');
    assert.equal(engine.stats().z3Calls, 0);
    assert.equal(engine.stats().pairs, 0, 'no pair decided again');

    // A correction: the list that was A's part becomes a wrong one; the groups follow, as the full comparison forms them.
    const part = ws.findResponse('groups', 'S06', 'q1')!;
    ws.saveExtraction(part, { equations: [{ source: 'Eq(v, u*w)' }], status: 'read', source: 'manual', flags: [], unread: [], notes: [] }, 'instructor');
    await markResponse(ws, engine, exam.questions.get('q1'), { id: part, studentId: 'S06', questionId: 'q1' });
    const afterCorrection = shape(await answerGroups(fullOnly(reference), q, rows()));
    assert.notDeepEqual(afterCorrection, expected);
    assert.deepEqual(shape(await answerGroupsOf(engine, q, rows(), (r) => (r.extraction && r.marks ? r.extraction.equations : null), keys)), afterCorrection);
  } finally {
    await engine.close();
    await reference.close();
    ws.close();
  }
});

/**
 * The groups as deciding one list after another forms them (answerGroupsOf before the lists were
 * decided several at once): each list, largest first, joins the first group whose list the engine
 * says is equivalent, else founds one. `sameLists` is asked in that order; the pairs asked are recorded.
 */
async function oneAfterAnother(firsts: string[], sameLists: (a: string, b: string) => Promise<boolean>): Promise<string[][]> {
  const groups: string[][] = [];
  for (const k of firsts) {
    let home: string[] | undefined;
    for (const g of groups)
      if (await sameLists(k, g[0])) {
        home = g;
        break;
      }
    if (home) home.push(k);
    else groups.push([k]);
  }
  return groups;
}

test('lists decided several at once: the pairs of lists compared and the groups are those of deciding one list after another, whichever answers come late', async () => {
  // 60 lists of one equation each, list k written by 60 - k students (so the largest-first order is k = 0, 1, ...).
  const lists = Array.from({ length: 60 }, (_, k) => [`Eq(v, ${k + 1}*u)`]);
  const rows = lists.flatMap((l, k) => Array.from({ length: 60 - k }, () => l));
  const keyOf = (l: string[]) => JSON.stringify(l);
  // An answer per pair that is no equivalence (not symmetric, not transitive), so the groups
  // depend on the order the pairs are asked in; some answers come late, as a proof by Z3 does.
  const hash = (s: string) => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0, 0x811c9dc5);
  const answer = (a: string, b: string) => hash(`${a}|${b}`) % 5 === 0;
  const slow = (a: string, b: string) => hash(`${b}|${a}`) % 4 === 0;
  const asked: string[] = [];
  let inFlight = 0;
  let most = 0;
  const engine = {
    compareLists: () => Promise.reject(new Error('not used')),
    equivalentLists: async (a: { lhs: unknown; rhs: unknown }[], b: { lhs: unknown; rhs: unknown }[]) => {
      const [ka, kb] = [a, b].map((l) => lists.findIndex((x) => JSON.stringify(parseEquationOrThrow(x[0])) === JSON.stringify(l[0])));
      const pair = `${keyOf(lists[ka])} ~ ${keyOf(lists[kb])}`;
      asked.push(pair);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => (slow(keyOf(lists[ka]), keyOf(lists[kb])) ? setTimeout(r, 5) : setImmediate(r)));
      inFlight--;
      return answer(keyOf(lists[ka]), keyOf(lists[kb]));
    },
  };
  const got = await answerGroupsOf(engine, q, rows, (r) => r);
  const want: string[] = [];
  const reference = await oneAfterAnother(lists.map(keyOf), async (a, b) => {
    want.push(`${a} ~ ${b}`);
    return answer(a, b);
  });
  assert.deepEqual(
    got.map((g) => g.key),
    reference
      .map((g) => ({ key: g[0], n: g.reduce((s, k) => s + 60 - lists.findIndex((l) => keyOf(l) === k), 0) }))
      .sort((x, y) => y.n - x.n)
      .map((g) => g.key),
  );
  assert.deepEqual(
    got.map((g) => g.members.length),
    reference.map((g) => g.reduce((s, k) => s + 60 - lists.findIndex((l) => keyOf(l) === k), 0)).sort((x, y) => y - x),
  );
  assert.deepEqual([...asked].sort(), [...want].sort(), 'the same pairs of lists compared, each once');
  assert.ok(most > 1, 'lists were decided several at once');
});

test('Z3 is started for lists never grouped before, before their first comparison, and not for lists grouped before (after a restart), whose answers are kept', async () => {
  const ws = new Workspace(':memory:');
  const reference = await Entailer.create();
  try {
    const lists = LISTS.slice(0, 10);
    /** An engine (the reference's answers) that logs its starts of Z3 and its comparisons, in order. */
    const logged = () => {
      const log: string[] = [];
      return {
        log,
        engine: {
          compareLists: reference.compareLists.bind(reference),
          equivalentLists: (a: Parameters<typeof reference.equivalentLists>[0], b: typeof a, d: Parameters<typeof reference.equivalentLists>[2]) => {
            log.push('compare');
            return reference.equivalentLists(a, b, d);
          },
          warm: () => log.push('warm'),
        },
      };
    };
    const first = logged();
    const groups = shape(
      await answerGroupsOf(
        first.engine,
        q,
        lists.map((l, id) => ({ id, l })),
        (r) => r.l,
        ws,
      ),
    );
    assert.equal(first.log[0], 'warm', 'started before the first comparison');
    assert.equal(first.log.filter((x) => x === 'warm').length, 1);
    assert.ok(first.log.includes('compare'));
    // A restart: a new engine on the same workspace, the same lists.
    const restart = logged();
    assert.deepEqual(
      shape(
        await answerGroupsOf(
          restart.engine,
          q,
          lists.map((l, id) => ({ id, l })),
          (r) => r.l,
          ws,
        ),
      ),
      groups,
    );
    assert.ok(!restart.log.includes('warm'), 'no Z3 started for lists grouped before');
    // One list with an equation never grouped before: started again.
    const changed = logged();
    await answerGroupsOf(
      changed.engine,
      q,
      [...lists, ['Eq(v, 7*u + w)']].map((l, id) => ({ id, l })),
      (r) => r.l,
      ws,
    );
    assert.equal(changed.log[0], 'warm');
  } finally {
    await reference.close();
    ws.close();
  }
});
