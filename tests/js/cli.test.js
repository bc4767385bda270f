// The npm package's bin: `crossattn translate` with the shipped model by default.
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from './paths.js';

const cli = (args, input) => spawnSync('node', [`${ROOT}dist/cli.js`, ...args], { input, encoding: 'utf8' });

test('translates TEXT, and stdin line by line', () => {
  const one = cli(['translate', 'A dog runs through the grass.']);
  expect(one.status, one.stderr).toBe(0);
  expect(one.stdout.trim().length).toBeGreaterThan(0);
  const many = cli(['translate'], 'A dog runs through the grass.\nTwo men are talking.\n');
  expect(many.status).toBe(0);
  const lines = many.stdout.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toBe(one.stdout.trim());
});

test('--json gives tokens and attention', () => {
  const r = cli(['translate', '--json', 'A dog runs.']);
  const j = JSON.parse(r.stdout);
  expect(j.targetTokens.at(-1)).toBe('</s>');
  expect(j.crossAttention[0][0]).toHaveLength(j.targetTokens.length);
});

test('bad input: clear message, non-zero exit', () => {
  const missing = cli(['translate', '--model', '/nonexistent.crossattn', 'x']);
  expect(missing.status).not.toBe(0);
  expect(missing.stderr).toMatch(/cannot load model/);
  const usage = cli(['frobnicate']);
  expect(usage.status).toBe(2);
  expect(usage.stderr).toMatch(/usage/);
  const tooLong = cli(['translate', 'dog '.repeat(2000)]);
  expect(tooLong.status).toBe(1);
  expect(tooLong.stderr).toMatch(/InputTooLongError/);
});
