// The scripts of tools/ and the site's build (web/build.js) use the npm package as its users do:
// every import of dist/ is one of package.json's exports or its bin. The scripts that must read
// an internal module (the generators of bindings/src from the engine's tables, and the evaluations
// that tune an internal heuristic) live in tools/internals/ (docs/architecture.md, "tools/"), and
// each of them does read one: a script that no longer needs an internal module leaves that folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT as root } from './paths.js';
import { relativeImports } from './relative-imports.js';

const INTERNALS = path.join(root, 'tools', 'internals');

/** The JavaScript files under `dir`, recursively, as absolute paths. */
function scripts(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : scripts(full);
    return /\.m?js$/.test(name) ? [full] : [];
  });
}

/** The files of dist/ that `file` imports, relative to the repository ('dist/index.js'). */
function distImports(file) {
  const text = readFileSync(file, 'utf8');
  return relativeImports(text)
    .map((specifier) => path.relative(root, path.resolve(path.dirname(file), specifier)).split(path.sep).join('/'))
    .filter((p) => p.startsWith('dist/'));
}

/** The package's public files: the targets of its exports map and its bin. */
function publicFiles() {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
  return new Set([...targets, ...Object.values(pkg.bin)].map((t) => t.replace(/^\.\//, '')));
}

test('tools/ and web/build.js import only the package public exports', () => {
  const open = publicFiles();
  const users = [...scripts(path.join(root, 'tools')).filter((f) => !f.startsWith(INTERNALS)), path.join(root, 'web', 'build.js')];
  const internal = users.flatMap((f) => distImports(f).filter((d) => !open.has(d)).map((d) => `${path.relative(root, f)} -> ${d}`));
  expect(internal).toEqual([]);
});

test('each script in tools/internals/ reads an internal module of the package', () => {
  const open = publicFiles();
  const needless = scripts(INTERNALS).filter((f) => distImports(f).every((d) => open.has(d)));
  expect(needless.map((f) => path.relative(root, f))).toEqual([]);
});
