/**
 * Finds the files of a Marian model as Bergamot and Firefox lay them out
 * (mozilla/firefox-translations-models, models/<kind>/<pair>/): the model (`model.ende.intgemm.alphas.bin`,
 * `model.ende.npz`, ...), its vocabularies (`vocab.ende.spm`, or `srcvocab.enja.spm` and
 * `trgvocab.enja.spm`), the lexical shortlist (`lex.50.50.ende.s2t.bin`) and, beside a model
 * trained by Marian itself, `model.npz.yml` / `decoder.yml`. Files may be gzipped (`.gz`), as the
 * repository stores them.
 */
import { ConvertError, shown } from './convert-error.js';
import { parseYamlMapping } from './bounded-parse.js';
import { gunzipBounded } from './bounded-inflate.js';
import type { ModelFiles } from './model-files.js';

/** The files of one Marian model: paths inside `folder`. */
export interface MarianFiles {
  folder: ModelFiles;
  model: string;
  /** A model.yml beside the model (used when the model file holds no `special:model.yml`). */
  modelYml?: string;
  sourceVocab: string;
  targetVocab: string;
  shortlist?: string;
}

const MODEL_FILE = /\.(npz|bin)(\.gz)?$/;
const SHORTLIST_FILE = /^lex\..*s2t\.bin(\.gz)?$/;

/** The bytes of `path` in `files`, gunzipped (within bounded-inflate.ts's cap) when it ends in .gz. */
export function readMaybeGzipped(files: ModelFiles, path: string): Uint8Array {
  if (!files.has(path)) throw new ConvertError(files.display(path), 'file', 'no such file');
  const bytes = files.bytes(path);
  if (!path.endsWith('.gz')) return bytes;
  return gunzipBounded(bytes, files.display(path));
}

/** A YAML file parsed to a mapping. @throws ConvertError as parseYamlMapping. */
export function readYaml(files: ModelFiles, path: string): Record<string, unknown> {
  return parseYamlMapping(new TextDecoder().decode(readMaybeGzipped(files, path)), files.display(path));
}

function pickModel(folder: ModelFiles, names: string[]): string {
  const models = names.filter((f) => MODEL_FILE.test(f) && !SHORTLIST_FILE.test(f) && !/^lex\./.test(f));
  if (models.length === 0) throw new ConvertError(folder.root, 'model', 'holds no Marian model file (.npz or .bin)');
  if (models.length > 1) throw new ConvertError(folder.root, 'model', `holds several model files (${models.join(', ')}): name the one to convert`);
  return models[0];
}

/** A path decoder.yml gives, relative to its folder: './vocab.spm' -> 'vocab.spm'. */
const inFolder = (path: string) => path.replace(/^(\.\/)+/, '');

/** decoder.yml's `vocabs` and `shortlist` paths, relative to its folder. */
function decoderYmlPaths(folder: ModelFiles): { vocabs?: string[]; shortlist?: string } {
  if (!folder.has('decoder.yml')) return {};
  const yml = readYaml(folder, 'decoder.yml');
  const path = (v: unknown, field: string) => {
    if (typeof v !== 'string') throw new ConvertError(folder.display('decoder.yml'), field, `is ${shown(v)}, not a file name`);
    return inFolder(v);
  };
  const vocabs = Array.isArray(yml.vocabs) ? yml.vocabs.map((v, i) => path(v, `vocabs[${i}]`)) : undefined;
  const shortlist = Array.isArray(yml.shortlist) && yml.shortlist.length > 0 ? path(yml.shortlist[0], 'shortlist[0]') : undefined;
  return { vocabs, shortlist };
}

function pickVocabs(folder: ModelFiles, names: string[], fromDecoderYml?: string[]): [string, string] {
  if (fromDecoderYml && fromDecoderYml.length >= 2) return [fromDecoderYml[0], fromDecoderYml[fromDecoderYml.length - 1]];
  const spm = names.filter((f) => /\.spm(\.gz)?$/.test(f));
  const source = spm.filter((f) => f.startsWith('srcvocab.'));
  const target = spm.filter((f) => f.startsWith('trgvocab.'));
  if (source.length === 1 && target.length === 1) return [source[0], target[0]];
  if (spm.length === 1) return [spm[0], spm[0]];
  if (spm.length === 0) throw new ConvertError(folder.root, 'vocabulary', 'holds no SentencePiece vocabulary (.spm)');
  throw new ConvertError(folder.root, 'vocabulary', `holds ${spm.join(', ')}: expected one vocab.*.spm, or srcvocab.*.spm and trgvocab.*.spm`);
}

function pickModelYml(folder: ModelFiles, model: string, names: string[]): string | undefined {
  const candidates = [`${model.replace(/\.gz$/, '')}.yml`, 'model.yml', ...names.filter((f) => f.endsWith('.yml') && f !== 'decoder.yml')];
  return candidates.find((f) => folder.has(f));
}

/**
 * The files of the Marian model in `folder`: `model` (a file name there), or the one model file it holds.
 * @param withShortlist false ignores a shortlist in the folder.
 * @throws ConvertError when the folder holds no model or several, or no vocabulary (or an ambiguous
 *   set of them).
 */
export function findMarianFiles(folder: ModelFiles, model: string | undefined, withShortlist = true): MarianFiles {
  const names = folder.names();
  model ??= pickModel(folder, names);
  const fromDecoder = decoderYmlPaths(folder);
  const [sourceVocab, targetVocab] = pickVocabs(folder, names, fromDecoder.vocabs);
  const lex = names.filter((f) => SHORTLIST_FILE.test(f));
  const shortlist = !withShortlist ? undefined : fromDecoder.shortlist ?? (lex.length === 1 ? lex[0] : undefined);
  return { folder, model, modelYml: pickModelYml(folder, model, names), sourceVocab, targetVocab, shortlist };
}
