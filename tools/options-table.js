#!/usr/bin/env node
// The options table of docs/api.md, made from the engine's option table (cpp/options.h, through
// optionSpecs()), so that the docs never restate a default by hand.
//   node tools/options-table.js          prints the table
//   node tools/options-table.js --write  replaces the table between the markers in docs/api.md
// tests/js/options.test.js checks that docs/api.md holds what this prints.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { optionSpecs } from '../dist/index.js';

export const BEGIN = '<!-- options table: made by tools/options-table.js from cpp/options.h -->';
export const END = '<!-- end of options table -->';
const API = fileURLToPath(new URL('../docs/api.md', import.meta.url));

/** The markdown table of every option: JavaScript name, CLI flag, type and range, default, meaning. */
export async function optionsTable() {
  const rows = (await optionSpecs()).map((o) => {
    const name = o.group === 'alignment' ? `alignment.${o.jsName}` : o.jsName;
    const flag = o.group === 'output' ? '' : `\`--${o.type === 'bool' && o.default === true ? 'no-' : ''}${o.flag}\``;
    const type = o.type === 'choice' ? o.choices.join(' \\| ') : `${o.type}${o.range ? ` ${o.range}` : ''}`;
    const fallback = o.type === 'int[]' && o.default.length === 0 ? 'none' : `\`${JSON.stringify(o.default)}\``;
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
  const table = await optionsTable();
  if (values.write) writeFileSync(API, withTable(readFileSync(API, 'utf8'), table));
  else process.stdout.write(table + '\n');
}
