// LoadOptions.threads in Node: the pthreads engine needs a cross-origin isolated browser page or
// worker, so Node always runs the single-thread engine and says so; bad values are typed errors
// before anything is read. tests/e2e/threads.test.js runs the pthreads engine itself in Chromium.
// And the native CLI's --threads.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { InvalidInputError, LoadError, MAX_THREADS, Translator, threadsAvailable } from '../../dist/index.js';
import { DATA, INT8_MODEL, NATIVE_CLI, ROOT } from './paths.js';

test('Node has one thread: any count asked for loads the single-thread engine, which says 1', async () => {
  expect(threadsAvailable()).toBe(1);
  for (const threads of [undefined, 'auto', 1, 2, MAX_THREADS]) {
    const t = await Translator.load(INT8_MODEL, { threads });
    expect(t.threads, String(threads)).toBe(1);
    expect((await t.translate('A dog runs.')).text.length).toBeGreaterThan(0);
    t.dispose();
  }
});

test('a thread count outside auto and 1..MAX_THREADS is an InvalidInputError, even for a model that does not exist', async () => {
  for (const threads of [0, -1, MAX_THREADS + 1, 1.5, Number.NaN, '2', 'all', null]) {
    const error = await Translator.load('/nonexistent/model.crossattn', { threads }).then(() => null, (e) => e);
    expect(error, String(threads)).toBeInstanceOf(InvalidInputError);
    expect(error.message).toMatch(/threads must be 'auto' or an integer from 1 to 4/);
  }
});

test('the pthreads engine handed to Node is a LoadError that says what it needs, and Node keeps working', async () => {
  const error = await Translator.load(INT8_MODEL, { wasm: `${ROOT}dist/crossattn-mt.wasm` }).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(LoadError);
  expect(error.message).toMatch(/crossattn-mt\.wasm needs a cross-origin isolated browser page or worker/);
  const t = await Translator.load(INT8_MODEL);
  expect(t.threads).toBe(1);
  t.dispose();
});

test('the native CLI: --threads 2 prints what one thread prints; a count outside 1..8 is a usage error', () => {
  const input = readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n').slice(0, 40).join('\n');
  const run = (threads) => spawnSync(NATIVE_CLI, ['translate', '--model', INT8_MODEL, '--threads', threads, '--json', '--beam-size', '1'],
    { input, encoding: 'utf8' });
  const one = run('1'), two = run('2');
  expect(one.status).toBe(0);
  expect(two.status).toBe(0);
  expect(one.stdout.trim().split('\n')).toHaveLength(40);
  expect(two.stdout).toBe(one.stdout);  // text, scores and attention, byte for byte
  for (const bad of ['0', '9', 'x']) {
    const r = run(bad);
    expect(r.status, bad).toBe(2);
    expect(r.stderr).toMatch(/--threads N/);
  }
});
