// Preload (sandboxed): exposes exactly one function to the page, `window.equimark.call(method,
// payload)`, which forwards to the main process over one IPC channel. The main process validates
// every message against shared/api.ts before use; nothing else of Electron or Node is exposed.
import { contextBridge, ipcRenderer } from 'electron';

const CHANNEL = 'equimark:api';

contextBridge.exposeInMainWorld('equimark', {
  call: (method: string, payload: unknown): Promise<unknown> => {
    if (typeof method !== 'string' || method.length > 100) return Promise.resolve({ ok: false, error: { code: 'invalid-request', message: 'bad method' } });
    return ipcRenderer.invoke(CHANNEL, method, payload);
  },
});
