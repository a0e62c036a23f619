// The SymPy evidence in a response's detail (electron/app/sympy-detail.ts through the service):
// a q1 answer that is right but left unsolved is solved for v and recognised as the accepted
// answer (marks unchanged); limits of the final expression sit beside the manual limits item;
// each equation gets a simplified form; a bad Python path in Settings reaches the worker and is
// named in the evidence's note.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppService } from '../../electron/app/service.ts';
import { namedRegimes } from '../../electron/app/sympy-detail.ts';
import { ResponseDetailSchema } from '../../shared/api.ts';
import { sympySkipReason } from '../sympy/helpers.ts';
import { openService, serviceApi } from '../support/app-service.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DATA = resolve(REPO, '../shared/data');
const skip = !existsSync(join(DATA, 'exam.json')) ? `development data not found at ${DATA}` : (sympySkipReason() ?? false);

const RESPONSES = [
  'student_id,question_id,response',
  's1,q1,"The quadratic: v^2 - u v - w^2 = 0, and I stop there."',
  's2,q1,"t = 2S/u and t = S/(v+w) + S/(v-w)"',
  's3,q1,"v = (u + sqrt(u^2 + 4w^2))/2"',
  's4,q2,"R = 2 v0^2 sin(theta) cos(theta) / g"',
].join('\n');
const EQUATIONS = [
  'student_id,question_id,equations',
  's1,q1,"[""Eq(v**2 - u*v - w**2, 0)""]"',
  's2,q1,"[""Eq(t, 2*S/u)"", ""Eq(t, S/(v + w) + S/(v - w))""]"',
  's3,q1,"[""Eq(v, (u + sqrt(u**2 + 4*w**2))/2)""]"',
  's4,q2,"[""Eq(R, 2*v_0**2*sin(theta)*cos(theta)/g)""]"',
].join('\n');

it('manual items name their regimes: u >> w, w ≫ u', () => {
  assert.deepEqual(namedRegimes('Limits: v -> u when u >> w, v -> w when w >> u, independent of S', ['v', 'u', 'w', 'S']), [
    ['u', 'w'],
    ['w', 'u'],
  ]);
  assert.deepEqual(namedRegimes('x ≫ y and q >> w', ['x', 'y', 'w']), [['x', 'y']]);
});

describe('SymPy evidence in the response detail', { skip }, () => {
  let dir: string;
  let service: AppService;
  const { call, settle } = serviceApi(() => service);
  const ids = new Map<string, string>();
  const detail = async (student: string) => {
    for (let i = 0; i < 20; i++) {
      const d = await call('response.get', { responseId: ids.get(student)! });
      ResponseDetailSchema.parse(d);
      if (d.sympy?.state !== 'pending') return d;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('SymPy evidence still pending');
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'equimark-sympy-detail-'));
    service = openService(join(dir, 'w.sqlite'));
    await call('settings.set', { ollamaUrl: 'http://127.0.0.1:9', models: [], pythonPath: '/usr/bin/python3' });
    const ex = await call('exam.import', { json: readFileSync(join(DATA, 'exam.json'), 'utf8') });
    assert.ok(ex.ok);
    const examId = ex.examId;
    await call('responses.import', { examId, csv: RESPONSES, fileName: 'r.csv' });
    assert.equal((await call('equations.import', { examId, csv: EQUATIONS })).imported, 4);
    await call('grade.start', { examId, technique: 'embedded', models: [] });
    await settle();
    for (const r of (await call('review.list', { examId })).rows) ids.set(r.studentId, r.responseId);
    assert.equal(ids.size, 4);
  });
  after(async () => {
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a right answer left unsolved: solved for v, the admissible root is the accepted answer, the other root is ruled out; marks unchanged', async () => {
    const d = await detail('s1');
    const s = d.sympy!;
    assert.equal(s.state, 'ready', s.note);
    assert.match(s.note, /never changes a mark/);
    const good = s.solved.filter((x) => x.matchesAnswer === true);
    assert.equal(good.length, 1, JSON.stringify(s.solved));
    assert.equal(good[0].from, 'equation 1');
    assert.equal(good[0].admissible, true);
    assert.match(good[0].value.text, /sqrt\(u\*\*2 \+ 4\*w\*\*2\)/);
    const bad = s.solved.filter((x) => x.matchesAnswer !== true);
    assert.equal(bad.length, 1);
    assert.equal(bad[0].admissible, false, 'the negative root of a positive speed is ruled out');
    // Marks follow the README exactly: the unsolved equation earns d, not the answer item e.
    const item = (id: string) => d.items.find((i) => i.itemId === id)!;
    assert.equal(item('d').awarded, 1);
    assert.equal(item('e').awarded, 0);
    // Limits of the solved form beside the manual item f.
    assert.deepEqual(
      s.limits.map((l) => [l.itemId, l.regime, l.limit?.text]),
      [
        ['f', 'u >> w', 'u'],
        ['f', 'w >> u', 'w'],
      ],
    );
    assert.match(s.limits[0].from, /v solved from equation 1/);
    assert.equal(s.limits[0].series?.text, 'u + w**2/u');
    // A simplified form of each equation.
    assert.equal(s.simplified.length, 1);
    assert.ok(s.simplified[0].simplified?.latex);
  });

  it('the list together: the two time equations, a quantity eliminated, give the answer', async () => {
    const s = (await detail('s2')).sympy!;
    assert.equal(s.state, 'ready', s.note);
    const good = s.solved.filter((x) => x.matchesAnswer === true);
    assert.equal(good.length, 1, JSON.stringify(s.solved));
    assert.match(good[0].from, /^equations together \([S t,]+ eliminated\)$/);
    assert.equal(good[0].equationIndex, null);
    assert.equal(s.simplified.length, 2);
    assert.match(s.simplified[1].simplified!.text, /2\*S\*v/);
  });

  it('a final answer already solved: nothing to solve, limits taken of it directly', async () => {
    const s = (await detail('s3')).sympy!;
    assert.equal(s.state, 'ready', s.note);
    assert.deepEqual(s.solved, []);
    assert.deepEqual(
      s.limits.map((l) => [l.regime, l.from, l.limit?.text]),
      [
        ['u >> w', 'equation 1', 'u'],
        ['w >> u', 'equation 1', 'w'],
      ],
    );
  });

  it('q2: the double-angle form is marked with a SymPy proof and simplified; no limits without a manual item', async () => {
    const d = await detail('s4');
    const c = d.items.find((i) => i.itemId === 'c')!;
    assert.equal(c.awarded, 2);
    assert.equal(c.evidence[0].forward.method, 'sympy-proved');
    const s = d.sympy!;
    assert.equal(s.state, 'ready', s.note);
    assert.deepEqual(s.limits, []);
    assert.equal(s.simplified[0].simplified?.text, 'Eq(R, v_0**2*sin(2*theta)/g)');
  });

  it('cached per equation list: a second look is immediate', async () => {
    const t0 = performance.now();
    await detail('s1');
    assert.ok(performance.now() - t0 < 1000, `took ${performance.now() - t0} ms`);
  });

  it('the Python path in Settings reaches the worker: a bad one is named as passed over', async () => {
    await call('settings.set', { ollamaUrl: 'http://127.0.0.1:9', models: [], pythonPath: '/nonexistent/equimark/python3' });
    const s = (await detail('s1')).sympy!;
    // Debian's Python is still found after it, so the evidence is there, and the note says why the configured one wasn't used.
    assert.equal(s.state, 'ready', s.note);
    assert.match(s.note, /passed over: \/nonexistent\/equimark\/python3 \(configured\): not found/);
    const info = await call('app.info', {});
    assert.match(info.features['SymPy checker']?.note ?? '', /\/nonexistent\/equimark\/python3 \(configured\): not found/);
  });
});
