/**
 * The engine's option table (cpp/options.cc, option_specs(); exported by bindings/options_json.cc)
 * as JavaScript reads it: optionSpecs() from a WebAssembly instance, and checkOptions(), the
 * engine's checks of options that need no model, for a front end that refuses a command line
 * before loading one (cli.ts). The option types themselves are generated from the table
 * (options.generated.ts, tools/options-table.js).
 */
import type { EngineModule } from './crossattn.mjs';
import { instantiateEngine, type WasmSource } from './engine.js';
import { errorFromEngine } from './errors.js';
import { engineOptionsJson } from './search.js';

/** One option of the engine's table (cpp/options.h): what `optionSpecs()` returns. */
export interface OptionSpec {
  /** The engine's neutral name, its C++ field (beam_size). */
  name: string;
  /** The JavaScript name (beamSize); alignment options are fields of `alignment`. */
  jsName: string;
  /** The command-line flag without dashes (beam-size); a boolean that defaults to true is --no-FLAG. */
  flag: string;
  group: 'search' | 'length' | 'output' | 'alignment';
  type: 'int' | 'float' | 'bool' | 'choice' | 'int[]';
  min?: number;
  max?: number;
  minExclusive: boolean;
  choices?: string[];
  /** The value front ends use for a sentence a person typed, where it differs from `default` (beamSize: 4). */
  sentenceDefault?: number;
  /** The range in words ("from 1 to 64", "in (0, 1]"), empty when unbounded. */
  range: string;
  /** What a value must be, as errors say it: "an integer from 1 to 64". */
  rule: string;
  default: number | boolean | string | number[];
  /** One line; other options named by their JavaScript names. */
  doc: string;
  /** The same naming other options by their command-line flags (--beam-size), for the CLI's help. */
  flagDoc: string;
}

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
