// Shared by the SymPy tests: is Debian's Python with SymPy here, and the development exam's domains.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Domain } from '../../shared/exam.ts';

export const PYTHON = '/usr/bin/python3';

let probed: string | null | undefined;
/** null when /usr/bin/python3 imports sympy; else the reason to skip. */
export function sympySkipReason(): string | null {
  if (probed !== undefined) return probed;
  const r = spawnSync(PYTHON, ['-I', '-c', 'import sympy; print(sympy.__version__)'], { encoding: 'utf8', timeout: 30000 });
  probed =
    r.status === 0 ? null : `${PYTHON} with SymPy is not available (install python3-sympy): ${(r.error?.message ?? r.stderr ?? '').trim().split('\n').pop()}`;
  return probed;
}

export const DATA = new URL('../../../shared/data/', import.meta.url);

export type DevQuestion = { id: string; target?: string; variables: Domain['variables'] };
export function devExam(): { questions: DevQuestion[] } {
  return JSON.parse(readFileSync(new URL('exam.json', DATA), 'utf8'));
}
export function devDomain(questionId: string): Domain {
  const q = devExam().questions.find((x) => x.id === questionId);
  if (!q) throw new Error(`no question ${questionId}`);
  return { variables: q.variables.map((v) => ({ name: v.name, assumptions: v.assumptions, range: v.range })) };
}

/** mulberry32: a small seeded PRNG, so generated cases are the same every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
