/**
 * The engine's option table (cpp/options.cc, option_specs(); exported by bindings/options_json.cc)
 * as JavaScript reads it: optionSpecs() from a WebAssembly instance, and checkOptions(), the
 * engine's checks of options that need no model, for a front end that refuses a command line
 * before loading one (cli.ts). The option types themselves are generated from the table
 * (options.generated.ts, tools/internals/options-table.js).
 */
import type { EngineModule } from './crossattn.mjs';
import { instantiateEngine, type WasmSource } from './engine.js';
import { errorFromEngine } from './errors.js';
import { engineOptionsJson } from './search.js';
import type { OptionSpec } from './option-spec.js';

export type { OptionSpec } from './option-spec.js';

let tableEngine: Promise<EngineModule> | null = null;

// One WebAssembly instance, made on first use, that answers optionSpecs() and checkOptions(); a
// failed start is not remembered.
function engineForTable(wasm?: WasmSource): Promise<EngineModule> {
  tableEngine ??= instantiateEngine(wasm, 1).then(({ engine }) => engine).catch((e: unknown) => {
    tableEngine = null;
    throw e;
  });
  return tableEngine;
}

/**
 * The engine's option table: each option's names, type, range, default and doc, read from a
 * WebAssembly instance (the first call of this or checkOptions instantiates one; later calls reuse it).
 * @param wasm the engine's .wasm (default: crossattn.wasm beside this module).
 */
export async function optionSpecs(wasm?: WasmSource): Promise<OptionSpec[]> {
  return JSON.parse((await engineForTable(wasm)).optionSpecs()) as OptionSpec[];
}

/**
 * Checks `options` (TranslateOptions' engine fields) as far as the engine can without a model:
 * each value against the table, nBest at most beamSize, sampling with beamSize 1; with
 * `maxPositions` (a model's ModelConfig.maxPositions) also maxLength against it. The work budget
 * is checked when a model translates.
 * @throws InvalidInputError (as a rejection) with `fault` set for the first option refused.
 */
export async function checkOptions(options: object, maxPositions = 0, wasm?: WasmSource): Promise<void> {
  const json = engineOptionsJson(options);
  const result = (await engineForTable(wasm)).checkOptions(json, maxPositions);
  if ('error' in result) throw errorFromEngine(result.error);
}
