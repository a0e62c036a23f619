// The scale case's input, generated (not a data file): N given equation lists built from the
// development set's gold lists, rewritten at random so that most equations are new text: sides
// swapped, both sides multiplied by the same number, or moved to one side (`a - b = 0`). Each
// rewrite keeps the equation's solutions and where it is defined, so the marks a list earns are
// those of the gold list it came from. Seeded: the same N and seed give the same rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { bin, equationToSympy, num, parseEquation, type Equation } from '../shared/equation/index.ts';
import { ExamSchema } from '../shared/exam.ts';
import { mulberry32 as prng } from '../electron/engine/decide/entail/rng.ts';

const FACTORS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', '12', '15', '16', '20', '25'];

/** One random rewrite of an equation that keeps its solutions and its domain of definition. */
export function rewrite(eq: Equation, rnd: () => number): Equation {
  let e = eq;
  if (rnd() < 0.5) e = { lhs: e.rhs, rhs: e.lhs };
  if (rnd() < 0.6) {
    const k = num(FACTORS[Math.floor(rnd() * FACTORS.length)]);
    e = { lhs: bin('*', k, e.lhs), rhs: bin('*', k, e.rhs) };
  }
  if (rnd() < 0.4) e = { lhs: bin('-', e.lhs, e.rhs), rhs: num('0') };
  return e;
}

export type ScaleRows = { csv: string; rows: number; equations: number; distinct: number };

/**
 * `n` rows (`student_id,question_id,equations`): students S000001... each answer every question
 * of the exam with a random gold list of that question, every equation rewritten at random
 * (one in five kept as written).
 */
export function scaleRows(dataDir: string, n: number, seed = 14): ScaleRows {
  const exam = ExamSchema.parse(JSON.parse(readFileSync(join(dataDir, 'exam.json'), 'utf8')));
  const gold = parse(readFileSync(join(dataDir, 'gold.csv'), 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
  const byQuestion = new Map<string, Equation[][]>();
  for (const q of exam.questions) byQuestion.set(q.id, []);
  for (const row of gold) {
    const q = exam.questions.find((x) => x.id === row.question_id);
    if (!q) continue;
    const names = q.variables.map((v) => v.name);
    const list: Equation[] = [];
    for (const src of JSON.parse(row.equations) as string[]) {
      const p = parseEquation(src, { variables: names });
      if (p.ok) list.push(p.value);
    }
    byQuestion.get(q.id)!.push(list);
  }
  const rnd = prng(seed);
  const out: string[][] = [['student_id', 'question_id', 'equations']];
  const seen = new Set<string>();
  let equations = 0;
  const qs = exam.questions.filter((q) => byQuestion.get(q.id)!.length > 0);
  for (let i = 0; out.length <= n; i++) {
    const q = qs[i % qs.length];
    const lists = byQuestion.get(q.id)!;
    const list = lists[Math.floor(rnd() * lists.length)];
    const sources = list.map((e) => equationToSympy(rnd() < 0.2 ? e : rewrite(e, rnd)));
    for (const s of sources) seen.add(`${q.id}\u0000${s}`);
    equations += sources.length;
    out.push([`S${String(Math.floor(i / qs.length) + 1).padStart(6, '0')}`, q.id, JSON.stringify(sources)]);
  }
  return { csv: stringify(out, { record_delimiter: '\n' }), rows: out.length - 1, equations, distinct: seen.size };
}
