#!/usr/bin/env node
/**
 * The README's screenshots from the last browser test run: build/e2e/readme.png (1200 × 800, the
 * page after its first translation, tests/e2e/page.test.js) becomes docs/screenshot.png, and
 * build/e2e/mobile.png (the page at a phone's width, same file) docs/mobile.png. So the pictures
 * show the page as it is, never one composed by hand.
 *   npx vitest run --config tests/e2e/vitest.config.js tests/e2e/page.test.js && node tools/readme-screenshots.js
 */
import { copyFileSync, existsSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const pairs = [['build/e2e/readme.png', 'docs/screenshot.png'], ['build/e2e/mobile.png', 'docs/mobile.png']];
for (const [from, to] of pairs) {
  const source = new URL(from, root);
  if (!existsSync(source)) {
    console.error(`${from} is missing: run the browser test first (tests/e2e/page.test.js)`);
    process.exit(1);
  }
  copyFileSync(source, new URL(to, root));
  console.log(`${to}: ${statSync(new URL(to, root)).size} bytes, from ${from} of ${statSync(source).mtime.toISOString()}`);
}
