// Child process for test/shell/bundle.test.ts: loads the built dist/electron/main.cjs with the fake
// electron (node --require ./fake-electron.cjs), drives what the shell registered the way Electron
// would, and writes what happened as JSON to the file named by argv[3]. It records, the test judges.
// argv: <repo root> <result file>
'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { pathToFileURL } = require('node:url');

const [repo, resultFile] = process.argv.slice(2);
const { rec, FakeWebContents } = globalThis.__fakeElectron ?? {};
if (!rec) throw new Error('run with --require fake-electron.cjs');

const tick = () => new Promise((r) => setImmediate(r));

function navEvent(url) {
  return {
    url,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

/** Emit a webContents event as Electron does (event first, then the url for navigation events). */
function emitPrevented(contents, name, url) {
  const e = navEvent(url);
  contents.emit(name, e, url);
  return e.defaultPrevented;
}

async function webContentsChecks(contents) {
  const navigate = {};
  const redirect = {};
  for (const url of [
    'https://example.com/',
    'http://127.0.0.1:8080/',
    'file:///etc/passwd',
    'app://evil/index.html',
    'app://equimark.evil/index.html',
    'app://equimark/x',
    'app://equimark/index.html',
  ]) {
    navigate[url] = emitPrevented(contents, 'will-navigate', url);
    redirect[url] = emitPrevented(contents, 'will-redirect', url);
  }
  const webview = navEvent('about:blank');
  contents.emit('will-attach-webview', webview, { preload: '/tmp/evil.js', nodeIntegration: true }, { src: 'https://example.com' });
  const windowOpen = {};
  const openedBefore = rec.openExternal.length;
  for (const url of [
    'https://example.com/docs',
    'http://example.com/',
    'app://equimark/index.html',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://host/share',
  ]) {
    windowOpen[url] = contents.windowOpenHandler
      ? await contents.windowOpenHandler({ url, frameName: '', features: '', disposition: 'new-window', referrer: { url: '', policy: 'default' } })
      : null;
  }
  return {
    listeners: contents.eventNames().map(String),
    navigate,
    redirect,
    webviewPrevented: webview.defaultPrevented,
    hasWindowOpenHandler: typeof contents.windowOpenHandler === 'function',
    windowOpen,
    openExternal: rec.openExternal.slice(openedBefore),
  };
}

async function protocolChecks() {
  const handler = rec.protocolHandlers.app;
  if (!handler) return null;
  const out = {};
  const urls = [
    'app://equimark/index.html',
    'app://equimark/',
    'app://evil/index.html',
    'app://equimark.evil/index.html',
    'app://equimark/../../package.json',
    'app://equimark/%2e%2e%2f%2e%2e%2fpackage.json',
    'app://equimark/%2e%2e%2felectron%2fmain.cjs',
    'app://equimark/..%2f..%2fpackage.json',
    'app://equimark/assets%2f..%2f..%2f..%2fpackage.json',
    'app://equimark/..%5c..%5cpackage.json',
    'app://equimark/%E0%A4%A',
    'app://equimark/no-such-file.js',
  ];
  // The built page's own script, as the page asks for it.
  const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(readFileSync(join(repo, 'dist/renderer/index.html'), 'utf8'));
  if (script) urls.push(`app://equimark/${script[1]}`);
  for (const url of urls) {
    try {
      const res = await handler(new Request(url));
      const body = Buffer.from(await res.arrayBuffer());
      out[url] = {
        status: res.status,
        csp: res.headers.get('content-security-policy'),
        nosniff: res.headers.get('x-content-type-options'),
        contentType: res.headers.get('content-type'),
        body: body.toString('utf8', 0, 4000),
        bytes: body.length,
      };
    } catch (e) {
      out[url] = { threw: String(e && e.message ? e.message : e) };
    }
  }
  return out;
}

function beforeRequestChecks() {
  const fn = rec.onBeforeRequest;
  if (!fn) return null;
  const rendererIndex = pathToFileURL(join(repo, 'dist/renderer/index.html')).toString();
  const cases = [
    { url: 'https://example.com/x.js', webContentsId: 1 },
    { url: 'http://127.0.0.1:11434/api/tags', webContentsId: 1 },
    { url: 'ws://127.0.0.1:9/', webContentsId: 1 },
    { url: 'file:///etc/passwd', webContentsId: 1 },
    { url: 'file:///etc/passwd' },
    { url: rendererIndex, webContentsId: 1 },
    { url: 'app://evil/index.html', webContentsId: 1 },
    { url: 'app://equimark/index.html', webContentsId: 1 },
    { url: 'app://equimark/assets/x.js', webContentsId: 1 },
    // The protocol handler's own net.fetch of the built file (main process: no webContents).
    { url: rendererIndex },
  ];
  const out = [];
  for (const c of cases) {
    let answer = 'no answer';
    fn({ id: 1, method: 'GET', resourceType: 'other', referrer: '', timestamp: Date.now(), uploadData: [], ...c }, (r) => (answer = r));
    out.push({ ...c, answer });
  }
  return out;
}

async function permissionChecks() {
  const out = { request: {}, check: {} };
  for (const perm of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'pointerLock']) {
    if (rec.permissionRequestHandler) {
      out.request[perm] = await new Promise((r) => {
        rec.permissionRequestHandler({}, perm, r, { requestingUrl: 'app://equimark/index.html' });
        setTimeout(() => r('no answer'), 500);
      });
    }
    if (rec.permissionCheckHandler) out.check[perm] = rec.permissionCheckHandler({}, perm, 'app://equimark', { requestingUrl: 'app://equimark/index.html' });
  }
  return out;
}

async function ipcChecks() {
  const fn = rec.ipcHandlers['equimark:api'];
  if (!fn) return null;
  const top = { url: 'app://equimark/index.html', parent: null, top: null };
  const ev = (frame) => ({ senderFrame: frame, sender: {}, processId: 1, frameId: 1 });
  const call = async (frame, method, payload) => {
    try {
      return await fn(ev(frame), method, payload);
    } catch (e) {
      return { threw: String(e && e.message ? e.message : e) };
    }
  };
  return {
    evilOrigin: await call({ url: 'https://evil.example/', parent: null }, 'app.info', {}),
    evilLookalike: await call({ url: 'app://equimark.evil/index.html', parent: null }, 'app.info', {}),
    fileOrigin: await call({ url: pathToFileURL(join(repo, 'dist/renderer/index.html')).toString(), parent: null }, 'app.info', {}),
    subframe: await call({ url: 'app://equimark/index.html', parent: top }, 'app.info', {}),
    noFrame: await call(null, 'app.info', {}),
    unknownMethod: await call(top, 'fs.readFile', { path: '/etc/passwd' }),
    nonStringMethod: await call(
      top,
      {
        toString() {
          return 'app.info';
        },
      },
      {},
    ),
    malformed: await call(top, 'exam.get', { examId: 42 }),
    malformedNotObject: await call(top, 'exam.import', 'not an object'),
    appInfo: await call(top, 'app.info', {}),
    examList: await call(top, 'exam.list', {}),
    loadDemo: await call(top, 'exam.loadDemo', {}),
    examListAfter: await call(top, 'exam.list', {}),
    ...(await gradeDemo(call, top)),
  };
}

/** Grade the demo exam with the embedded extractor through the IPC handler: the bundle's engine (Z3, SQLite) at work. */
async function gradeDemo(call, top) {
  const examId = 'demo-physics';
  const start = await call(top, 'grade.start', { examId, technique: 'embedded', models: [] });
  let status = start;
  const t0 = Date.now();
  while (Date.now() - t0 < 45_000) {
    status = await call(top, 'grade.status', {});
    if (!status.ok || ['done', 'failed', 'idle'].includes(status.value.state)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const review = await call(top, 'review.list', { examId });
  // The answer groups, compared in the bundle's worker thread (dist/electron/groups-worker.cjs).
  const groups = await call(top, 'groups.list', { examId, questionId: 'q1' });
  const infoAfter = await call(top, 'app.info', {});
  return { gradeStart: start, gradeStatus: status, gradeSeconds: (Date.now() - t0) / 1000, review, groups, infoAfter };
}

async function main() {
  const mainPath = resolve(repo, 'dist/electron/main.cjs');
  require(mainPath);
  const registeredBeforeReady = { privilegedSchemes: rec.privilegedSchemes.slice() };
  // The shell does its work in app.whenReady().then(...): let that run.
  for (let i = 0; i < 200 && rec.windows.length === 0; i++) await tick();

  const win = rec.windows[0];
  const result = {
    registeredBeforeReady,
    privilegedSchemes: rec.privilegedSchemes,
    windowCount: rec.windows.length,
    window: win
      ? {
          options: win.options,
          loaded: win.loaded,
          preloadExists: !!win.options.webPreferences?.preload && existsSync(win.options.webPreferences.preload),
          onceEvents: win.eventNames().map(String),
        }
      : null,
    appEvents: require('electron').app.eventNames().map(String),
    ipcChannels: Object.keys(rec.ipcHandlers),
    protocolSchemes: Object.keys(rec.protocolHandlers),
  };
  // The window's own webContents (Electron emits web-contents-created for it) and one created later.
  result.windowContents = win ? await webContentsChecks(win.webContents) : null;
  const other = new FakeWebContents();
  require('electron').app.emit('web-contents-created', { preventDefault() {} }, other);
  result.otherContents = await webContentsChecks(other);
  result.protocol = await protocolChecks();
  result.netFetch = rec.netFetch.slice();
  result.beforeRequest = beforeRequestChecks();
  result.onBeforeRequestFilter = rec.onBeforeRequestFilter ?? null;
  result.permissions = await permissionChecks();
  result.ipc = await ipcChecks();

  // 'activate' with no window open makes a new one (macOS dock).
  const { BrowserWindow, app } = require('electron');
  BrowserWindow.all.length = 0;
  app.emit('activate');
  result.activateMadeWindow = rec.windows.length === 2;
  app.emit('window-all-closed');
  result.quitCalls = rec.quit;

  writeFileSync(resultFile, JSON.stringify(result, null, 1));
  app.emit('will-quit');
  await new Promise((r) => setTimeout(r, 200));
  process.exit(0);
}

main().catch((e) => {
  writeFileSync(resultFile, JSON.stringify({ error: String(e && e.stack ? e.stack : e) }));
  process.exit(1);
});
