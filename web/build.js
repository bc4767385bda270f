#!/usr/bin/env node
// Builds the demo as a self-contained static site that works from any static host, at any subpath:
//   node web/build.js [--out build/site]          (npm run build:site; needs npm run build first)
//
// esbuild bundles the page's script and its worker (the engine's JavaScript, d3), so nothing is
// imported from node_modules and the page needs no import map. The folder keeps the repository's
// layout, so every URL the page computes (`new URL('../models/…', import.meta.url)`) is relative
// and holds under any prefix:
//   index.html            a redirect to web/
//   web/                  the page: index.html, app.js, worker.js (and the chunks they share), sw.js, style.css,
//                         crossattn.wasm and crossattn-relaxed.wasm (browsers with relaxed SIMD load the second)
//   models/               catalog.json, pairs.json, architecture.json, and each catalog model with its card
//   dist/                 performance-summary.json, the measured speed the page's footer quotes, and
//                         convert-worker.js, the page's worker that converts a model it downloads
//   _headers              the response headers the site needs (Netlify / Cloudflare Pages syntax;
//                         docs/deploy.md says what each is for and how to set them elsewhere)
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { parseCatalog } from '../dist/index.js';
import { securityHeaders } from './serve.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Copies repository-relative `path` into `out` at the same relative path. */
function copy(out, path) {
  mkdirSync(dirname(join(out, path)), { recursive: true });
  copyFileSync(join(root, path), join(out, path));
}

/** The page without its import map: the bundle resolves what the map pointed into node_modules. */
export function siteHtml(html) {
  const stripped = html.replace(/\s*<script type="importmap">[\s\S]*?<\/script>/, '');
  if (/<script(?![^>]*\bsrc=)/.test(stripped)) throw new Error('web/index.html has an inline script the CSP would block');
  return stripped;
}

/**
 * `_headers` for the site: the dev server's policy, and the wasm and model MIME types. Without the
 * dev server's Cross-Origin-Embedder-Policy: the site ships the single-thread engine only, so it is
 * not made cross-origin isolated (which would also block any cross-origin image or frame a host adds).
 */
export function headersFile(html) {
  const headers = Object.entries(securityHeaders(html)).filter(([k]) => k !== 'cross-origin-embedder-policy');
  const lines = ['/*', ...headers.map(([k, v]) => `  ${k}: ${v}`),
                 '/*.wasm', '  content-type: application/wasm', '/*.crossattn', '  content-type: application/octet-stream'];
  return `${lines.join('\n')}\n`;
}

/** Builds the site into `out`, emptied first. */
export async function buildSite(out) {
  rmSync(out, { recursive: true, force: true });
  const web = join(out, 'web');
  mkdirSync(web, { recursive: true });
  await build({
    entryPoints: { app: join(root, 'web/app.js'), worker: join(root, 'web/worker.js') },
    outdir: web, bundle: true, format: 'esm', target: 'es2022', minify: true, sourcemap: false,
    splitting: true, chunkNames: '[name]-[hash]',  // beside app.js: the wasm URL is relative to the module
                                                   // that holds the engine; the HTML parser loads on first use
    external: ['node:*'],  // sources.js reads files with node:fs only when it runs in Node
    legalComments: 'eof', logLevel: 'warning',
  });
  const html = siteHtml(readFileSync(join(root, 'web/index.html'), 'utf8'));
  writeFileSync(join(web, 'index.html'), html);
  for (const f of ['web/sw.js', 'web/style.css']) copy(out, f);
  for (const wasm of ['crossattn.wasm', 'crossattn-relaxed.wasm']) copyFileSync(join(root, 'dist', wasm), join(web, wasm));
  copy(out, 'dist/convert-worker.js');  // the page's conversion worker, at the path it names (web/hub-controls.js)
  for (const f of ['models/catalog.json', 'models/pairs.json', 'models/architecture.json', 'dist/performance-summary.json']) copy(out, f);
  const modelsDir = join(root, 'models');
  for (const entry of parseCatalog(readFileSync(join(modelsDir, 'catalog.json'), 'utf8'), modelsDir)) {
    for (const file of [entry.model, entry.card].filter(Boolean)) copy(out, relative(root, file));
  }
  writeFileSync(join(out, 'index.html'),
                '<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0; url=web/">\n' +
                '<title>crossattn</title>\n<a href="web/">crossattn demo</a>\n');
  writeFileSync(join(out, '_headers'), headersFile(html));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'build/site') } } });
  const out = resolve(values.out);
  await buildSite(out);
  console.log(`static site in ${out}: serve the folder from any static host, at any path`);
}
