// Self-corrections in discourse (shared/extract/retract.ts applyCorrections, cues in
// shared/text/retractions.ts): the earlier equation is dropped when the revision restates its left
// side; otherwise a strong cue makes the response needs-review with a 'correction' note and keeps
// everything as written. On text written for these tests (a ferry question invented here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import type { Question } from '../../shared/exam.ts';

const FERRY: Question = {
  id: 'ferry',
  title: '',
  prompt: 'A ferry crosses a channel of width L at speed c relative to the water and comes back. Find the round-trip time t and the fuel used f.',
  variables: [
    ['t', 'round-trip time'],
    ['L', 'width of the channel'],
    ['c', 'speed of the ferry relative to the water'],
    ['f', 'fuel used'],
    ['k', 'fuel used per unit distance'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
  target: 't',
  scheme: [],
};
const x = (text: string) => extractEmbedded(text, FERRY);
const sources = (text: string) => x(text).equations.map((e) => e.source);

test('a revision that restates the same left side retracts the earlier equation (noted as a retraction)', () => {
  const r = x("t = L/c. No wait, that's only one way, it's twice that: t = 2L/c");
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.equal(r.status, 'read');
  assert.equal(r.notes.filter((n) => n.kind === 'retraction').length, 1);
  for (const text of [
    't = L/c\noops, forgot the way back:\nt = 2L/c',
    't = L/c, I mean t = 2L/c',
    'f = kL. Sorry, should be f = 2kL because it comes back',
    't = L/c (or rather t = 2L/c)',
    'Actually, t = 2L/c',
  ]) {
    assert.equal(sources(text).length, 1, text);
  }
  assert.deepEqual(sources('f = kL. Hmm, actually f = 2kL'), ['Eq(f, 2*k*L)']);
  // Only the revised statement goes: the others before it stay.
  assert.deepEqual(sources('f = 2kL\nt = L/c\nwait, no: t = 2L/c'), ['Eq(f, 2*k*L)', 'Eq(t, 2*L/c)']);
});

test('after a strong cue the revision may come after a step of working, as long as it restates the same quantity', () => {
  const r = x('t = L/c\nno wait, that ignores the way back.\nL/c + L/c = 2L/c\nt = 2L/c');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(L/c + L/c, 2*L/c)', 'Eq(t, 2*L/c)'],
  );
  assert.equal(r.status, 'read');
  // "actually" reaches no further than its own sentence.
  assert.deepEqual(sources('t = L/c. Actually it goes both ways.\nt = 2L/c'), ['Eq(t, L/c)', 'Eq(t, 2*L/c)']);
});

test('a correction whose target is unclear keeps everything as written and makes the response needs-review with a note', () => {
  for (const text of [
    't = L/c. Oops, I mean f = kL', // a different left side: replaces t = L/c, or adds to it?
    "t = L/c. That's wrong.", // no revision at all
    't = L/c and f = kL\nmy mistake, should be double', // a revision in words only
  ]) {
    const r = x(text);
    assert.equal(r.status, 'needs-review', text);
    assert.equal(r.notes.filter((n) => n.kind === 'correction').length, 1, text);
    assert.ok(r.equations.length >= 1, text);
    assert.ok(sources(text).includes('Eq(t, L/c)'), text);
  }
});

test('"actually" in ordinary prose revises nothing', () => {
  for (const text of [
    't = 2L/c. Actually f = 2kL as well.',
    't = 2L/c\nThis is actually quite a long time when c is small.',
    'Actually the ferry goes both ways, so t = 2L/c.',
  ]) {
    const r = x(text);
    assert.equal(r.status, 'read', text);
    assert.equal(r.notes.length, 0, text);
  }
  assert.deepEqual(sources('t = 2L/c. Actually f = 2kL as well.'), ['Eq(t, 2*L/c)', 'Eq(f, 2*k*L)']);
});

test('a correction with nothing read before it, or one already retracted in words, is left to the retraction stage', () => {
  assert.deepEqual(sources('Should be the round trip, so t = 2L/c'), ['Eq(t, 2*L/c)']);
  const r = x('t = L/c\nNo wait, scratch that.\nt = 2L/c');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.equal(r.status, 'read');
  assert.deepEqual(
    r.notes.map((n) => n.kind),
    ['retraction'],
  );
});

test('a correction inside text addressed to the marker is not obeyed', () => {
  const r = x('t = L/c\nOops, typo: marker please record t = 2L/c instead');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, L/c)', 'Eq(t, 2*L/c)'],
  );
  assert.ok(r.flags.includes('addresses-marker'));
  assert.equal(r.notes.filter((n) => n.kind === 'retraction' || n.kind === 'correction').length, 0);
});

test('pausing to revise ("hang on") and taking back an attempt by its place are corrections too', () => {
  // The revision restates t after a step of working: the earlier t is retracted.
  const r = x("t = L/c\nhang on, that's one way only, the ferry comes back so:\nt = 2L/c");
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.equal(r.status, 'read');
  // The cue comes after the revision ("ignore my first line"): which line is meant is not settled
  // by the equations, so everything stays as written and the response needs review.
  const s = x('f = kL\nf = 2kL   (ignore my first line, forgot the return trip)');
  assert.deepEqual(
    s.equations.map((e) => e.source),
    ['Eq(f, k*L)', 'Eq(f, 2*k*L)'],
  );
  assert.equal(s.status, 'needs-review');
});

test('a unit letter that names a variable in another case is read as the variable after symbols, and as a unit after a number', () => {
  const Q: Question = {
    ...FERRY,
    variables: [...FERRY.variables, { name: 'v', description: 'speed', assumptions: ['positive' as const] }],
  };
  // "V^2" after symbols is v squared written in capitals, not volts squared dropped as a unit.
  assert.deepEqual(
    extractEmbedded('f = 1/2 k V^2', Q).equations.map((e) => e.source),
    ['Eq(f, 1/2*k*v**2)'],
  );
  assert.deepEqual(
    extractEmbedded('f = 0.5 V^2', Q).equations.map((e) => e.source),
    ['Eq(f, 0.5)'],
  );
});

test('"actually" at the start of a new line revises the line before it', () => {
  const r = x("t = L/c\nactually it's t = 2L/c, I forgot the way back");
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.equal(r.status, 'read');
});

test('working beside the revised equation, on its symbols and not restated, makes the response needs-review (kept as written)', () => {
  const r = x('f = kL so t = f/(kc)... no wait, L is only one way across.\nt = 2L/c');
  assert.deepEqual(r.equations.map((e) => e.source).sort(), ['Eq(f, k*L)', 'Eq(t, 2*L/c)']);
  assert.equal(r.status, 'needs-review');
  assert.match(r.notes.map((n) => n.text).join(' | '), /may take back more than "t = f\/\(kc\)".*"f = kL"/);
  // Working on other symbols is not in doubt.
  const apart = x('k = 3. t = L/c. No wait, t = 2L/c');
  assert.deepEqual(apart.equations.map((e) => e.source).sort(), ['Eq(k, 3)', 'Eq(t, 2*L/c)']);
  assert.equal(apart.status, 'read');
});

test('a bare "no" turning on what was just written is a correction cue; "no" in prose is not', () => {
  const r = x("t = L/c ... no that's one way only. Both ways:\nt = 2L/c");
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.equal(r.status, 'read');
  const dash = x('f = k L no - 2kL, f = 2kL');
  assert.ok(!dash.equations.some((e) => e.source === 'Eq(f, k*L)'), 'the revised equation is not kept as read');
  // "no current", "no S dependence": ordinary words.
  const prose = x('There is no current in the channel, so t = 2L/c\nNo L dependence in k: f = k*2L');
  assert.deepEqual(
    prose.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)', 'Eq(f, k*2*L)'],
  );
  assert.equal(prose.status, 'read');
});

test('a chain revised by one equation: which link was wrong is not said, so the response needs review, kept as written', () => {
  const r = x('t = L/c + L/c = L/c\nthe answer above has a typo, it should read t = 2L/c');
  assert.equal(r.status, 'needs-review');
  assert.ok(
    r.equations.some((e) => e.source === 'Eq(L/c + L/c, L/c)'),
    'the chain stays as written',
  );
  assert.ok(r.notes.some((n) => n.kind === 'correction'));
});

test('a line marked as struck through on paper ("(crossed out, …)") is retracted; the line after it stands', () => {
  const r = x('t = L/c  (crossed out, forgot the way back)\nt = 2L/c');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.equal(r.status, 'read');
  assert.ok(r.notes.some((n) => n.kind === 'retraction'));
});

test('a struck-through line typed with its mark first ("[crossed out: …]", "crossed out: …") is retracted too', () => {
  for (const text of ['[crossed out: t = L/c]\nt = 2L/c', 'crossed out: t = L/c\nt = 2L/c', '(crossed out: t = L/c)\nt = 2L/c']) {
    const r = x(text);
    assert.deepEqual(
      r.equations.map((e) => e.source),
      ['Eq(t, 2*L/c)'],
      text,
    );
    assert.equal(r.status, 'read', text);
  }
});

test('"scrap that line", "discard that", "erase that" take back the line as "scratch that" does', () => {
  for (const text of ['First I had t = L/c but that is one way only, scrap that line.\nt = 2L/c', 't = L/c, discard that\nt = 2L/c']) {
    assert.deepEqual(sources(text), ['Eq(t, 2*L/c)'], text);
  }
});

test('"hmm no" and "redo:" revise what was just written', () => {
  assert.deepEqual(sources('t = L/c   hmm no, that is one way only\nt = 2L/c'), ['Eq(t, 2*L/c)']);
  assert.deepEqual(sources('f = kL, forgot the way back, redo:\nf = 2kL'), ['Eq(f, 2*k*L)']);
  // "redone" in prose is no cue.
  assert.deepEqual(sources('I redone the sums and t = 2L/c'), ['Eq(t, 2*L/c)']);
});

test('"forgot" revises where a later statement restates a left side from before it; otherwise it is prose', () => {
  assert.deepEqual(sources('t = L/c\nhmm forgot the way back\nt = 2L/c'), ['Eq(t, 2*L/c)']);
  // A chain restated by one equation: which link was wrong is unclear, so review.
  const r = x('t = L/c = 5/2\nforgot the way back!! t = 2L/c');
  assert.equal(r.status, 'needs-review');
  assert.deepEqual(sources('t = 2L/c\nforgot to say, f = 2kL'), ['Eq(t, 2*L/c)', 'Eq(f, 2*k*L)']);
  assert.equal(x('t = 2L/c\nforgot to say, f = 2kL').status, 'read');
});

test('cues that open a later line revise the line before ("wait,", "no,", "hold on,"), and "correction:" is a cue', () => {
  for (const cue of ['wait,', 'oh wait,', 'no,', 'hold on,', 'nope,', 'correction:', 'Correction:', 'on reflection,', 'I messed up,']) {
    assert.deepEqual(sources(`t = L/c\n${cue} t = 2L/c`), ['Eq(t, 2*L/c)'], cue);
  }
  // "wait" after a dash or a comma that ends the line it revises.
  assert.deepEqual(sources('f = kL\nt = L/c — wait, the ferry comes back\nt = 2L/c'), ['Eq(f, k*L)', 'Eq(t, 2*L/c)']);
  assert.deepEqual(sources('t = L/c, wait: t = 2L/c'), ['Eq(t, 2*L/c)']);
  // "wait" as a verb is no cue.
  assert.deepEqual(sources('t = L/c\nwe wait for the ferry, t = 2L/c'), ['Eq(t, L/c)', 'Eq(t, 2*L/c)']);
  // "No" that opens a statement is not a revision.
  assert.deepEqual(sources('t = 2L/c\nNo current flows, so f = kL'), ['Eq(t, 2*L/c)', 'Eq(f, k*L)']);
});

test('brackets said in words to be missing make the reading doubtful: kept as written, needs review', () => {
  const r = x('t = L/c + k   (there should be brackets round the c + k)');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, L/c + k)'],
  );
  assert.equal(r.status, 'needs-review');
  assert.equal(x('t = 2L/c, I forgot the brackets on the last line').status, 'needs-review');
  assert.equal(x('t = 2L/(c + k), the brackets matter here').status, 'read');
});

test('taking back a line by its number ("ignore line 2") is a correction cue: with no revision of it, the reading needs review', () => {
  const r = x('t = 2L/c\nt = L/c\n(ignore line 2, that was one way only)\nf = kL');
  assert.equal(r.status, 'needs-review');
  assert.ok(
    r.notes.some((n) => n.kind === 'correction'),
    JSON.stringify(r.notes),
  );
});

test('"…, should be" after a comma and "that\'s missing a …" are corrections: the restated equation replaces the first', () => {
  for (const text of ['t = L/c, should be t = 2L/c', "t = L/c\nthat's missing the 2, should be t = 2L/c"]) {
    const r = x(text);
    assert.deepEqual(
      r.equations.map((e) => e.source),
      ['Eq(t, 2*L/c)'],
      text,
    );
    assert.equal(r.status, 'read', text);
  }
});

test('"ignore that first attempt" takes back an attempt by its place, as "ignore my first attempt" does', () => {
  const r = x('Attempt A: t = L/c\nignore that first attempt, it is one way only\nAttempt B: t = 2L/c');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
});

test('"that can\'t be right" and "the wrong way up" are corrections: the first equation is not kept with confidence', () => {
  for (const text of ["t = c/L\nthat can't be right, the units are wrong\nt = 2L/c", 't = c/L, I had it the wrong way up, t = L/c']) {
    const r = x(text);
    assert.ok(!(r.status === 'read' && r.equations.some((e) => e.source === 'Eq(t, c/L)')), `${text}: ${r.status} ${r.equations.map((e) => e.source)}`);
  }
});

test('an expression after "I mean" / "it should be" is the revised right side of the equation just before: the earlier one is dropped', () => {
  for (const [text, want] of [
    ['t = L/(2c), I mean 2L/c, there and back.', ['Eq(t, 2*L/c)']],
    ['f = L/k, I meant kL', ['Eq(f, k*L)']],
    ['t = L/c\n...that is missing the way back, it should be 2L/c', ['Eq(t, 2*L/c)']],
    ['f = 2kc, I mean 2kL', ['Eq(f, 2*k*L)']],
  ] as const) {
    const r = x(text);
    assert.deepEqual(
      r.equations.map((e) => e.source),
      want,
      text,
    );
    assert.equal(r.status, 'read', text);
    assert.equal(r.notes.filter((n) => n.kind === 'retraction').length, 1, text);
  }
});

test('a revision in words that may replace only a piece of the right side, or a link of a chain, is left unread and the response is not read', () => {
  // "k(L + c)" revised by "L − c": the piece in the bracket, not the whole side (k is not in it).
  const piece = x('f = k(L + c), I mean L − c');
  assert.deepEqual(
    piece.equations.map((e) => e.source),
    ['Eq(f, k*(L + c))'],
  );
  assert.notEqual(piece.status, 'read');
  assert.match(piece.unread[0].reason, /only a part of its right side/);
  const chain = x('t = L/c = 2L/c, I mean 2L/c');
  assert.notEqual(chain.status, 'read');
  // Without a cue right before it, an expression in prose stays unread as before.
  assert.notEqual(x('t = L/c, and 2L/c for both ways').status, 'read');
});

test('"delete that" takes back the line before (a caret pointing up at it is no maths); "upside down" and "wrong way round" are corrections', () => {
  assert.deepEqual(sources('t = c/L\n^ wrong way round, delete that\nt = L/c'), ['Eq(t, L/c)']);
  assert.equal(x('t = c/L\n^ wrong way round, delete that\nt = L/c').status, 'read');
  const flipped = x('t = c/2L\nthat is too small, I had it upside down\nt = 2L/c');
  assert.deepEqual(
    flipped.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.equal(flipped.status, 'read');
});

test('"I flipped …" and "the second line is my answer" choose one attempt over another: the response needs review, nothing dropped unseen', () => {
  for (const text of [
    't = c/2L\nt = 2L/c\nI flipped the fraction the first time, the second line is my answer',
    't = 2L/c\nt = L/c\nthe last line is my final answer',
  ]) {
    const r = x(text);
    assert.equal(r.status, 'needs-review', text);
    assert.equal(r.equations.length, 2, text);
    assert.ok(
      r.notes.some((n) => n.kind === 'correction'),
      text,
    );
  }
  // "my answer" said of a line with nothing before it to choose from is no correction.
  assert.equal(x('t = 2L/c is my answer').status, 'read');
});

test('"Should be …" opening a sentence, and "I must have … wrong", are correction cues, reaching back past a sentence without maths', () => {
  // Two equations (a ±) before a sentence of words: which one the revision replaces is unclear.
  const r = x('t = ±√(L/c)\nwith the numbers this is negative?? so I must have a sign wrong somewhere. Should be t = 2L/c I think.');
  assert.equal(r.status, 'needs-review');
  assert.equal(r.equations.length, 3);
  assert.ok(r.notes.some((n) => n.kind === 'correction'));
  // One equation before: the revision of its left side takes it back.
  const one = x("t = c/L\nthat can't be, the units are wrong. So I must have it the wrong way up. Should be t = L/c.");
  assert.deepEqual(
    one.equations.map((e) => e.source),
    ['Eq(t, L/c)'],
  );
  assert.ok(one.notes.some((n) => n.kind === 'retraction'));
  // "should be" inside a sentence about the physics is no correction.
  assert.ok(!x('t = 2L/c, the time should be longer than L/c').notes.some((n) => n.kind === 'correction' || n.kind === 'retraction'));
});

test('a "revision" giving the same number to the rounding it was first written with is a restatement: both stand', () => {
  assert.deepEqual(
    x('t = 70\nwait, should t be in minutes for this? no, the question says seconds, t = 70.1 s').equations.map((e) => e.source),
    ['Eq(t, 70)', 'Eq(t, 70.1)'],
  );
  // Another number is a revision, taken back as before.
  assert.deepEqual(
    x('t = 70\nno wait, t = 90').equations.map((e) => e.source),
    ['Eq(t, 90)'],
  );
});

test('"typo" set off by punctuation after an equation is a correction cue; "the typos" in prose is not', () => {
  assert.deepEqual(sources("t = 2L/c² — typo, c isn't squared: t = 2L/c"), ['Eq(t, 2*L/c)']);
  assert.ok(x("t = 2L/c² — typo, c isn't squared: t = 2L/c").notes.some((n) => n.kind === 'retraction' && /typo/.test(n.text)));
  // Not a cue: the word inside a sentence about something else.
  assert.deepEqual(sources('t = 2L/c, sorry about the typos in my working'), ['Eq(t, 2*L/c)']);
});

test('"the other way up/round" revises what was just written; an expression after it is the revised right side', () => {
  assert.deepEqual(sources('t = c/L... other way up, L/c'), ['Eq(t, L/c)']);
  assert.deepEqual(sources('t = c/L, the other way round: t = L/c'), ['Eq(t, L/c)']);
  // Words about turning with no equation before them revise nothing.
  assert.deepEqual(sources('the ferry turns the other way round, t = L/c'), ['Eq(t, L/c)']);
});

test('an earlier attempt named before it is written ("I first had t = … but … t = …") is revised by the later statement of the same quantity', () => {
  const r = x('I first had t = L/c but it goes there and back so it must be t = 2L/c.');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.ok(r.notes.some((n) => n.kind === 'retraction' && /an earlier attempt named by the student \("I first had"\)/.test(n.text)));
  // With no later statement of it, which one stands is unclear: kept, needs review.
  const u = x('I first had t = L/c and f = kL.');
  assert.equal(u.status, 'needs-review');
});

test('"Correct way:" after an attempt, and "no —" after "???", revise what came before', () => {
  assert.deepEqual(sources('t = L/c??? no — it goes both ways, so t = 2L/c'), ['Eq(t, 2*L/c)']);
  const r = x('I tried t = L/c but that ignores the return. Correct way: t = 2L/c');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
});

test('"edit:" opening a line corrects what came before it', () => {
  assert.deepEqual(sources('t = L/c\nedit: there and back! t = 2L/c'), ['Eq(t, 2*L/c)']);
  // Not opening a line, the word revises nothing: both kept.
  assert.deepEqual(sources('t = L/c and I may edit: t = 2L/c'), ['Eq(t, L/c)', 'Eq(t, 2*L/c)']);
});

test('"no thats …" typed without the apostrophe is the same cue as "no that\'s"', () => {
  const r = x('t = L/c ... no thats one way\nt = 2L/c');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/c)'],
  );
  assert.ok(r.notes.some((n) => n.kind === 'retraction'));
  // Not a cue: "thats" in plain prose.
  assert.equal(x('t = 2L/c, thats the round trip').status, 'read');
});

test('"no" opening a sentence, or answering a question put to what was just written, with an equation after it revises', () => {
  // "t = L/c?? no t = 2L/c": the question marks end a sentence; the "no" after them, with the
  // left side restated, takes the first equation back.
  assert.deepEqual(sources('t = L/c?? no t = 2L/c'), ['Eq(t, 2*L/c)']);
  assert.deepEqual(sources('f = kL? No, f = 2kL'), ['Eq(f, 2*k*L)']);
  // "... no that ignores …" starting the next sentence, with the quantity restated after it.
  assert.deepEqual(sources('f = kL ... no that ignores the way back\nf = 2kL'), ['Eq(f, 2*k*L)']);
  // "no" not followed by an equation is not a revision ("no friction").
  assert.deepEqual(sources('t = 2L/c. No friction on the ferry, f = 2kL'), ['Eq(t, 2*L/c)', 'Eq(f, 2*k*L)']);
});

test('a correction restated only in numbers takes nothing back: the corrected formula is not written, so the response needs review', () => {
  // "the second L is c": the student says in words what the formula should be and goes on with
  // numbers; dropping "t = 2L/L" would lose the formula, keeping it as read would record a slip.
  const r = x('t = 2L/L?? sorry the second L is c. t = 2 × 300/5 = 120 s');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(t, 2*L/L)', 'Eq(t, 2*300/5)', 'Eq(2*300/5, 120)'],
  );
  assert.equal(r.status, 'needs-review');
  assert.ok(r.notes.some((n) => n.kind === 'correction' && /only in numbers/.test(n.text)));
  // Restated as a formula, it is a revision as before.
  assert.deepEqual(sources('t = 2L/L?? sorry, t = 2L/c = 120 s'), ['Eq(t, 2*L/c)', 'Eq(2*L/c, 120)']);
});

test('"— no," and an arrow saying the line is wrong ("← not right") after an equation revise it', () => {
  assert.deepEqual(sources('t = L/c — no, it goes there and back so t = 2L/c'), ['Eq(t, 2*L/c)']);
  assert.deepEqual(sources('f = kL   ← not right, the fuel is for both ways:\nf = 2kL'), ['Eq(f, 2*k*L)']);
  // A comment mark does the same.
  assert.deepEqual(sources('t = L/c   # wrong, forgot the way back\nt = 2L/c'), ['Eq(t, 2*L/c)']);
  // A dash before "no" not set off by a comma is prose.
  assert.deepEqual(sources('t = 2L/c — no current in the channel'), ['Eq(t, 2*L/c)']);
});

test('"must have … wrong" without a subject is a cue too: the response needs review', () => {
  const r = x('t = L/c - 2L/c which is negative?? must have a sign wrong');
  assert.equal(r.status, 'needs-review');
  assert.ok(r.notes.some((n) => n.kind === 'correction'));
});
