#!/usr/bin/env node
// Bundles the conversion worker (bindings/src/hub/convert-worker.ts: fetch a model by its Hub id,
// convert it, quantize it) with the converters and their npm dependencies (protobufjs, fflate,
// pickleparser, yaml, hash-wasm) into dist/convert-worker.js: a module worker with no imports, which
// a page starts with `new Worker(url, { type: 'module' })` whether or not it uses a bundler. The
// worker has no file beside it to read, so the package's version is written into the bundle.
//   node tools/build-convert-worker.js     (run by npm run build:ts)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

await build({
  entryPoints: [`${root}bindings/src/hub/convert-worker.ts`],
  outfile: `${root}dist/convert-worker.js`,
  bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, legalComments: 'eof',
  define: { __CROSSATTN_VERSION__: JSON.stringify(version) },
  external: ['node:*'],  // reached only when the code runs in Node, never in the worker
  logLevel: 'warning',
});
