#!/usr/bin/env node
// Deep encoder + shallow decoder against a balanced model of about the same size (Kasai et al. 2021,
// "Deep Encoder, Shallow Decoder"): quality from each training run's log at the same budget, and the
// int8 WebAssembly engine's speed on the same sentences, in one run.
//
//   node tools/architecture-compare.js NAME=MODEL_FILE=TRAIN_LOG... [--set flores-dev/dev] [--sentences N]
//        [--runs N] [--trained-by TEXT] [--verdict TEXT] [--data DIR] [--out-json F] [--out-md F]
//
// Two or more candidates; speed ratios are against the last one (the reference, e.g. the balanced
// model). --trained-by says how the runs were trained (the command and the hardware), --verdict which
// candidate ships and why; both go to the docs, and the verdict to the page's explain view.
//
// Each MODEL_FILE (int8, models/quantize.py) translates the first N sentences of the set greedily, one
// at a time, one thread (bench/engine.js, each run in its own process, candidates interleaved; medians
// over runs). From each TRAIN_LOG (models/train.py's train.log.jsonl) it takes the evaluation whose
// weights the model file holds, or the last one reached by both runs. Writes models/architecture.json
// (the page's explain view reads it) and docs/deep-encoder.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { corpusBleu, readLines } from './bleu.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    set: { type: 'string', default: 'flores-dev/dev' },
    sentences: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? path.join(root, '..', 'shared', 'data') },
    'out-json': { type: 'string', default: path.join(root, 'models', 'architecture.json') },
    'out-md': { type: 'string', default: path.join(root, 'docs', 'deep-encoder.md') },
    'trained-by': { type: 'string', default: '' },
    verdict: { type: 'string', default: '' },
  },
});
if (positionals.length < 2) {
  console.error('usage: node tools/architecture-compare.js NAME=MODEL_FILE=TRAIN_LOG NAME=MODEL_FILE=TRAIN_LOG... [options]');
  process.exit(2);
}

const candidates = positionals.map((arg) => {
  const [name, model, log] = arg.split('=');
  const bytes = readFileSync(model);  // safetensors: 8-byte header length, then the JSON header
  const header = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString());
  const config = JSON.parse(header.__metadata__.config);
  const history = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  return { name, model, config, history, bytes: bytes.length };
});
// The evaluations compared: the last step that every run has reached.
const step = Math.min(...candidates.map((c) => c.history.at(-1).step));
for (const c of candidates) c.evaluation = c.history.filter((r) => r.step <= step).at(-1);

const { sourceLang, targetLang } = { sourceLang: candidates[0].config.source_lang, targetLang: candidates[0].config.target_lang };
const sideOf = (lang) => path.join(values.data, `${values.set}.${lang}`);
const n = Number(values.sentences);
const source = readLines(sideOf(sourceLang)).slice(0, n);
const reference = readLines(sideOf(targetLang)).slice(0, n);
const work = path.join(root, 'build', 'architecture');
mkdirSync(work, { recursive: true });
const srcFile = path.join(work, 'src.txt');
writeFileSync(srcFile, source.join('\n') + '\n');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const passes = Object.fromEntries(candidates.map((c) => [c.name, []]));
for (let r = 0; r < Number(values.runs); r++) {
  for (const c of candidates) {
    console.error(`run ${r + 1}/${values.runs}: ${c.name}`);
    passes[c.name].push(JSON.parse(execFileSync(process.execPath, ['bench/engine.js', 'crossattn', '--model', c.model, '--src', srcFile],
      { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })));
  }
}

const rows = candidates.map((c) => {
  const list = passes[c.name];
  const seconds = list.map((p) => p.sentence_ms.reduce((a, b) => a + b, 0) / 1000);
  const m = c.config;
  return {
    name: c.name, encoder_layers: m.encoder_layers, decoder_layers: m.decoder_layers, d_model: m.d_model, d_ff: m.d_ff,
    n_heads: m.n_heads, vocab_size: m.vocab_size, model_bytes_int8: c.bytes,
    step: c.evaluation.step, train_hours: c.evaluation.hours, valid_loss: c.evaluation.valid_loss,
    last_eval_step: c.history.at(-1).step, last_eval_hours: c.history.at(-1).hours, last_eval_bleu_flores: c.history.at(-1).bleu_flores,
    bleu_dev: c.evaluation.bleu_dev, bleu_flores_pytorch: c.evaluation.bleu_flores,
    bleu_wasm_int8: Number(corpusBleu(list[0].translations, [reference]).score.toFixed(2)),
    target_tokens: list[0].target_tokens,
    tokens_per_s: Number(median(seconds.map((s, i) => list[i].target_tokens / s)).toFixed(1)),
    sentences_per_s: Number(median(seconds.map((s) => n / s)).toFixed(2)),
  };
});
const baseline = rows.at(-1);
for (const r of rows.slice(0, -1)) {
  r.speedup_sentences = Number((r.sentences_per_s / baseline.sentences_per_s).toFixed(2));
  r.speedup_tokens = Number((r.tokens_per_s / baseline.tokens_per_s).toFixed(2));
}
const quoted = (option) => (values[option] ? ` --${option} '${values[option].replaceAll("'", "'\\''")}'` : '');
const best = rows.reduce((a, b) => (b.bleu_wasm_int8 > a.bleu_wasm_int8 ? b : a));
const fastest = rows.reduce((a, b) => (b.sentences_per_s > a.sentences_per_s ? b : a));
const result = {
  generated_by: `node tools/architecture-compare.js ${positionals.join(' ')} --set ${values.set} --sentences ${n} ` +
    `--runs ${values.runs}${quoted('trained-by')}${quoted('verdict')}`,
  set: values.set, sentences: n, runs: Number(values.runs), compared_at_step: step, trained_by: values['trained-by'],
  reference: baseline.name, verdict: values.verdict, candidates: rows,
};
writeFileSync(values['out-json'], JSON.stringify(result, null, 1) + '\n');

const columns = [
  ['layers (enc + dec)', (r) => `${r.encoder_layers} + ${r.decoder_layers}`], ['int8 bytes', (r) => r.model_bytes_int8.toLocaleString('en')],
  ['updates', (r) => r.step.toLocaleString('en')], ['training hours', (r) => r.train_hours], ['valid loss', (r) => r.valid_loss],
  ['dev BLEU (newstest2017, PyTorch)', (r) => r.bleu_dev], [`${values.set} BLEU (wasm int8, ${n} sentences)`, (r) => r.bleu_wasm_int8],
  ['target tokens/s (wasm int8)', (r) => r.tokens_per_s], ['sentences/s (wasm int8)', (r) => r.sentences_per_s],
  ['last evaluation: updates', (r) => r.last_eval_step.toLocaleString('en')], ['last evaluation: training hours', (r) => r.last_eval_hours],
  ['last evaluation: flores BLEU (PyTorch, 100 sentences)', (r) => r.last_eval_bleu_flores],
];
const md = [
  '# A deep encoder and a shallow decoder, or a balanced model: measured',
  '',
  'The encoder runs once per sentence over all source tokens in parallel; the decoder runs once per',
  'target token, one step after another. Moving layers from the decoder to the encoder therefore makes',
  'translation faster at the same parameter count; Kasai et al. (2021) found that it costs no quality.',
  'These are our own numbers, for models trained on the same data for the same budget, measured by:',
  '',
  '```sh',
  result.generated_by,
  '```',
  ...(values['trained-by'] ? ['', `Trained by: ${values['trained-by']}`] : []),
  '',
  `| | ${rows.map((r) => r.name).join(' | ')} |`,
  `| --- |${rows.map(() => ' ---: |').join('')}`,
  ...columns.map(([label, f]) => `| ${label} | ${rows.map(f).join(' | ')} |`),
  '',
  ...rows.slice(0, -1).map((r) => `${r.name} produces ${r.speedup_tokens}x as many target tokens per second as ${baseline.name}, ` +
    `and translates ${r.speedup_sentences}x as many sentences per second.`),
  '',
  `Speed: greedy, one sentence at a time, one thread, median of ${values.runs} runs on this machine; sentences per second`,
  "also depend on how long each model's outputs are. BLEU and loss come from each run's evaluation at",
  `${step.toLocaleString('en')} updates (the last that every run reached), the hours are each run's training time to that`,
  "point; the last three rows are each run's last evaluation before its time budget ran out.",
  '',
  `Highest ${values.set} BLEU: ${best.name} (${best.bleu_wasm_int8}); most sentences per second: ${fastest.name} (${fastest.sentences_per_s}).`,
  '',
  ...(values.verdict ? ['## What ships', '', values.verdict, ''] : []),
].join('\n');
writeFileSync(values['out-md'], md);
console.log(md);
