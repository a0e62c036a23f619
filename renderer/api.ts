// The renderer's API client: Electron's preload bridge when present, else the browser mode's
// HTTP endpoint with the per-launch token taken from the URL fragment (then removed from the
// address bar so it isn't shown or bookmarked).
import { makeClient, type ApiClient, type ApiResult, type Transport } from '../shared/api.ts';

declare global {
  interface Window {
    equimark?: { call(method: string, payload: unknown): Promise<ApiResult<unknown>> };
  }
}

function browserTransport(): Transport {
  const fromHash = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(window.location.hash)?.[1];
  if (fromHash) {
    sessionStorage.setItem('equimark-token', fromHash);
    history.replaceState(null, '', window.location.pathname);
  }
  const token = fromHash ?? sessionStorage.getItem('equimark-token') ?? '';
  return async (method, payload) => {
    const res = await fetch(`/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-equimark-token': token },
      body: JSON.stringify(payload ?? {}),
    });
    if (!res.ok) return { ok: false, error: { code: res.status === 401 ? 'invalid-request' : 'internal', message: await res.text() } };
    return (await res.json()) as ApiResult<unknown>;
  };
}

const bridge = window.equimark;
export const api: ApiClient = makeClient(bridge ? (m, p) => bridge.call(m, p) : browserTransport());
export const isElectron = Boolean(bridge);
