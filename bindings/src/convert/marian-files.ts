/**
 * Finds the files of a Marian model as Bergamot and Firefox lay them out
 * (mozilla/firefox-translations-models, models/<kind>/<pair>/): the model (`model.ende.intgemm.alphas.bin`,
 * `model.ende.npz`, ...), its vocabularies (`vocab.ende.spm`, or `srcvocab.enja.spm` and
 * `trgvocab.enja.spm`), the lexical shortlist (`lex.50.50.ende.s2t.bin`) and, beside a model
 * trained by Marian itself, `model.npz.yml` / `decoder.yml`. Files may be gzipped (`.gz`), as the
 * repository stores them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'fflate';
import { parse as parseYaml } from 'yaml';
import { ConvertError } from './convert-error.js';

/** The files of one Marian model. */
export interface MarianFiles {
  folder: string;
  model: string;
  /** A model.yml beside the model (used when the model file holds no `special:model.yml`). */
  modelYml?: string;
  sourceVocab: string;
  targetVocab: string;
  shortlist?: string;
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const MODEL_FILE = /\.(npz|bin)(\.gz)?$/;
const SHORTLIST_FILE = /^lex\..*s2t\.bin(\.gz)?$/;

/** The bytes of `path`, gunzipped when it ends in .gz. */
export function readMaybeGzipped(path: string): Uint8Array {
  if (!isFile(path)) throw new ConvertError(path, 'file', 'no such file');
  const bytes = new Uint8Array(readFileSync(path));
  if (!path.endsWith('.gz')) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (e) {
    throw new ConvertError(path, 'gzip', `cannot be decompressed (${e instanceof Error ? e.message : String(e)}); is it truncated?`);
  }
}

/** A YAML file parsed to an object. */
export function readYaml(path: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseYaml(new TextDecoder().decode(readMaybeGzipped(path)));
  } catch (e) {
    if (e instanceof ConvertError) throw e;
    throw new ConvertError(path, 'yaml', `is not valid YAML (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConvertError(path, 'yaml', 'is not a YAML mapping');
  return value as Record<string, unknown>;
}

function pickModel(folder: string, names: string[]): string {
  const models = names.filter((f) => MODEL_FILE.test(f) && !SHORTLIST_FILE.test(f) && !/^lex\./.test(f));
  if (models.length === 0) throw new ConvertError(folder, 'model', 'holds no Marian model file (.npz or .bin)');
  if (models.length > 1) throw new ConvertError(folder, 'model', `holds several model files (${models.join(', ')}): name the one to convert`);
  return join(folder, models[0]);
}

/** decoder.yml's `vocabs` and `shortlist` paths, relative to its folder. */
function decoderYmlPaths(folder: string): { vocabs?: string[]; shortlist?: string } {
  const path = join(folder, 'decoder.yml');
  if (!isFile(path)) return {};
  const yml = readYaml(path);
  const vocabs = Array.isArray(yml.vocabs) ? yml.vocabs.map((v) => resolve(folder, String(v))) : undefined;
  const shortlist = Array.isArray(yml.shortlist) && yml.shortlist.length > 0 ? resolve(folder, String(yml.shortlist[0])) : undefined;
  return { vocabs, shortlist };
}

function pickVocabs(folder: string, names: string[], fromDecoderYml?: string[]): [string, string] {
  if (fromDecoderYml && fromDecoderYml.length >= 2) return [fromDecoderYml[0], fromDecoderYml[fromDecoderYml.length - 1]];
  const spm = names.filter((f) => /\.spm(\.gz)?$/.test(f));
  const source = spm.filter((f) => f.startsWith('srcvocab.'));
  const target = spm.filter((f) => f.startsWith('trgvocab.'));
  if (source.length === 1 && target.length === 1) return [join(folder, source[0]), join(folder, target[0])];
  if (spm.length === 1) return [join(folder, spm[0]), join(folder, spm[0])];
  if (spm.length === 0) throw new ConvertError(folder, 'vocabulary', 'holds no SentencePiece vocabulary (.spm)');
  throw new ConvertError(folder, 'vocabulary', `holds ${spm.join(', ')}: expected one vocab.*.spm, or srcvocab.*.spm and trgvocab.*.spm`);
}

function pickModelYml(folder: string, model: string, names: string[]): string | undefined {
  const candidates = [`${basename(model).replace(/\.gz$/, '')}.yml`, 'model.yml', ...names.filter((f) => f.endsWith('.yml') && f !== 'decoder.yml')];
  return candidates.map((f) => join(folder, f)).find(isFile);
}

/**
 * The files of the Marian model at `input`, a model file or the folder that holds one.
 * @param withShortlist false ignores a shortlist in the folder.
 * @throws ConvertError when the input does not exist, the folder holds no model or several, or no
 *   vocabulary (or an ambiguous set of them).
 */
export function findMarianFiles(input: string, withShortlist = true): MarianFiles {
  if (!existsSync(input)) throw new ConvertError(input, 'input', 'no such file or folder');
  const folder = statSync(input).isDirectory() ? input : dirname(input);
  const names = readdirSync(folder).sort();
  const model = statSync(input).isDirectory() ? pickModel(folder, names) : input;
  const fromDecoder = decoderYmlPaths(folder);
  const [sourceVocab, targetVocab] = pickVocabs(folder, names, fromDecoder.vocabs);
  const lex = names.filter((f) => SHORTLIST_FILE.test(f));
  const shortlist = !withShortlist ? undefined : fromDecoder.shortlist ?? (lex.length === 1 ? join(folder, lex[0]) : undefined);
  return { folder, model, modelYml: pickModelYml(folder, model, names), sourceVocab, targetVocab, shortlist };
}
