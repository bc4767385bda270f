// The floors of the npm package (docs/architecture.md, "The floors of the npm package") hold in
// bindings/src: every file is on one row, every import (type imports, re-exports and dynamic
// imports included) points down or stays in its unit, and no chain of imports comes back to where
// it started.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT as root } from './paths.js';
import { relativeImports } from './relative-imports.js';

const SRC = path.join(root, 'bindings', 'src');

/** The table's rows: { unit, names (files, or folders ending in '/'), floor }. */
function floors() {
  const text = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
  const table = text.slice(text.indexOf('<!-- bindings floors:'), text.indexOf('<!-- end of bindings floors -->'));
  return [...table.matchAll(/^\| ([^|]+?) \| ([^|]+) \| (\d+) \|/gm)]
    .map(([, unit, files, floor]) => ({ unit, names: [...files.matchAll(/`([^`]+)`/g)].map((m) => m[1]), floor: Number(floor) }));
}

/** Every TypeScript file of bindings/src, relative to it ('convert/index.ts'). */
function sources(dir = SRC) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|mts)$/.test(name) ? [path.relative(SRC, full).split(path.sep).join('/')] : [];
  });
}

/** The row of `file`: the row naming it, else the row of the longest folder holding it; undefined when none. */
function rowOf(rows, file) {
  const named = rows.find((r) => r.names.includes(file));
  if (named) return named;
  const folders = rows.flatMap((r) => r.names.filter((n) => n.endsWith('/') && file.startsWith(n)).map((n) => [n.length, r]));
  return folders.sort((a, b) => b[0] - a[0])[0]?.[1];
}

/** The files of bindings/src that `file` imports, by its relative specifiers ('./x.js' is x.ts; './x.mjs' is x.d.mts). */
function importsOf(file, text) {
  return relativeImports(text).map((specifier) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    return target.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.d.mts');
  });
}

const graph = () => new Map(sources().map((f) => [f, importsOf(f, readFileSync(path.join(SRC, f), 'utf8'))]));

test('the import reader sees type imports, re-exports, side-effect and dynamic imports', () => {
  const text = [
    "import type { A } from './a.js';", "import { b, type B } from '../b.js';", "export { c } from './c.js';",
    "export type { D } from './d.js';", "import './e.js';", "const f = await import('./f.js');", "import g from './g.mjs';",
    "import { h } from 'node:fs';",
  ].join('\n');
  expect(importsOf('hub/x.ts', text)).toEqual(['hub/a.ts', 'b.ts', 'hub/c.ts', 'hub/d.ts', 'hub/e.ts', 'hub/f.ts', 'hub/g.d.mts']);
});

test('every file of bindings/src is on a floor, and every name of the table is a file or folder there', () => {
  const rows = floors();
  expect(rows.length).toBeGreaterThan(5);
  const files = sources();
  expect(files.filter((f) => rowOf(rows, f) === undefined)).toEqual([]);
  const names = rows.flatMap((r) => r.names);
  expect(names.filter((n) => !(n.endsWith('/') ? files.some((f) => f.startsWith(n)) : files.includes(n)))).toEqual([]);
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
});

test('imports point down or stay in their unit: no up-arrows, no sideways ones', () => {
  const rows = floors();
  const bad = [];
  for (const [file, targets] of graph()) {
    const here = rowOf(rows, file);
    for (const target of targets) {
      const there = rowOf(rows, target);
      if (there === undefined) bad.push(`${file} imports ${target}, which is not in bindings/src`);
      else if (there !== here && there.floor >= here.floor) {
        bad.push(`${file} (${here.unit}, floor ${here.floor}) imports ${target} (${there.unit}, floor ${there.floor})`);
      }
    }
  }
  expect(bad).toEqual([]);
});

test('no import circles, type imports included', () => {
  const edges = graph();
  // Tarjan's strongly connected components (Tarjan 1972): a component of more than one file, or a
  // file importing itself, is a circle.
  let next = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), circles = [];
  const visit = (v) => {
    index.set(v, next); low.set(v, next); next += 1; stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1 || edges.get(v).includes(v)) circles.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  expect(circles).toEqual([]);
});
