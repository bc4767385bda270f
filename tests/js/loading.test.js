// Loading goes wrong in typed, bounded ways: a missing file, a device that never ends, a folder, an
// unreachable URL, something that is not a source at all; the CLI says so in one line, at once.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { InvalidInputError, LoadError, ModelFormatError, Translator } from '../../dist/index.js';
import { INT8_MODEL, ROOT } from './paths.js';

test('every way a model cannot be read is a LoadError or an InvalidInputError naming the source', async () => {
  const cases = [
    ['/nonexistent/model.crossattn', LoadError, /\/nonexistent\/model\.crossattn does not exist/],
    ['/dev/zero', LoadError, /\/dev\/zero is not a regular file/],  // would be read forever
    [ROOT, LoadError, /is not a regular file/],
    ['http://127.0.0.1:1/model.crossattn', LoadError, /cannot fetch http:\/\/127\.0\.0\.1:1\/model\.crossattn/],
    ['http://[::1', InvalidInputError, /not a valid URL/],
    [42, InvalidInputError, /bytes .* a URL or a path/],
    [null, InvalidInputError, /bytes .* a URL or a path/],
  ];
  for (const [source, Type, message] of cases) {
    const error = await Translator.load(source).then(() => null, (e) => e);
    expect(error, String(source)).toBeInstanceOf(Type);
    expect(error.message, String(source)).toMatch(message);
  }
});

test('the CLI: --model /dev/zero is one clear line and exit 1, not a hang', () => {
  const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', '/dev/zero', 'A dog.'], { encoding: 'utf8', timeout: 20_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe("crossattn: cannot load model '/dev/zero': /dev/zero is not a regular file\n");
});

test('a model file with one damaged weight byte is a ModelFormatError (its checksum), in the library and the CLI', async () => {
  const bytes = readFileSync(INT8_MODEL);
  bytes[Math.floor(bytes.length * 0.6)] ^= 0x10;
  const error = await Translator.load(bytes).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(ModelFormatError);
  expect(error.message).toMatch(/the file is damaged/);
  const path = join(tmpdir(), 'crossattn-damaged.crossattn');
  writeFileSync(path, bytes);
  const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', path, 'A dog.'], { encoding: 'utf8', timeout: 20_000 });
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/the file is damaged/);
});
