#!/usr/bin/env node
// Everything made from the model file's spec (cpp/model/tensor_spec.json), the one place its config
// fields and tensors are declared:
//   cpp/model/tensor_spec.generated.h             the engine's tables and tensor-name constants (cpp.js)
//   bindings/src/convert/model-spec.generated.ts  the converters' config type and tables (typescript.js)
//   models/model_spec_generated.py                the Python writer's tables (python.js)
//   docs/model-format.md                          its config, tensor and format tables (docs.js)
//   node tools/model-spec/index.js --write   rewrites them
//   node tools/model-spec/index.js --check   exits 1 naming each file that differs from what the spec makes
// tests/js/model-spec-generated.test.js makes them anew in memory and fails when one differs (a hand
// edit, or a spec changed without --write).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatedHeader } from './cpp.js';
import { modelFormatDoc } from './docs.js';
import { generatedPython } from './python.js';
import { readSpec } from './spec.js';
import { generatedTypeScript } from './typescript.js';

const path = (relative) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

/** Each generated file: its path, and its text made from a checked spec and the file's current text. */
export const TARGETS = [
  { file: 'cpp/model/tensor_spec.generated.h', make: (spec) => generatedHeader(spec) },
  { file: 'bindings/src/convert/model-spec.generated.ts', make: (spec) => generatedTypeScript(spec) },
  { file: 'models/model_spec_generated.py', make: (spec) => generatedPython(spec) },
  { file: 'docs/model-format.md', make: (spec, current) => modelFormatDoc(spec, current) },
];

const current = (file) => { try { return readFileSync(path(file), 'utf8'); } catch { return ''; } };

/** [file, current text, text the spec makes] for every target, from the spec on disk or `spec`. */
export function generatedFiles(spec = readSpec()) {
  return TARGETS.map(({ file, make }) => [file, current(file), make(spec, current(file))]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { write: { type: 'boolean', default: false }, check: { type: 'boolean', default: false } } });
  let stale = 0;
  for (const [file, now, made] of generatedFiles()) {
    if (now === made) continue;
    if (values.write) {
      writeFileSync(path(file), made);
      console.log(`wrote ${file}`);
    } else {
      console.error(`${file} differs from cpp/model/tensor_spec.json: run node tools/model-spec/index.js --write`);
      stale += 1;
    }
  }
  if (stale > 0 && values.check) process.exit(1);
}
