// A recording stand-in for the 'electron' module, for loading the real shell bundles
// (dist/electron/main.cjs, preload.cjs) in plain Node: `node --require ./fake-electron.cjs ...`.
// It answers require('electron') with objects that record what the shell registers (window
// options, protocol and IPC handlers, session callbacks, webContents listeners), so a scenario
// script can call those handlers the way Electron would and report what they did.
// Environment: EQUIMARK_FAKE_USERDATA, the folder app.getPath('userData') returns.
'use strict';
const Module = require('node:module');
const { EventEmitter } = require('node:events');
const { readFile } = require('node:fs/promises');
const { extname } = require('node:path');
const { fileURLToPath } = require('node:url');

const REQUEST = 'electron';
const ID = '\0fake-electron';

const rec = {
  privilegedSchemes: [],
  protocolHandlers: {},
  windows: [],
  ipcHandlers: {},
  onBeforeRequest: null,
  permissionRequestHandler: null,
  permissionCheckHandler: null,
  openExternal: [],
  netFetch: [],
  quit: 0,
  exposed: {},
  invoked: [],
};

class FakeWebContents extends EventEmitter {
  constructor() {
    super();
    this.windowOpenHandler = null;
  }
  setWindowOpenHandler(fn) {
    this.windowOpenHandler = fn;
  }
}

const app = new EventEmitter();
app.isPackaged = false;
app.whenReady = () => Promise.resolve();
app.isReady = () => true;
app.getPath = (name) => {
  if (name !== 'userData') throw new Error(`fake electron: getPath(${name}) not faked`);
  const dir = process.env.EQUIMARK_FAKE_USERDATA;
  if (!dir) throw new Error('fake electron: EQUIMARK_FAKE_USERDATA is not set');
  return dir;
};
app.getVersion = () => '9.9.9-fake';
app.getName = () => 'Equimark';
app.quit = () => {
  rec.quit++;
};

class BrowserWindow extends EventEmitter {
  static all = [];
  static getAllWindows() {
    return BrowserWindow.all.slice();
  }
  constructor(options) {
    super();
    this.options = JSON.parse(JSON.stringify(options ?? {}));
    this.loaded = [];
    this.shown = false;
    this.webContents = new FakeWebContents();
    BrowserWindow.all.push(this);
    rec.windows.push(this);
    // Electron emits this for every webContents it creates, the window's own included.
    app.emit('web-contents-created', { preventDefault() {} }, this.webContents);
  }
  loadURL(url) {
    this.loaded.push(String(url));
    return Promise.resolve();
  }
  loadFile(file) {
    this.loaded.push(`loadFile:${file}`);
    return Promise.resolve();
  }
  show() {
    this.shown = true;
  }
}

const protocol = {
  registerSchemesAsPrivileged(list) {
    rec.privilegedSchemes.push(...JSON.parse(JSON.stringify(list)));
  },
  handle(scheme, fn) {
    rec.protocolHandlers[scheme] = fn;
  },
  registerFileProtocol() {
    throw new Error('fake electron: deprecated protocol API used');
  },
};

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
const net = {
  // Electron's net.fetch goes through Chromium; here: file:// from disk, nothing else.
  async fetch(input) {
    const url = typeof input === 'string' ? input : input.url;
    rec.netFetch.push(url);
    if (!url.startsWith('file:')) throw new Error(`fake electron: net.fetch(${url}) refused: only file:// is faked`);
    const body = await readFile(fileURLToPath(url));
    return new Response(body, { status: 200, headers: { 'content-type': TYPES[extname(url)] ?? 'application/octet-stream' } });
  },
};

const session = {
  defaultSession: {
    webRequest: {
      onBeforeRequest(filterOrFn, maybeFn) {
        rec.onBeforeRequest = typeof filterOrFn === 'function' ? filterOrFn : maybeFn;
        rec.onBeforeRequestFilter = typeof filterOrFn === 'function' ? null : filterOrFn;
      },
    },
    setPermissionRequestHandler(fn) {
      rec.permissionRequestHandler = fn;
    },
    setPermissionCheckHandler(fn) {
      rec.permissionCheckHandler = fn;
    },
  },
};

const ipcMain = {
  handle(channel, fn) {
    rec.ipcHandlers[channel] = fn;
  },
  on(channel) {
    rec.ipcHandlers[`on:${channel}`] = true;
  },
};

const shell = {
  openExternal(url) {
    rec.openExternal.push(String(url));
    return Promise.resolve();
  },
};

// Preload side.
const contextBridge = {
  exposeInMainWorld(key, api) {
    rec.exposed[key] = api;
  },
};
const ipcRenderer = {
  invoke(channel, ...args) {
    rec.invoked.push({ channel, args: JSON.parse(JSON.stringify(args)) });
    return Promise.resolve({ ok: true, value: 'from-fake-main' });
  },
  send() {
    throw new Error('fake electron: ipcRenderer.send is not expected');
  },
  on() {
    throw new Error('fake electron: ipcRenderer.on is not expected');
  },
};

const fake = { app, BrowserWindow, protocol, net, session, ipcMain, shell, contextBridge, ipcRenderer };
globalThis.__fakeElectron = { rec, fake, FakeWebContents };

const origResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === REQUEST) return ID;
  return origResolve.call(this, request, ...rest);
};
const origLoad = Module._load;
Module._load = function (request, ...rest) {
  if (request === REQUEST || request === ID) return fake;
  return origLoad.call(this, request, ...rest);
};
