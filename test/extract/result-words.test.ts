// Words that state a result (shared/extract/result-words.ts): "…, which comes to 0.45 J", "the
// height comes out as …" are read as an equation of the quantity when the sentence makes it clear
// (the equation just before, or words naming a variable of the question), units dropped and the
// number as written; approximations are left out (gold conventions); an unclear quantity is left
// unread, never guessed. On text written for these tests (a catapult question invented here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEmbedded } from '../../shared/extract/index.ts';
import type { Question } from '../../shared/exam.ts';
import { pickReading } from '../../shared/alternatives.ts';

const CATAPULT: Question = {
  id: 'catapult',
  title: '',
  prompt:
    'A catapult stores elastic energy E in a band of stiffness k stretched by a distance d, and launches a stone of mass M straight up. Find the launch speed u and the greatest height H.',
  variables: [
    ['E', 'elastic energy stored in the band'],
    ['k', 'stiffness of the band'],
    ['d', 'stretch of the band'],
    ['M', 'mass of the stone'],
    ['u', 'launch speed of the stone'],
    ['H', 'greatest height reached'],
    ['g', 'gravitational acceleration'],
  ].map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
  target: 'H',
  scheme: [],
};
const x = (text: string) => extractEmbedded(text, CATAPULT);
const sources = (text: string) => x(text).equations.map((e) => e.source);

test('a value stated after an equation in the same sentence is an equation of its quantity', () => {
  assert.deepEqual(sources('E = ½kd², which comes to 0.45 J'), ['Eq(E, 1/2*k*d**2)', 'Eq(E, 0.45)']);
  assert.deepEqual(sources('u = √(2E/M) which works out to 3.16 m/s'), ['Eq(u, sqrt(2*E/M))', 'Eq(u, 3.16)']);
  assert.deepEqual(sources('H = u²/(2g), which gives 0.51 m.'), ['Eq(H, u**2/(2*g))', 'Eq(H, 0.51)']);
  const r = x('E = ½kd², which comes to 0.45 J');
  assert.ok(
    r.notes.some((n) => /0\.45.*value of E/.test(n.text)),
    'a note says how it was read',
  );
});

test('a number stated in words as a result is a choice (recorded, or not), never a confident read; a symbolic value is recorded', () => {
  // Markers differ on recording "which comes to 0.45 J": the reading holds it, the response is
  // partial with both readings offered, and picking "nothing recorded" takes the equation out.
  const r = x('E = ½kd², which comes to 0.45 J');
  assert.equal(r.status, 'partial');
  assert.ok(r.flags.includes('ambiguous-reading'));
  assert.equal(r.alternatives?.length, 1);
  const alt = r.alternatives![0];
  assert.deepEqual(alt.readings, [['Eq(E, 0.45)'], []]);
  assert.equal(alt.text, 'which comes to 0.45');
  assert.ok(r.notes.some((n) => n.kind === 'ambiguous' && /nothing recorded/.test(n.text)));
  const dropped = pickReading(r, 0, 1);
  assert.deepEqual(
    dropped.equations.map((e) => e.source),
    ['Eq(E, 1/2*k*d**2)'],
  );
  assert.equal(dropped.status, 'read');
  // Named in words, the same choice.
  const named = x('the greatest height comes out at 0.51 m');
  assert.equal(named.status, 'partial');
  assert.deepEqual(named.alternatives?.[0].readings, [['Eq(H, 0.51)'], []]);
  // A symbolic value in words is recorded (convention 1): no choice.
  const symbolic = x('so the launch speed comes out as √(2E/M)');
  assert.equal(symbolic.status, 'read');
  assert.equal(symbolic.alternatives, undefined);
});

test('words naming a variable of the question state its value (symbolic or a number)', () => {
  assert.deepEqual(sources('so the launch speed comes out as √(2E/M)'), ['Eq(u, sqrt(2*E/M))']);
  assert.deepEqual(sources('the greatest height comes out at 0.51 m'), ['Eq(H, 0.51)']);
  assert.deepEqual(sources('and the height is 0.51 m'), ['Eq(H, 0.51)']);
});

test("an approximate value of a quantity that is, or may be, the question's is a doubt; of no quantity told, it is left out (noted)", () => {
  const r = x('H = u²/(2g), which is about 0.5 m');
  assert.deepEqual(
    r.equations.map((e) => e.source),
    ['Eq(H, u**2/(2*g))'],
  );
  assert.equal(r.status, 'partial');
  assert.match(r.unread[0].reason, /approximate value of H stated in words .*marker's call/);
  const named = x('so the height is roughly 0.5 m');
  assert.deepEqual(named.equations, []);
  assert.match(named.unread[0].reason, /approximate value of H stated in words/);
  // "the top speed": a speed the question may mean (a paraphrase), or another: still a doubt.
  assert.match(x('the top speed works out at roughly 4 m/s').unread[0]?.reason ?? '', /approximate value stated in words/);
  // Nothing named: left out, with a note.
  const bare = x('it comes to roughly 0.5');
  assert.deepEqual(bare.equations, []);
  assert.deepEqual(bare.unread, []);
  assert.ok(bare.notes.some((n) => n.kind === 'unread' && /approximate value stated in words/.test(n.text)));
});

test('a result whose quantity the sentence does not make clear is left unread, not guessed', () => {
  const a = x('H = u²/(2g). This comes to 0.51 m');
  assert.deepEqual(
    a.equations.map((e) => e.source),
    ['Eq(H, u**2/(2*g))'],
    'a new sentence: the equation before is not "just before"',
  );
  assert.equal(a.status, 'partial');
  assert.match(a.unread[0].reason, /result stated in words .* can't be told/);
  const b = x('the thing comes to 12');
  assert.deepEqual(b.equations, []);
  assert.equal(b.unread.length, 1);
  // "is" with no quantity named states no result; a value with its unit in such prose may still
  // be a quantity of the question (the band's 30 cm its stretch?), so it is a doubt, not words.
  const c = x('It is 2 metres above the ground and the band is 30 cm long');
  assert.deepEqual(c.equations, []);
  assert.deepEqual(
    c.unread.map((u) => [u.text, u.reason]),
    [['30 cm', "a value with a unit in words: which quantity of the question it gives, if any, can't be told"]],
  );
  assert.equal(x('It is 2 metres above the ground').unread.length, 0, 'a bare number with a word that is no unit says nothing');
});

test('a value that goes on in words is not read as the result', () => {
  const r = x('H = u²/(2g), which is 2 times u²/(4g)');
  assert.ok(!r.equations.some((e) => e.source === 'Eq(H, 2)'), 'not H = 2');
  assert.equal(r.status, 'partial');
});

test('words after a symbol of their own ("d is 0.2") are not a result of the equation before them', () => {
  // Reading 0.2 as the value of H (the equation just before) would invent H = 0.2.
  const r = sources('H = u²/(2g), d is 0.2');
  assert.ok(!r.includes('Eq(H, 0.2)'), r.join(' '));
  assert.ok(r.includes('Eq(H, u**2/(2*g))'));
});

test('"should be" / "must be" state the value of a quantity the sentence names; after "which" or "it" they revise', () => {
  assert.deepEqual(sources('so the launch speed should be √(2E/M)'), ['Eq(u, sqrt(2*E/M))']);
  assert.deepEqual(sources('the greatest height must be u²/(2g)'), ['Eq(H, u**2/(2*g))']);
  // "…, which should be 2E/M" takes back what came before (a correction), not a second value of it.
  const r = x('u = √(E/M), which should be u = √(2E/M)');
  assert.ok(!r.equations.some((e) => e.source === 'Eq(u, sqrt(E/M))') || r.status !== 'read', r.equations.map((e) => e.source).join(' '));
});

test('a value that goes on in words after its unit ("−13.6 eV divided by n squared") is not the result; a negative value or one whose unit ends the clause is a value in words', () => {
  const r = x('The stone flies off and the elastic energy is 0.45 J divided by the mass, so it goes high.');
  assert.deepEqual(r.equations, [], 'not E = 0.45');
  assert.match(r.unread[0]?.reason ?? '', /goes on in words \("divided"\)/);
  // The subject is the last clause's: "the stone flies off and the elastic energy is" names E.
  assert.deepEqual(sources('The stone flies off and the elastic energy is 0.45 J.'), ['Eq(E, 0.45)']);
  for (const text of ['It is -0.45 J.', 'Then it comes back with 12 J']) {
    const v = x(text);
    assert.deepEqual(v.equations, [], text);
    assert.match(v.unread[0]?.reason ?? '', /a value with a unit in words/, text);
  }
  // An angle in words describes; it states no quantity's value.
  assert.equal(x('It leaves at 30 degrees or so.').unread.length, 0);
});

test('"which comes to" points back only to the equation right before it (its unit aside), not past words of their own', () => {
  // The band's energy, then a sentence about the height in words: the value is not the energy's.
  const r = x('The energy is E = ½kd², and the height is that over M g, which comes to 0.51');
  assert.ok(!r.equations.some((e) => e.source === 'Eq(E, 0.51)'), r.equations.map((e) => e.source).join(' '));
  // With only a unit between, it is the value of the equation before.
  assert.deepEqual(sources('E = ½kd² J, which comes to 0.45'), ['Eq(E, 1/2*k*d**2)', 'Eq(E, 0.45)']);
});

test('"works out to be", "is given by" and a hedge before the subject ("I think the … is") state a result of the quantity named', () => {
  assert.deepEqual(sources('so the launch speed works out to be d√(k/M)'), ['Eq(u, d*sqrt(k/M))']);
  assert.deepEqual(sources('The greatest height is given by u²/(2g).'), ['Eq(H, u**2/(2*g))']);
  assert.deepEqual(sources('so I think the greatest height is kd²/(2Mg)'), ['Eq(H, k*d**2/(2*M*g))']);
  // A hedge with no quantity named after it is no subject.
  assert.notEqual(x('I think it is kd²/(2Mg)').status, 'read');
});

test('a value said of what came before across a sentence ("… . Using the numbers this is 0.5 m") is a doubt, not dropped unseen', () => {
  for (const text of ['H = u²/(2g). Using the numbers from the question this is 0.51 m.', 'H = u²/(2g). It is 0.51 m.']) {
    const r = x(text);
    assert.deepEqual(
      r.equations.map((e) => e.source),
      ['Eq(H, u**2/(2*g))'],
      text,
    );
    assert.equal(r.status, 'partial', text);
    assert.match(r.unread[0].reason, /a value stated in words .* can't be told/, text);
  }
  // Right after the equation, "which is" points back to it: read as its quantity's value.
  assert.deepEqual(sources('H = u²/(2g), which is 0.51 m'), ['Eq(H, u**2/(2*g))', 'Eq(H, 0.51)']);
  // Words, not a value: the reader's usual business.
  assert.equal(x('H = u²/(2g). It is positive.').status, 'read');
});

test('a value said in words of a variable typed as its symbol ("so H is 2 times …", "H is 5") is a doubt, never dropped unseen', () => {
  for (const text of ['so H is 2 times d', 'H is 5']) {
    const r = x(text);
    assert.deepEqual(r.equations, [], text);
    assert.match(r.unread[0]?.reason ?? '', /a value stated in words for H/, text);
  }
  // A symbol of no variable, or words that are no value, say nothing to doubt.
  assert.deepEqual(x('y is 5').unread, []);
  assert.equal(x('H is positive').status, 'read');
});

test('one variable alone after words naming another variable is its value (convention 1); not the same variable, nor with words going on', () => {
  assert.deepEqual(sources('The greatest height is d, so Mgd = E'), ['Eq(H, d)', 'Eq(M*g*d, E)']);
  assert.deepEqual(sources('the greatest height is d.'), ['Eq(H, d)']);
  assert.deepEqual(sources('the launch speed is u.'), []);
  assert.deepEqual(sources('the greatest height is d above the band'), []);
  // A conjunction opening the next clause, or an aside in brackets, ends it too.
  assert.deepEqual(sources('The greatest height is d and the launch speed is u'), ['Eq(H, d)']);
  assert.deepEqual(sources('the greatest height is d (ignoring drag)'), ['Eq(H, d)']);
});
