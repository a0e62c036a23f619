// Resumability: a real `grade` process killed with SIGKILL at random moments and run again on
// the same workspace ends with exactly the marks of an uninterrupted run, and no finished step
// is redone (each response is extracted once and marked once, per the audit log).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import Database from 'better-sqlite3';
import { DATA, ROOT, hasData, runCli, startCli } from './helpers.ts';

/** Responses whose text is the gold equations, one per line: the plain reader reads them, so every step does real work. */
function responsesFromGold(dir: string): { exam: string; responses: string } {
  if (hasData) {
    const gold = parse(readFileSync(join(DATA, 'gold.csv')), { columns: true }) as Record<string, string>[];
    const rows = gold.map((g) => [g.student_id, g.question_id, (JSON.parse(g.equations) as string[]).join('\n')]);
    const responses = join(dir, 'responses.csv');
    writeFileSync(responses, stringify([['student_id', 'question_id', 'response'], ...rows]));
    return { exam: join(DATA, 'exam.json'), responses };
  }
  return { exam: join(ROOT, 'resources/demo/exam.json'), responses: join(ROOT, 'resources/demo/responses.csv') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('grade killed with SIGKILL at random moments finishes with the uninterrupted marks, redoing nothing', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eqm-kill-'));
  try {
    const { exam, responses } = responsesFromGold(dir);
    const t0 = Date.now();
    const clean = runCli(['grade', '--exam', exam, '--responses', responses, '--out', join(dir, 'clean'), '--technique', 'plain']);
    assert.equal(clean.status, 0, clean.stderr);
    const cleanMs = Date.now() - t0;
    const expected = readFileSync(join(dir, 'clean', 'marks.csv'), 'utf8');
    const expectedEqs = readFileSync(join(dir, 'clean', 'equations.csv'), 'utf8');

    const ws = join(dir, 'killed.sqlite');
    const args = ['grade', '--exam', exam, '--responses', responses, '--out', join(dir, 'killed'), '--workspace', ws, '--technique', 'plain'];
    const kills: string[] = [];
    const steps = () => {
      try {
        const db = new Database(ws, { readonly: true, fileMustExist: true });
        try {
          return (db.prepare("SELECT count(*) AS n FROM audit WHERE action IN ('extraction.save', 'marks.save')").get() as { n: number }).n;
        } finally {
          db.close();
        }
      } catch {
        return 0; // not created yet
      }
    };
    // First kill at a random moment (it may land in start-up or import); the next ones after a
    // random number of further steps, so they land in the middle of extraction or marking.
    for (let i = 0; i < 4; i++) {
      const child = startCli(args);
      let gone = false;
      const exited = new Promise<void>((r) => child.on('exit', () => ((gone = true), r())));
      const before = steps();
      const t = Date.now();
      if (i === 0) await Promise.race([sleep(Math.floor(Math.random() * cleanMs * 0.6)), exited]);
      else {
        const target = before + 1 + Math.floor(Math.random() * 70);
        while (!gone && steps() < target && Date.now() - t < 60_000) await sleep(5);
      }
      child.kill('SIGKILL');
      await exited;
      kills.push(`${Date.now() - t} ms (${steps() - before} steps)`);
    }
    const db = new Database(ws, { readonly: true });
    const markedBefore = (db.prepare('SELECT count(*) AS n FROM mark_results').get() as { n: number }).n;
    db.close();
    console.log(`uninterrupted run ${cleanMs} ms; killed after ${kills.join(', ')}; ${markedBefore} responses marked before the last run`);
    const last = runCli(args);
    assert.equal(last.status, 0, last.stderr);
    assert.equal(readFileSync(join(dir, 'killed', 'marks.csv'), 'utf8'), expected, `kills after ${kills.join(', ')}`);
    assert.equal(readFileSync(join(dir, 'killed', 'equations.csv'), 'utf8'), expectedEqs);
    const m = /marked (\d+)/.exec(last.stdout);
    const total = expected.trim().split('\n').length - 1;
    assert.equal(Number(m?.[1]), total - markedBefore, 'the last run marks only what was left');

    const check = new Database(ws, { readonly: true });
    const perResponse = check
      .prepare(
        "SELECT entity_key, sum(action = 'extraction.save') AS x, sum(action = 'marks.save') AS m FROM audit WHERE action IN ('extraction.save', 'marks.save') GROUP BY entity_key",
      )
      .all() as { entity_key: string; x: number; m: number }[];
    check.close();
    assert.equal(perResponse.length, total);
    for (const r of perResponse) assert.deepEqual([r.x, r.m], [1, 1], `${r.entity_key} extracted ${r.x}x, marked ${r.m}x`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'grade with a model technique killed mid-batch: the re-run reads only what was not stored, ending as an uninterrupted run',
  { timeout: 180_000, skip: !hasData && 'no ../shared/data' },
  async () => {
    const { startFakeOllama } = await import('../support/fake-ollama.ts');
    // Every response goes to the model (llm-modulo), each reply taking a while, so the kill lands mid-batch.
    const f = await startFakeOllama({ fallback: [], latencyMs: 40 }); // an empty list parses for every question: one call per response
    const dir = mkdtempSync(join(tmpdir(), 'eqm-kill-model-'));
    try {
      const exam = join(DATA, 'exam.json');
      const responses = join(DATA, 'responses.csv');
      const common = ['--technique', 'llm-modulo', '--model', 'fake-llm:7b', '--ollama-url', f.url, '--cache', 'none'];
      const clean = runCliAsyncLocal(['grade', '--exam', exam, '--responses', responses, '--out', join(dir, 'clean'), ...common]);
      assert.equal((await clean).status, 0);
      const ws = join(dir, 'killed.sqlite');
      const args = ['grade', '--exam', exam, '--responses', responses, '--out', join(dir, 'killed'), '--workspace', ws, ...common];
      const saved = () => {
        try {
          const db = new Database(ws, { readonly: true, fileMustExist: true });
          try {
            return (db.prepare('SELECT count(*) AS n FROM model_records').get() as { n: number }).n;
          } finally {
            db.close();
          }
        } catch {
          return 0;
        }
      };
      const child = startCli(args);
      const exited = new Promise<void>((r) => child.on('exit', () => r()));
      const target = 5 + Math.floor(Math.random() * 30);
      const t = Date.now();
      while (saved() < target && Date.now() - t < 60_000) await sleep(5);
      child.kill('SIGKILL');
      await exited;
      const before = saved();
      assert.ok(before > 0 && before < 85, `killed after ${before} model readings`);
      f.resetCounts();
      const last = await runCliAsyncLocal(args);
      assert.match(last.stdout, new RegExp(`this run: extracted ${85 - before}, `), 'the re-run extracts only what was not stored');
      assert.equal(last.status, 0, last.stderr);
      assert.equal(readFileSync(join(dir, 'killed', 'marks.csv'), 'utf8'), readFileSync(join(dir, 'clean', 'marks.csv'), 'utf8'));
      assert.equal(readFileSync(join(dir, 'killed', 'equations.csv'), 'utf8'), readFileSync(join(dir, 'clean', 'equations.csv'), 'utf8'));
      const db = new Database(ws, { readonly: true });
      const records = (db.prepare('SELECT count(*) AS n FROM model_records').get() as { n: number }).n;
      const twice = db.prepare("SELECT entity_key FROM audit WHERE action = 'extraction.save' GROUP BY entity_key HAVING count(*) > 1").all();
      db.close();
      assert.deepEqual(twice, [], 'no response extracted twice');
      assert.equal(records, 85, 'a model record per response, stored with its extraction');
      // One call per response not stored yet (the 3 blank ones need none).
      const calls = f.count('chat');
      assert.ok(calls <= 85 - before && calls >= 85 - before - 3, `re-run made ${calls} calls after ${before} were stored`);
    } finally {
      await f.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

function runCliAsyncLocal(args: string[]) {
  return import('./helpers.ts').then((h) => h.runCliAsync(args, { EQUIMARK_MODEL: undefined, OLLAMA_HOST: undefined }));
}
