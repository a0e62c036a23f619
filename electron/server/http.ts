// Browser mode: the built renderer and the same API as the Electron shell, over HTTP on
// 127.0.0.1 only. Every API call must carry the random per-launch token (header
// `x-equimark-token`); the Host header must name this server (no DNS rebinding); a cross-origin
// Origin is refused; every response carries a strict Content-Security-Policy. Bad requests get a
// 4xx with the reason, never a 500 or a reset connection: a malformed %-escape in the path is
// 400, a body over the limit 413 (said before it is read when Content-Length gives it away).
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

/** Default limit on an API request's body (the API's largest text, a CSV, is 50 MB). */
export const MAX_BODY = 60 * 1024 * 1024;

export type BrowserServer = { url: string; port: number; token: string; server: Server; close(): Promise<void> };

export type ServeOptions = {
  handlers: ApiHandlers;
  rendererDir: string;
  port?: number;
  token?: string;
  /** Body limit in bytes (default MAX_BODY). */ maxBodyBytes?: number;
};

class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

const mb = (n: number): string => `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 2 : 0)} MB`;

/** decodeURIComponent, or null for a malformed %-escape (a URIError). */
function decodePath(p: string): string | null {
  try {
    return decodeURIComponent(p);
  } catch {
    return null;
  }
}

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

/**
 * The request body as text, up to `max` bytes. Past the limit it rejects with BodyTooLarge and
 * stops keeping what arrives (the rest is drained, not stored), so the 413 can be answered
 * instead of resetting the connection.
 */
function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        fail(new BodyTooLarge(`request body over the ${mb(max)} limit`));
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (!over) ok(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', fail);
  });
}

/** 413 with the reason; the connection closes after it (the unread rest of the body is dropped). */
function tooLarge(res: ServerResponse, max: number) {
  res.setHeader('Connection', 'close');
  // Plain text, as the other refusals: the renderer shows a failed call's text as the message.
  send(res, 413, `request too large: the limit is ${mb(max)}; import a smaller file (for instance, split the CSV by question)`);
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
  const maxBody = opts.maxBodyBytes ?? MAX_BODY;
  let port = 0;

  const server = createServer(async (req, res) => {
    securityHeaders(res);
    try {
      const host = req.headers.host ?? '';
      if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 421, 'wrong host');
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      } catch {
        return send(res, 400, 'bad request: the URL is malformed');
      }
      const path = decodePath(url.pathname);
      if (path === null) return send(res, 400, 'bad request: malformed %-escape in the URL path (a % must be followed by two hex digits)');
      if (url.pathname.startsWith('/api/')) {
        if (req.method !== 'POST') return send(res, 405, 'POST only');
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`)
          return send(res, 403, 'cross-origin request refused');
        if (!sameToken(req.headers['x-equimark-token'] as string | undefined, token))
          return send(res, 401, 'missing or wrong token: open the URL printed when Equimark started');
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, 'application/json only');
        const declared = Number(req.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBody) return tooLarge(res, maxBody);
        let payload: unknown;
        try {
          payload = JSON.parse(await readBody(req, maxBody));
        } catch (e) {
          if (e instanceof BodyTooLarge) return tooLarge(res, maxBody);
          return send(
            res,
            400,
            JSON.stringify({ ok: false, error: { code: 'invalid-request', message: `bad request body: ${(e as Error).message}` } }),
            'application/json',
          );
        }
        const result = await dispatch(opts.handlers, path.slice(5), payload);
        return send(res, 200, JSON.stringify(result), 'application/json; charset=utf-8');
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'GET only');
      // Static renderer files; anything unknown falls back to index.html (single-page app).
      let rel = path;
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
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
