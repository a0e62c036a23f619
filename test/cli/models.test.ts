// The CLI with reading techniques: the embedded extractor alone (no model contacted), hybrid with
// a model (our fake Ollama server), Ollama unreachable (exit 3, responses waiting, resumed by a
// re-run that reads only those), the default technique and OLLAMA_HOST, and eval's coverage,
// precision and Table I over several techniques.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import Database from 'better-sqlite3';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { goldTags, loadEvalDir } from '../../electron/engine/eval/set.ts';
import type { EvalReport } from '../../electron/engine/eval/run.ts';
import type { TableOneRow } from '../../electron/engine/eval/table-one.ts';
import { startFakeOllama, type FakeOllama, type FakeRule } from '../support/fake-ollama.ts';
import { DATA, OFFLINE_DNS, ROOT, hasData, runCliAsync } from './helpers.ts';

const M1 = 'fake-llm:7b';
const M2 = 'fake-llm-b:8b';
const servers: FakeOllama[] = [];
const dirs: string[] = [];
after(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'eqm-models-'));
  dirs.push(d);
  return d;
};
const serve = async (rules: FakeRule[] = []) => {
  const f = await startFakeOllama({ rules });
  servers.push(f);
  return f;
};
/** No model configured in the environment the CLI sees, unless a test sets one. */
const NO_ENV = { EQUIMARK_MODEL: undefined, EQUIMARK_MODEL2: undefined, OLLAMA_HOST: undefined };
const csv = (path: string) => parse(readFileSync(path), { columns: true }) as Record<string, string>[];

const set = hasData ? loadEvalDir(DATA)! : null;
const EXAM = join(DATA, 'exam.json');
const RESPONSES = join(DATA, 'responses.csv');
const GOLD = join(DATA, 'gold.csv');
/** What the embedded extractor makes of each dev-set response (key "student/question"). */
const embedded = new Map<string, ReturnType<typeof extractEmbedded>>();
const texts = new Map<string, string>();
if (set) {
  for (const r of set.responses) {
    embedded.set(`${r.studentId}/${r.questionId}`, extractEmbedded(r.text, set.exam.questions.get(r.questionId)!.question));
    texts.set(`${r.studentId}/${r.questionId}`, r.text);
  }
}
/** Responses the embedded extractor does not read with confidence (the model's share in hybrid). */
const unsure = [...embedded].filter(([, x]) => x.status !== 'read' && x.status !== 'blank').map(([k]) => k);
/** A fake model that answers each response with its gold list (longest texts first: a short text may be inside a longer one). */
function goldRules(): FakeRule[] {
  if (!set) return [];
  return set.gold
    .map((g) => ({ text: texts.get(`${g.studentId}/${g.questionId}`) ?? '', reply: g.sources }))
    .filter((r) => r.text.trim() !== '')
    .sort((a, b) => b.text.length - a.text.length)
    .map((r) => ({ match: r.text, reply: r.reply, tokensIn: 100, tokensOut: 10 }));
}

test(
  'grade --technique embedded contacts no model; unsure responses stay partial/abstained/needs-review and earn marks only from what was read',
  { skip: !hasData && 'no ../shared/data' },
  async () => {
    const f = await serve(goldRules());
    const out = tmp();
    const r = await runCliAsync(
      ['grade', '--exam', EXAM, '--responses', RESPONSES, '--out', out, '--technique', 'embedded', '--model', M1, '--ollama-url', f.url],
      NO_ENV,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(f.requests.length, 0, 'no request reached the server');
    assert.match(r.stdout, /with technique embedded/);
    assert.ok(unsure.length > 0, 'the development set has responses the embedded extractor is unsure of');
    const eqs = new Map(csv(join(out, 'equations.csv')).map((e) => [`${e.student_id}/${e.question_id}`, e]));
    for (const [key, x] of embedded) {
      const row = eqs.get(key)!;
      assert.equal(row.status, x.status, key);
      assert.equal(row.source, 'embedded', key);
      assert.deepEqual(
        JSON.parse(row.equations),
        x.equations.map((e) => e.source),
        key,
      );
    }
    assert.ok(unsure.every((k) => ['partial', 'abstained', 'needs-review'].includes(eqs.get(k)!.status)));
    // Marks come only from what was read: every piece of evidence points at a stored equation.
    const db = new Database(join(out, 'workspace.sqlite'), { readonly: true });
    try {
      let earnedFromPartial = 0;
      for (const key of unsure) {
        const [s, q] = key.split('/');
        const id = (db.prepare('SELECT id FROM responses WHERE student_id = ? AND question_id = ?').get(s, q) as { id: number }).id;
        const stored = JSON.parse((db.prepare('SELECT equations FROM extractions WHERE response_id = ?').get(id) as { equations: string }).equations) as {
          source: string;
        }[];
        const marks = db.prepare("SELECT evidence, awarded, outcome FROM marks WHERE response_id = ? AND outcome = 'awarded'").all(id) as {
          evidence: string;
          awarded: number;
        }[];
        for (const m of marks) {
          const [ev] = JSON.parse(m.evidence) as { studentIndex: number; student: string }[];
          assert.equal(stored[ev.studentIndex]?.source, ev.student, `${key}: evidence from a stored equation`);
          earnedFromPartial += m.awarded;
        }
        if (stored.length === 0) assert.equal(marks.length, 0, `${key}: nothing read, nothing earned`);
      }
      assert.ok(earnedFromPartial > 0, 'what a partial reading did read earns its marks');
      assert.equal((db.prepare('SELECT count(*) AS n FROM model_records').get() as { n: number }).n, 0);
    } finally {
      db.close();
    }
    const marks = csv(join(out, 'marks.csv'));
    for (const key of unsure) assert.equal(marks.find((m) => `${m.student_id}/${m.question_id}` === key)!.status, 'needs-review', key);
  },
);

test(
  'grade --technique hybrid: the model reads only what the embedded extractor could not; records, accounting; a re-run costs nothing',
  { skip: !hasData && 'no ../shared/data' },
  async () => {
    const f = await serve(goldRules());
    const out = tmp();
    const args = [
      'grade',
      '--exam',
      EXAM,
      '--responses',
      RESPONSES,
      '--out',
      out,
      '--technique',
      'hybrid',
      '--model',
      M1,
      '--ollama-url',
      f.url,
      '--gpu',
      'RTX 4090',
    ];
    const r = await runCliAsync(args, NO_ENV);
    assert.equal(r.status, 0, r.stderr);
    const chats = f.count('chat');
    assert.equal(chats, unsure.length, 'one model call per response the embedded extractor was unsure of');
    assert.equal(
      f.requests.filter((q) => q.endpoint === 'chat').every((q) => q.model === M1),
      true,
    );
    const eqs = new Map(csv(join(out, 'equations.csv')).map((e) => [`${e.student_id}/${e.question_id}`, e]));
    for (const [key, x] of embedded) {
      const row = eqs.get(key)!;
      if (unsure.includes(key)) assert.equal(row.source, `model:${M1}`, key);
      else assert.equal(row.source, 'embedded', key);
      assert.ok(!row.flags.includes('waiting-for-model'), key);
      void x;
    }
    // Accounting in the summary: tokens 100 in / 10 out per call, FLOPs = 2 x 7.6e9 x tokens, energy for the GPU.
    assert.match(
      r.stdout,
      new RegExp(
        `model \\(hybrid, ${M1.replace(/[.:]/g, '\\$&')}@${f.digest(M1).slice(0, 12)}\\): ${chats} calls, tokens ${100 * chats} in / ${10 * chats} out`,
      ),
    );
    assert.match(r.stdout, new RegExp(`estimated compute: ${(2 * 7_615_616_512 * 110 * chats).toExponential(2).replace('+', '\\+')} FLOPs`));
    assert.match(r.stdout, /estimated energy: [\d.]+ Wh \(\d+ J\) on RTX 4090 at 450 W board power/);
    // Records: model name and digest, prompts, replies, tokens and time, per response read by the model.
    const db = new Database(join(out, 'workspace.sqlite'), { readonly: true });
    try {
      const recs = db
        .prepare(
          'SELECT r.student_id, r.question_id, m.record, m.extraction_id, x.id AS xid FROM model_records m JOIN responses r ON r.id = m.response_id JOIN extractions x ON x.response_id = r.id',
        )
        .all() as {
        student_id: string;
        question_id: string;
        record: string;
        extraction_id: number;
        xid: number;
      }[];
      const withCalls = recs.filter((x) => JSON.parse(x.record).calls.length > 0);
      assert.deepEqual(withCalls.map((x) => `${x.student_id}/${x.question_id}`).sort(), [...unsure].sort());
      for (const x of recs) assert.equal(x.extraction_id, x.xid, 'the record belongs to the stored extraction');
      const rec = JSON.parse(withCalls[0].record);
      assert.deepEqual(rec.models, [{ name: M1, digest: f.digest(M1) }]);
      assert.equal(rec.calls[0].digest, f.digest(M1));
      assert.ok(
        rec.calls[0].messages.some((m: { content: string }) => m.content.includes(texts.get(`${withCalls[0].student_id}/${withCalls[0].question_id}`)!)),
        'the prompt is kept',
      );
      assert.match(rec.calls[0].reply, /"equations"/);
      assert.equal(rec.calls[0].tokensIn, 100);
      assert.equal(rec.calls[0].tokensOut, 10);
      assert.ok(typeof rec.wallMs === 'number' && typeof rec.calls[0].wallMs === 'number');
    } finally {
      db.close();
    }
    f.resetCounts();
    const again = await runCliAsync(args, NO_ENV);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /extracted 0, marked 0/);
    assert.equal(f.count('chat'), 0, 'finished work is not redone');
  },
);

test(
  'Ollama unreachable: exit 3 listing the waiting responses, embedded readings kept and graded; a re-run reads only those',
  { skip: !hasData && 'no ../shared/data' },
  async () => {
    const f = await serve(goldRules());
    const port = f.port;
    await f.stop(); // connections refused
    const out = tmp();
    const ws = join(out, 'w.sqlite');
    const args = [
      'grade',
      '--exam',
      EXAM,
      '--responses',
      RESPONSES,
      '--out',
      out,
      '--workspace',
      ws,
      '--technique',
      'hybrid',
      '--model',
      M1,
      '--ollama-url',
      f.url,
    ];
    const r = await runCliAsync(args, NO_ENV);
    assert.equal(r.status, 3, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, new RegExp(`${unsure.length} responses wait for the model \\(cannot reach Ollama`));
    for (const key of unsure) assert.ok(r.stderr.includes(`  ${key}\n`), `${key} listed`);
    assert.match(r.stderr, /To finish them, start Ollama and run again: equimark grade .*--technique hybrid/);
    const eqs = new Map(csv(join(out, 'equations.csv')).map((e) => [`${e.student_id}/${e.question_id}`, e]));
    const marks = new Map(csv(join(out, 'marks.csv')).map((e) => [`${e.student_id}/${e.question_id}`, e]));
    for (const key of unsure) {
      const row = eqs.get(key)!;
      assert.ok(row.flags.split(';').includes('waiting-for-model'), key);
      assert.equal(row.source, 'embedded');
      assert.deepEqual(
        JSON.parse(row.equations),
        embedded.get(key)!.equations.map((e) => e.source),
        `${key}: the embedded reading is kept`,
      );
      assert.notEqual(marks.get(key)!.total, '', `${key}: graded meanwhile`);
    }
    const waitingTotal = unsure.reduce((s, k) => s + Number(marks.get(k)!.total), 0);

    // Ollama comes back: the same command reads only the waiting responses.
    await f.start(port);
    const again = await runCliAsync(args, NO_ENV);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(f.count('chat'), unsure.length, 'one model call per waiting response, none for the others');
    assert.match(again.stdout, new RegExp(`this run: extracted ${unsure.length}, marked ${unsure.length} `));
    const eqs2 = new Map(csv(join(out, 'equations.csv')).map((e) => [`${e.student_id}/${e.question_id}`, e]));
    for (const key of unsure) {
      assert.equal(eqs2.get(key)!.source, `model:${M1}`, key);
      assert.ok(!eqs2.get(key)!.flags.includes('waiting-for-model'));
    }
    const marks2 = csv(join(out, 'marks.csv'));
    assert.ok(unsure.reduce((s, k) => s + Number(marks2.find((m) => `${m.student_id}/${m.question_id}` === k)!.total), 0) >= waitingTotal);
    const db = new Database(ws, { readonly: true });
    try {
      const saves = db.prepare("SELECT entity_key, count(*) AS n FROM audit WHERE action = 'extraction.save' GROUP BY entity_key").all() as {
        entity_key: string;
        n: number;
      }[];
      for (const s of saves) {
        const key = s.entity_key.split('/').slice(1).join('/');
        assert.equal(s.n, unsure.includes(key) ? 2 : 1, `${s.entity_key} extracted ${s.n} times`);
      }
      assert.equal((db.prepare('SELECT count(*) AS n FROM model_records WHERE waiting = 1').get() as { n: number }).n, 0);
    } finally {
      db.close();
    }
  },
);

const DEMO = join(ROOT, 'resources/demo/exam.json');
// The demo responses with D03 q1 rewritten in words the embedded extractor can't read with
// confidence, so that something is left for the model.
const D03_TEXT = 'energy: u squared = 2 g H';
const DEMO_RESPONSES = (() => {
  const src = readFileSync(join(ROOT, 'resources/demo/responses.csv'), 'utf8');
  const out = src.replace(/^D03,q1,"[^"]*"/m, `D03,q1,${D03_TEXT}`);
  assert.notEqual(out, src, 'D03 q1 is in the demo responses');
  const file = join(tmp(), 'demo-responses.csv');
  writeFileSync(file, out);
  return file;
})();

test('default technique: embedded without a model (said on stderr); hybrid with EQUIMARK_MODEL and OLLAMA_HOST; embedded when Ollama is not reachable', async () => {
  let out = tmp();
  let r = await runCliAsync(['grade', '--exam', DEMO, '--responses', DEMO_RESPONSES, '--out', out], NO_ENV);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /no model configured: reading with the embedded extractor only/);
  assert.match(r.stdout, /with technique embedded/);

  // OLLAMA_HOST as Ollama reads it: host:port without a scheme.
  const f = await serve([{ match: D03_TEXT, reply: ['Eq(u**2, 2*g*H)'] }]);
  out = tmp();
  r = await runCliAsync(['grade', '--exam', DEMO, '--responses', DEMO_RESPONSES, '--out', out], {
    ...NO_ENV,
    EQUIMARK_MODEL: M1,
    OLLAMA_HOST: `127.0.0.1:${f.port}`,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`reading with hybrid: the embedded extractor first, ${M1} at http://127\\.0\\.0\\.1:${f.port} for the rest`));
  assert.doesNotMatch(r.stderr, /warning/, 'a local server gets no warning');
  assert.match(r.stdout, /with technique hybrid/);
  assert.ok(f.count('chat') >= 1, 'the model read what the embedded extractor could not');
  assert.match(readFileSync(join(out, 'equations.csv'), 'utf8'), new RegExp(`D03,q1,.*,model:${M1}`));

  // --ollama-url wins over OLLAMA_HOST; a server that does not answer: embedded, said plainly.
  const g = await serve();
  const port = g.port;
  await g.stop();
  out = tmp();
  r = await runCliAsync(['grade', '--exam', DEMO, '--responses', DEMO_RESPONSES, '--out', out, '--ollama-url', `http://127.0.0.1:${port}`], {
    ...NO_ENV,
    EQUIMARK_MODEL: M1,
    OLLAMA_HOST: `127.0.0.1:${f.port}`,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`Ollama not reachable at http://127\\.0\\.0\\.1:${port}: .*; reading with the embedded extractor only`));
  assert.match(r.stdout, /with technique embedded/);

  // A server not on this machine: the warning that student data would leave it.
  out = tmp();
  r = await runCliAsync(['grade', '--exam', DEMO, '--responses', DEMO_RESPONSES, '--out', out, '--ollama-url', 'http://ollama.example.invalid:11434'], {
    ...NO_ENV,
    ...OFFLINE_DNS,
    EQUIMARK_MODEL: M1,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /warning: Ollama at http:\/\/ollama\.example\.invalid:11434 is not on this machine: student responses will be sent over the network/);
  assert.match(r.stderr, /Ollama not reachable at http:\/\/ollama\.example\.invalid:11434/);
});

test('model options: a model technique without a model, consensus without a second model, an unknown GPU are argument errors', async () => {
  const out = tmp();
  const base = ['grade', '--exam', DEMO, '--responses', DEMO_RESPONSES, '--out', out];
  let r = await runCliAsync([...base, '--technique', 'hybrid'], NO_ENV);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /technique 'hybrid' needs a model: give --model NAME or set EQUIMARK_MODEL/);
  r = await runCliAsync([...base, '--technique', 'consensus', '--model', M1], NO_ENV);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /needs a second model: give --model2 NAME or set EQUIMARK_MODEL2/);
  r = await runCliAsync([...base, '--technique', 'embedded', '--gpu', 'abacus'], NO_ENV);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown GPU 'abacus'/);
  r = await runCliAsync([...base, '--technique', 'embedded,hybrid'], NO_ENV);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /grade: give one technique/);
});

test(
  'eval: coverage and precision overall and per tag; Table I for two techniques against the fake server',
  { skip: !hasData && 'no ../shared/data' },
  async () => {
    const f = await serve(goldRules());
    const r = await runCliAsync(
      ['eval', '--exam', EXAM, '--responses', RESPONSES, '--gold', GOLD, '--technique', 'embedded,hybrid', '--model', M1, '--ollama-url', f.url, '--json'],
      NO_ENV,
    );
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { techniques: EvalReport[]; tableOne: TableOneRow[] };
    assert.deepEqual(
      j.techniques.map((t) => t.technique),
      ['embedded', 'hybrid'],
    );
    const [emb, hyb] = j.techniques;
    // Coverage of the embedded extractor: non-blank responses it read with confidence.
    const nonBlank = [...embedded].filter(
      ([k, x]) => x.status !== 'blank' && !goldTags(set!.gold.find((g) => `${g.studentId}/${g.questionId}` === k)!).includes('blank'),
    );
    const read = nonBlank.filter(([, x]) => x.status === 'read').length;
    assert.equal(emb.coverage.nonBlank, nonBlank.length);
    assert.equal(emb.coverage.read, read);
    assert.ok(emb.coverage.precision > 0.9, `precision ${emb.coverage.precision}`);
    assert.ok(emb.coverageByTag.latex && emb.coverageByTag.multiline, 'per tag');
    const tagged = nonBlank.filter(([k]) => goldTags(set!.gold.find((g) => `${g.studentId}/${g.questionId}` === k)!).includes('multiline'));
    assert.equal(emb.coverageByTag.multiline.nonBlank, tagged.length);
    assert.equal(emb.coverageByTag.multiline.read, tagged.filter(([, x]) => x.status === 'read').length);
    // Existing fields stay.
    assert.equal(emb.accuracy.total, 85);
    assert.equal(emb.marksAgreement.total, 85);
    // Hybrid: the model (answering gold) reads the rest, so it covers more.
    assert.ok(hyb.coverage.read > emb.coverage.read, `hybrid read ${hyb.coverage.read} vs embedded ${emb.coverage.read}`);
    assert.ok(hyb.accuracy.correct >= emb.accuracy.correct);
    // Table I: per technique, correct answers, time and tokens.
    assert.equal(j.tableOne.length, 2);
    const [t1, t2] = j.tableOne;
    assert.equal(t1.technique, 'embedded');
    assert.equal(t1.tokens, 0);
    assert.equal(t1.calls, 0);
    assert.equal(t1.correct, emb.accuracy.correct);
    assert.equal(t2.technique, 'hybrid');
    assert.equal(t2.calls, unsure.length);
    assert.equal(t2.tokens, 110 * unsure.length);
    assert.equal(t2.correct, hyb.accuracy.correct);
    assert.equal(t2.scored, 85);
    assert.match(t2.models, new RegExp(`^${M1}@${f.digest(M1).slice(0, 12)}$`));
    assert.equal(f.count('chat'), unsure.length);

    // Text output: the per-tag lines and Table I.
    const t = await runCliAsync(['eval', '--exam', EXAM, '--responses', RESPONSES, '--gold', GOLD, '--technique', 'embedded'], NO_ENV);
    assert.equal(t.status, 0, t.stderr);
    assert.match(t.stdout, /coverage and precision by tag:\n {2}attachment +coverage +[\d.]+% \(\d+\/\d+\) +precision/);
    assert.match(t.stdout, new RegExp(`overall +coverage +[\\d.]+% \\(${read}/${nonBlank.length}\\)`));
    assert.match(t.stdout, /Table I \(per technique: correct answers, time, tokens\):\ntechnique +correct/);
    void M2;
  },
);

test('a run that falls back to the embedded extractor leaves waiting responses waiting; --technique embedded settles them', async () => {
  const g = await serve();
  const port = g.port;
  await g.stop();
  const out = tmp();
  const base = ['grade', '--exam', DEMO, '--responses', DEMO_RESPONSES, '--out', out];
  let r = await runCliAsync([...base, '--technique', 'hybrid', '--model', M1, '--ollama-url', `http://127.0.0.1:${port}`], NO_ENV);
  assert.equal(r.status, 3, r.stderr);
  // D03 is written as Eq(...) forms the extractor does not take as plain text; D02 and D06 leave
  // an unbracketed '/' beside a '-' to the reader (a reading choice); D02's q3 states its result in
  // words ("which is 36 km/h": recorded or not, a choice too; the '/h' glued to "km" is the rest of
  // the unit): the model is asked for all four.
  assert.match(r.stderr, /4 responses wait for the model .*\n {2}D02\/q1\n {2}D03\/q1\n {2}D06\/q1\n {2}D02\/q3\n/);
  assert.match(r.stdout, /; 4 waiting for the model/);
  // No model now: the default reads nothing again and says the response still waits.
  r = await runCliAsync(base, NO_ENV);
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, /no model configured/);
  assert.match(r.stdout, /this run: extracted 0, marked 0/);
  assert.match(r.stderr, /D03\/q1/);
  // Asking for the embedded extractor explicitly: it reads it again and it stops waiting.
  r = await runCliAsync([...base, '--technique', 'embedded'], NO_ENV);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /this run: extracted 4, marked 4 with technique embedded/);
  assert.doesNotMatch(readFileSync(join(out, 'equations.csv'), 'utf8'), /waiting-for-model/);
});

test('a model that is not installed: exit 1 with the installed models named, no stack trace', async () => {
  const f = await serve();
  const out = tmp();
  const r = await runCliAsync(
    ['grade', '--exam', DEMO, '--responses', DEMO_RESPONSES, '--out', out, '--technique', 'llm-modulo', '--model', 'missing:1b', '--ollama-url', f.url],
    NO_ENV,
  );
  assert.equal(r.status, 1);
  assert.match(
    r.stderr,
    /^equimark: model 'missing:1b' is not installed in Ollama at http:\/\/127\.0\.0\.1:\d+ \(installed: fake-llm:7b, fake-llm-b:8b\); pull it first\n$/m,
  );
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(f.count('chat'), 0);
});
