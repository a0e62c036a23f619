// Reading choices in the engine: settled exactly with our own list comparer under the question's
// domain (equivalent readings change nothing; differing ones hold the response at 'partial' with
// the flag and a note), kept in the workspace, and picked by the instructor through pickReading:
// audited (who, which choice, the equations before and after), the span's equations replaced,
// re-marked at once; picking another reading undoes it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { grade, pickReading } from '../../electron/engine/grade.ts';
import { resolveTechnique } from '../../electron/engine/read/registry.ts';
import { settleAlternatives } from '../../electron/engine/read/alternatives.ts';
import { createEngine } from '../../electron/engine/decide/engine-factory.ts';
import { reviewOfResponse } from '../../electron/engine/review/state.ts';
import { extractEmbedded } from '../../shared/extract/index.ts';

const exam = validateExam({
  format: 'exam.v1',
  id: 'parallel',
  questions: [
    {
      id: 'r',
      prompt: 'Two resistors R_1 and R_2 in parallel: find the equivalent resistance R.',
      variables: [
        { name: 'R', description: 'equivalent resistance', assumptions: ['positive'] },
        { name: 'R_1', description: 'first resistance', assumptions: ['positive'] },
        { name: 'R_2', description: 'second resistance', assumptions: ['positive'] },
      ],
      target: 'R',
      scheme: [
        { id: 'sum', marks: 1, match: 'equivalent', accept: ['Eq(1/R, 1/R_1 + 1/R_2)'] },
        { id: 'ans', marks: 2, match: 'answer', accept: ['Eq(R, R_1*R_2/(R_1 + R_2))'] },
      ],
    },
  ],
});
const q = exam.questions.get('r')!.question;
const engine = await createEngine();
after(() => engine.close());

test('readings equivalent under the domain are no ambiguity; differing readings are', async () => {
  // √(R_1²) and (√R_1)² are one value for a positive R_1: recorded, not ambiguous, the response read.
  const same = await settleAlternatives(extractEmbedded('R = √R_1^2', q), q, engine);
  assert.equal(same.alternatives?.length, 1);
  assert.equal(same.alternatives![0].ambiguous, false);
  assert.equal(same.status, 'read');
  assert.ok(!same.flags.includes('ambiguous-reading'));
  assert.ok(!same.notes.some((n) => n.kind === 'ambiguous'));

  const differ = await settleAlternatives(extractEmbedded('so R = R1R2/R1+R2', q), q, engine);
  assert.equal(differ.alternatives![0].ambiguous, true);
  assert.equal(differ.status, 'partial');
  assert.ok(differ.flags.includes('ambiguous-reading'));
  const n = differ.notes.find((k) => k.kind === 'ambiguous')!;
  assert.match(n.text, /R = R1R2\/R1\+R2/);
  assert.match(n.text, /R_1\*R_2\/\(R_1 \+ R_2\)/);
});

test('picking a reading is audited, replaces the equations and re-marks at once; picking another undoes it', async () => {
  const ws = new Workspace(':memory:');
  try {
    await grade({
      workspace: ws,
      exam,
      engine,
      technique: await resolveTechnique('embedded'),
      input: {
        kind: 'responses',
        rows: [
          { studentId: 'S1', questionId: 'r', text: '1/R = 1/R1 + 1/R2 so R = R1R2/R1+R2', line: 2 },
          { studentId: 'S2', questionId: 'r', text: 'R = R1R2/(R1+R2)', line: 3 },
        ],
      },
    });
    const [s1, s2] = ws.listResponses('parallel');
    // Kept in the workspace: the choice, ambiguous, and the response held back for it.
    const x = ws.getExtraction(s1.id)!;
    assert.equal(x.status, 'partial');
    assert.equal(x.alternatives?.length, 1);
    assert.equal(x.alternatives![0].ambiguous, true);
    assert.deepEqual(x.alternatives![0].readings, [['Eq(R, R_1*R_2/R_1 + R_2)'], ['Eq(R, R_1*R_2/(R_1 + R_2))']]);
    assert.equal(ws.getMarks(s1.id)!.total, 1); // the sum of reciprocals; reading 1 earns no answer
    assert.ok(reviewOfResponse(ws.listResponses('parallel')[0], exam.exam).needsReview);
    assert.equal(ws.getExtraction(s2.id)!.alternatives, undefined);

    const r = { id: s1.id, studentId: 'S1', questionId: 'r' };
    await pickReading(ws, engine, exam.questions.get('r'), r, 0, 1);
    const y = ws.getExtraction(s1.id)!;
    assert.deepEqual(
      y.equations.map((e) => e.source),
      ['Eq(1/R, 1/R_1 + 1/R_2)', 'Eq(R, R_1*R_2/(R_1 + R_2))'],
    );
    assert.equal(y.alternatives![0].chosen, 1);
    assert.equal(y.status, 'read');
    assert.ok(!y.flags.includes('ambiguous-reading'));
    assert.ok(y.notes.some((n) => n.kind === 'instructor' && /picked reading/.test(n.text)));
    assert.equal(ws.getMarks(s1.id)!.total, 3); // re-marked at once
    assert.ok(!reviewOfResponse(ws.listResponses('parallel')[0], exam.exam).needsReview);
    const picks = ws.auditLog({ action: 'reading.pick' });
    assert.equal(picks.length, 1);
    assert.equal(picks[0].entityKey, 'parallel/S1/r');
    assert.deepEqual(picks[0].old, { by: 'instructor', choice: 1, text: 'R = R1R2/R1+R2', reading: 1, equations: ['Eq(R, R_1*R_2/R_1 + R_2)'] });
    assert.deepEqual(picks[0].new, { by: 'instructor', choice: 1, text: 'R = R1R2/R1+R2', reading: 2, equations: ['Eq(R, R_1*R_2/(R_1 + R_2))'] });

    // Undo: the other reading again, the marks back, one pick note.
    await pickReading(ws, engine, exam.questions.get('r'), r, 0, 0);
    const z = ws.getExtraction(s1.id)!;
    assert.deepEqual(
      z.equations.map((e) => e.source),
      ['Eq(1/R, 1/R_1 + 1/R_2)', 'Eq(R, R_1*R_2/R_1 + R_2)'],
    );
    assert.equal(ws.getMarks(s1.id)!.total, 1);
    assert.equal(z.notes.filter((n) => n.kind === 'instructor').length, 1);
    assert.equal(ws.auditLog({ action: 'reading.pick' }).length, 2);
    await assert.rejects(pickReading(ws, engine, exam.questions.get('r'), r, 0, 5), /readings 1 to 2/);
  } finally {
    ws.close();
  }
});

test("dimensions settle a '/' beside a '−' for the reading as written when every other grouping adds unlike quantities; not a √'s reach, nor where both groupings balance", async () => {
  // A ball on a string, invented here. Units the exam declares settle a choice, and so do the
  // units its descriptions imply (no exam of ours declares any).
  const ballExam = (declared: boolean) =>
    validateExam({
      format: 'exam.v1',
      id: 'ball',
      questions: [
        {
          id: 'b',
          variables: (
            [
              ['N', 'tension in the string at the top', 'N'],
              ['m', 'mass of the ball', 'kg'],
              ['v', 'speed of the ball at the top', 'm/s'],
              ['r', 'radius of the circle', 'm'],
              ['g', 'gravitational acceleration', 'm/s^2'],
              ['u', 'speed of the ball at the bottom', 'm/s'],
              ['n', 'a number the student may introduce', undefined],
            ] as const
          ).map(([name, description, unit]) => ({ name, description, assumptions: ['positive'], ...(declared && unit ? { unit } : {}) })),
          scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(N, m*v**2/r - m*g)'] }],
        },
      ],
    }).questions.get('b')!.question;
  const ball = ballExam(true);
  const described = await settleAlternatives(extractEmbedded('N = mv^2/r - mg', ballExam(false)), ballExam(false), engine);
  assert.equal(described.alternatives?.[0].ambiguous, false);
  assert.equal(described.status, 'read');
  // m v²/(r − m g) subtracts a force from a length: the written grouping is the only one that balances.
  const settled = await settleAlternatives(extractEmbedded('N = mv^2/r - mg', ball), ball, engine);
  assert.equal(settled.alternatives?.[0].ambiguous, false);
  assert.equal(settled.status, 'read');
  // Both groupings balance (speeds throughout): the choice stays the instructor's.
  const open = await settleAlternatives(extractEmbedded('v = u n/u - v', ball), ball, engine);
  assert.equal(open.alternatives?.[0].ambiguous, true);
  // The written grouping doesn't balance (a speed plus a mass): not settled by dimensions.
  assert.equal((await settleAlternatives(extractEmbedded('v = g r/u + m', ball), ball, engine)).alternatives?.[0].ambiguous, true);
  // A symbol without a unit leaves it to the comparer.
  assert.equal((await settleAlternatives(extractEmbedded('N = n v^2/r - m g', ball), ball, engine)).alternatives?.[0].ambiguous, true);
  // How far a '√' reaches is not settled by dimensions: √(2gr)/g·... markers call it ambiguous.
  assert.equal((await settleAlternatives(extractEmbedded('v = √2gr/u', ball), ball, engine)).alternatives?.[0].ambiguous, true);
});

test("the student's next step settles a choice for the reading as written only where it holds as written and fails the other way", async () => {
  // A falling block, invented here; descriptions that imply no unit, so dimensions settle nothing.
  const block = validateExam({
    format: 'exam.v1',
    id: 'block',
    questions: [
      {
        id: 'k',
        variables: ['a', 'g', 'h', 'R', 'T'].map((name) => ({ name, description: `the quantity ${name}`, assumptions: ['positive'] })),
        scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(a, 3*g/4)'] }],
      },
    ],
  }).questions.get('k')!.question;
  const settle = async (text: string) => settleAlternatives(extractEmbedded(text, block), block, engine);
  // g − g/4 = 3g/4 holds as written; (g − g)/4 = 3g/4 does not.
  const shown = await settle('a = g − g/4 = 3g/4');
  assert.equal(shown.alternatives?.[0].ambiguous, false);
  assert.equal(shown.status, 'read');
  // Numbers: 0.2 × 16 / 0.8 is the 4 of the next step; (9.8 + 3.2)/0.8 is not 13.8.
  const numbers = await settle('T = 5 × 0.2 × 9.8 + 0.2 × 16 / 0.8 = 9.8 + 4 = 13.8');
  assert.equal(numbers.alternatives?.[0].ambiguous, false);
  assert.equal(numbers.status, 'read');
  // No next step: nothing shows the grouping.
  assert.equal((await settle('a = g − g/4')).alternatives?.[0].ambiguous, true);
  // 2R + R/2 is not 3R/2, but (2R + R)/2 is: a slip or the other grouping, the instructor's call.
  assert.equal((await settle('h = 2R + R/2 = 3R/2')).alternatives?.[0].ambiguous, true);
  // A step into it that holds only the other way outweighs a step after it that holds as written.
  assert.equal((await settle('h = (2R + R)/2 = 2R + R/2 = 5R/2')).alternatives?.[0].ambiguous, true);
});
