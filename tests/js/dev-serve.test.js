// `bash tools/dev.sh serve` on a copy of this built checkout: with nothing changed it prints the page's
// URL within 5 s (issue 45's bar; a bar check, not a benchmark: it rebuilds nothing, so a slow start
// means a build step ran that should not have), also after the copy was moved to another folder; an
// edit to the TypeScript rebuilds dist/ before serving; an edit to the C++ starts the WebAssembly
// build, and the CMake cache left by the copy's first place is configured afresh instead of failing.
import { execSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT } from './paths.js';

const SECOND_START_LIMIT_S = 5;
const work = mkdtempSync(join(tmpdir(), 'crossattn-dev-serve-'));
let clone = join(work, 'clone');
const running = new Set();

/**
 * Runs `bash tools/dev.sh serve` in `dir` until it prints the page's URL (or, with `until`, until its
 * output matches that). Resolves to {output, seconds, url, stop}, stop() ending the server; rejects with
 * the output (and stops it) when it exits first or `reject.pattern` matches its output.
 */
function serveStart(dir, { until = /crossattn demo: (http\S+)/, reject } = {}) {
  const started = performance.now();
  const child = spawn('bash', ['tools/dev.sh', 'serve'], { cwd: dir, env: { ...process.env, PORT: '0' }, detached: true });
  running.add(child);
  const stop = () => { try { process.kill(-child.pid, 'SIGTERM'); } catch {} running.delete(child); };
  let output = '';
  return new Promise((ok, fail) => {
    const read = (chunk) => {
      output += chunk;
      if (reject?.pattern.test(output)) { stop(); fail(new Error(`${reject.why}; the output of dev.sh serve:\n${output}`)); }
      const match = output.match(until);
      if (match) ok({ output, seconds: (performance.now() - started) / 1000, url: match[1], stop });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => { running.delete(child); fail(new Error(`dev.sh serve exited (${code}):\n${output}`)); });
  });
}

// The WebAssembly build's step, followed by a whole line that does not say it is up to date.
const WASM_REBUILT = {
  pattern: /== WebAssembly build[^\n]*\n(?!up to date)[^\n]*\n/,
  why: 'the WebAssembly build ran though no C++ changed (if this checkout had C++ edits since its last '
    + "'bash tools/dev.sh build', run that first)",
};

beforeAll(() => {
  for (const stamp of ['build/wasm.stamp', 'build/ts.stamp', 'build/wasm/CMakeCache.txt']) {
    if (!existsSync(join(ROOT, stamp))) throw new Error(`no ${stamp}: this test copies a built checkout; run 'bash tools/dev.sh build' first`);
  }
  if (statSync(join(ROOT, 'node_modules')).mtimeMs <= statSync(join(ROOT, 'package-lock.json')).mtimeMs) {
    throw new Error("node_modules is older than package-lock.json: run 'bash tools/dev.sh build' first");
  }
  mkdirSync(clone);
  // The sources as the working tree has them, with their dates, and the build's products; node_modules
  // and SentencePiece's source are only read, so they are linked.
  execSync(`git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C '${clone}'`,
           { cwd: ROOT, shell: '/bin/bash' });
  execSync(`tar -cf - dist build/wasm.stamp build/ts.stamp build/wasm/CMakeCache.txt | tar -xf - -C '${clone}'`, { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  symlinkSync(join(ROOT, '.cache'), join(clone, '.cache'));
}, 120_000);

afterAll(() => {
  for (const child of running) try { process.kill(-child.pid, 'SIGKILL'); } catch {}
  rmSync(work, { recursive: true, force: true });
});

test(`the second start of a built clone serves within ${SECOND_START_LIMIT_S} s, also after the clone was moved`, async () => {
  const first = await serveStart(clone, { reject: WASM_REBUILT });
  first.stop();
  expect(first.output).toMatch(/== WebAssembly build[^\n]*\nup to date/);
  const moved = join(work, 'moved');
  renameSync(clone, moved);
  clone = moved;
  const second = await serveStart(clone);
  expect(second.output).toMatch(/== WebAssembly build[^\n]*\nup to date/);
  expect(second.output).toMatch(/== TypeScript build[^\n]*\nup to date/);
  expect(second.seconds, `the second 'bash tools/dev.sh serve' took ${second.seconds.toFixed(1)} s to print its URL `
    + `(the bar is ${SECOND_START_LIMIT_S} s); its output:\n${second.output}`).toBeLessThanOrEqual(SECOND_START_LIMIT_S);
  const page = await fetch(second.url);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<html/);
  second.stop();
  // npm pack (its prepack runs tools/build.sh) reuses the moved clone's build too.
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: clone, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  const log = packed.stdout + packed.stderr;
  expect(log).toMatch(/== WebAssembly build[^\n]*\nup to date/);
  expect(log).toMatch(/== TypeScript build[^\n]*\nup to date/);
}, 300_000);

test('an edit to the TypeScript rebuilds dist/ before serving, and the next start is up to date again', async () => {
  const built = statSync(join(clone, 'dist/index.js')).mtimeMs;
  appendFileSync(join(clone, 'bindings/src/index.ts'), '\n// edited by tests/js/dev-serve.test.js\n');
  const edited = await serveStart(clone, { reject: WASM_REBUILT });
  edited.stop();
  expect(edited.output).not.toMatch(/== TypeScript build[^\n]*\nup to date/);
  expect(statSync(join(clone, 'dist/index.js')).mtimeMs).toBeGreaterThan(built);
  const again = await serveStart(clone);
  again.stop();
  expect(again.output).toMatch(/== TypeScript build[^\n]*\nup to date/);
}, 300_000);

test('an edit to the C++ starts the WebAssembly build, configuring afresh the CMake cache of the old place', async () => {
  appendFileSync(join(clone, 'cpp/error.cc'), '\n// edited by tests/js/dev-serve.test.js\n');
  // Stopped at its first compile: what follows is the ordinary build (minutes).
  const edited = await serveStart(clone, { until: /Building CXX object/ });
  edited.stop();
  expect(edited.output).toMatch(/== WebAssembly build[^\n]*\n\S+\/build\/wasm was configured in \S+\/build\/wasm \(a moved or copied clone\): configuring it afresh/);
  expect(edited.output).not.toMatch(/CMakeCache\.txt directory .* is different/);
}, 300_000);
