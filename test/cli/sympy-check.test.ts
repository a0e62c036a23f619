// `equimark check` with the SymPy prover: an identity Z3 can't prove (q2's double angle) is shown
// as proved by SymPy, not as sampling; a false one stays refuted; without SymPy the check still
// answers (sampling) and says once on stderr why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, DATA, ROOT, hasData } from './helpers.ts';
import { sympySkipReason } from '../sympy/helpers.ts';

const EXAM = join(DATA, 'exam.json');
const skipNoData = hasData ? false : 'no development data';

function check(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, [BIN, 'check', '--exam', EXAM, '--question', 'q2', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test(
  'check: the q2 double-angle identity is proved by SymPy (method sympy-proved), a false one refuted',
  { skip: skipNoData || sympySkipReason() || false },
  () => {
    const r = check(['Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)', 'Eq(R, v_0**2*sin(2*theta)/g)']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /EQ1 => EQ2: holds \(sympy-proved;/);
    assert.match(r.stdout, /EQ2 => EQ1: holds \(sympy-proved;/);
    assert.match(r.stdout, /equivalent: yes/);
    assert.doesNotMatch(r.stdout, /numeric-agreement/);
    assert.doesNotMatch(r.stderr, /SymPy not found/);

    const j = check(['--json', 'Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)', 'Eq(R, v_0**2*sin(2*theta)/g)']);
    assert.equal(j.status, 0, j.stderr);
    const out = JSON.parse(j.stdout) as { forward: { method: string; holds: boolean } };
    assert.deepEqual([out.forward.holds, out.forward.method], [true, 'sympy-proved']);

    const f = check(['Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)', 'Eq(R, v_0**2*sin(theta)/g)']);
    assert.equal(f.status, 0, f.stderr);
    assert.match(f.stdout, /EQ1 => EQ2: does not hold \(numeric-counterexample;/);
    assert.match(f.stdout, /equivalent: no/);
  },
);

test('without SymPy the engine the CLI uses answers by sampling and says why once, on stderr', () => {
  // The CLI calls createEngine() with the default notice (one line on stderr). A machine with
  // Debian's python3-sympy always finds it, so the missing case runs the same factory with only a
  // bogus configured interpreter and no system search.
  const script = `
    const { createEngine } = await import('./electron/engine/decide/engine-factory.ts');
    const { parseEquationOrThrow: eq } = await import('./shared/equation/parser.ts');
    const e = await createEngine({ sympy: { pythonPath: '/nonexistent/equimark/python3', searchSystem: false, env: {} } });
    const d = { variables: [{ name: 'R', assumptions: ['positive'] }, { name: 'v_0', assumptions: ['positive'] }, { name: 'g', assumptions: ['positive'] }, { name: 'theta', assumptions: ['positive'], range: [0, 1.5] }] };
    const a = eq('Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)'), b = eq('Eq(R, v_0**2*sin(2*theta)/g)');
    for (const [p, c] of [[a, b], [b, a]]) { const v = await e.entails(p, c, d); console.log(v.holds, v.method); }
    await e.close();`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['true numeric-agreement', 'true numeric-agreement']);
  const lines = r.stderr.split('\n').filter((l) => l.trim());
  assert.deepEqual(lines, ['note: SymPy not found: install python3-sympy or set the Python path in Settings; grading continues with Z3 and numeric checks']);
});
