// The demo's dev server (web/serve.js) against malformed and hostile requests: it answers each with
// the right status, serves only the public folders, and stays up; every answer carries the security
// headers; wasm has its MIME type; text and wasm are gzip-compressed when the client accepts it; an
// unchanged file is revalidated by its ETag.
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { securityHeaders, serve } from '../../web/serve.js';
import { ROOT } from './paths.js';

let server, origin;
beforeAll(async () => {
  const started = await serve(0);
  server = started.server;
  origin = new URL(started.url).origin;
});
afterAll(() => server?.close());

/** One raw request (the path is sent as written, not normalized by a URL parser). */
function get(path, { method = 'GET', headers = {} } = {}) {
  return new Promise((ok, fail) => {
    const req = request(`${origin}/`, { method, headers, path }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('malformed and hostile URLs get 400 or 404, and the server stays up', async () => {
  const cases = [
    ['/web/%E0%A4%A', 400], ['/web/%', 400], ['/web/%00index.html', 400],
    ['/../package.json', 404], ['/web/../package.json', 404], ['/web/%2e%2e/package.json', 404],
    ['/web/..%2f..%2fpackage.json', 404], ['/dist/../.git/config', 404], ['/.git/config', 404],
    ['/models/../tools/dev.sh', 404], ['/node_modules/.package-lock.json', 404], ['/web/nonexistent.js', 404],
    ['/web/.hidden', 404], ['//etc/passwd', 404], ['/models/train.py', 404],
    ['/models/runs/bench-marian-en-de/compact.pt', 404],
  ];
  for (const [path, status] of cases) expect((await get(path)).status, path).toBe(status);
  expect((await get('/web/')).status).toBe(200);
  expect((await get('/models/tatoeba-en-de/README.md')).status).toBe(200);
});

test('only GET and HEAD', async () => {
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const r = await get('/web/', { method });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD');
  }
  const head = await get('/web/app.js', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
});

test('security headers on every answer, with a CSP that allows the import map by hash and no eval', async () => {
  for (const path of ['/web/', '/web/app.js', '/nope', '/web/%E0%A4%A']) {
    const { headers } = await get(path);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    // Cross-origin isolation, which the pthreads engine needs (docs/deploy.md).
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
    const csp = headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("'unsafe-eval'");
  }
});

test('isolated: false leaves out COOP and COEP (a static host without them), and nothing else', async () => {
  const isolated = securityHeaders();
  const plain = securityHeaders(undefined, { isolated: false });
  expect(plain['cross-origin-opener-policy']).toBeUndefined();
  expect(plain['cross-origin-embedder-policy']).toBeUndefined();
  const { 'cross-origin-opener-policy': coop, 'cross-origin-embedder-policy': coep, ...rest } = isolated;
  expect([coop, coep]).toEqual(['same-origin', 'require-corp']);
  expect(plain).toEqual(rest);
});

test('wasm MIME type, and gzip for clients that accept it', async () => {
  const plain = await get('/dist/crossattn.wasm');
  expect(plain.headers['content-type']).toBe('application/wasm');
  expect(plain.headers['content-encoding']).toBeUndefined();
  const zipped = await get('/dist/crossattn.wasm', { headers: { 'accept-encoding': 'gzip, deflate' } });
  expect(zipped.headers['content-encoding']).toBe('gzip');
  expect(zipped.body.length).toBeLessThan(plain.body.length);
  expect(gunzipSync(zipped.body).equals(readFileSync(`${ROOT}dist/crossattn.wasm`))).toBe(true);
  const js = await get('/web/app.js', { headers: { 'accept-encoding': 'gzip' } });
  expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(gunzipSync(js.body).toString()).toBe(readFileSync(`${ROOT}web/app.js`, 'utf8'));
});

test('an unchanged file is revalidated by its ETag: a 304 without a body; another encoding or a stale tag gets the file', async () => {
  const first = await get('/dist/crossattn.wasm', { headers: { 'accept-encoding': 'gzip' } });
  expect(first.status).toBe(200);
  const { etag } = first.headers;
  expect(etag).toMatch(/^W\/".+"$/);
  const again = await get('/dist/crossattn.wasm', { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect(again.headers.etag).toBe(etag);
  expect(again.headers['content-security-policy']).toBeDefined();
  // The identity encoding is another representation, with its own tag; a tag of another version is not this one.
  const plain = await get('/dist/crossattn.wasm', { headers: { 'if-none-match': etag } });
  expect(plain.status).toBe(200);
  expect(plain.body.equals(readFileSync(`${ROOT}/dist/crossattn.wasm`))).toBe(true);
  const stale = await get('/dist/crossattn.wasm', { headers: { 'accept-encoding': 'gzip', 'if-none-match': 'W/"0-0-gz"' } });
  expect(stale.status).toBe(200);
  expect(gunzipSync(stale.body).equals(readFileSync(`${ROOT}/dist/crossattn.wasm`))).toBe(true);
});

test('a port in use is one line that names a free way out (PORT=), exit 1; HF_ENDPOINT joins connect-src and the page URL', async () => {
  const { spawnSync } = await import('node:child_process');
  const port = new URL(origin).port;
  const busy = spawnSync('node', [`${ROOT}web/serve.js`, '--port', port], { encoding: 'utf8', timeout: 10_000 });
  expect(busy.status).toBe(1);
  expect(busy.stderr.trim().split('\n')).toEqual([`crossattn demo: port ${port} is in use; serve on another with PORT=${Number(port) + 1} (or --port ${Number(port) + 1})`]);
  const hub = 'http://127.0.0.1:9999';
  const withHub = await serve(0, { hub });
  try {
    expect(withHub.url).toMatch(/\/web\/\?hub=http%3A%2F%2F127\.0\.0\.1%3A9999$/);
    const response = await fetch(withHub.url);
    expect(response.headers.get('content-security-policy')).toMatch(/connect-src 'self' https: http:\/\/127\.0\.0\.1:9999;/);
  } finally {
    withHub.server.close();
  }
});
