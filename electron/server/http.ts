// Browser mode: the built renderer and the same API as the Electron shell, over HTTP on
// 127.0.0.1 only. Every API call must carry the random per-launch token (header
// `x-equimark-token`); the Host header must name this server (no DNS rebinding); a cross-origin
// Origin is refused; every response carries a strict Content-Security-Policy.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { dispatch, type ApiHandlers } from '../../shared/api.ts';

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // KaTeX writes sizes as style attributes in its HTML.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

const MAX_BODY = 60 * 1024 * 1024;

export type BrowserServer = { url: string; port: number; token: string; server: Server; close(): Promise<void> };

export type ServeOptions = { handlers: ApiHandlers; rendererDir: string; port?: number; token?: string };

function securityHeaders(res: ServerResponse) {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
}

function send(res: ServerResponse, status: number, body: string | Buffer, type = 'text/plain; charset=utf-8') {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        fail(new Error('request too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function serveBrowserMode(opts: ServeOptions): Promise<BrowserServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const root = resolve(opts.rendererDir);
  let port = 0;

  const server = createServer(async (req, res) => {
    securityHeaders(res);
    try {
      const host = req.headers.host ?? '';
      if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 421, 'wrong host');
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      if (url.pathname.startsWith('/api/')) {
        if (req.method !== 'POST') return send(res, 405, 'POST only');
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) return send(res, 403, 'cross-origin request refused');
        if (!sameToken(req.headers['x-equimark-token'] as string | undefined, token)) return send(res, 401, 'missing or wrong token: open the URL printed when Equimark started');
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, 'application/json only');
        let payload: unknown;
        try {
          payload = JSON.parse(await readBody(req));
        } catch (e) {
          return send(res, 400, JSON.stringify({ ok: false, error: { code: 'invalid-request', message: `bad request body: ${(e as Error).message}` } }), 'application/json');
        }
        const result = await dispatch(opts.handlers, decodeURIComponent(url.pathname.slice(5)), payload);
        return send(res, 200, JSON.stringify(result), 'application/json; charset=utf-8');
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'GET only');
      // Static renderer files; anything unknown falls back to index.html (single-page app).
      let rel = decodeURIComponent(url.pathname);
      if (rel === '/' || !extname(rel)) rel = '/index.html';
      const file = resolve(join(root, rel));
      if (!file.startsWith(root + sep)) return send(res, 404, 'not found');
      try {
        const st = await stat(file);
        if (!st.isFile()) return send(res, 404, 'not found');
      } catch {
        if (rel === '/index.html') return send(res, 500, `renderer not built: ${root} has no index.html (run the build first)`);
        return send(res, 404, 'not found');
      }
      return send(res, 200, await readFile(file), TYPES[extname(file)] ?? 'application/octet-stream');
    } catch (e) {
      if (!res.headersSent) send(res, 500, `internal error: ${(e as Error).message}`);
    }
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    server,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
