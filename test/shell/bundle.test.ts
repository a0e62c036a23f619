// The Electron shell as it ships: builds dist/electron/{main,preload}.cjs with
// scripts/build-electron.mjs (and the renderer), then loads each bundle in a child Node process
// with a recording fake of the 'electron' module (fake-electron.cjs; Electron itself can't run
// here) and checks what the shell set up: a sandboxed, isolated window on app://equimark, a
// protocol handler that serves only the built renderer with our CSP, no navigation, windows,
// webviews, remote requests or permissions, and an IPC channel that answers only the app's top
// frame and validates every call. The real better-sqlite3 and Z3 load in the child, and the demo
// exam is graded through the IPC handler (its answer groups compared in the bundle's worker
// thread, groups-worker.cjs). The preload must expose one function and nothing else.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CSP } from '../../electron/server/http.ts';
import { ensureRendererBuilt, REPO } from '../e2e/support.ts';

const HERE = resolve(REPO, 'test/shell');
const MAIN = resolve(REPO, 'dist/electron/main.cjs');
const PRELOAD = resolve(REPO, 'dist/electron/preload.cjs');
const RENDERER = resolve(REPO, 'dist/renderer');
const CHILD_LIMIT_MS = 60_000;

// JSON the child reported, checked field by field below.
type Json = any;

/** Run one scenario script under the fake electron; its JSON result, or a failure that says why. */
function runScenario(script: string, userData: string): Promise<Json> {
  const out = join(userData, `${script}.json`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--require', join(HERE, 'fake-electron.cjs'), join(HERE, script), REPO, out], {
      cwd: REPO,
      env: { ...process.env, EQUIMARK_FAKE_USERDATA: userData, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_LIMIT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const result = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
      if (signal) return fail(new Error(`${script} killed (${signal}) after ${CHILD_LIMIT_MS / 1000} s at most\n${log.slice(-4000)}`));
      if (code !== 0 || !result || result.error) return fail(new Error(`${script} exited ${code}: ${result?.error ?? 'no result'}\n${log.slice(-4000)}`));
      done(result);
    });
  });
}

/** A CSP header as directive -> sources. */
function parseCsp(text: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) m.set(name.toLowerCase(), sources);
  }
  return m;
}

function assertRefused(r: Json, what: string): void {
  assert.equal(r?.ok, false, `${what}: expected a refusal, got ${JSON.stringify(r).slice(0, 300)}`);
  assert.equal(r.error?.code, 'invalid-request', `${what}: ${JSON.stringify(r)}`);
  assert.equal('value' in r, false, `${what}: a refusal carries no value`);
}

describe('Electron shell bundle (dist/electron) under a fake electron', { timeout: 600_000 }, () => {
  let tmp: string;
  let main: Json;
  let preload: Json;
  const timings: Record<string, number> = {};

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'equimark-shell-'));
    let t = Date.now();
    ensureRendererBuilt();
    timings.renderer = Date.now() - t;

    t = Date.now();
    const built = await new Promise<{ code: number | null; log: string }>((done) => {
      execFile(process.execPath, [resolve(REPO, 'scripts/build-electron.mjs')], { cwd: REPO, timeout: 120_000 }, (err, stdout, stderr) =>
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, log: `${stdout}${stderr}` }),
      );
    });
    assert.equal(built.code, 0, `scripts/build-electron.mjs failed:\n${built.log}`);
    for (const f of [MAIN, PRELOAD]) assert.ok(statSync(f).mtimeMs >= t - 2000, `${f} was not rewritten by this build`);
    timings.build = Date.now() - t;

    t = Date.now();
    const mainDir = join(tmp, 'main');
    const preloadDir = join(tmp, 'preload');
    mkdirSync(mainDir);
    mkdirSync(preloadDir);
    [main, preload] = await Promise.all([runScenario('main-scenario.cjs', mainDir), runScenario('preload-scenario.cjs', preloadDir)]);
    timings.children = Date.now() - t;
  });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    if (Object.keys(timings).length) console.log(`# shell bundle timings (ms): ${JSON.stringify(timings)}`);
  });

  it('the build wrote both bundles and the renderer exists', () => {
    for (const f of [MAIN, PRELOAD, join(RENDERER, 'index.html')]) assert.ok(existsSync(f), `${f} missing`);
    assert.deepEqual(JSON.parse(readFileSync(resolve(REPO, 'dist/electron/package.json'), 'utf8')), { type: 'commonjs' });
  });

  it('opens one sandboxed, context-isolated window without Node, on app://equimark/index.html', () => {
    assert.equal(main.windowCount, 1);
    const wp = main.window.options.webPreferences ?? {};
    assert.equal(wp.contextIsolation, true, 'contextIsolation');
    assert.equal(wp.sandbox, true, 'sandbox');
    assert.equal(wp.nodeIntegration, false, 'nodeIntegration');
    assert.notEqual(wp.nodeIntegrationInWorker, true, 'nodeIntegrationInWorker');
    assert.notEqual(wp.nodeIntegrationInSubFrames, true, 'nodeIntegrationInSubFrames');
    assert.equal(wp.webSecurity, true, 'webSecurity');
    assert.notEqual(wp.allowRunningInsecureContent, true, 'allowRunningInsecureContent');
    assert.equal(wp.webviewTag, false, 'webviewTag');
    assert.notEqual(wp.experimentalFeatures, true, 'experimentalFeatures');
    assert.equal(wp.enableBlinkFeatures, undefined, 'enableBlinkFeatures');
    assert.equal(resolve(wp.preload), PRELOAD, 'preload is the built preload.cjs beside main.cjs');
    assert.equal(main.window.preloadExists, true);
    assert.deepEqual(main.window.loaded, ['app://equimark/index.html']);
  });

  it('registers app:// as a privileged scheme before ready, without bypassing the CSP', () => {
    const reg = main.registeredBeforeReady.privilegedSchemes;
    assert.equal(reg.length, 1, JSON.stringify(reg));
    assert.equal(reg[0].scheme, 'app');
    assert.equal(reg[0].privileges.standard, true);
    assert.equal(reg[0].privileges.secure, true);
    assert.notEqual(reg[0].privileges.bypassCSP, true, 'bypassCSP would switch the CSP off');
    assert.deepEqual(main.protocolSchemes, ['app']);
  });

  it('serves the built index.html and scripts with our CSP (no unsafe-eval, default-src self or stricter)', () => {
    const p = main.protocol;
    const index = readFileSync(join(RENDERER, 'index.html'), 'utf8');
    for (const url of ['app://equimark/index.html', 'app://equimark/']) {
      const r = p[url];
      assert.equal(r.status, 200, `${url}: ${JSON.stringify(r)}`);
      assert.equal(r.body, index.slice(0, 4000), `${url} serves dist/renderer/index.html`);
      assert.equal(r.nosniff, 'nosniff');
      assert.equal(r.csp, CSP, `${url}: the CSP header is the one in electron/server/http.ts`);
    }
    const scripts = Object.keys(p).filter((u) => /\/assets\/.+\.js$/.test(u));
    assert.equal(scripts.length, 1, 'the page script was requested');
    const js = p[scripts[0]];
    assert.equal(js.status, 200);
    assert.equal(js.bytes, statSync(join(RENDERER, new URL(scripts[0]).pathname)).size);
    assert.equal(js.csp, CSP);

    const csp = parseCsp(p['app://equimark/index.html'].csp);
    assert.ok(!/unsafe-eval|wasm-unsafe-eval/.test(CSP), `CSP allows eval: ${CSP}`);
    const def = csp.get('default-src');
    assert.ok(def && def.length === 1 && ["'self'", "'none'"].includes(def[0]), `default-src must be 'self' or 'none': ${def}`);
    const scriptSrc = csp.get('script-src') ?? def;
    for (const s of scriptSrc) assert.ok(["'self'", "'none'"].includes(s), `script-src allows ${s}`);
    assert.deepEqual(csp.get('object-src'), ["'none'"]);
    for (const [name, sources] of csp) for (const s of sources) assert.ok(!/^(\*|https?:|http:\/\/|https:\/\/|ws:|wss:)/.test(s), `${name} allows remote ${s}`);
  });

  it('refuses other hosts, path traversal (plain and %-encoded) and malformed paths', () => {
    const p = main.protocol;
    for (const url of [
      'app://evil/index.html',
      'app://equimark.evil/index.html',
      'app://equimark/../../package.json',
      'app://equimark/%2e%2e%2f%2e%2e%2fpackage.json',
      'app://equimark/%2e%2e%2felectron%2fmain.cjs',
      'app://equimark/..%2f..%2fpackage.json',
      'app://equimark/assets%2f..%2f..%2f..%2fpackage.json',
      'app://equimark/..%5c..%5cpackage.json',
      'app://equimark/no-such-file.js',
    ]) {
      assert.equal(p[url]?.status, 404, `${url}: ${JSON.stringify(p[url]).slice(0, 300)}`);
      assert.ok(!p[url].body.includes('"name"') && !p[url].body.includes('require('), `${url} leaked a file`);
    }
    // A broken %-escape is a bad request, not an exception inside the protocol handler.
    assert.equal(p['app://equimark/%E0%A4%A']?.status, 400, JSON.stringify(p['app://equimark/%E0%A4%A']));
    // Only files of the renderer were ever read.
    for (const u of main.netFetch) assert.ok(u.startsWith(`file://${RENDERER}/`), `net.fetch outside the renderer: ${u}`);
  });

  for (const which of ['windowContents', 'otherContents'] as const) {
    it(`${which === 'windowContents' ? "the window's" : 'any other'} webContents can't navigate away, open windows or attach webviews`, () => {
      const c = main[which];
      for (const [url, prevented] of Object.entries(c.navigate)) assert.equal(prevented, !url.startsWith('app://equimark/'), `will-navigate ${url}`);
      for (const [url, prevented] of Object.entries(c.redirect)) assert.equal(prevented, !url.startsWith('app://equimark/'), `will-redirect ${url}`);
      assert.equal(c.navigate['https://example.com/'], true);
      assert.equal(c.navigate['app://equimark/x'], false);
      assert.equal(c.webviewPrevented, true, 'will-attach-webview is prevented');
      assert.equal(c.hasWindowOpenHandler, true);
      for (const [url, r] of Object.entries(c.windowOpen)) assert.deepEqual(r, { action: 'deny' }, `window.open(${url})`);
      // Only https links go to the system browser; never file:, javascript:, smb: or plain http.
      assert.deepEqual(c.openExternal, ['https://example.com/docs']);
    });
  }

  it('cancels every request that is not the app (remote, file:, other app:// hosts)', () => {
    assert.ok(
      main.onBeforeRequestFilter === null || main.onBeforeRequestFilter.urls?.includes('<all_urls>'),
      `onBeforeRequest sees every URL: ${JSON.stringify(main.onBeforeRequestFilter)}`,
    );
    const own = `file://${RENDERER}/index.html`;
    for (const c of main.beforeRequest) {
      const allowed = c.url.startsWith('app://equimark/') || (c.url === own && c.webContentsId === undefined);
      assert.deepEqual(c.answer, { cancel: !allowed }, `${c.url} (webContentsId ${c.webContentsId})`);
    }
    assert.ok(main.beforeRequest.some((c: Json) => c.url.startsWith('https:') && c.answer.cancel));
  });

  it('grants no permission', () => {
    const { request, check } = main.permissions;
    assert.ok(Object.keys(request).length > 0 && Object.keys(check).length > 0, 'permission handlers are set');
    for (const [perm, v] of Object.entries(request)) assert.equal(v, false, `request ${perm}`);
    for (const [perm, v] of Object.entries(check)) assert.equal(v, false, `check ${perm}`);
  });

  it("answers IPC only from the app's top frame, and validates every call", () => {
    const ipc = main.ipc;
    assert.deepEqual(main.ipcChannels, ['equimark:api'], 'one IPC channel, handle() only');
    assertRefused(ipc.evilOrigin, 'frame at https://evil.example');
    assertRefused(ipc.evilLookalike, 'frame at app://equimark.evil');
    assertRefused(ipc.fileOrigin, 'frame at file://');
    assertRefused(ipc.subframe, 'subframe of the app');
    assertRefused(ipc.noFrame, 'no sender frame');
    assertRefused(ipc.unknownMethod, 'unknown method');
    assertRefused(ipc.nonStringMethod, 'method that is not a string');
    assertRefused(ipc.malformed, 'exam.get with a number for examId');
    assert.ok(
      ipc.malformed.error.issues.some((i: Json) => i.path === 'examId'),
      JSON.stringify(ipc.malformed),
    );
    assertRefused(ipc.malformedNotObject, 'exam.import with a string payload');
  });

  it('runs the real engine through IPC: app.info, the demo exam loaded from resources/, graded with Z3 and SQLite', () => {
    const ipc = main.ipc;
    assert.equal(ipc.appInfo.ok, true, JSON.stringify(ipc.appInfo));
    assert.equal(ipc.appInfo.value.mode, 'electron');
    assert.equal(ipc.appInfo.value.version, '9.9.9-fake', 'version comes from app.getVersion()');
    assert.equal(ipc.appInfo.value.workspace, join(tmp, 'main', 'workspace.sqlite'), "the workspace lives in app.getPath('userData')");
    assert.equal(ipc.appInfo.value.features['embedded extractor'].available, true, 'the bundle has the embedded extractor');
    assert.deepEqual(ipc.examList, { ok: true, value: [] });
    assert.equal(ipc.loadDemo.ok, true, `demo exam from resources/: ${JSON.stringify(ipc.loadDemo)}`);
    assert.equal(ipc.examListAfter.value.length, 1);

    assert.equal(ipc.gradeStart.ok, true, JSON.stringify(ipc.gradeStart));
    const st = ipc.gradeStatus.value;
    assert.equal(st.state, 'done', JSON.stringify(ipc.gradeStatus));
    assert.equal(st.done, ipc.loadDemo.value.responses);
    assert.equal(st.failed, 0);
    const rows = ipc.review.value.rows;
    assert.equal(rows.length, ipc.loadDemo.value.responses);
    assert.ok(rows.some((r: Json) => r.total > 0) && rows.some((r: Json) => r.total === 0), `marks vary: ${rows.map((r: Json) => r.total)}`);
    // The answer groups, compared in the bundle's worker thread (groups-worker.cjs beside main.cjs).
    assert.equal(ipc.groups.ok, true, JSON.stringify(ipc.groups));
    const members = ipc.groups.value.flatMap((g: Json) => g.responseIds);
    assert.equal(new Set(members).size, members.length);
    assert.ok(members.length > 0);
    assert.deepEqual(ipc.infoAfter.value.features['answer groups worker'], {
      available: true,
      note: 'the answer groups are compared in a worker thread, beside the views',
    });
  });

  it('keeps the app lifecycle: activate reopens a window, closing all windows quits (not macOS)', () => {
    assert.ok(
      ['web-contents-created', 'window-all-closed', 'activate', 'will-quit'].every((e) => main.appEvents.includes(e)),
      main.appEvents.join(),
    );
    assert.equal(main.activateMadeWindow, true);
    assert.equal(main.quitCalls, process.platform === 'darwin' ? 0 : 1);
  });

  it('the preload exposes one global with one function, `call`, and needs only electron', () => {
    assert.deepEqual(preload.required, ['electron'], 'a sandboxed preload must be self-contained');
    assert.deepEqual(preload.exposedNames, ['equimark'], 'the name renderer/api.ts reads (window.equimark)');
    assert.equal(preload.shape.type, 'object');
    assert.deepEqual(Object.keys(preload.shape.keys), ['call'], `exposed: ${JSON.stringify(preload.shape)}`);
    assert.deepEqual(preload.shape.keys.call, { type: 'function', keys: {} });
  });

  it('the preload forwards call(method, payload) to ipcRenderer.invoke on equimark:api, and nothing else', () => {
    const [info, get, nonString, long] = preload.calls;
    assert.deepEqual(info.invoked, [{ channel: 'equimark:api', args: ['app.info', {}] }]);
    assert.deepEqual(info.answer, { ok: true, value: 'from-fake-main' }, 'the answer is the main process reply');
    assert.deepEqual(get.invoked, [{ channel: 'equimark:api', args: ['exam.get', { examId: 'e1', nested: { list: [1, 2] } }] }]);
    for (const c of [nonString, long]) {
      assert.deepEqual(c.invoked, [], `bad method ${c.method} is not sent`);
      assert.equal(c.answer.ok, false);
    }
  });
});
