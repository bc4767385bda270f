#!/usr/bin/env node
// The TypeScript declarations of the engine's results (bindings/src/result.generated.ts) and the
// Translation table of docs/api.md, made from the field tables of cpp/translation.h (through the
// engine's resultFields()), so that no field's name, type or doc is written twice.
//   node tools/internals/result-types.js          prints both
//   node tools/internals/result-types.js --write  writes the .ts file and the table between the markers in docs/api.md
// tests/js/result-types.test.js fails when either differs from what this makes.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { instantiateEngine } from '../../dist/engine.js';

export const TS_FILE = fileURLToPath(new URL('../../bindings/src/result.generated.ts', import.meta.url));
export const API = fileURLToPath(new URL('../../docs/api.md', import.meta.url));
export const BEGIN = '<!-- translation table: made by tools/internals/result-types.js from cpp/translation.h -->';
export const END = '<!-- end of translation table -->';

// The JavaScript form of the fields bindings/src/engine-translation.ts reshapes, with its shape in words.
const PUBLIC_FORMS = {
  crossAttention: { type: 'Float32Array[][][]', shape: '[L][H][T] of `Float32Array(S)`' },
  residual: { type: 'ResidualStats', shape: '`{ inputNorm, updateNorm, cosine }`, each [L][T]' },
};
const PUBLIC_TYPES = {
  'string': 'string', 'string[]': 'string[]', 'int[]': 'number[]', 'float[]': 'number[]', 'float': 'number',
  'int': 'number', 'hypotheses': 'Hypothesis[]', 'alignment': 'WordAlignment',
};
const ENGINE_TYPES = {
  ...PUBLIC_TYPES, 'float[]': 'Float32Array | null', 'hypotheses': 'EngineHypothesis[]', 'alignment': 'EngineAlignment | null',
};

/** The engine's field tables: { hypothesis, translation }, each field as bindings/result_value.h lists it. */
export async function resultFields() {
  const { engine } = await instantiateEngine(undefined, 1);
  return engine.resultFields();
}

/** A doc in JavaScript names: C++ identifiers (n_best, token_log_probs) in camelCase, file names kept. */
export function jsDoc(doc) {
  return doc.replace(/(?<![/\w])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?!\.(?:h|cc|md)\b)/g,
    (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()));
}

// A doc comment of `text` at `indent`, wrapped at 110 columns.
function comment(text, indent = '  ') {
  const words = text.split(' '), lines = [];
  let line = '';
  for (const word of words) {
    if (line && indent.length + 3 + line.length + 1 + word.length > 110) lines.push(line), line = word;
    else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`].join('\n');
}

// One interface: `fields` with `types` (a field of PUBLIC_FORMS in its public form when `publicForm`).
function declaration(name, doc, fields, types, { publicForm = false, extendsName = '' } = {}) {
  const body = fields.map((f) => {
    const form = publicForm ? PUBLIC_FORMS[f.jsName] : undefined;
    const shape = jsDoc(form ? form.shape : f.shape);
    const optional = publicForm && f.presence === 'on request' ? '?' : '';
    const prefix = !shape ? '' : shape.includes(' ') ? `${shape}: ` : `${shape} `;
    return `${comment(jsDoc(`${prefix}${f.doc}`))}\n  ${f.jsName}${optional}: ${form?.type ?? types[f.type]};`;
  });
  return `${comment(doc, '')}\nexport interface ${name}${extendsName ? ` extends ${extendsName}` : ''} {\n${body.join('\n')}\n}\n`;
}

/** The text of bindings/src/result.generated.ts. */
export function resultTypes({ hypothesis, translation }) {
  const own = translation.filter((f) => !f.fromHypothesis && f.presence !== 'shape');
  return [
    '// Made by tools/internals/result-types.js from the field tables of cpp/translation.h: do not edit by hand, run',
    '// `node tools/internals/result-types.js --write` (tests/js/result-types.test.js fails when this file differs).',
    "import type { EngineAlignment, ResidualStats, WordAlignment } from './alignment.js';",
    '',
    declaration('Hypothesis', 'One entry of the n-best list (Translation.hypotheses).', hypothesis, PUBLIC_TYPES,
      { publicForm: true }),
    declaration('EngineMadeTranslation', 'The fields of a Translation that the engine makes (translator-types.ts adds the ' +
      "JavaScript side's); the best hypothesis' are the Hypothesis fields.", own, PUBLIC_TYPES,
    { publicForm: true, extendsName: 'Hypothesis' }),
    declaration('EngineHypothesis', 'A Hypothesis as the engine hands it over: float lists as Float32Array, null when empty.',
      hypothesis, ENGINE_TYPES),
    declaration('EngineTranslation', 'A translation as the engine hands it over (bindings/result_value.h): float lists ' +
      'flat, null when empty; engine-translation.ts makes the public Translation of it.', translation, ENGINE_TYPES),
  ].join('\n');
}

/** The markdown table of the fields the engine makes, for docs/api.md. */
export function translationTable({ translation }) {
  const rows = translation.filter((f) => f.presence !== 'shape').map((f) => {
    const shape = jsDoc(PUBLIC_FORMS[f.jsName]?.shape ?? f.shape).replace(/\|/g, '\\|');
    return `| \`${f.jsName}\` | ${shape} | ${jsDoc(f.doc).replace(/\|/g, '\\|')} |`;
  });
  return ['| field | shape | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** docs/api.md's text with the table between the markers replaced by `table`. */
export function withTable(text, table) {
  const begin = text.indexOf(BEGIN), end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/api.md lacks the markers ${BEGIN} ... ${END}`);
  return `${text.slice(0, begin + BEGIN.length)}\n${table}\n${text.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
  const fields = await resultFields();
  const [types, table] = [resultTypes(fields), translationTable(fields)];
  if (values.write) {
    writeFileSync(TS_FILE, types);
    writeFileSync(API, withTable(readFileSync(API, 'utf8'), table));
  } else {
    process.stdout.write(`${types}\n${table}\n`);
  }
}
