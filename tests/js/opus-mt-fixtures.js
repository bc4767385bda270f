// OPUS-MT-shaped fixtures for the converter tests: tools/opus-mt-fixtures.py writes a Hugging Face
// MarianMT folder, its separate-vocabulary variant and a transformers.js folder (fp32 and q8) of the
// committed bench model's weights under build/fixtures/opus-mt (cached: it rebuilds only when the script
// or the weights change). Helpers to run both engines on the same sentences.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DATA, ROOT } from './paths.js';

export const FIXTURES = `${ROOT}build/fixtures/opus-mt`;
export const HF = `${FIXTURES}/hf/opus-mt-en-de`;
export const HF_SEPARATE = `${FIXTURES}/hf-separate/opus-mt-en-de`;
export const XENOVA_ROOT = `${FIXTURES}/xenova/`;
export const XENOVA = `${XENOVA_ROOT}opus-mt-en-de`;
/** The same fp32 folder with the decoder inside both branches of an If node, as optimum merges decoders. */
export const XENOVA_IF = `${FIXTURES}/xenova-if/opus-mt-en-de`;

/** Writes the fixtures when missing or stale (about 15 s, once). */
export function ensureFixtures() {
  execFileSync(process.env.CROSSATTN_PYTHON ?? '/usr/bin/python3', [`${ROOT}tools/opus-mt-fixtures.py`, '--out', FIXTURES], { stdio: 'pipe' });
}

/** The first n FLORES dev source sentences. */
export function floresDev(n) {
  return readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n').slice(0, n);
}

/** Greedy decoding limits both engines share: at most MAX_TOKENS target tokens, eos included. The
 * model's own output (copyThrough: false), as transformers.js writes it, without our repairs. */
export const MAX_TOKENS = 128;
export const CROSSATTN_GREEDY = { beamSize: 1, repeatLimit: 0, shortlist: false, copyThrough: false, maxLength: MAX_TOKENS, maxLengthOffset: MAX_TOKENS };

/** transformers.js's translation pipeline on the folder `${XENOVA_ROOT}opus-mt-en-de`, local files only. */
export async function transformersJsPipeline(dtype) {
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.localModelPath = XENOVA_ROOT;
  return pipeline('translation', 'opus-mt-en-de', { dtype });
}

/** The pipeline's translations of `texts`, greedy, one at a time. */
export async function transformersJsTranslate(pipe, texts) {
  const out = [];
  for (const text of texts) {
    const [r] = await pipe(text, { num_beams: 1, do_sample: false, max_new_tokens: MAX_TOKENS });
    out.push(r.translation_text);
  }
  return out;
}

/**
 * The decoder clean-up transformers.js applies to its output (clean_up_tokenization_spaces, true in
 * OPUS-MT tokenizer configs; @huggingface/tokenizers clean_up_tokenization as bundled in transformers.js
 * 4.3.1, the same as Python transformers' PreTrainedTokenizerBase.clean_up_tokenization): our engine
 * writes SentencePiece's detokenization as is.
 */
export function cleanUpTokenization(text) {
  return text.replace(/ \./g, '.').replace(/ \?/g, '?').replace(/ !/g, '!').replace(/ ,/g, ',').replace(/ ' /g, "'")
    .replace(/ n't/g, "n't").replace(/ 'm/g, "'m").replace(/ 's/g, "'s").replace(/ 've/g, "'ve").replace(/ 're/g, "'re");
}

/** How many of our texts equal the reference's, as written and after cleanUpTokenization, and the first few that do not. */
export function agreement(ours, reference, texts) {
  const differ = [];
  let cleaned = 0;
  ours.forEach((x, i) => {
    if (cleanUpTokenization(x) === reference[i]) cleaned++;
    if (x !== reference[i]) differ.push({ source: texts[i], crossattn: x, reference: reference[i] });
  });
  return { same: ours.length - differ.length, cleaned, total: ours.length, differ: differ.slice(0, 5) };
}
