#!/usr/bin/env node
// Serves the demo page and what it loads (the wasm, the model, d3) from one origin, nothing else.
//   node web/serve.js [--port N]      (PORT in the environment works too; 0 picks a free port)
//   HF_ENDPOINT=URL node web/serve.js (the page downloads models by name from that Hub mirror)
//
// Safe to point a browser at: only GET and HEAD; only files under the public folders below (no
// dot-files, no path outside them however the URL is encoded); a malformed URL is a 400, never a
// crash; every answer carries a strict Content-Security-Policy and the usual hardening headers;
// text, JavaScript, JSON and wasm are gzip-compressed for clients that accept it; an unchanged file
// is revalidated by its ETag (a 304, no body).
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
// Only these folders of the repository are served.
const ALLOWED = ['/web/', '/dist/', '/models/', '/node_modules/d3-scale-chromatic/', '/node_modules/d3-interpolate/',
                 '/node_modules/d3-color/', '/node_modules/eld/src/'];
// Of models/, only what the page reads: model files, their cards, the catalog and other JSON (not the
// training scripts or the training runs' checkpoints).
const MODEL_FILES = new Set(['.crossattn', '.md', '.json']);
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.crossattn': 'application/octet-stream', '.md': 'text/markdown; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.svg', '.md']);

// The page's one inline script is its import map; the policy allows exactly that script by its hash.
function inlineScriptHashes(html) {
  return [...html.matchAll(/<script type="importmap">([\s\S]*?)<\/script>/g)]
    .map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}

/**
 * The headers every answer carries, for the page `html` (web/index.html by default; the static
 * build's page, web/build.js, has no import map). script-src: our files, the import map by hash, and
 * 'wasm-unsafe-eval' (compiling WebAssembly; no JavaScript eval: the module is built with
 * DYNAMIC_EXECUTION=0). style-src allows inline style attributes (bar widths, heatmap cells).
 * connect-src adds https: so that a user can open a model by its URL on another host, or download
 * one from the Hugging Face Hub (the host must answer with CORS headers, which the Hub and GitHub's
 * raw files do), and `hub`, a Hub endpoint of another scheme (HF_ENDPOINT: a mirror on http, a
 * test's local hub); scripts, styles and workers still come from this origin only.
 */
export function securityHeaders(html = readFileSync(join(root, 'web', 'index.html'), 'utf8'), { hub, isolated = true } = {}) {
  const connect = ["'self'", 'https:', ...(hub && !hub.startsWith('https:') ? [new URL(hub).origin] : [])];
  const csp = [
    "default-src 'self'", ['script-src', "'self'", "'wasm-unsafe-eval'", ...inlineScriptHashes(html)].join(' '),
    "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", `connect-src ${connect.join(' ')}`, "worker-src 'self'",
    "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
    // COOP same-origin + COEP require-corp make the page cross-origin isolated: SharedArrayBuffer,
    // and with it the pthreads engine (crossattn-mt.wasm), becomes available. Everything the page
    // loads comes from this origin, or (a model opened by URL) through CORS, which COEP allows.
    ...(isolated ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {}),
    'cross-origin-resource-policy': 'same-origin', 'x-frame-options': 'DENY',
  };
}

/** The repository-relative path a URL asks for, or null if it is malformed. */
function requestedPath(url) {
  try {
    const path = normalize(decodeURIComponent(new URL(url, 'http://x').pathname));
    return path.includes('\0') ? null : path;
  } catch {
    return null;
  }
}

/** How long (ms) a connection may go without traffic, or take to send a request, before it is closed. */
export const IDLE_TIMEOUT_MS = 10_000;

/**
 * Starts the server on `port` (0: any free port); resolves to {server, url}, or rejects with the
 * listen error (EADDRINUSE when the port is taken). `root`: the folder served, the repository by
 * default (a site web/build.js wrote has the same layout). `hub`: a Hub
 * endpoint the page may download models from besides https ones (securityHeaders); `url` then
 * carries it as the page's `hub` parameter (web/hub-controls.js). `isolated: false` leaves out COOP and
 * COEP, as a static host that cannot send them does: the page then runs a single-thread engine.
 * `idleTimeoutMs`: a socket with no traffic either way for that long is destroyed, and one whose
 * request headers or body take longer is closed (slowloris: a client that trickles its headers is
 * never idle); Node checks those every 30 s by default, here every second (every
 * idleTimeoutMs / 4 when that is less). An idle keep-alive connection closes after 5 s (Node's
 * keepAliveTimeout), or idleTimeoutMs when that is less.
 */
export function serve(port, { root: folder = root, idleTimeoutMs = IDLE_TIMEOUT_MS, hub, isolated = true } = {}) {
  const headers = securityHeaders(undefined, { hub, isolated });
  const limits = { headersTimeout: idleTimeoutMs, requestTimeout: idleTimeoutMs, keepAliveTimeout: Math.min(5000, idleTimeoutMs),
                   connectionsCheckingInterval: Math.min(1000, idleTimeoutMs / 4) };
  const server = createServer(limits, (req, res) => {
    const answer = (status, extra = {}, body = '') => {
      res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', ...extra });
      res.end(req.method === 'HEAD' ? '' : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, { allow: 'GET, HEAD' }, 'method not allowed\n');
    const path = requestedPath(req.url);
    if (path === null) return answer(400, {}, 'bad request\n');
    if (path === '/') return answer(302, { location: '/web/' });
    const file = join(folder, path.endsWith('/') ? path + 'index.html' : path);
    let size = -1, modified = 0;
    try {
      const stat = statSync(file);
      if (stat.isFile()) [size, modified] = [stat.size, Math.floor(stat.mtimeMs)];
    } catch {}
    const hidden = path.split('/').some((part) => part.startsWith('.'));
    const ext = extname(file);
    const internal = path.startsWith('/models/') && !MODEL_FILES.has(ext);
    if (!ALLOWED.some((p) => path.startsWith(p)) || hidden || internal || size < 0) return answer(404, {}, 'not found\n');
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    // no-cache: the browser asks again each time, and a file that has not changed (the same size,
    // modification time and encoding) is a 304 with no body (RFC 9110, 8.8.3 and 13.1.2).
    const etag = `W/"${size.toString(16)}-${modified.toString(16)}${gzip ? '-gz' : ''}"`;
    const revalidated = (req.headers['if-none-match'] ?? '').split(',').some((tag) => tag.trim() === etag);
    res.writeHead(revalidated ? 304 : 200, {
      ...headers,
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
      etag,
      ...(revalidated ? {} : gzip ? { 'content-encoding': 'gzip' } : { 'content-length': size }),
    });
    if (req.method === 'HEAD' || revalidated) return res.end();
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    (gzip ? stream.pipe(createGzip()) : stream).pipe(res);
  });
  server.on('clientError', (_, socket) => socket.destroy());
  server.setTimeout(idleTimeoutMs);  // no 'timeout' listener: Node destroys the idle socket
  return new Promise((ok, fail) => {
    server.once('error', fail);  // EADDRINUSE: the port is taken
    server.listen(port, '127.0.0.1', () => {
      const page = `http://127.0.0.1:${server.address().port}/web/`;
      ok({ server, url: hub ? `${page}?hub=${encodeURIComponent(hub)}` : page });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: process.env.PORT ?? '8080' } } });
  const port = Number(values.port);
  const { url } = await serve(port, { hub: process.env.HF_ENDPOINT || undefined }).catch((e) => {
    if (e.code !== 'EADDRINUSE') throw e;
    console.error(`crossattn demo: port ${port} is in use; serve on another with PORT=${port + 1} (or --port ${port + 1})`);
    process.exit(1);
  });
  console.log(`crossattn demo: ${url}`);
}
