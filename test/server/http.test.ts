// Browser mode's HTTP server refuses bad requests with a 4xx and the reason: a malformed
// %-escape in the URL is 400 (not 500), a body over the limit is 413 with a message (not a reset
// connection). Real HTTP requests to 127.0.0.1 only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveBrowserMode, MAX_BODY, type BrowserServer } from '../../electron/server/http.ts';
import type { ApiHandlers } from '../../shared/api.ts';

let dir: string;
let small: BrowserServer;
let big: BrowserServer;
const LIMIT = 64 * 1024;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eqm-http-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  // No handler is called by these requests: an unknown method is answered by dispatch itself.
  const handlers = {} as ApiHandlers;
  small = await serveBrowserMode({ handlers, rendererDir: dir, maxBodyBytes: LIMIT });
  big = await serveBrowserMode({ handlers, rendererDir: dir });
});

after(async () => {
  await small.close();
  await big.close();
  rmSync(dir, { recursive: true, force: true });
});

type Reply = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

/**
 * One request. `body` is written in `chunks` pieces (chunked transfer unless `contentLength` is
 * given); the reply is resolved as soon as it arrives, even if the server stops reading the body.
 */
function http(
  srv: BrowserServer,
  method: string,
  path: string,
  opts: { body?: Buffer; chunks?: number; contentLength?: number; api?: boolean } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { host: `127.0.0.1:${srv.port}` };
    if (opts.api) Object.assign(headers, { 'content-type': 'application/json', 'x-equimark-token': srv.token });
    if (opts.contentLength !== undefined) headers['content-length'] = opts.contentLength;
    const req = request({ host: '127.0.0.1', port: srv.port, method, path, headers });
    let done = false;
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        done = true;
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    // The server may close after answering while we still write: only an error before any reply fails.
    req.on('error', (e) => {
      if (!done) setTimeout(() => !done && reject(e), 200);
    });
    const body = opts.body ?? Buffer.alloc(0);
    const n = Math.max(1, opts.chunks ?? 1);
    const size = Math.ceil(body.length / n) || 1;
    let i = 0;
    const pump = () => {
      while (i < body.length) {
        const part = body.subarray(i, i + size);
        i += size;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

test('a malformed %-escape in the URL gets 400 with the reason, for a page and for the API', async () => {
  for (const path of ['/%E0%A4%A', '/%zz', '/assets/%', '/x%']) {
    const r = await http(small, 'GET', path);
    assert.equal(r.status, 400, path);
    assert.match(r.body, /malformed %-escape/);
  }
  const r = await http(small, 'POST', '/api/exam.%zzlist', { api: true, body: Buffer.from('{}') });
  assert.equal(r.status, 400);
  assert.match(r.body, /malformed %-escape/);
  // Well-formed escapes still work: an encoded name reaches the static files or the API.
  assert.equal((await http(small, 'GET', '/%69ndex.html')).status, 200);
  const api = await http(small, 'POST', '/api/no%2Esuch', { api: true, body: Buffer.from('{}') });
  assert.equal(api.status, 200);
  assert.match(api.body, /unknown method \\"no\.such\\"/);
});

test('a body over the limit gets 413 with a message, not a reset connection', async () => {
  const over = Buffer.alloc(LIMIT + 1, 0x20);
  // Declared by Content-Length: refused before it is read.
  let r = await http(small, 'POST', '/api/exam.list', { api: true, body: over, contentLength: over.length });
  assert.equal(r.status, 413);
  assert.match(r.body, /request too large: the limit is 0\.06 MB/);
  // Chunked (no length given): refused when it passes the limit, in many pieces.
  r = await http(small, 'POST', '/api/exam.list', { api: true, body: Buffer.alloc(LIMIT * 4, 0x20), chunks: 64 });
  assert.equal(r.status, 413);
  assert.match(r.body, /request too large/);
  // Just under the limit is read (and dispatched: an unknown method is the API's own answer).
  const under = Buffer.from(`{"pad": "${' '.repeat(LIMIT - 20)}"}`);
  assert.ok(under.length <= LIMIT);
  r = await http(small, 'POST', '/api/no.such', { api: true, body: under, contentLength: under.length });
  assert.equal(r.status, 200);
  assert.match(r.body, /unknown method/);
  // The server still answers after the refusals.
  assert.equal((await http(small, 'GET', '/')).status, 200);
});

test('the default limit (60 MB) is said before a huge declared body is sent', async () => {
  const r = await http(big, 'POST', '/api/exam.list', { api: true, body: Buffer.alloc(1024, 0x20), contentLength: MAX_BODY + 1 });
  assert.equal(r.status, 413);
  assert.match(r.body, /the limit is 60 MB/);
});
