#!/usr/bin/env node
// Serves the demo page and what it loads (the wasm, the model, d3) from one origin, nothing else.
//   node web/serve.js [--port N]      (PORT in the environment works too; 0 picks a free port)
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
// Only these folders of the repository are served.
const ALLOWED = ['/web/', '/dist/', '/models/', '/node_modules/d3-scale-chromatic/', '/node_modules/d3-interpolate/',
                 '/node_modules/d3-color/'];
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.crossattn': 'application/octet-stream', '.md': 'text/markdown; charset=utf-8',
};

/** Starts the server on `port` (0: any free port); resolves to {server, url}. */
export function serve(port) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path === '/') {
      res.writeHead(302, { location: '/web/' });
      return res.end();
    }
    const file = join(root, path.endsWith('/') ? path + 'index.html' : path);
    let size = -1;
    try {
      size = statSync(file).isFile() ? statSync(file).size : -1;
    } catch {}
    if (!ALLOWED.some((p) => path.startsWith(p)) || size < 0) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found\n');
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      'cache-control': 'no-cache',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => {
    ok({ server, url: `http://127.0.0.1:${server.address().port}/web/` });
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : process.env.PORT ?? 8080);
  const { url } = await serve(port);
  console.log(`crossattn demo: ${url}`);
}
