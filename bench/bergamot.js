// The Bergamot peer of `npm run bench`: Mozilla's bergamot-translator (Marian compiled to wasm, the
// engine of Firefox's offline translation; npm @browsermt/bergamot-translator 0.4.9, Marian
// browsermt/marian-dev e88c1aa) in Node 20, on a model that bench/export_marian.py wrote from the
// same weights as ours. docs/bergamot.md says what was read in Marian's source and why its outputs
// differ from ours on a pre-norm model.
//
// The package's glue (worker/bergamot-translator-worker.js) has no Node branch and its wasm imports
// a `wasm_gemm` module of 7 int8 functions (Firefox's WebAssembly.mozIntGemm); as the package's own
// worker does (translator-worker.js, GEMM_TO_FALLBACK_FUNCTIONS_MAP), they are linked to the
// fallbacks the binary exports, and the glue is evaluated in the global scope.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const require = createRequire(import.meta.url);

const GEMM_TO_FALLBACK = {
  int8_prepare_a: 'int8PrepareAFallback',
  int8_prepare_b: 'int8PrepareBFallback',
  int8_prepare_b_from_transposed: 'int8PrepareBFromTransposedFallback',
  int8_prepare_b_from_quantized_transposed: 'int8PrepareBFromQuantizedTransposedFallback',
  int8_prepare_bias: 'int8PrepareBiasFallback',
  int8_multiply_and_add_bias: 'int8MultiplyAndAddBiasFallback',
  int8_select_columns_of_b: 'int8SelectColumnsOfBFallback',
};

let bergamotInstance;
/**
 * The Bergamot wasm module and its one BlockingService, made once per process: the glue sets a global
 * `Module` (a second evaluation never initializes), and a second BlockingService throws.
 */
function bergamotModule() {
  bergamotInstance ??= instantiateBergamot().then((Module) => ({ Module, service: new Module.BlockingService({ cacheSize: 0 }) }));
  return bergamotInstance;
}

async function instantiateBergamot() {
  const dir = path.dirname(require.resolve('@browsermt/bergamot-translator/package.json'));
  const wasmBinary = readFileSync(path.join(dir, 'worker/bergamot-translator-worker.wasm'));
  const glue = readFileSync(path.join(dir, 'worker/bergamot-translator-worker.js'), 'utf8');
  return new Promise((resolve, reject) => {
    const Module = {
      print: (s) => process.stderr.write(`bergamot: ${s}\n`),
      printErr: (s) => process.stderr.write(`bergamot: ${s}\n`),
      instantiateWasm(imports, accept) {
        const wasmGemm = Object.fromEntries(Object.entries(GEMM_TO_FALLBACK)
          .map(([name, fallback]) => [name, (...args) => Module.asm[fallback](...args)]));
        WebAssembly.instantiate(wasmBinary, { ...imports, wasm_gemm: wasmGemm })
          .then(({ instance }) => accept(instance), reject);
        return {};
      },
      onRuntimeInitialized: () => resolve(Module),
      onAbort: reject,
    };
    globalThis.Module = Module;
    vm.runInThisContext(glue, { filename: 'bergamot-translator-worker.js' });
  });
}

/**
 * Loads a Marian model (`dir`/model.bin and vocab.spm, bench/export_marian.py) into Bergamot.
 * @param {string} dir the export's folder
 * @param {string} gemm Marian's gemm-precision: 'float32', or 'int8shiftAll' (int8 products with the
 *   per-matrix scales of an intgemm8 export, or quantized at load from float32)
 * @param {{options?: string[], shortlist?: string}} [extra] more Marian/Bergamot options as YAML lines,
 *   replacing those set here (e.g. 'ssplit-mode: sentence': one sentence per call, where the default
 *   splits a line into its sentences), and a binary lexical shortlist file (lex.*.s2t.bin) to load
 * @returns {Promise<{translate: (line: string) => string, loadMs: number}>} greedy translation of one
 *   line (beam 1, at most max-length-factor × S tokens for S source tokens with </s>: beam_search.cpp:496-505),
 *   and the load time (ms) without the wasm compile
 */
export async function loadBergamot(dir, gemm, extra = {}) {
  const { Module, service } = await bergamotModule();
  const aligned = (bytes, alignment) => {
    const memory = new Module.AlignedMemory(bytes.byteLength, alignment);
    memory.getByteArrayView().set(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return memory;
  };
  // Options as the package's worker sets them (translator-worker.js), greedy, no shortlist.
  const key = (line) => line.split(':')[0].trim();
  const overridden = new Set((extra.options ?? []).map(key));
  const config = ['beam-size: 1', 'normalize: 1.0', 'word-penalty: 0', 'max-length-break: 512', 'mini-batch-words: 1024',
                  'workspace: 128', 'max-length-factor: 2.0', 'skip-cost: true', 'cpu-threads: 0', 'quiet: true',
                  'quiet-translation: true', `gemm-precision: ${gemm}`]
    .filter((line) => !overridden.has(key(line))).concat(extra.options ?? []).join('\n');
  const start = performance.now();
  const model = aligned(readFileSync(path.join(dir, 'model.bin')), 256);  // Marian refuses a model not 256-byte aligned
  const vocabs = new Module.AlignedMemoryList();
  vocabs.push_back(aligned(readFileSync(path.join(dir, 'vocab.spm')), 64));  // one entry: shared vocabulary
  const shortlist = extra.shortlist ? aligned(readFileSync(extra.shortlist), 64)
    : new Module.AlignedMemory(0, 64);  // empty: the full output layer, as ours
  const translationModel = new Module.TranslationModel(config, model, shortlist, vocabs, null);
  const loadMs = performance.now() - start;

  function translate(line) {
    const input = new Module.VectorString(), options = new Module.VectorResponseOptions();
    input.push_back(line);
    options.push_back({ qualityScores: false, alignment: false, html: false });
    const output = service.translate(translationModel, input, options);
    const text = output.get(0).getTranslatedText();
    input.delete();
    options.delete();
    output.delete();
    return text;
  }
  return { translate, loadMs };
}
