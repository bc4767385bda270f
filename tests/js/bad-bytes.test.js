// Input that is not text is one clear InvalidInputError naming where it is (bindings/src/well-formed.ts,
// bindings/src/cli-input.ts, cpp/cli/main.cc): invalid UTF-8, NUL bytes and binary input on the stdin of
// both CLIs, in a file given to `crossattn align`, as the TEXT argument; lone UTF-16 surrogates through
// the API. A bad line of stdin leaves its output line empty, the good lines are still translated, and
// the exit status is 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InvalidInputError, Translator, modelFor, parseCatalog } from '../../dist/index.js';
import { NATIVE_CLI, ROOT } from './paths.js';

const CATALOG = parseCatalog(readFileSync(`${ROOT}models/catalog.json`, 'utf8'), `${ROOT}models/`);
const EN_DE = modelFor(CATALOG, 'en', 'de').model;
const GOOD = ['A dog runs through the grass.', 'Two men are talking.'];
const bytes = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
// Invalid UTF-8: a lone continuation byte, an overlong NUL, an encoded surrogate (CESU-8), a cut-off sequence.
const INVALID = [[0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82]];
// Binary input: every byte value four times; each of its lines holds a NUL byte or is not UTF-8.
const BINARY = Buffer.from(Array.from({ length: 1024 }, (_, i) => i % 256));
const binaryLines = BINARY.toString('latin1').split('\n').length;

const npx = (args, input) => spawnSync('node', [`${ROOT}dist/cli.js`, ...args], { input });
const native = (args, input) => spawnSync(NATIVE_CLI, ['translate', '--model', EN_DE, ...args], { input });
const out = (r) => r.stdout.toString('utf8');
const err = (r) => r.stderr.toString('utf8');
/** Runs `command TEXT` through sh, so that TEXT can hold bytes that are not UTF-8 (printf's octal escapes). */
const withArgument = (command, printfText) => spawnSync('sh', ['-c', `${command} "$(printf '${printfText}')"`]);

const CLIS = { 'crossattn translate': npx, 'crossattn-cli translate': native };
for (const [name, run] of Object.entries(CLIS)) {
  describe(name, () => {
    const args = name === 'crossattn translate' ? ['translate'] : [];
    let good;
    beforeAll(() => { good = GOOD.map((line) => out(run([...args, line])).trim()); });

    test('invalid UTF-8 on a line of stdin: one error line naming it, an empty output line, the others translated, exit 1', () => {
      for (const invalid of INVALID) {
        const r = run(args, bytes(`${GOOD[0]}\n`, 'A ', invalid, ' dog.\n', `${GOOD[1]}\n`));
        expect(r.status, err(r)).toBe(1);
        expect(out(r)).toBe(`${good[0]}\n\n${good[1]}\n`);
        expect(err(r).trim().split('\n'), err(r)).toEqual([expect.stringMatching(/InvalidInputError: line 2 of stdin is not valid UTF-8/)]);
      }
    });

    test('a NUL byte on a line of stdin is binary input: an error naming the line and byte, exit 1', () => {
      const r = run(args, bytes(`${GOOD[0]}\n`, `${GOOD[1]}\n`, 'A dog', [0], ' runs.\n'));
      expect(r.status, err(r)).toBe(1);
      expect(out(r)).toBe(`${good[0]}\n${good[1]}\n\n`);
      expect(err(r).trim()).toMatch(/InvalidInputError: line 3 of stdin holds a NUL byte \(at byte 5\): binary input, not text$/);
    });

    test('binary input: every line an error, one line of output per line of input, exit 1', () => {
      const r = run(args, BINARY);
      expect(r.status).toBe(1);
      expect(out(r)).toBe('\n'.repeat(binaryLines));
      const errors = err(r).trim().split('\n');
      expect(errors).toHaveLength(binaryLines);
      errors.forEach((line, i) => expect(line).toMatch(new RegExp(`line ${i + 1} of stdin (holds a NUL byte|is not valid UTF-8)`)));
    });

    test('invalid UTF-8 in the TEXT argument: one error line, exit 1; a real U+FFFD translates', () => {
      const command = name === 'crossattn translate' ? `node ${ROOT}dist/cli.js translate` : `${NATIVE_CLI} translate --model ${EN_DE}`;
      const bad = withArgument(command, 'A \\377 dog runs.');
      expect(bad.status).toBe(1);
      expect(out(bad).trim()).toBe('');  // the npm CLI keeps an (empty) output line for it
      expect(err(bad).trim()).toMatch(/InvalidInputError: the TEXT argument is not valid UTF-8/);
      const replacement = withArgument(command, 'A \\357\\277\\275 dog runs.');  // U+FFFD, valid UTF-8
      expect(replacement.status, err(replacement)).toBe(0);
    });
  });
}

describe('crossattn translate --html and crossattn align', () => {
  let dir;
  beforeAll(() => { dir = mkdtempSync(`${tmpdir()}/bad-bytes-`); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('--html: stdin that is not UTF-8 is one error naming the line and byte, no output fragment, exit 1', () => {
    const r = npx(['translate', '--html'], bytes('<p>A dog.</p>\n<p>A ', [0xff], ' cat.</p>\n'));
    expect(r.status).toBe(1);
    expect(out(r).trim()).toBe('');
    expect(err(r).trim()).toMatch(/InvalidInputError: stdin is not valid UTF-8 \(byte 0xFF on line 2, at byte 5 of it\)$/);
    const nul = npx(['translate', '--html'], bytes('<p>A dog', [0], '.</p>'));
    expect(nul.status).toBe(1);
    expect(err(nul).trim()).toMatch(/stdin holds a NUL byte \(at byte 8\): binary input, not text$/);
  });

  test('align: a bad line of --src or --tgt is an error naming the file and line; the other pairs are aligned', () => {
    const [src, tgt] = [`${dir}/src.txt`, `${dir}/tgt.txt`];
    writeFileSync(src, bytes('A dog runs.\n', 'A ', [0xfe], ' cat.\n', 'Two men talk.\n'));
    writeFileSync(tgt, bytes('Ein Hund rennt.\n', 'Eine Katze.\n', 'Zwei', [0], ' Männer reden.\n'));
    const r = npx(['align', '--one-direction', '--src', src, '--tgt', tgt]);
    expect(r.status).toBe(1);
    const lines = out(r).split('\n');
    expect(lines).toHaveLength(4);  // three lines and the end
    expect(lines[0]).toMatch(/^\d+-\d+( \d+-\d+)*$/);
    expect(lines.slice(1)).toEqual(['', '', '']);
    expect(err(r).trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`InvalidInputError: line 2 of --src ${src} is not valid UTF-8 \\(byte 0xFE at byte 2\\)$`)),
      expect.stringMatching(new RegExp(`InvalidInputError: line 3 of --tgt ${tgt} holds a NUL byte \\(at byte 4\\)`)),
    ]);
  });
});

describe('the API: a lone UTF-16 surrogate (no UTF-8 form) is InvalidInputError; NUL is text', () => {
  let t;
  beforeAll(async () => { t = await Translator.load(EN_DE); });
  afterAll(() => t?.dispose());

  test('translate, translateBatch, align, alignSymmetric and HTML name the text and the index', async () => {
    const reference = (await t.translate(GOOD[0])).text;
    const cases = [
      [() => t.translate('A dog\uD800 runs.'), 'the text has a lone UTF-16 surrogate (U+D800) at index 5'],
      [() => t.translate('\uDC00'), 'the text has a lone UTF-16 surrogate (U+DC00) at index 0'],
      [() => t.translateBatch([GOOD[0], 'A 🐶 dog \uD83D']), 'text 1 has a lone UTF-16 surrogate (U+D83D) at index 9'],
      [() => t.align('A dog.', 'Ein \uDFFF Hund.'), 'the target has a lone UTF-16 surrogate (U+DFFF) at index 4'],
      [() => t.translate('<p>A <b>dog\uD800</b></p>', { html: true }), 'the HTML has a lone UTF-16 surrogate (U+D800) at index 11'],
    ];
    for (const [call, message] of cases) {
      const error = await call().catch((e) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.message).toBe(`${message}, which has no UTF-8 form`);
    }
    // A surrogate pair is one character, and well-formed.
    expect((await t.translate('A dog 🐶 runs.')).text.length).toBeGreaterThan(0);
    // NUL and other control characters are well-formed text: they separate words as spaces do.
    expect((await t.translate('A dog\0runs through\u001b the grass.')).text).toBe(reference);
    expect((await t.translate(GOOD[0])).text).toBe(reference);
  });
});
