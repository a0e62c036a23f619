// A link with numbers only on both sides that is false beyond rounding (issue 11): the mark a
// misread grouping or a dropped unit prefix leaves ("ΔT = 78+273 - 18+273 = 60" read as written is
// 606 = 60), so the reading goes to review with the link and both values named; rounding passes.
// Questions and readings written for these tests.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Question } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { disagreeingNumbers, withNumbersDisagreeCheck } from '../../electron/engine/decide/numbers-disagree.ts';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { equationsCsv } from '../../electron/engine/io/csv/write.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { grade } from '../../electron/engine/grade.ts';
import { chips } from '../../electron/app/views.ts';

// A mug of soup warmed on a stove, invented here.
const SOUP: Question = {
  id: 'soup',
  title: '',
  prompt: 'A mug of soup of mass m is warmed from T_1 to T_2. Find the heat Q it takes.',
  variables: [
    { name: 'm', description: 'mass of the soup' },
    { name: 'c', description: 'specific heat capacity of the soup' },
    { name: 'DeltaT', description: 'rise in temperature of the soup' },
    { name: 'Q', description: 'heat taken by the soup' },
  ].map((v) => ({ ...v, assumptions: ['positive' as const] })),
  target: 'Q',
  scheme: [],
};
const NAMES = SOUP.variables.map((v) => v.name);
const eq = (s: string) => parseEquationOrThrow(s, { variables: NAMES });

const reading = (sources: string[], status: Extraction['status'] = 'read'): Extraction => ({
  status,
  source: 'embedded',
  equations: sources.map((source) => ({ source })),
  unread: [],
  flags: [],
  notes: [],
});

test('a numbers-only link false beyond rounding lowers the reading to needs-review, the link and both values named; the reading is unchanged', () => {
  const x = reading(['Eq(DeltaT, 78 + 273 - 18 + 273)', 'Eq(78 + 273 - 18 + 273, 60)', 'Eq(Q, m*c*DeltaT)']);
  const out = withNumbersDisagreeCheck(SOUP, x);
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['numbers-disagree']);
  assert.match(out.notes.at(-1)!.text, /its numbers differ \(606 and 60\)/);
  assert.deepEqual(out.equations, x.equations, 'the reading itself is never changed');
  // A partial reading keeps its status, with the flag.
  assert.equal(
    withNumbersDisagreeCheck(
      SOUP,
      reading(
        x.equations.map((e) => e.source),
        'partial',
      ),
    ).status,
    'partial',
  );
});

test('rounding, a link with symbols and a manual reading raise nothing', () => {
  // 0.25 × 4200 × 60 = 63000 exactly; 2π√(0.5/9.8) = 1.419 written 1.4; 9.8 × 2 written 20.
  for (const s of ['Eq(0.25*4200*60, 63000)', 'Eq(2*pi*sqrt(0.5/9.8), 1.4)', 'Eq(9.8*2, 20)']) assert.equal(disagreeingNumbers(eq(s)), null, s);
  // With a symbol its truth depends on the symbol's value: not this check's business.
  assert.equal(disagreeingNumbers(eq('Eq(m*4200*60, 60)')), null);
  assert.deepEqual(disagreeingNumbers(eq('Eq(4*pi*10**(-7)*800*2.5/0.4, 6.3)'))?.right, 6.3, 'a unit prefix dropped: 0.0063 against 6.3');
  const manual = { ...reading(['Eq(606, 60)']), source: 'manual' as const };
  assert.equal(withNumbersDisagreeCheck(SOUP, manual), manual, "the instructor's own list is not doubted");
});

let engine: Entailer;
before(async () => {
  engine = await Entailer.create({ z3Workers: 1 });
});
after(async () => {
  await engine.close();
});

test('grading stores the reading at needs-review with the flag; equations.csv and the app say so', async () => {
  const exam = validateExam({
    format: 'exam.v1',
    id: 'soup',
    questions: [{ ...SOUP, id: 'q1', scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(Q, m*c*DeltaT)'] }] }],
  });
  const ws = new Workspace(':memory:');
  try {
    const rows = [
      { line: 2, studentId: 'S1', questionId: 'q1', text: 'ΔT = 78+273 - 18+273 = 60\nQ = mcΔT' },
      { line: 3, studentId: 'S2', questionId: 'q1', text: 'ΔT = 78 - 18 = 60\nQ = mcΔT' },
    ];
    await grade({ workspace: ws, exam, engine, input: { kind: 'responses', rows } });
    const byStudent = new Map(ws.listResponses('soup').map((r) => [r.studentId, r]));
    const s1 = ws.getExtraction(byStudent.get('S1')!.id)!;
    assert.equal(s1.status, 'needs-review');
    assert.ok(s1.flags.includes('numbers-disagree'));
    assert.match(s1.notes.at(-1)?.text ?? '', /^"ΔT = 78\+273 - 18\+273 = 60": read as 78 \+ 273 - 18 \+ 273 = 60/, 'the chain as typed, the link as read');
    assert.ok(chips(byStudent.get('S1')!, exam.exam).includes('numbers-disagree'), 'the app shows the chip');
    assert.ok(!chips(byStudent.get('S2')!, exam.exam).includes('numbers-disagree'));
    assert.equal(ws.getExtraction(byStudent.get('S2')!.id)!.status, 'read');
    assert.match(
      equationsCsv(ws, exam.exam)
        .split('\n')
        .find((l) => l.startsWith('S1,'))!,
      /needs-review.*numbers-disagree/,
    );
  } finally {
    ws.close();
  }
});
