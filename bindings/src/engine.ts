/**
 * The engine's WebAssembly: compiled once per source and kept, then instantiated once per
 * translator (each translator owns its memory), and a model file read straight into that memory.
 * Three builds (engine-build.ts): crossattn.wasm (SIMD128) and crossattn-relaxed.wasm (relaxed
 * SIMD, where the JavaScript engine has it) on one thread; crossattn-mt.wasm (pthreads, shared
 * memory) where the page or worker is cross-origin isolated, its matrix products on several threads.
 */
import createCrossattnModule, { type EngineModule, type WasmFileBuffer, type WasmTranslator } from './crossattn.mjs';
import { THREADED_WASM, engineBuild, simdWanted, singleThreadWasm, type EngineBuild, type SimdOption } from './engine-build.js';
import { CrossattnError, InvalidInputError, LoadError, ModelFormatError, errorFromEngine } from './errors.js';
import { readMetadata } from './model-info.js';
import { readBytes, readInto, type ByteSource, type FileSink, type ProgressCallback } from './sources.js';

/** The engine's .wasm: bytes, a URL or a path (ByteSource), or a module compiled already (prepareEngine). */
export type WasmSource = ByteSource | WebAssembly.Module;

/** Threads for a translator's matrix products: a count in [1, MAX_THREADS], or 'auto' (threadsAvailable()). */
export type ThreadsOption = number | 'auto';

/** The most threads a translator uses (the pthreads engine's Worker pool is at most 3, plus the caller). */
export const MAX_THREADS = 4;

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

/**
 * Threads the pthreads engine can use here: min(MAX_THREADS, navigator.hardwareConcurrency) in a
 * browser page or worker that is cross-origin isolated (served with Cross-Origin-Opener-Policy:
 * same-origin and Cross-Origin-Embedder-Policy: require-corp, so SharedArrayBuffer exists), else 1.
 * Node gets 1: the pthreads engine needs the browser's Workers (use a WorkerPool for documents).
 */
export function threadsAvailable(): number {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  if (isNode || !isolated || typeof SharedArrayBuffer !== 'function') return 1;
  return Math.max(1, Math.min(MAX_THREADS, globalThis.navigator?.hardwareConcurrency ?? 1));
}

/** The thread count `threads` asks for. @throws InvalidInputError for a value outside 'auto' and [1, MAX_THREADS]. */
function threadsWanted(threads: ThreadsOption | undefined): number {
  if (threads === undefined || threads === 'auto') return threadsAvailable();
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    throw new InvalidInputError(`threads must be 'auto' or an integer from 1 to ${MAX_THREADS}, not ${String(threads)}`);
  }
  return threads;
}
const compiledByName = new Map<string, Promise<WebAssembly.Module>>();
const compiledByBytes = new WeakMap<object, Promise<WebAssembly.Module>>();

/**
 * Reads and compiles the engine once per source; later calls with the same URL, path or bytes get
 * the same module; in a browser a URL compiles while it downloads (compileEngine). Then warms the
 * single-thread engine up: a scratch instance runs the model-load path on a small synthetic
 * tokenizer (bindings/warm_up.cc), so that V8 has optimized that code
 * when a model arrives (general-en-de's first load in a fresh Node process: 177 ms cold). Call it
 * early (at page start, beside the model's download) so that Translator.load only instantiates the
 * engine; post its result to workers as their `wasm`.
 * @param wasm the engine's .wasm (default: the build for `threads` and `simd`, beside this module).
 * @param threads the LoadOptions.threads the module is for (default 1): crossattn-mt.wasm when it
 *   asks for more than one thread and threadsAvailable() allows them, else a single-thread build.
 * @param simd the LoadOptions.simd the module is for (default 'auto'): the single-thread build is
 *   crossattn-relaxed.wasm for 'relaxed', and for 'auto' where relaxedSimdSupported(), else crossattn.wasm.
 * @throws LoadError when the wasm cannot be read or is not a valid module (a failure is not kept),
 *   or for simd 'relaxed' where this JavaScript engine lacks relaxed SIMD; InvalidInputError for a
 *   bad `threads` or `simd`.
 */
export function prepareEngine(wasm?: WasmSource, threads: ThreadsOption = 1, simd: SimdOption = 'auto'): Promise<WebAssembly.Module> {
  if (wasm === undefined) {
    try {
      const wanted = simdWanted(simd);
      wasm = threadsWanted(threads) > 1 && threadsAvailable() > 1 && wanted !== 'relaxed' ? THREADED_WASM : singleThreadWasm(wanted);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  if (wasm instanceof WebAssembly.Module) return Promise.resolve(wasm);
  const name = typeof wasm === 'string' || wasm instanceof URL ? String(wasm) : null;
  const cached = name !== null ? compiledByName.get(name) : compiledByBytes.get(wasm as object);
  if (cached) return cached;
  const forget = () => (name !== null ? compiledByName.delete(name) : compiledByBytes.delete(wasm as object));
  const compiled = compileEngine(wasm)
    .then(async (module) => {
      if (engineBuild(module) !== 'threads') await warmUp(module);
      return module;
    })
    .catch((e: unknown) => {
      forget();
      throw e instanceof CrossattnError ? e : new LoadError(`cannot compile the engine: ${e instanceof Error ? e.message : String(e)}`);
    });
  if (name !== null) compiledByName.set(name, compiled);
  else compiledByBytes.set(wasm as object, compiled);
  return compiled;
}

/**
 * `wasm` as an http(s) URL to stream from, in a browser (relative to the page or worker), or null:
 * Node reads its files from disk (sources.ts) and keeps the plain compile.
 */
function streamingUrl(wasm: ByteSource): URL | null {
  if (isNode || typeof WebAssembly.compileStreaming !== 'function' || !(typeof wasm === 'string' || wasm instanceof URL)) return null;
  try {
    const url = new URL(wasm, (globalThis as { location?: { href: string } }).location?.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;  // readBytes says why
  }
}

/**
 * Compiles the engine from `wasm`. A URL in a browser compiles while it downloads
 * (WebAssembly.compileStreaming: WebAssembly JS Interface, "Streaming compilation"), when the server
 * sends it as application/wasm, which that requires (web/serve.js does, and the static site's
 * _headers, web/build.js); from any other server, from its bytes. Anything else: from its bytes
 * (readBytes). @throws LoadError when it cannot be fetched; what WebAssembly.compile throws.
 */
async function compileEngine(wasm: ByteSource): Promise<WebAssembly.Module> {
  const url = streamingUrl(wasm);
  if (url === null) return WebAssembly.compile(await readBytes(wasm) as BufferSource);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new LoadError(`cannot fetch ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!response.ok) throw new LoadError(`cannot fetch ${url}: HTTP ${response.status}`);
  if (response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() === 'application/wasm') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

const WARM_UP_PIECES = 4000;

/** Emscripten's glue for a build: each build's .mjs names its own imports. */
async function glue(build: EngineBuild): Promise<typeof createCrossattnModule> {
  if (build === 'threads') return (await import('./crossattn-mt.mjs')).default;
  if (build === 'relaxed') return (await import('./crossattn-relaxed.mjs')).default;
  return createCrossattnModule;
}

/** Instantiates the engine `module` with its build's glue. */
async function createEngine(module: WebAssembly.Module): Promise<EngineModule> {
  const create = await glue(engineBuild(module));
  return new Promise<EngineModule>((resolve, reject) => {
    create({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(module, imports).then((instance) => done(instance, module), reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

/**
 * prepareEngine's warm-up, in an instance of its own that is then dropped. (The pthreads engine is
 * not warmed: an instance of it starts its pool of Workers.)
 * @throws the engine's error as a typed error, should its own tokenizer code fail.
 */
async function warmUp(module: WebAssembly.Module): Promise<void> {
  const result = (await createEngine(module)).warmUp(WARM_UP_PIECES);
  if ('error' in result) throw errorFromEngine(result.error);
}

/** An instance of the engine, the threads its products run on and the build it is. */
export interface EngineInstance {
  engine: EngineModule;
  threads: number;
  build: EngineBuild;
}

/**
 * A new instance of the engine, with its own memory. Which build: `wasm` when given (any build
 * works; engineBuild tells which), else as prepareEngine chooses for `threads` and `simd`. More
 * threads than the build or the page can run is not an error: the instance runs on those it has,
 * and says how many.
 * @throws InvalidInputError for a bad `threads` or `simd`; LoadError as prepareEngine, or for the
 *   pthreads build where it cannot run (not cross-origin isolated, or Node).
 */
export async function instantiateEngine(wasm?: WasmSource, threads?: ThreadsOption, simd?: SimdOption): Promise<EngineInstance> {
  const wanted = threadsWanted(threads);
  const compiled = await prepareEngine(wasm, threads, simd);
  const build = engineBuild(compiled);
  if (build === 'threads' && threadsAvailable() === 1) {
    throw new LoadError('crossattn-mt.wasm needs a cross-origin isolated browser page or worker (served with ' +
      'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp); use crossattn.wasm here');
  }
  const engine = await createEngine(compiled);
  return { engine, build, threads: engine.setThreadCount(build === 'threads' ? wanted : 1) };
}

/**
 * Refuses, before the engine parses them, bytes that cannot be a model file, with a message that
 * says so: a crossattn file is a safetensors container (docs/model-format.md), 8 bytes of header
 * length N, little-endian, then N bytes of JSON that begin with '{' (huggingface/safetensors
 * README, "Format": "The header data MUST begin with a { character"). A text file, or an HTML
 * page served in place of a download, fails here and shows how it starts.
 * @param file the file's bytes. @param name the file as the user gave it, or null for bytes.
 * @throws ModelFormatError "NAME is not a crossattn model file: it starts with \"...\"".
 */
function checkModelContainer(file: Uint8Array, name: string | null): void {
  const headerLength = file.length >= 8 ? new DataView(file.buffer, file.byteOffset, 8).getBigUint64(0, true) : -1n;
  if (file.length > 8 && headerLength <= BigInt(file.length - 8) && file[8] === 0x7b /* { */) return;
  const start = Array.from(file.subarray(0, 24), (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  const what = file.length === 0 ? 'it is empty' : `it starts with "${start}", not with a model header`;
  throw new ModelFormatError(`${name === null ? 'the model bytes are' : `${name} is`} not a crossattn model file: ${what}`);
}

/** How a model source is named in an error: its path or URL; null for bytes. */
const sourceName = (model: ByteSource): string | null =>
  typeof model === 'string' ? model : model instanceof URL ? model.href : null;

/**
 * Loads a model file into a new instance of the engine: the file's download (or opening) starts at
 * once, beside the engine's compile, and its bytes go straight into the instance's memory (no
 * whole-file copy in JS for a file path or a download of announced length), where they are parsed.
 * `metadata` is the file's safetensors metadata map (model-info.ts), read once the engine accepted it.
 * @throws LoadError when either file cannot be read; ModelFormatError for bytes that are not a
 *   model file (checkModelContainer) and, with TokenizerError or OutOfMemoryError, from the engine.
 */
export async function loadModel(model: ByteSource,
    options: { wasm?: WasmSource; threads?: ThreadsOption; simd?: SimdOption; onProgress?: ProgressCallback } = {}):
    Promise<EngineInstance & { translator: WasmTranslator; metadata: Record<string, string> }> {
  threadsWanted(options.threads);  // a bad value fails before anything is read
  simdWanted(options.simd);
  const instance = instantiateEngine(options.wasm, options.threads, options.simd);
  instance.catch(() => {});  // a failure is reported when the read needs the instance, or below
  const sink: FileSink<WasmFileBuffer> = {
    async allocate(size) {
      const allocated = (await instance).engine.allocateFileBuffer(size);
      if ('error' in allocated) throw errorFromEngine(allocated.error);
      return allocated.buffer;
    },
    view: (buffer) => buffer.view(),
    free: (buffer) => buffer.delete(),
  };
  const { buffer, size } = await readInto(model, sink, options.onProgress);
  try {
    checkModelContainer(buffer.view().subarray(0, size), sourceName(model));
    const { engine, threads, build } = await instance;
    const loaded = engine.loadTranslator(buffer, size);
    if ('error' in loaded) throw errorFromEngine(loaded.error);
    return { engine, threads, build, translator: loaded.translator, metadata: readMetadata(buffer.view()) };
  } finally {
    buffer.delete();  // the translator keeps the bytes (its int8 weights were converted where they lie)
  }
}
