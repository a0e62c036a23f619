// Child process for test/shell/bundle.test.ts: loads the built dist/electron/preload.cjs with the
// fake electron (node --require ./fake-electron.cjs), records what it exposes to the page and what
// it sends over IPC, and writes that as JSON to the file named by argv[3].
// argv: <repo root> <result file>
'use strict';
const Module = require('node:module');
const { writeFileSync } = require('node:fs');
const { resolve } = require('node:path');

const [repo, resultFile] = process.argv.slice(2);
const { rec } = globalThis.__fakeElectron ?? {};
if (!rec) throw new Error('run with --require fake-electron.cjs');

/** Every own and inherited key down to Object.prototype, with each value's type (one level of nesting). */
function describe(value, depth = 0) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return typeof value;
  const keys = new Set();
  for (let o = value; o && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Reflect.ownKeys(o)) keys.add(typeof k === 'symbol' ? k.toString() : k);
  }
  if (typeof value === 'function') for (const k of ['length', 'name', 'prototype']) keys.delete(k);
  const out = { type: typeof value, keys: {} };
  for (const k of keys) out.keys[k] = depth < 2 ? describe(value[k], depth + 1) : typeof value[k];
  return out;
}

async function main() {
  // What the sandboxed preload asks require() for: in Electron's sandbox only a few modules exist.
  const required = [];
  const load = Module._load;
  Module._load = function (request, parent, ...rest) {
    if (parent && parent.filename && parent.filename.endsWith('preload.cjs')) required.push(request);
    return load.call(this, request, parent, ...rest);
  };
  require(resolve(repo, 'dist/electron/preload.cjs'));
  Module._load = load;

  const names = Object.keys(rec.exposed);
  const api = rec.exposed[names[0]];
  const result = { required, exposedNames: names, shape: describe(api), calls: [] };
  const call = api && api.call;
  if (typeof call === 'function') {
    const tries = [
      ['app.info', {}],
      ['exam.get', { examId: 'e1', nested: { list: [1, 2] } }],
      [42, {}],
      ['x'.repeat(101), {}],
    ];
    for (const [method, payload] of tries) {
      const before = rec.invoked.length;
      let answer;
      try {
        answer = await call(method, payload);
      } catch (e) {
        answer = { threw: String(e && e.message ? e.message : e) };
      }
      result.calls.push({ method: typeof method === 'string' ? method.slice(0, 20) : method, payload, answer, invoked: rec.invoked.slice(before) });
    }
  }
  writeFileSync(resultFile, JSON.stringify(result, null, 1));
}

main().then(
  () => process.exit(0),
  (e) => {
    writeFileSync(resultFile, JSON.stringify({ error: String(e && e.stack ? e.stack : e) }));
    process.exit(1);
  },
);
