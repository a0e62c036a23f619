// Differential test: equations parsed by our grammar and rebuilt in SymPy by the worker's builder
// must equal SymPy's own parse of the same source (sympify, in the test harness only), with
// decimals as exact rationals and the same symbol assumptions.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { FUNCTIONS, type Equation, type Expr, type FunctionName } from '../../shared/equation/ast.ts';
import { parseEquation } from '../../shared/equation/parser.ts';
import { equationToSympy } from '../../shared/equation/print.ts';
import type { Domain } from '../../shared/exam.ts';
import { DATA, PYTHON, devDomain, rng, sympySkipReason } from './helpers.ts';

type Item = { source: string; equation: Equation; domain: Domain };
type Outcome = { ok: boolean; built: string; parsed: string; error?: string };

function runOracle(items: Item[]): Outcome[] {
  const r = spawnSync(PYTHON, ['-I', '-B', new URL('oracle.py', import.meta.url).pathname], {
    input: JSON.stringify(items),
    encoding: 'utf8',
    timeout: 60000,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, `oracle failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function assertAllEqual(items: Item[], outcomes: Outcome[]): void {
  assert.equal(outcomes.length, items.length);
  const bad = outcomes
    .map((o, i) => ({ o, item: items[i] }))
    .filter(({ o }) => !o.ok)
    .map(({ o, item }) => `${item.source}\n  built:  ${o.built}\n  parsed: ${o.parsed}${o.error ? `\n  error:  ${o.error}` : ''}`);
  assert.deepEqual(bad, [], `${bad.length} of ${items.length} differ:\n${bad.slice(0, 10).join('\n')}`);
}

test('every gold equation rebuilds in SymPy exactly as SymPy parses its source', { skip: sympySkipReason() ?? false }, () => {
  const rows = parse(readFileSync(new URL('gold.csv', DATA), 'utf8'), { columns: true }) as { question_id: string; equations: string }[];
  const items: Item[] = [];
  const unparsed: string[] = [];
  for (const row of rows) {
    const domain = devDomain(row.question_id);
    for (const source of JSON.parse(row.equations) as string[]) {
      const r = parseEquation(source);
      if (!r.ok) unparsed.push(`${source}: ${r.errors[0].message}`);
      else items.push({ source, equation: r.value, domain });
    }
  }
  assert.deepEqual(unparsed, [], 'gold equations our grammar rejects');
  assert.ok(items.length >= 100, `only ${items.length} gold equations`);
  assertAllEqual(items, runOracle(items));
});

// Names that collide with SymPy's namespace (S, N, I, Q, beta, gamma) on purpose.
const SYMBOLS: Domain['variables'] = [
  { name: 'x', assumptions: ['positive'] },
  { name: 'y', assumptions: [] },
  { name: 'z', assumptions: ['nonnegative'] },
  { name: 'theta', assumptions: ['nonzero'], range: [0, 1.5708] },
  { name: 'v_0', assumptions: ['positive'] },
  { name: 'S', assumptions: ['real'] },
  { name: 'N', assumptions: [] },
  { name: 'I', assumptions: [] },
  { name: 'Q', assumptions: ['positive'] },
  { name: 'beta', assumptions: [] },
  { name: 'gamma', assumptions: ['positive'] },
];
const NUMS = ['0', '1', '2', '3', '10', '0.5', '1.36', '0.001', '12.25', '7'];
const FNS = Object.keys(FUNCTIONS) as FunctionName[];

function generate(next: () => number, depth: number, exponent = false): Expr {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const leaf = (): Expr => {
    const r = next();
    if (exponent)
      return r < 0.5
        ? { kind: 'num', text: pick(['0', '1', '2', '3', '0.5']) }
        : r < 0.8
          ? { kind: 'sym', name: pick(SYMBOLS).name }
          : { kind: 'neg', arg: { kind: 'num', text: '2' } };
    if (r < 0.45) return { kind: 'sym', name: pick(SYMBOLS).name };
    if (r < 0.85) return { kind: 'num', text: pick(NUMS) };
    return { kind: 'const', name: pick(['pi', 'E'] as const) };
  };
  if (depth <= 0 || next() < 0.2) return leaf();
  const r = next();
  if (r < 0.12) return { kind: 'neg', arg: generate(next, depth - 1, exponent) };
  if (r < 0.3) return { kind: 'call', fn: pick(FNS), args: [generate(next, depth - 1)] };
  const op = pick(['+', '-', '*', '/', '**'] as const);
  if (op === '**') return { kind: 'bin', op, left: generate(next, depth - 1), right: generate(next, Math.min(1, depth - 1), true) };
  return { kind: 'bin', op, left: generate(next, depth - 1, exponent), right: generate(next, depth - 1, exponent) };
}

test('300 seeded random equations rebuild in SymPy exactly as SymPy parses their printed source', { skip: sympySkipReason() ?? false }, () => {
  const next = rng(20260511);
  const domain: Domain = { variables: SYMBOLS };
  const items: Item[] = [];
  for (let i = 0; i < 300; i++) {
    const generated: Equation = { lhs: generate(next, 4), rhs: generate(next, 4) };
    const source = equationToSympy(generated);
    const r = parseEquation(source);
    assert.ok(r.ok, `printed source does not parse: ${source}`);
    items.push({ source, equation: r.value, domain });
  }
  assertAllEqual(items, runOracle(items));
});
