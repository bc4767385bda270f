/**
 * The files of a model to convert, read by their paths inside its folder: a folder on disk
 * (folder-files.ts, Node) or files held in memory (a download in the page's worker). The converters
 * read only through this, so that they run in Node and in browsers alike.
 */
import { ConvertError } from './convert-error.js';
import { parseJson } from './bounded-parse.js';

/**
 * The largest text file read (JSON, YAML, a model card, a SentencePiece model or vocabulary), in
 * bytes: 16 MiB, ten times the largest MarianMT vocabulary or tokenizer.json (a 59 MB vocab.json of
 * 3.2 million entries took 11 s and 1 GB to refuse).
 */
export const MAX_TEXT_FILE_BYTES = 16 * 2 ** 20;
/** The largest weights file read (.safetensors, .bin, .npz, .onnx, their .gz), in bytes: 2 GiB. */
export const MAX_WEIGHTS_FILE_BYTES = 2 * 2 ** 30;

const TEXT_FILE = /\.(json|ya?ml|md|txt|spm|vocab|model)(\.gz)?$/i;

/** The cap on a file of this name: MAX_TEXT_FILE_BYTES for text and tokenizers, else MAX_WEIGHTS_FILE_BYTES. */
export function fileCap(path: string): number {
  return TEXT_FILE.test(path) ? MAX_TEXT_FILE_BYTES : MAX_WEIGHTS_FILE_BYTES;
}

/** A model's folder. Paths are relative to it, with '/' between folders ('onnx/encoder_model.onnx'). */
export interface ModelFiles {
  /** The folder as errors show it: a path on disk, or the URL its files came from. */
  readonly root: string;
  /** The folder's own name, which names the model when nothing else does ('opus-mt-en-fr'). */
  readonly name: string;
  /** Whether `path` is a file there. */
  has(path: string): boolean;
  /** The bytes of `path`. @throws ConvertError naming it when it is missing or unreadable. */
  bytes(path: string): Uint8Array;
  /** The names of the files directly in the folder, sorted. */
  names(): string[];
  /** How errors name `path`: the root joined with it. */
  display(path: string): string;
}

/**
 * Files held in memory: `files` maps each path to its bytes; `root` is where they came from (a URL,
 * for errors) and `name` the model's folder name.
 */
export function memoryFiles(root: string, name: string, files: Map<string, Uint8Array>): ModelFiles {
  const display = (path: string) => `${root.replace(/\/+$/, '')}/${path}`;
  return {
    root, name, display,
    has: (path) => files.has(path),
    bytes(path) {
      const bytes = files.get(path);
      if (bytes === undefined) throw new ConvertError(display(path), 'file', 'missing: the folder needs it');
      const cap = fileCap(path);
      if (bytes.length > cap) throw new ConvertError(display(path), 'file', `is ${bytes.length} bytes, over the ${cap} bytes a file of its kind may have`);
      return bytes;
    },
    names: () => [...files.keys()].filter((p) => !p.includes('/')).sort(),
  };
}

/** The JSON of `path`; `field` names it in errors (e.g. "config"). @throws ConvertError when missing, not JSON or nested past MAX_NESTING. */
export function readJsonFile<T>(files: ModelFiles, path: string, field: string): T {
  if (!files.has(path)) throw new ConvertError(files.display(path), field, 'missing: the folder needs it');
  return parseJson(new TextDecoder().decode(files.bytes(path)), files.display(path), field) as T;
}
