/** crossattn: encoder-decoder Transformer translation in WebAssembly, with its cross-attention. */
export { Translator } from './translator.js';
export { optionSpecs } from './options.js';
export { MAX_THREADS, prepareEngine, threadsAvailable } from './engine.js';
export type { ThreadsOption, WasmSource } from './engine.js';
export { engineBuild, relaxedSimdSupported } from './engine-build.js';
export type { EngineBuild, SimdBuild, SimdOption } from './engine-build.js';
export { joinParagraphs, splitParagraphs, splitSentences } from './sentences.js';
export { pharaoh } from './alignment.js';
export { meanEntropy } from './attention.js';
export { modelFor, parseCatalog } from './model-catalog.js';
export type { CatalogEntry } from './model-catalog.js';
export type { ModelInfo } from './model-info.js';
export type { AlignmentMethod, AlignmentOptions, ResidualStats, WordAlignment } from './alignment.js';
export type { Hypothesis, HtmlTranslation, LoadOptions, ModelConfig, OptionSpec, TranslateOptions, Translation } from './translator.js';
export { SENTENCE_BEAM_SIZE } from './search.js';
export type { SearchOptions, StreamOptions, TokenEvent } from './search.js';
export type { CopyThroughReport } from './translator-types.js';
export { isFlagged } from './copy-through.js';
export { detectLanguage } from './detect-language.js';
export { composeAlignments, translatePivot } from './pivot.js';
export type { PivotTranslation } from './pivot.js';
export type { DetectedLanguage } from './detect-language.js';
export { flagNotes } from './flag-notes.js';
export type { ByteSource, ProgressCallback } from './sources.js';
export type { HubOptions, HubSource } from './hub/convert-by-name.js';
export { convertFileSetInWorker, convertInWorker } from './hub/convert-client.js';
export type { FileSet, ListedFile } from './hub/convert-file-set.js';
export {
  CancelledError,
  CrossattnError,
  DisposedError,
  DownloadError,
  WorkerError,
  InputTooLongError,
  InvalidInputError,
  LoadError,
  ModelFormatError,
  OutOfMemoryError,
  TokenizerError,
} from './errors.js';
export type { DownloadFailure, OptionFault } from './errors.js';
