// Contradictions inside one reading (electron/engine/decide/contradictions.ts), decided by the real
// engine (Z3): one quantity given two values that can't both hold lowers the reading to
// needs-review with the pair named; rounding, the two equations of a '±', both roots of a
// quadratic, t1/t2 read as t, and later algebra that merely doesn't follow are not flagged; the
// equations are never changed; grading stores what the check says.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { findContradiction, withContradictionCheck } from '../../electron/engine/decide/contradictions.ts';
import { checkedReading } from '../../electron/engine/decide/reading-checks.ts';
import { validateExam } from '../../electron/engine/io/exam.ts';
import { Workspace } from '../../electron/engine/store/workspace.ts';
import { grade } from '../../electron/engine/grade.ts';
import { chips } from '../../electron/app/views.ts';
import type { Question } from '../../shared/exam.ts';
import type { ExtractedEquation, Extraction } from '../../shared/extraction.ts';
import type { Consistency } from '../../electron/engine/decide/entail/types.ts';

let engine: Entailer;
before(async () => {
  engine = await Entailer.create({ z3Workers: 1 });
});
after(async () => {
  await engine.close();
});

const exam = validateExam({
  format: 'exam.v1',
  id: 'contra',
  questions: [
    {
      id: 'q1',
      variables: [
        { name: 't', assumptions: ['positive'] },
        { name: 'd', assumptions: ['positive'] },
        { name: 'v', assumptions: ['positive'] },
        { name: 'T', assumptions: ['positive'] },
        { name: 'm', assumptions: ['positive'] },
        { name: 'g', assumptions: ['positive'] },
        { name: 'X' },
        { name: 'a' },
        { name: 'x' },
        { name: 'u', assumptions: ['positive'] },
        { name: 'w', assumptions: ['positive'] },
      ],
      scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(t, d/v)'] }],
    },
  ],
});
const q: Question = exam.questions.get('q1')!.question;

/** Equations with spans found in the text (each source's written form given beside it). */
function spanned(text: string, pairs: [written: string, source: string][]): ExtractedEquation[] {
  let from = 0;
  return pairs.map(([written, source]) => {
    const start = text.indexOf(written, from);
    assert.ok(start >= 0, `'${written}' is in the text`);
    from = start;
    return { source, span: { start, end: start + written.length } };
  });
}
const bare = (...sources: string[]): ExtractedEquation[] => sources.map((source) => ({ source }));
const reading = (equations: ExtractedEquation[], over: Partial<Extraction> = {}): Extraction => ({
  equations,
  status: 'read',
  source: 'embedded',
  flags: [],
  unread: [],
  notes: [],
  ...over,
});

test('one quantity given two values that cannot both hold: flagged, the pair named as written', async () => {
  const text = 't = d/v. That was one way, the whole trip is t = 2d/v';
  const x = reading(
    spanned(text, [
      ['t = d/v', 'Eq(t, d/v)'],
      ['t = 2d/v', 'Eq(t, 2*d/v)'],
    ]),
  );
  const out = await withContradictionCheck(engine, q, x, text);
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['contradiction']);
  assert.deepEqual(
    out.equations.map((e) => e.source),
    ['Eq(t, d/v)', 'Eq(t, 2*d/v)'],
    'the reading is kept as read',
  );
  const notes = out.notes.filter((n) => n.kind === 'contradiction');
  assert.equal(notes.length, 1);
  assert.match(notes[0].text, /"t = d\/v" and "t = 2d\/v"/);
  assert.equal(x.status, 'read', 'the reading given is not modified');
});

test('T + mg = X and T − mg = X with m, g > 0 (and the terms in another order)', async () => {
  const c = await findContradiction(engine, q, bare('Eq(T + m*g, X)', 'Eq(-g*m + T, X)'));
  assert.deepEqual(c && [c.a, c.b], [0, 1]);
  assert.match(c!.text, /Eq\(T \+ m\*g, X\)/);
});

test('no flag where the two values can both hold: t = a and t = 2a with a real (a = 0)', async () => {
  assert.equal(await findContradiction(engine, q, bare('Eq(x, a)', 'Eq(x, 2*a)')), null);
  assert.equal(await findContradiction(engine, q, bare('Eq(t, d/v)', 'Eq(t, 2*d/u)')), null);
});

test('rounded numbers are not a contradiction; a value outside rounding is', async () => {
  assert.equal(await findContradiction(engine, q, bare('Eq(t, 2.3456)', 'Eq(t, 2.35)')), null);
  assert.equal(await findContradiction(engine, q, bare('Eq(t, 2.3456)', 'Eq(t, 2.34)')), null, 'truncated');
  assert.equal(await findContradiction(engine, q, bare('Eq(t, 40.8)', 'Eq(t, 41)')), null);
  assert.equal(await findContradiction(engine, q, bare('Eq(t, 2.9)', 'Eq(t, 3)')), null);
  const far = await findContradiction(engine, q, bare('Eq(t, 2.3456)', 'Eq(t, 2.5)'));
  assert.deepEqual(far && [far.a, far.b], [0, 1]);
  const coefficient = await findContradiction(engine, q, bare('Eq(t, 2*d/v)', 'Eq(t, 3*d/v)'));
  assert.ok(coefficient, 'whole-number coefficients 2 and 3 are not roundings of one another');
});

test("the two equations of one '±' are not flagged", async () => {
  const text = 'T ± mg = X';
  const eqs: ExtractedEquation[] = [
    { source: 'Eq(T + m*g, X)', span: { start: 0, end: text.length } },
    { source: 'Eq(T - m*g, X)', span: { start: 0, end: text.length } },
  ];
  assert.equal(await findContradiction(engine, q, eqs, text), null);
  // Without spans (a model's reading), sources that differ only in signs, in a text with '±'.
  assert.equal(await findContradiction(engine, q, bare('Eq(T + m*g, X)', 'Eq(T - m*g, X)'), text), null);
  assert.ok(await findContradiction(engine, q, bare('Eq(T + m*g, X)', 'Eq(T - m*g, X)'), 'T + mg = X and T - mg = X'));
});

test('both roots of a quadratic, or two values offered with "or", are not flagged', async () => {
  assert.equal(await findContradiction(engine, q, bare('Eq(x**2, 4)', 'Eq(x, 2)', 'Eq(x, -2)')), null);
  assert.ok(await findContradiction(engine, q, bare('Eq(x**2, 4)', 'Eq(x, 2)', 'Eq(x, -3)')), 'x = -3 is no root of x² = 4');
  const text = 'x = 2 or x = -2';
  assert.equal(
    await findContradiction(
      engine,
      q,
      spanned(text, [
        ['x = 2', 'Eq(x, 2)'],
        ['x = -2', 'Eq(x, -2)'],
      ]),
      text,
    ),
    null,
  );
});

test('a value set in a situation of its own ("when …", "over a year", after a label "t = 1 s:") is not flagged; the same values without it are', async () => {
  for (const [text, first, second] of [
    ['t = d/v is the time. It stops when t = 2d/v, the turning point', 't = d/v', 't = 2d/v'],
    ['Each second t = d/v; over a year this is t = 2d/v', 't = d/v', 't = 2d/v'],
    ['u = 1 s: t = d/v\nu = 2 s: t = 2d/v', 't = d/v', 't = 2d/v'],
  ]) {
    const x = reading(
      spanned(text, [
        [first, 'Eq(t, d/v)'],
        [second, 'Eq(t, 2*d/v)'],
      ]),
    );
    assert.equal((await withContradictionCheck(engine, q, x, text)).status, 'read', text);
  }
  // No situation, or one after a label and the other after none (a revision in one situation).
  for (const plain of ['t = d/v. So the time is t = 2d/v', 'Turning when u = 0: t = d/v, impossible, so\nt = 2d/v']) {
    const x = reading(
      spanned(plain, [
        ['t = d/v', 'Eq(t, d/v)'],
        ['t = 2d/v', 'Eq(t, 2*d/v)'],
      ]),
    );
    assert.equal((await withContradictionCheck(engine, q, x, plain)).status, 'needs-review', plain);
  }
});

test('t1 and t2 read as t (or t read from words) are two quantities, not a contradiction', async () => {
  const text = 't1 = d/v\nt2 = 2d/v';
  assert.equal(
    await findContradiction(
      engine,
      q,
      spanned(text, [
        ['t1 = d/v', 'Eq(t, d/v)'],
        ['t2 = 2d/v', 'Eq(t, 2*d/v)'],
      ]),
      text,
    ),
    null,
  );
  const words = 'Going: time d/v\nReturning: t = 2d/v';
  assert.equal(
    await findContradiction(
      engine,
      q,
      spanned(words, [
        ['d/v', 'Eq(t, d/v)'],
        ['t = 2d/v', 'Eq(t, 2*d/v)'],
      ]),
      words,
    ),
    null,
  );
  // A model's reading has no spans: the text itself says so (numbered forms, or fewer "t =" than equations of t).
  assert.equal(await findContradiction(engine, q, bare('Eq(t, d/v)', 'Eq(t, 2*d/v)'), text), null);
  assert.equal(await findContradiction(engine, q, bare('Eq(t, d/v)', 'Eq(t, 2*d/v)'), words), null);
  assert.ok(await findContradiction(engine, q, bare('Eq(t, d/v)', 'Eq(t, 2*d/v)'), 't = d/v, and so t = 2d/v'));
});

test('the ends of a chain are one of its values: "t = a = 2d/v" then "t = d/v" is flagged, the chain named by its last link', async () => {
  const c = await findContradiction(engine, q, bare('Eq(t, X)', 'Eq(X, 2*d/v)', 'Eq(u, w)', 'Eq(t, d/v)'));
  assert.deepEqual(c && [c.a, c.b], [1, 3]);
  // Each link on its own agrees with t = d/v (X may be d/v): without the chain's ends nothing is flagged.
  assert.equal(await findContradiction(engine, q, bare('Eq(t, X)', 'Eq(u, w)', 'Eq(X, 2*d/v)', 'Eq(t, d/v)')), null);
  // A chain that ends where the later equation does is no contradiction.
  assert.equal(await findContradiction(engine, q, bare('Eq(t, X)', 'Eq(X, d/v)', 'Eq(t, d/v)')), null);
});

test('a pair that holds only if two quantities of the question are equal goes to review as one symbol for two quantities', async () => {
  // A barometer beside a water column, invented here: rho and rho_w are both densities.
  const baro = validateExam({
    format: 'exam.v1',
    id: 'baro',
    questions: [
      {
        id: 'b',
        variables: [
          { name: 'p', description: 'pressure of the gas', assumptions: ['positive'] },
          { name: 'p_0', description: 'pressure of the air', assumptions: ['positive'] },
          { name: 'rho', description: 'density of the oil', assumptions: ['positive'] },
          { name: 'rho_w', description: 'density of water', assumptions: ['positive'] },
          { name: 'g', description: 'gravitational acceleration', assumptions: ['positive'] },
          { name: 'h', description: 'height of the oil column', assumptions: ['positive'] },
          { name: 'h_w', description: 'height of the water column', assumptions: ['positive'] },
        ],
        scheme: [{ id: 'a', marks: 1, match: 'implied', accept: ['Eq(p - p_0, rho*g*h)'] }],
      },
    ],
  }).questions.get('b')!.question;
  // h written for the water's column: the two hold together only if rho = rho_w.
  const text = 'p - p0 = rho g h, and for the water p - p0 = rho_w g h';
  const x = reading(
    spanned(text, [
      ['p - p0 = rho g h', 'Eq(p - p_0, rho*g*h)'],
      ['p - p0 = rho_w g h', 'Eq(p - p_0, rho_w*g*h)'],
    ]),
  );
  const out = await withContradictionCheck(engine, baro, x, text);
  assert.equal(out.status, 'needs-review');
  assert.deepEqual(out.flags, ['symbol-reused']);
  assert.match(out.notes.find((n) => n.kind === 'symbol-reused')?.text ?? '', /hold together only if rho = rho_w/);
  // Written with the water's own column, nothing is forced.
  const fine = await findContradiction(engine, baro, bare('Eq(p - p_0, rho*g*h)', 'Eq(p - p_0, rho_w*g*h_w)'));
  assert.equal(fine, null);
  // A slip taken back in words no cue marks ("that's upside down") forces rho = rho_w too.
  const slip = await findContradiction(engine, baro, bare('Eq(h_w, rho_w*h/rho)', 'Eq(h_w, rho*h/rho_w)'));
  assert.equal(slip?.kind, 'forced-equal');
  // Two links of one chain imply the chain's own equality: "h_w = (rho/rho_w) h = h" is no doubt of this kind.
  assert.equal(await findContradiction(engine, baro, bare('Eq(h_w, rho*h/rho_w)', 'Eq(rho*h/rho_w, h)')), null);
  // Without entailment (a consistency-only engine) the check is the contradiction check alone.
  assert.equal(await findContradiction({ consistent: engine.consistent.bind(engine) }, baro, bare('Eq(p - p_0, rho*g*h)', 'Eq(p - p_0, rho_w*g*h)')), null);
});

test('a later step that does not follow from an earlier one is student algebra: kept, not flagged', async () => {
  // v² − w² = uv, then a quadratic formula without its /2: no admissible v satisfies both, but
  // they give no one quantity two values.
  assert.equal(await findContradiction(engine, q, bare('Eq(v**2 - w**2, u*v)', 'Eq(v, u + sqrt(u**2 + 4*w**2))')), null);
});

test('an equation with no admissible solution of its own is left to marking', async () => {
  assert.equal(await findContradiction(engine, q, bare('Eq(t, -d)', 'Eq(t, d)')), null);
});

test("the instructor's correction and given lists are not checked; an undecided engine raises nothing", async () => {
  const eqs = bare('Eq(t, d/v)', 'Eq(t, 2*d/v)');
  for (const source of ['manual', 'given'] as const) {
    const x = reading(eqs, { source });
    assert.equal(await withContradictionCheck(engine, q, x), x);
  }
  const undecided = { consistent: async (): Promise<Consistency> => ({ satisfiable: null, method: 'unknown', note: 'timed out' }) };
  const x = reading(eqs);
  assert.equal(await withContradictionCheck(undecided, q, x), x);
  const sampled = { consistent: async (): Promise<Consistency> => ({ satisfiable: false, method: 'numeric' }) };
  assert.equal(await withContradictionCheck(sampled, q, x), x, 'only a Z3 proof counts');
  const broken = {
    consistent: async (): Promise<Consistency> => {
      throw new Error('solver crashed');
    },
  };
  assert.equal(await checkedReading(broken, q, x, null), x, 'a failing check keeps the reading as it came');
});

test('grading stores the reading lowered to needs-review, equations as read', async () => {
  const ws = new Workspace(':memory:');
  try {
    const rows = [
      { line: 2, studentId: 'S1', questionId: 'q1', text: 't = d/v\nt = 2d/v' },
      { line: 3, studentId: 'S2', questionId: 'q1', text: 't = 2.3456\nso t = 2.35' },
    ];
    await grade({ workspace: ws, exam, engine, input: { kind: 'responses', rows } });
    const byStudent = new Map(ws.listResponses('contra').map((r) => [r.studentId, ws.getExtraction(r.id)!]));
    const s1 = byStudent.get('S1')!;
    assert.deepEqual(
      s1.equations.map((e) => e.source),
      ['Eq(t, d/v)', 'Eq(t, 2*d/v)'],
    );
    assert.equal(s1.status, 'needs-review');
    assert.ok(s1.flags.includes('contradiction'));
    assert.ok(s1.notes.some((n) => n.kind === 'contradiction' && n.text.includes('"t = d/v" and "t = 2d/v"')));
    const summaries = new Map(ws.listResponses('contra').map((r) => [r.studentId, r]));
    assert.ok(chips(summaries.get('S1')!, exam.exam).includes('contradiction'), 'the app shows the chip');
    assert.ok(chips(summaries.get('S1')!, exam.exam).includes('needs-review'));
    assert.ok(!chips(summaries.get('S2')!, exam.exam).includes('contradiction'));
    const s2 = byStudent.get('S2')!;
    assert.equal(s2.status, 'read');
    assert.ok(!s2.flags.includes('contradiction'));
    assert.deepEqual(
      s2.equations.map((e) => e.source),
      ['Eq(t, 2.3456)', 'Eq(t, 2.35)'],
    );
  } finally {
    ws.close();
  }
});
