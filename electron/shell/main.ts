// Electron main process. The renderer runs sandboxed with context isolation and no Node; it
// loads only our own files through the app:// protocol (with a strict CSP header), can't navigate
// or open windows, and talks to the main process through one IPC channel whose messages are
// validated against the zod schemas of shared/api.ts (dispatch) before anything is done.
import { app, BrowserWindow, ipcMain, net, protocol, session, shell } from 'electron';
import { existsSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dispatch } from '../../shared/api.ts';
import { AppService } from '../app/service.ts';
import { CSP } from '../server/http.ts';

const SCHEME = 'app';
const ORIGIN = `${SCHEME}://equimark`;
const CHANNEL = 'equimark:api';

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false } }]);

// Packaged: resources beside the app (process.resourcesPath); in the repository: ./resources.
const resourcesDir = app.isPackaged ? process.resourcesPath : resolve(__dirname, '../../resources');
const rendererDir = app.isPackaged ? join(__dirname, '../renderer') : resolve(__dirname, '../renderer');

let service: AppService | null = null;

/** True for a path inside the built renderer (after resolving `..`). */
function inRenderer(file: string): boolean {
  return file.startsWith(resolve(rendererDir) + sep);
}

/**
 * The protocol handler's own read of a built file: net.fetch(file://...) from the main process (no
 * webContents). Electron documents that net.fetch triggers webRequest handlers, so without this
 * the cancel-everything rule below would block the app's own pages wherever that holds for file:.
 */
function isOwnFileFetch(details: { url: string; webContentsId?: number }): boolean {
  if (details.webContentsId !== undefined || !details.url.startsWith('file:')) return false;
  try {
    return inRenderer(resolve(fileURLToPath(details.url)));
  } catch {
    return false;
  }
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    title: 'Equimark',
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${ORIGIN}/index.html`);
  return win;
}

app.on('web-contents-created', (_e, contents) => {
  // No navigation away from our own pages, no new windows, no webviews.
  contents.on('will-navigate', (e, url) => {
    if (!url.startsWith(`${ORIGIN}/`)) e.preventDefault();
  });
  contents.on('will-redirect', (e, url) => {
    if (!url.startsWith(`${ORIGIN}/`)) e.preventDefault();
  });
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Documentation links open in the system browser, never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
});

void app.whenReady().then(() => {
  const workspacePath = join(app.getPath('userData'), 'workspace.sqlite');
  service = new AppService({ workspacePath, mode: 'electron', resourcesDir, version: app.getVersion() });
  const handlers = service.handlers();

  // Our files only, with the CSP as a header; nothing outside rendererDir.
  protocol.handle(SCHEME, async (req) => {
    const url = new URL(req.url);
    if (url.host !== 'equimark') return new Response('not found', { status: 404 });
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return new Response('bad request: malformed %-escape in the path', { status: 400 });
    }
    const rel = normalize(path).replace(/^[/\\]+/, '') || 'index.html';
    const file = resolve(rendererDir, rel);
    if (!inRenderer(file) || !existsSync(file)) return new Response('not found', { status: 404 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('Content-Security-Policy', CSP);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(res.body, { status: res.status, headers });
  });

  // No remote content: every request that isn't ours is cancelled; no permissions are granted.
  session.defaultSession.webRequest.onBeforeRequest((details, cb) => {
    const ok =
      details.url.startsWith(`${ORIGIN}/`) ||
      details.url.startsWith('devtools://') ||
      details.url.startsWith('data:') ||
      details.url.startsWith('blob:') ||
      isOwnFileFetch(details);
    cb({ cancel: !ok });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  ipcMain.handle(CHANNEL, async (event, method: unknown, payload: unknown) => {
    // Only our own top frame may call the API.
    const from = event.senderFrame?.url ?? '';
    if (!from.startsWith(`${ORIGIN}/`) || event.senderFrame?.parent)
      return { ok: false, error: { code: 'invalid-request', message: 'refused: not the app window' } };
    return dispatch(handlers, method, payload);
  });

  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', () => {
  void service?.close();
});
