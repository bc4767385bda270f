#!/usr/bin/env node
// The files made from the engine's option table (cpp/options.cc, option_specs(); read from
// dist/crossattn.wasm), so that no option's type, default, range or doc is restated by hand:
//   bindings/src/options.generated.ts  the TypeScript option types, with their docs, and the table's data
//   docs/api.md                        the options table, between its markers
//   node tools/internals/options-table.js          prints the docs table
//   node tools/internals/options-table.js --write  rewrites both files
// tests/js/options.test.js makes both anew in memory and fails when a file differs (a hand edit, or
// a table changed without --write).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import createCrossattnModule from '../../dist/crossattn.mjs';

export const BEGIN = '<!-- options table: made by tools/internals/options-table.js from cpp/options.h -->';
export const END = '<!-- end of options table -->';
const API = fileURLToPath(new URL('../../docs/api.md', import.meta.url));
export const GENERATED_TS = fileURLToPath(new URL('../../bindings/src/options.generated.ts', import.meta.url));

let engineTable = null;

/**
 * The engine's option table, read from dist/crossattn.wasm itself (as optionSpecs() in options.ts
 * does), so that it can be made after `npm run build:wasm` and before the TypeScript it types is compiled.
 */
function optionSpecs() {
  engineTable ??= (async () => {
    const module = await WebAssembly.compile(readFileSync(new URL('../../dist/crossattn.wasm', import.meta.url)));
    const engine = await createCrossattnModule({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
        return {};
      },
    });
    return JSON.parse(engine.optionSpecs());
  })();
  return engineTable;
}

/** The flag of an option: --FLAG, or --no-FLAG for a boolean that defaults to true. */
const flagOf = (o) => `--${o.type === 'bool' && o.default === true ? 'no-' : ''}${o.flag}`;

/** The markdown table of every option: JavaScript name, CLI flag, type and range, default, meaning. */
export async function optionsTable() {
  const rows = (await optionSpecs()).map((o) => {
    const name = o.group === 'alignment' ? `alignment.${o.jsName}` : o.jsName;
    const flag = o.group === 'output' ? '' : `\`${flagOf(o)}\``;
    const type = o.type === 'choice' ? o.choices.join(' \\| ') : `${o.type}${o.range ? ` ${o.range}` : ''}`;
    const fallback = (o.type === 'int[]' && o.default.length === 0 ? 'none' : `\`${JSON.stringify(o.default)}\``) +
      (o.sentenceDefault === undefined ? '' : `; \`${o.sentenceDefault}\` for a sentence typed in the page or either CLI`);
    return `| \`${name}\` | ${flag} | ${type} | ${fallback} | ${o.doc} |`;
  });
  return ['| option | CLI | type | default | meaning |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** docs/api.md's text with the table between the markers replaced by `table`. */
export function withTable(text, table) {
  const begin = text.indexOf(BEGIN), end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/api.md lacks the markers ${BEGIN} ... ${END}`);
  return `${text.slice(0, begin + BEGIN.length)}\n${table}\n${text.slice(end)}`;
}

const TS_TYPES = { int: 'number', float: 'number', bool: 'boolean', 'int[]': 'number[]' };

/** One optional field of a generated interface, its doc the table's, with its rule and default. */
function field(o) {
  const type = o.type === 'choice' ? o.choices.map((c) => `'${c}'`).join(' | ') : TS_TYPES[o.type];
  const fallback = o.type === 'int[]' && o.default.length === 0 ? 'none' : JSON.stringify(o.default);
  const doc = `${o.doc[0].toUpperCase()}${o.doc.slice(1)}. ${o.rule[0].toUpperCase()}${o.rule.slice(1)}; default ${fallback}.`;
  return `  /** ${doc.replaceAll('*/', '* /')} */\n  ${o.jsName}?: ${type};`;
}

/** bindings/src/options.generated.ts: an interface per group of the table, and the table as data. */
export async function generatedTypes() {
  const specs = await optionSpecs();
  const fields = (...groups) => specs.filter((o) => groups.includes(o.group)).map(field).join('\n');
  return `// Made by tools/internals/options-table.js from the engine's option table (cpp/options.cc, option_specs()).
// Do not edit: \`node tools/internals/options-table.js --write\` makes it anew; tests/js/options.test.js fails
// when it differs from what the table makes.
import type { OptionSpec } from './option-spec.js';

/** The search and length options of the engine's table (search.ts, SearchOptions). */
export interface TableSearchOptions {
${fields('search', 'length')}
}

/** The output options of the engine's table (translator.ts, TranslateOptions). */
export interface TableOutputOptions {
${fields('output')}
}

/** The alignment options of the engine's table (alignment.ts, AlignmentOptions). */
export interface TableAlignmentOptions {
${fields('alignment')}
}

/** The engine's option table as optionSpecs() returns it, for code that needs it without an engine (the CLI). */
export const OPTION_TABLE: readonly OptionSpec[] = ${JSON.stringify(specs, null, 2)};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
  const table = await optionsTable();
  if (values.write) {
    writeFileSync(API, withTable(readFileSync(API, 'utf8'), table));
    writeFileSync(GENERATED_TS, await generatedTypes());
  } else {
    process.stdout.write(table + '\n');
  }
}
