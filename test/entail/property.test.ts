// Property test (issue 10): pairs built from known identities (trig, logs, roots, rational
// functions) over randomly chosen sub-expressions are never refuted, and small perturbations of
// them are never proved. Seeded: the same pairs every run, so it can't flake.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Entailer } from '../../electron/engine/decide/entail/index.ts';
import { mulberry32 } from '../../electron/engine/decide/entail/rng.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';
import type { Domain } from '../../shared/exam.ts';

/** Identities A(a, b) ≡ B(a, b), valid wherever both sides are defined for a, b > 0 (both defined at the same points). */
const IDENTITIES: [string, string][] = [
  ['sin(2*(a))', '2*sin(a)*cos(a)'],
  ['cos(2*(a))', '1 - 2*sin(a)**2'],
  ['cos(2*(a))', 'cos(a)**2 - sin(a)**2'],
  ['cos(2*(a))', '2*cos(a)**2 - 1'],
  ['sin(a)**2 + cos(a)**2', '1'],
  ['sin((a) + (b))', 'sin(a)*cos(b) + cos(a)*sin(b)'],
  ['cos((a) - (b))', 'cos(a)*cos(b) + sin(a)*sin(b)'],
  ['log((a)*(b))', 'log(a) + log(b)'],
  ['log((a)/(b))', 'log(a) - log(b)'],
  ['log((a)**2)', '2*log(a)'],
  ['exp(log(a))', 'a'],
  ['exp((a) + (b))', 'exp(a)*exp(b)'],
  ['sqrt((a)*(b))', 'sqrt(a)*sqrt(b)'],
  ['sqrt((a)**2)', 'a'],
  ['((a)**(1/3))**3', 'a'],
  ['1/(a) + 1/(b)', '((a) + (b))/((a)*(b))'],
  ['((a)**2 - (b)**2)/((a) + (b))', '(a) - (b)'],
  ['((a) + (b))**2', '(a)**2 + 2*(a)*(b) + (b)**2'],
  ['(a)/((a) + (b))', '1 - (b)/((a) + (b))'],
];
/** Positive sub-expressions over the positive variables u, w . */
const ATOMS = ['u', 'w', '2*u', 'u + w', 'u*w', 'u/3', 'w**2', '3/2'];
/** Perturbations of the right-hand side (each changes its value by at least about 1e-3 relative). */
const PERTURB = [(b: string) => `(${b}) + 1/1000`, (b: string) => `(${b})*1001/1000`, (b: string) => `(${b}) - 1/7`, (b: string) => `2*(${b})`];

const rng = mulberry32(20261123);
const pick = <T>(xs: T[]): T => xs[Math.floor(rng() * xs.length)];
const fill = (t: string, a: string, b: string): string => t.replace(/\ba\b/g, `(${a})`).replace(/\bb\b/g, `(${b})`);

type Case = { premise: string; conclusion: string };
const same: Case[] = [];
const perturbed: Case[] = [];
for (let i = 0; i < IDENTITIES.length; i++) {
  const [A, B] = IDENTITIES[i];
  const a = pick(ATOMS);
  let b = pick(ATOMS);
  if (b === a) b = ATOMS[(ATOMS.indexOf(a) + 1) % ATOMS.length];
  const lhs = fill(A, a, b);
  const rhs = fill(B, a, b);
  // Both directions, sometimes with the sides scaled (t*v = S*(...)).
  const scaled = rng() < 0.3;
  const eq = (x: string) => (scaled ? `Eq(t*v, S*(${x}))` : `Eq(v, ${x})`);
  same.push({ premise: eq(lhs), conclusion: eq(rhs) }, { premise: eq(rhs), conclusion: eq(lhs) });
  perturbed.push({ premise: eq(lhs), conclusion: eq(pick(PERTURB)(rhs)) });
}

/** u, w positive (the identities' arguments); v, t, S real, so no premise is vacuous. */
const D: Domain = {
  variables: [
    { name: 'u', assumptions: ['positive'] },
    { name: 'w', assumptions: ['positive'] },
    { name: 'v', assumptions: [] },
    { name: 't', assumptions: [] },
    { name: 'S', assumptions: [] },
  ],
};

let engine: Entailer;
before(async () => {
  engine = await Entailer.create({ seed: 5 });
});
after(async () => {
  await engine.close();
});

describe(`identities are never refuted (${same.length} seeded pairs)`, () => {
  for (const { premise, conclusion } of same) {
    it(`${premise} ⊭? ${conclusion}`, async () => {
      const v = await engine.entails(parseEquationOrThrow(premise), parseEquationOrThrow(conclusion), D);
      assert.notEqual(v.holds, false, JSON.stringify(v));
    });
  }
});

describe(`perturbed identities are never proved (${perturbed.length} seeded pairs)`, () => {
  for (const { premise, conclusion } of perturbed) {
    it(`${premise} ⊨? ${conclusion}`, async () => {
      const v = await engine.entails(parseEquationOrThrow(premise), parseEquationOrThrow(conclusion), D);
      assert.notEqual(v.holds, true, JSON.stringify(v));
    });
  }
});
