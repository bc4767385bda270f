// The npm package's bin: `crossattn translate` with the catalog's first model (English to German) by default.
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Translator, modelFor, optionSpecs, parseCatalog } from '../../dist/index.js';
import { SENTENCE_BEAM_SIZE } from '../../dist/search.js';
import { NATIVE_CLI, ROOT } from './paths.js';


const MODELS = `${ROOT}models/`;

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
  expect(usage.stderr).toBe("crossattn: unknown command 'frobnicate'; see crossattn --help\n");
  expect(cli([]).stderr).toMatch(/^crossattn: usage: crossattn translate/);  // no command at all: the usage
  const tooLong = cli(['translate', 'dog '.repeat(5000)]);  // past 16 x 256 tokens: shorter is translated in parts
  expect(tooLong.status).toBe(1);
  expect(tooLong.stderr).toMatch(/InputTooLongError/);
});

test('--html translates a fragment from TEXT or stdin and keeps its markup on the aligned words', () => {
  const fromStdin = cli(['translate', '--html'], '<p>The <b>dog</b> is <i>very</i> small.</p>\n');
  expect(fromStdin.status, fromStdin.stderr).toBe(0);
  expect(fromStdin.stdout).toBe('<p>Der <b>Hund</b> ist <i>sehr</i> klein.</p>\n');
  const json = JSON.parse(cli(['translate', '--html', '--json', 'I <a href="/x">love</a> you.']).stdout);
  expect(json.text).toMatch(/<a href="\/x">liebe<\/a>/);
  expect(json.sentences[0].links.length).toBeGreaterThan(0);
  expect(cli(['align', '--html', '--src', 'a', '--tgt', 'b']).status).toBe(2);
});

test('an old Node gets one sentence that names the Node it needs', () => {
  const node18 = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'18.19.0'})";
  const r = spawnSync('node', ['--import', node18, `${ROOT}dist/cli.js`, 'translate', 'A dog runs.'], { encoding: 'utf8' });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe('crossattn: needs Node 20 or newer; this is Node 18.19.0\n');
});

test('--beam-size and --n-best print a Moses n-best list equal to the API', async () => {
  const { Translator, parseCatalog } = await import('../../dist/index.js');
  const translator = await Translator.load(parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS)[0].model);
  const input = 'Two dogs play in the snow.\nA man rides a bike.\n';
  const r = cli(['translate', '--beam-size', '4', '--n-best', '3'], input);
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n').map((l) => l.split(' ||| '));
  expect(lines).toHaveLength(6);
  for (const [i, text] of input.trim().split('\n').entries()) {
    const api = await translator.translate(text, { beamSize: 4, nBest: 3 });
    api.hypotheses.forEach((h, k) => {
      const [n, hypothesis, logProb, score] = lines[3 * i + k];
      expect(Number(n)).toBe(i);
      expect(hypothesis).toBe(h.text);
      expect(Number(logProb)).toBeCloseTo(h.logProb, 5);
      expect(Number(score)).toBeCloseTo(h.score, 5);
    });
  }
  translator.dispose();
});

test('--from/--to pick the catalog model for that direction, with a clear error when there is none', () => {
  const text = 'Two dogs play in the snow.';
  const picked = cli(['translate', '--from', 'en', '--to', 'de', text]);
  expect(picked.status, picked.stderr).toBe(0);
  expect(picked.stdout).toBe(cli(['translate', text]).stdout);
  const back = cli(['translate', '--from', 'de', '--to', 'en', 'Zwei Hunde spielen im Schnee.']);
  expect(back.status, back.stderr).toBe(0);
  expect(back.stdout).toMatch(/dogs/i);
  const none = cli(['translate', '--from', 'en', '--to', 'xx', text]);
  expect(none.status).toBe(1);
  expect(none.stderr).toMatch(/no model translates en to xx .*available: .*en→de/);
  expect(cli(['translate', '--from', 'en', text]).status).toBe(2);
  expect(cli(['translate', '--model', 'x.crossattn', '--from', 'en', '--to', 'de', text]).status).toBe(2);
});

test('--repeat-limit reaches the repetition guard: 0 turns it off, a negative value is a clear error', async () => {
  // A German run-on sentence the everyday de->en model loops on without the guard.
  const text = 'Die Verantwortlichen der Kommission haben die Ergebnisse der Verhandlungen mit den Mitgliedstaaten noch nicht veröffentlicht.';
  const run = (limit) => JSON.parse(cli(['translate', '--from', 'de', '--to', 'en', '--json', '--repeat-limit', limit, text]).stdout);
  const on = run('1');  // no token twice in a row
  for (let t = 1; t < on.targetIds.length; ++t) expect(on.targetIds[t]).not.toBe(on.targetIds[t - 1]);
  const translator = await Translator.load(modelFor(parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS), 'de', 'en').model);
  for (const limit of [0, 1]) {  // the CLI decodes a sentence with its beam (docs/api.md, "Decoding defaults")
    const api = await translator.translate(text, { repeatLimit: limit, beamSize: SENTENCE_BEAM_SIZE });
    expect(run(String(limit)).targetIds).toEqual(api.targetIds);
  }
  translator.dispose();
  const bad = cli(['translate', '--repeat-limit=-1', 'A dog.']);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toBe("crossattn: --repeat-limit must be an integer from 0 to 100, not '-1'\n");
});

test('--help on stdout with exit 0, --version the package version', () => {
  for (const args of [['--help'], ['-h'], ['translate', '--help']]) {
    const r = cli(args);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: crossattn translate/);
    expect(r.stderr).toBe('');
  }
  const version = cli(['--version']);
  expect(version.status).toBe(0);
  expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).version);
});

test('--help says what each flag does, with the default each command applies (both CLIs)', async () => {
  const specs = (await optionSpecs()).filter((o) => o.type === 'bool' && o.default === true && o.group !== 'output');
  expect(specs.length).toBeGreaterThanOrEqual(4);  // early stopping, shortlist, merging subwords, the lexicon
  const helps = [cli(['--help']).stdout, ...(existsSync(NATIVE_CLI) ? [spawnSync(NATIVE_CLI, ['--help'], { encoding: 'utf8' }).stderr] : [])];
  for (const help of helps) {
    const entry = (flag) => new RegExp(`\\n  --${flag}\\b[^\\n]*\\n {6}([^\\n]*)`).exec(help)?.[1];
    for (const o of specs.filter((spec) => help.includes(`--no-${spec.flag}\n`))) {
      const [on, off] = o.flagDoc.split('; false ');
      expect(off, `${o.jsName}'s doc says what false does`).toBeDefined();
      // The flag turns the option off: its help starts with what off does, and then says what the default does.
      expect(entry(`no-${o.flag}`), o.flag).toBe(`${off}; without it (the default): ${on}`);
    }
    // translate decodes by beam search of SENTENCE_BEAM_SIZE: its help says so, not the API's 1.
    expect(entry('beam-size X') ?? entry('beam-size')).toMatch(new RegExp(`; default ${SENTENCE_BEAM_SIZE} \\(beam search; 1 with --sample`));
    expect(help).toMatch(/--sample\n {6}[^\n]*; off by default/);
  }
  expect(helps[0]).toMatch(/--no-shortlist\n {6}scores the whole vocabulary; without it \(the default\): score only/);
  expect(helps[0]).toContain('--no-copy-through prints the model\'s own output');
});

test('--no-copy-through prints the model\'s own output, as the API with copyThrough: false', async () => {
  const text = 'I paid $1,299.99 for the laptop on 14 February 2025.';
  const t = await Translator.load(parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS)[0].model);
  const own = await t.translate(text, { beamSize: SENTENCE_BEAM_SIZE, copyThrough: false });
  const repaired = await t.translate(text, { beamSize: SENTENCE_BEAM_SIZE });
  t.dispose();
  const r = cli(['translate', '--no-copy-through', text]);
  expect(r.status, r.stderr).toBe(0);
  expect(own.text).not.toBe(repaired.text);  // this sentence has numbers the repair changes
  expect(r.stdout.trim()).toBe(own.text);
  expect(cli(['translate', text]).stdout.trim()).toBe(repaired.text);
  expect(cli(['align', '--src', 'x', '--tgt', 'y', '--no-copy-through']).stderr).toMatch(/--no-copy-through is not an option of align/);
});

test('a bad option value is one clear line on stderr with exit 2, before any model loads', () => {
  const cases = [
    [['translate', '--beam-size', '0', 'x'], "--beam-size must be an integer from 1 to 64, not '0'"],
    [['translate', '--beam-size', 'four', 'x'], "--beam-size must be an integer from 1 to 64, not 'four'"],
    [['translate', '--length-penalty', 'abc', 'x'], "--length-penalty must be a finite number, not 'abc'"],
    [['translate', '--max-length=-5', 'x'], "--max-length must be an integer >= 0, not '-5'"],
    [['align', '--src', 'a', '--tgt', 'b', '--method', 'best'], "--method must be one of argmax, grow-diag-final-and, threshold, not 'best'"],
    [['align', '--src', 'a', '--tgt', 'b', '--threshold', '0'], "--threshold must be a finite number in (0, 1], not '0'"],
    [['translate', '--top-p', '1.5', 'x'], "--top-p must be a finite number in (0, 1], not '1.5'"],
  ];
  for (const [args, message] of cases) {
    const r = cli(args, '');
    expect(r.status, args.join(' ')).toBe(2);
    expect(r.stderr).toBe(`crossattn: ${message}\n`);
    expect(r.stdout).toBe('');
  }
  // Options that contradict each other: the engine refuses them before any model loads, naming the flags;
  // a value beyond the model's limits, once it has loaded, before any line.
  for (const [args, message] of [[['translate', '--beam-size', '2', '--n-best', '3'], "--n-best must be at most --beam-size, not '3'"],
                                 [['translate', '--sample', '--beam-size', '2'], "--beam-size must be 1 with --sample, not '2' (sampling draws one hypothesis)"],
                                 [['translate', '--max-length', '100000'], "--max-length must be an integer from 0 to 256, not '100000' (0 means this model's max_positions, 256)"]]) {
    const r = cli(args, 'A dog.\n');
    expect(r.status, args.join(' ')).toBe(2);
    expect(r.stderr).toBe(`crossattn: ${message}\n`);
    expect(r.stdout).toBe('');
  }
});

test('a wrong flag or argument is one line on stderr, with balanced quotes, and exit 2', () => {
  const cases = [
    [['translate', '--nope'], "unknown option '--nope'"],
    [['translate', '-x', 'A dog.'], "unknown option '-x'"],
    [['translate', '--model'], '--model needs a value'],
    [['translate', '--json=yes', 'A dog.'], '--json takes no value'],
    [['translate', '--max-length', '-5', 'A dog.'], '--max-length needs a value (for one that starts with a dash: --max-length=-5)'],
    [['align', '--beam-size', '2', '--src', 'a', '--tgt', 'b'], '--beam-size is not an option of align'],
    [['translate', 'a', 'b'], "unexpected argument 'b'"],
    [['align', '--src', 'a'], 'align needs --src and --tgt'],
    [['translate', '--from', 'en', 'A dog.'], '--from and --to go together'],
  ];
  for (const [args, message] of cases) {
    const r = cli(args, '');
    expect(r.status, args.join(' ')).toBe(2);
    expect(r.stderr).toBe(`crossattn: ${message}; see crossattn --help\n`);
    expect(r.stdout).toBe('');
    expect(r.stderr.split("'").length % 2, r.stderr).toBe(1);  // every quote closed
  }
});

test('a text file given as a model: "not a crossattn model file", one line, exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crossattn-cli-'));
  const file = join(dir, 'notes.txt');
  writeFileSync(file, 'These are notes, not a model.\n'.repeat(20));
  const r = cli(['translate', '--model', file, 'A dog.']);
  rmSync(dir, { recursive: true, force: true });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe(`crossattn: cannot load model '${file}': ${file} is not a crossattn model file: ` +
    'it starts with "These are notes, not a m", not with a model header\n');
});
