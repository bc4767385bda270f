// `crossattn convert`'s command line: a bad one is one line of ours on stderr, with balanced quotes,
// exit 2, nothing on stdout and no file written, as for translate and align (cli-args.ts;
// tests/js/cli.test.js checks those).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './paths.js';

const convert = (args) => spawnSync('node', [`${ROOT}dist/cli.js`, 'convert', ...args], { encoding: 'utf8' });

test('a wrong flag or argument is one line on stderr, with balanced quotes, and exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crossattn-convert-'));
  const output = join(dir, 'out.crossattn');
  const cases = [
    [['--nope'], "unknown option '--nope'"],
    [['-x', 'model-dir', '-o', output], "unknown option '-x'"],
    [['model-dir', '-o'], '-o needs a value'],
    [['model-dir', '--output', '--name', 'x'], '--output needs a value (for one that starts with a dash: --output=--name)'],
    [['model-dir', '-o', output, '--quantized=yes'], '--quantized takes no value'],
    [['-o', output], 'give the INPUT to convert'],
    [['a', 'b', '-o', output], 'one INPUT, not 2'],
    [['model-dir'], 'give the file to write with -o OUTPUT.crossattn'],
    [['model-dir', '-o', output, '--from', 'en'], '--from and --to go together'],
  ];
  try {
    for (const [args, message] of cases) {
      const r = convert(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(`crossattn convert: ${message}; see crossattn convert --help\n`);
      expect(r.stdout).toBe('');
      expect(r.stderr.split("'").length % 2, r.stderr).toBe(1);  // every quote closed
      expect(existsSync(output)).toBe(false);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--help prints the usage on stdout, exit 0', () => {
  const r = convert(['--help']);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^usage: crossattn convert INPUT -o OUTPUT\.crossattn/);
  expect(r.stdout).toContain('--quantized');
  expect(r.stderr).toBe('');
});

test('a model whose files do not say its languages: the error names the flags that give them', () => {
  const marian = spawnSync('bash', [`${ROOT}tests/js/fixtures/marian-models.sh`], { encoding: 'utf8' }).stdout.trim();
  const dir = mkdtempSync(join(tmpdir(), 'crossattn-convert-'));
  const r = convert([`${ROOT}${marian}/fp32/model.bin`, '-o', join(dir, 'x.crossattn')]);
  expect(r.status).toBe(1);
  expect(r.stderr.trim()).toMatch(/model\.bin: source_lang: the file names do not say the languages: give them \(crossattn convert --from L --to L\)$/);
  for (const flag of r.stderr.match(/--[a-z-]+/g)) expect(convert(['--help']).stdout).toContain(`${flag} `);
  expect(existsSync(join(dir, 'x.crossattn'))).toBe(false);
  rmSync(dir, { recursive: true, force: true });
});

test('the output is safe: not an input, never written through a symlink, an empty -o is a usage error', async () => {
  const { HF, ensureFixtures } = await import('./opus-mt-fixtures.js');
  const { cpSync, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } = await import('node:fs');
  ensureFixtures();
  const dir = mkdtempSync(join(tmpdir(), 'crossattn-convert-out-'));
  try {
    const model = join(dir, 'opus-mt-en-de');
    cpSync(HF, model, { recursive: true });
    // An input file as the output: refused, and the input is intact.
    const config = readFileSync(join(model, 'config.json'));
    const own = convert([model, '-o', join(model, 'config.json')]);
    expect(own.status).toBe(1);
    expect(own.stderr).toMatch(/config\.json: output: is a file of the input folder .*: write the \.crossattn elsewhere/);
    expect(readFileSync(join(model, 'config.json')).equals(config)).toBe(true);
    // A symlink at the output is replaced by the file, not written through to its target.
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const output = join(dir, 'out.crossattn');
    symlinkSync(victim, output);
    // A symlink planted where a predictable temporary file would go is not followed either.
    symlinkSync(victim, join(dir, '.out.crossattn.partial'));
    const ok = convert([model, '-o', output]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(output).isSymbolicLink()).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial') && !lstatSync(join(dir, f)).isSymbolicLink())).toEqual([]);
    // -o '' is a usage error.
    const empty = convert([model, '-o', '']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toBe("crossattn convert: -o needs a file name, not an empty one; see crossattn convert --help\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
