// The Z3 pool's start: its WASM read whole off the main thread, and a worker started ahead of
// need (warm()) given the pool's own first query, which nobody waits for.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readWhole, Z3Pool } from '../../electron/engine/decide/entail/z3-pool.ts';
import { parseEquationOrThrow } from '../../shared/equation/index.ts';

const variables = ['v', 'u', 'w'];
const P = (s: string) => parseEquationOrThrow(s, { variables });
const domain = { variables: variables.map((name) => ({ name, assumptions: ['positive' as const] })) };
/** Holds only for v = 0, which the positive domain excludes: Z3 says unsat (no sampled point settles it). */
const impossible = { kind: 'consistent' as const, eq: P('Eq(v, -(u + w)/2)'), domain };

describe('readWhole', () => {
  it("reads Z3's WASM byte for byte as readFileSync does", async () => {
    const file = createRequire(import.meta.url).resolve('z3-solver/build/z3-built.wasm');
    const got = await readWhole(file);
    assert.ok(Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(readFileSync(file)));
  });
  it('reads an empty file and a small one, and rejects a missing one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'equimark-read-whole-'));
    try {
      writeFileSync(join(dir, 'empty'), '');
      writeFileSync(join(dir, 'small'), 'abc');
      assert.equal((await readWhole(join(dir, 'empty'))).byteLength, 0);
      assert.equal(Buffer.from(await readWhole(join(dir, 'small'))).toString(), 'abc');
      await assert.rejects(readWhole(join(dir, 'missing')), /ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a worker started ahead of need', () => {
  it('is warmed up by the pool, answers the query asked meanwhile correctly, and counts no time-out or crash', async () => {
    const pool = new Z3Pool({ deadlineMs: 20_000, size: 1 });
    try {
      pool.warm();
      for (let i = 0; i < 600 && pool.stats().warmedUp === 0; i++) await new Promise((r) => setTimeout(r, 25));
      assert.equal(pool.stats().warmedUp, 1, 'the worker, ready with nothing to do, was given the warm-up');
      // Asked at once, while the warm-up may still run: it waits for the one worker, then is answered.
      const r = await pool.run(impossible);
      assert.equal(r.result, 'unsat');
      const s = pool.stats();
      assert.deepEqual([s.started, s.timedOut, s.crashed], [1, 0, 0]);
    } finally {
      await pool.close();
    }
    assert.equal(pool.stats().live, 0);
  });
  it('a pool that prepares Z3 at its first query (prepareAhead: false, the command line) answers it as one prepared ahead', async () => {
    const pool = new Z3Pool({ deadlineMs: 20_000, size: 1, prepareAhead: false });
    try {
      assert.equal(pool.stats().started, 0, 'nothing started before a query');
      assert.equal((await pool.run(impossible)).result, 'unsat');
      assert.deepEqual([pool.stats().started, pool.stats().crashed], [1, 0]);
    } finally {
      await pool.close();
    }
  });
  it('a worker started for a query waiting is not warmed up: the query goes first', async () => {
    const pool = new Z3Pool({ deadlineMs: 20_000, size: 1 });
    try {
      assert.equal((await pool.run(impossible)).result, 'unsat');
      assert.equal(pool.stats().warmedUp, 0);
    } finally {
      await pool.close();
    }
  });
});
