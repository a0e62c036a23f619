// The admissible set of each variable (from the domain's assumptions and ranges) and random
// admissible values in it.
import { type Domain } from '../../../../shared/exam.ts';
import type { Rng } from './rng.ts';

/** The admissible set of one variable: an interval (open or closed ends), maybe excluding 0. */
export type VarSpec = { name: string; lo: number; hi: number; loClosed: boolean; hiClosed: boolean; nonzero: boolean };

export function varSpecs(domain: Domain, extra: string[]): Map<string, VarSpec> {
  const out = new Map<string, VarSpec>();
  for (const v of domain.variables) {
    const s: VarSpec = { name: v.name, lo: -Infinity, hi: Infinity, loClosed: false, hiClosed: false, nonzero: false };
    for (const a of v.assumptions ?? []) {
      if (a === 'positive' && s.lo <= 0) Object.assign(s, { lo: 0, loClosed: false });
      if (a === 'nonnegative' && s.lo < 0) Object.assign(s, { lo: 0, loClosed: true });
      if (a === 'nonzero') s.nonzero = true;
    }
    if (v.range) {
      const [lo, hi] = v.range;
      if (lo >= s.lo) Object.assign(s, { lo, loClosed: false });
      if (hi <= s.hi) Object.assign(s, { hi, hiClosed: false });
    }
    out.set(v.name, s);
  }
  for (const name of extra) {
    if (!out.has(name)) out.set(name, { name, lo: -Infinity, hi: Infinity, loClosed: false, hiClosed: false, nonzero: false });
  }
  return out;
}

export const specEmpty = (s: VarSpec): boolean => !(s.lo < s.hi) && !(s.lo === s.hi && s.loClosed && s.hiClosed && !(s.nonzero && s.lo === 0));

const logUniform = (rng: Rng, a: number, b: number): number => Math.exp(Math.log(a) + (Math.log(b) - Math.log(a)) * rng());

/** A random admissible value, concentrated on physically sensible magnitudes (0.1 .. 10). */
export function sampleValue(s: VarSpec, rng: Rng): number {
  if (Number.isFinite(s.lo) && Number.isFinite(s.hi)) {
    if (s.lo === s.hi) return s.lo;
    for (let i = 0; i < 8; i++) {
      const x = s.lo + (s.hi - s.lo) * (0.001 + 0.998 * rng());
      if (!(s.nonzero && x === 0)) return x;
    }
    return (s.lo + s.hi) / 2;
  }
  const mag = logUniform(rng, 0.1, 10);
  if (Number.isFinite(s.lo)) return s.lo + mag;
  if (Number.isFinite(s.hi)) return s.hi - mag;
  return rng() < 0.5 ? -mag : mag;
}

export const inSpec = (s: VarSpec, x: number): boolean =>
  (x > s.lo || (s.loClosed && x === s.lo)) && (x < s.hi || (s.hiClosed && x === s.hi)) && !(s.nonzero && x === 0);
