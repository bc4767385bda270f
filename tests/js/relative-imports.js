// The relative module specifiers a JavaScript or TypeScript text imports, for the tests that hold
// the import rules (bindings-floors.test.js, tools-imports.test.js).

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Each relative specifier ('./x.js', '../dist/index.js') of `text`'s imports: static, type-only, re-exports, side-effect and dynamic imports, in order. */
export function relativeImports(text) {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}
