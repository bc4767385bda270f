/**
 * The engine's WebAssembly: compiled once per source and kept, then instantiated once per
 * translator (each translator owns its memory), and a model file read straight into that memory.
 */
import createCrossattnModule, { type EngineModule, type WasmFileBuffer, type WasmTranslator } from './crossattn.mjs';
import { CrossattnError, LoadError, errorFromEngine } from './errors.js';
import { readBytes, readInto, type ByteSource, type FileSink, type ProgressCallback } from './sources.js';

/** The engine's .wasm: bytes, a URL or a path (ByteSource), or a module compiled already (prepareEngine). */
export type WasmSource = ByteSource | WebAssembly.Module;

const DEFAULT_WASM = new URL('./crossattn.wasm', import.meta.url);
const compiledByName = new Map<string, Promise<WebAssembly.Module>>();
const compiledByBytes = new WeakMap<object, Promise<WebAssembly.Module>>();

/**
 * Reads and compiles the engine once per source; later calls with the same URL, path or bytes get
 * the same module. Call it early (at page start, beside the model's download) so that
 * Translator.load only instantiates the engine; post its result to workers as their `wasm`.
 * @param wasm the engine's .wasm (default: crossattn.wasm beside this module).
 * @throws LoadError when the wasm cannot be read or is not a valid module (a failure is not kept).
 */
export function prepareEngine(wasm: WasmSource = DEFAULT_WASM): Promise<WebAssembly.Module> {
  if (wasm instanceof WebAssembly.Module) return Promise.resolve(wasm);
  const name = typeof wasm === 'string' || wasm instanceof URL ? String(wasm) : null;
  const cached = name !== null ? compiledByName.get(name) : compiledByBytes.get(wasm as object);
  if (cached) return cached;
  const forget = () => (name !== null ? compiledByName.delete(name) : compiledByBytes.delete(wasm as object));
  const compiled = readBytes(wasm as ByteSource)
    .then((bytes) => WebAssembly.compile(bytes as BufferSource))
    .catch((e: unknown) => {
      forget();
      throw e instanceof CrossattnError ? e : new LoadError(`cannot compile the engine: ${e instanceof Error ? e.message : String(e)}`);
    });
  if (name !== null) compiledByName.set(name, compiled);
  else compiledByBytes.set(wasm as object, compiled);
  return compiled;
}

/** A new instance of the engine, with its own memory. @throws LoadError as prepareEngine. */
export async function instantiateEngine(wasm?: WasmSource): Promise<EngineModule> {
  const compiled = await prepareEngine(wasm);
  return new Promise((resolve, reject) => {
    createCrossattnModule({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(compiled, imports).then((instance) => done(instance, compiled), reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

/**
 * Loads a model file into a new instance of the engine: the file's download (or opening) starts at
 * once, beside the engine's compile, and its bytes go straight into the instance's memory (no
 * whole-file copy in JS for a file path or a download of announced length), where they are parsed.
 * @throws LoadError when either file cannot be read; ModelFormatError, TokenizerError or
 *   OutOfMemoryError from the engine.
 */
export async function loadModel(model: ByteSource, options: { wasm?: WasmSource; onProgress?: ProgressCallback } = {}):
    Promise<{ engine: EngineModule; translator: WasmTranslator }> {
  const instance = instantiateEngine(options.wasm);
  instance.catch(() => {});  // a failure is reported when the read needs the instance, or below
  const sink: FileSink<WasmFileBuffer> = {
    async allocate(size) {
      const allocated = (await instance).allocateFileBuffer(size);
      if ('error' in allocated) throw errorFromEngine(allocated.error);
      return allocated.buffer;
    },
    view: (buffer) => buffer.view(),
    free: (buffer) => buffer.delete(),
  };
  const { buffer, size } = await readInto(model, sink, options.onProgress);
  try {
    const engine = await instance;
    const loaded = engine.loadTranslator(buffer, size);
    if ('error' in loaded) throw errorFromEngine(loaded.error);
    return { engine, translator: loaded.translator };
  } finally {
    buffer.delete();  // the translator keeps the bytes it reads in place
  }
}
