#!/usr/bin/env node
/**
 * crossattn translate [--model FILE|ID | --from L --to L] [--json] [--html] [SEARCH AND LENGTH OPTIONS] [TEXT]
 * crossattn align --src FILE --tgt FILE [--model FILE] [--symmetric | --reverse-model FILE | --one-direction] [ALIGNMENT OPTIONS]
 * crossattn convert INPUT -o OUTPUT.crossattn [...]   (convert/command.ts: an OPUS-MT or Marian model to a .crossattn file)
 * crossattn download [NAME | --from L --to L] --catalog URL   (download.ts: a model a served catalog lists, checked)
 *
 * The search, length and alignment options are the engine's option table (cpp/options.h, as
 * options.generated.ts holds it) as flags: --beam-size N, --sample --top-p P --seed N, --layers L,..,
 * --method M, a boolean as --FLAG when it defaults to false and --no-FLAG when it defaults to true.
 * --help lists them with their ranges and defaults. The engine checks their values (checkOptions,
 * options.ts); its refusal names the option, the value and the limit in fields (OptionFault),
 * worded here with the flags.
 *
 * translate: translates TEXT, or without it each line of stdin to one line of stdout, with the
 * WebAssembly engine; a line may hold several sentences (splitSentences cuts it, the sentences
 * translate as one batch and are joined again; with --json or --n-best a line is one sentence).
 * With --json each line is the full result (tokens, log-probability, cross-attention
 * [layers][heads][T][S], the n-best list) and `model`, the model's name, direction and provenance
 * (Translator.info). Decoding is beam search of SENTENCE_BEAM_SIZE (4) unless --beam-size N is given
 * (1: greedy, as the API's default) or --sample, which draws each token at random; with --n-best N > 1 and without --json each input line gives N lines in Moses n-best form,
 * "LINE ||| TEXT ||| LOG_PROB ||| SCORE", LINE counting from 0. Reading a terminal, it says so on
 * stderr; with stderr a terminal and stdin not, it shows how many lines are done. With --html,
 * TEXT or the whole of stdin is one HTML fragment, translated with its markup kept (html.ts).
 * Input is read as bytes: a line (of stdin, --src, --tgt), fragment or TEXT that is not valid
 * UTF-8 or holds a NUL byte is one error naming it, as for a line the engine refuses (cli-input.ts).
 *
 * align: forced alignment of each line of --src to the same line of --tgt, one line per pair on
 * stdout in Pharaoh format ("s-t", 0-based indices of whitespace-separated words), the input of
 * AER scorers such as tools/aer.js. The options select layers, heads, method (argmax,
 * grow-diag-final-and, threshold), threshold and Shift-Att (docs/alignment.md); the defaults are
 * those measured best there. With the catalog's model (no --model) each pair is also aligned by the
 * catalog's model of the opposite direction when it lists one, and the averaged word attention of
 * both is linked (Translator.alignSymmetric): AER 26.8 against 32.9 for en→de alone on align-dev
 * (docs/alignment.md). --symmetric asks for that with --model too (--reverse-model: that file as
 * the opposite model); --one-direction aligns with the one model alone.
 *
 * --from and --to (language codes such as en, de) pick the model for that direction that the
 * package's models/catalog.json lists (the default is its first, English to German). In a clone of
 * the repository the file lies beside the catalog; an installed crossattn holds no model, and the
 * model is looked up in the npm package the catalog names (e.g. crossattn-tatoeba-en-de).
 *
 * --help prints the usage on stdout, --version the package version (exit 0). Options are parsed by
 * node:util parseArgs; an unknown option, a bad value, options that contradict each other (--n-best
 * above --beam-size) or a misplaced argument is one line on stderr with exit 2, before any model
 * loads; a value beyond the model's own limits (--max-length above its max_positions) is refused
 * with exit 2 once it has loaded, before any line is translated.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pharaoh, type AlignmentOptions } from './alignment.js';
import { parseStrictly, type ArgOptions } from './cli-args.js';
import { argumentText, linesOf, streamLines, wholeStdin, type InputText } from './cli-input.js';
import { CrossattnError, InvalidInputError, type OptionFault } from './errors.js';
import { modelFor, parseCatalog, type CatalogEntry } from './model-catalog.js';
import { flagNotes } from './flag-notes.js';
import { joinParagraphs, splitParagraphs } from './sentences.js';
import { OPTION_TABLE } from './options.generated.js';
import { checkOptions, type OptionSpec } from './options.js';
import { SENTENCE_BEAM_SIZE, type SearchOptions } from './search.js';
import { Translator } from './translator.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const MODELS_DIR = fileURLToPath(new URL('../models/', import.meta.url));
const COMMANDS = `usage: crossattn translate [--model FILE|ID | --from L --to L] [--json] [--html] [OPTIONS] [TEXT]
       crossattn align --src FILE --tgt FILE [--model FILE] [--symmetric | --reverse-model FILE | --one-direction] [OPTIONS]
       crossattn convert INPUT -o OUTPUT.crossattn [--name NAME] [--from L --to L]   (crossattn convert --help)
       crossattn download [NAME | --from L --to L] --catalog URL [-o FILE]   (crossattn download --help)
       crossattn --version | --help

translate: TEXT, or one sentence per line of stdin to one line of stdout (beam search of 4 unless --beam-size N
           or --sample is given; --beam-size 1 is greedy, the fastest);
           with --html, TEXT or all of stdin is one HTML fragment, translated with its markup kept;
           --no-copy-through prints the model's own output, without the repair that copies unknown pieces,
           numbers, URLs and names of the source through (docs/copy-through.md); with it, a date, time,
           number or price that the translation lacks or invents is said on stderr ("crossattn: line 3: ...").
align: the Pharaoh word alignment of each line of --src with the same line of --tgt; without --model, the
       catalog's models of both directions together (--one-direction: the forward one alone).
--model: a .crossattn file, or a Hugging Face Hub id (Helsinki-NLP/opus-mt-en-fr, Xenova/opus-mt-en-fr,
       owner/name@revision): downloaded from HF_ENDPOINT (default https://huggingface.co) on first use,
       converted to int8 and kept in $XDG_CACHE_HOME/crossattn (default ~/.cache/crossattn) for offline use.`;

function fail(message: string, code: number): never {
  process.stderr.write(`crossattn: ${message}\n`);
  process.exit(code);
}

interface Options {
  command: 'translate' | 'align';
  model?: string;
  from?: string;
  to?: string;
  json: boolean;
  html: boolean;
  /** The table's search and length options, and copyThrough (--no-copy-through). */
  search: SearchOptions & { copyThrough?: boolean };
  /** The text of each table option given on the command line, by JavaScript name, to quote in errors. */
  given: Map<string, string>;
  text?: string;
  src?: string;
  tgt?: string;
  alignment: AlignmentOptions;
  /** align: symmetrize with this model of the opposite direction ('catalog': the catalog's; 'catalog-if-listed': the
   * catalog's if it lists one). */
  reverse?: string;
}

const FIXED = {
  model: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' },
  html: { type: 'boolean' }, 'no-copy-through': { type: 'boolean' }, src: { type: 'string' }, tgt: { type: 'string' },
  'reverse-model': { type: 'string' }, symmetric: { type: 'boolean' }, 'one-direction': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' },
} as const;
const FIXED_TRANSLATE = ['from', 'to', 'json', 'html', 'no-copy-through'];
const FIXED_ALIGN = ['src', 'tgt', 'reverse-model', 'symmetric', 'one-direction'];

/** The command an option of the table belongs to: translate (search, length) or align (alignment). */
function commandOf(spec: OptionSpec): 'translate' | 'align' | null {
  if (spec.group === 'search' || spec.group === 'length') return 'translate';
  return spec.group === 'alignment' ? 'align' : null;
}

/** The flag of an option of the table: --FLAG, or --no-FLAG for a boolean that defaults to true. */
function flagOf(spec: OptionSpec): string {
  return spec.type === 'bool' && spec.default === true ? `no-${spec.flag}` : spec.flag;
}

/**
 * What an option's flag does, for the help: a --no-FLAG says what turning the option off does (its
 * doc's "; false ..." clause) and then what happens without the flag; a --FLAG of a boolean that is
 * off by default says so; any other flag its doc, range and default as this CLI applies it (translate's
 * beam search of SENTENCE_BEAM_SIZE, where the API's default is greedy).
 */
function flagHelp(spec: OptionSpec): string {
  if (spec.type === 'bool') {
    if (flagOf(spec) === spec.flag) return `${spec.flagDoc}; off by default`;
    const [on, off] = spec.flagDoc.split('; false ');
    return off === undefined ? `turns off: ${on}` : `${off}; without it (the default): ${on}`;
  }
  const fallback = spec.jsName === 'beamSize' ? `${SENTENCE_BEAM_SIZE} (beam search; 1 with --sample; the API's default is 1)` : JSON.stringify(spec.default);
  return `${spec.flagDoc}${spec.range ? ` (${spec.range})` : ''}; default ${fallback}`;
}

/** The usage text: the commands, then every option of the table with its range and default. */
function usage(specs: readonly OptionSpec[]): string {
  const lines = (command: string) => specs.filter((o) => commandOf(o) === command).map((o) => {
    const value = o.type === 'bool' ? '' : o.type === 'int[]' ? ' N,..' : o.type === 'choice' ? ` ${o.choices!.join('|')}` : ' X';
    return `  --${flagOf(o)}${value}\n      ${flagHelp(o)}`;
  }).join('\n');
  return `${COMMANDS}\n\ntranslate options:\n${lines('translate')}\n\nalign options:\n${lines('align')}`;
}

/**
 * The value of the table option `spec` written as `text`: a number for an int or float that reads
 * as one, a list of numbers for int[], else the text itself, which the engine then refuses by type.
 * The engine checks ranges (checkOptions).
 */
function valueOf(spec: OptionSpec, text: string): number | string | (number | string)[] {
  const integer = (v: string) => (/^\s*-?\d+\s*$/.test(v) ? Number(v) : v);
  if (spec.type === 'int') return integer(text);
  if (spec.type === 'int[]') return text.split(',').map(integer);
  if (spec.type === 'float') return text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text;
  return text;
}

/** A fault as this CLI words it: options by their flags, a value given on the command line as written there. */
function wordFault(fault: OptionFault, given: Map<string, string>): string {
  const flags = new Map(OPTION_TABLE.map((o) => [o.jsName, `--${flagOf(o)}`]));
  const name = (option: string) => flags.get(option) ?? option;
  const value = given.has(fault.option) ? `'${given.get(fault.option)}'` : fault.value;
  return `${name(fault.option)} must be ${fault.limit}${fault.other ? ` ${name(fault.other)}` : ''}, not ${value}` +
    (fault.note ? ` (${fault.note})` : '');
}

/** A command line that cannot be run: one line on stderr that points to --help, exit 2. */
const usageError = (message: string): never => fail(`${message}; see crossattn --help`, 2);

function parse(args: string[], specs: readonly OptionSpec[]): Options {
  const table = Object.fromEntries(specs.filter((o) => commandOf(o) !== null)
    .map((o) => [flagOf(o), { type: o.type === 'bool' ? 'boolean' : 'string' } as const]));
  const { values: v, positionals } = parseStrictly<ArgOptions>(args, { ...FIXED, ...table }, usageError);  // cli-args.ts
  if (v.help) {
    process.stdout.write(usage(specs) + '\n');
    process.exit(0);
  }
  if (v.version) {
    process.stdout.write(`${PACKAGE.version}\n`);
    process.exit(0);
  }
  const [command, ...rest] = positionals;
  if (command !== 'translate' && command !== 'align') return command ? usageError(`unknown command '${command}'`) : fail(COMMANDS, 2);
  const other = command === 'translate' ? 'align' : 'translate';
  const foreign = [...(other === 'align' ? FIXED_ALIGN : FIXED_TRANSLATE), ...specs.filter((o) => commandOf(o) === other).map(flagOf)];
  for (const name of foreign) {
    if (v[name] !== undefined) usageError(`--${name} is not an option of ${command}`);
  }
  if (rest.length > (command === 'translate' ? 1 : 0)) usageError(`unexpected argument '${rest.at(-1)}'`);
  // The table's options as the engine takes them, by JavaScript name.
  const search: Record<string, unknown> = {}, alignment: Record<string, unknown> = {}, given = new Map<string, string>();
  for (const o of specs) {
    const text = v[flagOf(o)];
    if (commandOf(o) === null || text === undefined) continue;
    if (typeof text === 'string') given.set(o.jsName, text);
    (o.group === 'alignment' ? alignment : search)[o.jsName] = o.type === 'bool' ? !o.default : valueOf(o, text as string);
  }
  const str = (name: string) => v[name] as string | undefined;
  const options: Options = {
    command, model: str('model'), from: str('from'), to: str('to'), json: v.json === true, html: v.html === true,
    text: rest[0], src: str('src'), tgt: str('tgt'), search: search as SearchOptions, alignment: alignment as AlignmentOptions, given,
  };
  if (v['no-copy-through']) options.search.copyThrough = false;  // the model's own output (docs/copy-through.md)
  if (command === 'align' && (options.src === undefined || options.tgt === undefined)) usageError('align needs --src and --tgt');
  if ([v.symmetric, v['reverse-model'], v['one-direction']].filter((x) => x !== undefined).length > 1) {
    usageError('give one of --symmetric, --reverse-model and --one-direction');
  }
  options.reverse = str('reverse-model') ?? (v.symmetric ? 'catalog'
    : v['one-direction'] || options.model !== undefined ? undefined : 'catalog-if-listed');
  if ((options.from === undefined) !== (options.to === undefined)) usageError('--from and --to go together');
  if (options.from !== undefined && options.model !== undefined) usageError('give --model or --from/--to, not both');
  return options;
}

/** The lines of the file given as `flag`, each checked for UTF-8 when its turn comes (cli-input.ts). */
function lines(path: string, flag: string): InputText[] {
  try {
    return linesOf(readFileSync(path), `${flag} ${path}`);
  } catch (e) {
    fail(`cannot read '${path}': ${e instanceof Error ? e.message : String(e)}`, 1);
  }
}

/** Writes one output line per input; an engine error leaves the line empty and counts as a failure. */
async function each<T>(items: AsyncIterable<T> | Iterable<T>, emit: (item: T) => Promise<string>): Promise<number> {
  let failures = 0;
  for await (const item of items) {
    try {
      process.stdout.write((await emit(item)) + '\n');
    } catch (e) {
      if (!(e instanceof CrossattnError)) throw e;
      process.stderr.write(`crossattn: ${e.name}: ${e.fault ? wordFault(e.fault, new Map()) : e.message}\n`);
      process.stdout.write('\n');  // keep output lines aligned with input lines
      failures++;
    }
  }
  return failures;
}

/** The file of a catalog entry if it is at hand: beside the catalog (a clone), else in its installed npm package. */
function installedModel(entry: CatalogEntry): string | undefined {
  if (existsSync(entry.model)) return entry.model;
  if (entry.package === undefined) return undefined;
  try {
    return createRequire(import.meta.url).resolve(`${entry.package}/${basename(entry.model)}`);
  } catch {
    return undefined;
  }
}

/** The file of a catalog entry; exits 1 naming the package to install when it is not at hand. */
function modelFile(entry: CatalogEntry): string {
  if (entry.package === undefined) return installedModel(entry) ?? entry.model;
  const { sourceLang: from, targetLang: to } = entry;
  return installedModel(entry) ?? fail(`no ${from}→${to} model is installed: install the package ${entry.package} (README: "Installing a model"), ` +
    `download it with crossattn download --from ${from} --to ${to} --catalog URL, or pass --model FILE`, 1);
}

/** The package's models/catalog.json, its file names resolved. */
const readCatalog = () => parseCatalog(readFileSync(`${MODELS_DIR}catalog.json`, 'utf8'), MODELS_DIR);

/** The catalog's model file for from→to if it lists one that is at hand. */
function listedModel(from: string, to: string): string | undefined {
  const entry = readCatalog().find((e) => e.sourceLang === from && e.targetLang === to);
  return entry === undefined ? undefined : installedModel(entry);
}

/** Stops with one sentence on a Node older than package.json's engines.node (">=20"). */
function checkNode() {
  const needed = Number(/>=\s*(\d+)/.exec(PACKAGE.engines.node)![1]);
  const found = process.versions.node;
  if (Number(found.split('.')[0]) < needed) fail(`needs Node ${needed} or newer; this is Node ${found}`, 1);
}

/** The catalog's model file for from→to, or its first model when `from` is undefined; exits 1 if none. */
function catalogModel(from: string | undefined, to: string | undefined): string {
  let model: string | undefined;
  try {
    const catalog = readCatalog();
    const entry = from === undefined ? catalog[0] : modelFor(catalog, from, to!);
    if (entry !== undefined) model = modelFile(entry);
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)} in ${MODELS_DIR}catalog.json`, 1);
  }
  return model ?? fail(`${MODELS_DIR}catalog.json lists no model`, 1);
}

/**
 * Exits 2 with the engine's refusal, worded with the flags, unless it takes the options: their
 * values and how they go together, and with `maxPositions` (a loaded model's) the model's limits too.
 */
async function refuseBadOptions(options: Options, maxPositions?: number): Promise<void> {
  try {
    await checkOptions(options.command === 'align' ? { alignment: options.alignment } : options.search, maxPositions);
  } catch (e) {
    if (!(e instanceof InvalidInputError)) throw e;
    fail(e.fault ? wordFault(e.fault, options.given) : e.message, 2);
  }
}

/** A download's progress on a terminal's stderr, for a model by its Hub id: the file, its bytes so far and its total. */
function downloadProgress(loaded: number, total: number, file?: string): void {
  if (file === undefined || !process.stderr.isTTY) return;
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  process.stderr.write(`\r\x1b[Kdownloading ${file}: ${mb(loaded)}${total ? ` of ${mb(total)}` : ''} MB`);
}

/** A loaded Translator (a file, or a Hub id fetched and kept); exits 1 with the reason if it does not load. */
async function loadModel(model: string): Promise<Translator> {
  try {
    return await Translator.load(model, { onProgress: downloadProgress });
  } catch (e) {
    return fail(e instanceof Error ? `cannot load model '${model}': ${e.message}` : String(e), 1);
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  }
}

async function main() {
  checkNode();
  if (process.argv[2] === 'download') return (await import('./download.js')).runDownload(process.argv.slice(3));
  if (process.argv[2] === 'convert') {  // its own options; loads no engine
    const { runConvert } = await import('./convert/command.js');
    return runConvert(process.argv.slice(3), PACKAGE.version);
  }
  const options = parse(process.argv.slice(2), OPTION_TABLE);
  const { search } = options;  // a sentence at a time: beam search unless asked otherwise (docs/api.md, "Decoding defaults")
  if (search.beamSize === undefined && !search.sample) search.beamSize = Math.max(SENTENCE_BEAM_SIZE, search.nBest ?? 1);
  await refuseBadOptions(options);
  const translator = await loadModel(options.model ?? catalogModel(options.from, options.to));
  await refuseBadOptions(options, translator.config.maxPositions);
  let failures: number;
  if (options.command === 'align') {
    const src = lines(options.src!, '--src'), tgt = lines(options.tgt!, '--tgt');
    if (src.length !== tgt.length) fail(`--src has ${src.length} lines but --tgt has ${tgt.length}`, 1);
    const { sourceLang, targetLang } = translator.config;
    const reverseFile = options.reverse === 'catalog' ? catalogModel(targetLang, sourceLang)
      : options.reverse === 'catalog-if-listed' ? listedModel(targetLang, sourceLang) : options.reverse;
    const reverse = reverseFile === undefined ? null : await loadModel(reverseFile);
    failures = await each(src.keys(), async (i) => {
      const [source, target] = [src[i].text(), tgt[i].text()];
      if (reverse) return pharaoh(await translator.alignSymmetric(reverse, source, target, { alignment: options.alignment }));
      const r = await translator.align(source, target, { attention: false, alignment: options.alignment });
      return r.alignment ? pharaoh(r.alignment) : '';
    });
    reverse?.dispose();
  } else if (options.html) {
    if (options.text === undefined && process.stdin.isTTY) process.stderr.write('crossattn: reading an HTML fragment; end with Ctrl-D\n');
    failures = await each([options.text !== undefined ? argumentText(options.text) : wholeStdin()], async (input) => {
      const r = await translator.translate(input.text(), { ...options.search, html: true, attention: false });
      const sentences = r.sentences.map((s) => ({ text: s.text, confidence: s.confidence, links: s.alignment?.links }));
      return options.json ? JSON.stringify({ text: r.text, confidence: r.confidence, sentences, model: translator.info }) : r.text;
    });
  } else {
    if (options.text === undefined && process.stdin.isTTY) {
      process.stderr.write('crossattn: translating what you type, one sentence per line; end with Ctrl-D\n');
    }
    const input = options.text !== undefined ? [argumentText(options.text)] : streamLines(process.stdin, 'stdin');
    const progress = options.text === undefined && !process.stdin.isTTY && process.stderr.isTTY;
    let lineNumber = 0;
    failures = await each(input, async (item) => {
      const n = lineNumber++, line = item.text();
      if (progress) process.stderr.write(`\r${n} lines translated`);
      if (!options.json && (options.search.nBest ?? 1) === 1) {  // a line is a paragraph: its sentences translate as a batch
        const paragraphs = splitParagraphs(line, translator.config.sourceLang);
        const results = await translator.translateBatch(paragraphs.flat(), { ...options.search, attention: false });
        const where = options.text === undefined ? `line ${n + 1}: ` : '';
        for (const note of results.flatMap((r) => flagNotes(r.copyThrough))) process.stderr.write(`${progress ? '\r\x1b[K' : ''}crossattn: ${where}${note}\n`);
        return joinParagraphs(paragraphs, results.map((r) => r.text));
      }
      const r = await translator.translate(line, { ...options.search, attention: options.json });
      if (!options.json) {
        return r.hypotheses.map((h) => `${n} ||| ${h.text} ||| ${h.logProb} ||| ${h.score}`).join('\n');
      }
      // Typed arrays as arrays, at any depth: crossAttention rows, and those of a long sentence's parts.
      return JSON.stringify({ ...r, model: translator.info }, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float32Array) : v));
    });
  }
  translator.dispose();
  if (process.stderr.isTTY && options.text === undefined && !process.stdin.isTTY) process.stderr.write('\r\x1b[K');
  if (failures) process.exit(1);
}

// Output piped into a reader that stops early (`| head`) ends the command quietly, as Unix tools do.
process.stdout.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? process.exit(0) : fail(e.message, 1)));
main().catch((e) => fail(e instanceof Error ? e.message : String(e), 1));
