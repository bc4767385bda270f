// docs/performance.md from the report bench/run.js writes to performance.json: a section per model
// (its table of engines, batch sizes, bars and kernels), the pictures' file names as `plotFiles`
// gives them.

import { convertMarkdown } from './convert-report.js';
import { opusMtMarkdown } from './opus-mt-report.js';
import { pageMarkdown } from './page-report.js';
import { profileMarkdown } from './profile-report.js';

const mib = (b) => (b / 2 ** 20).toFixed(0);
const ratio = (a, b) => Number((a / b).toFixed(2));

/** The pictures of model section `index`: bench-tokens.svg etc. for the first, NAME-bench-tokens.svg for the others. */
export function plotFile(report, index, file) {
  return index === 0 ? file : `${report.models[index].name}-${file}`;
}

/**
 * Where a converted model's weights come from (its provenance metadata), '' for others: the Marian
 * files and converter, and for the test fixture (tests/js/fixtures/marian-models.sh, whose Marian
 * files bench/export_marian.py wrote) what those files are.
 */
function provenanceNote(section) {
  const { converted_from: from, source, converter, marian_version: version = '', quantization = '' } = section.provenance ?? {};
  if (from !== 'marian') return from ? `Its weights were converted from ${from} files (${source}) by ${converter}. ` : '';
  const fixture = version.startsWith('crossattn bench/export_marian.py')
    ? ' Those files are the test fixture of tests/js/fixtures/marian-models.sh: the committed bench model (models/runs/bench-marian-en-de, a Marian-convention model: docs/bergamot.md) exported to Marian by bench/export_marian.py' +
      (version.includes('--ssru')
        ? ', with each decoder self-attention replaced by an SSRU whose weights are random and untrained (--ssru). Its translations are poor and loop, so BLEU means nothing on this model: only speed and agreement count.'
        : '.')
    : '';
  const int8 = quantization.startsWith('intgemm8')
    ? ' Its int8 matrices are the Marian file\'s own intgemm8 values and per-matrix scales (to float32\'s last bit: the file keeps 1 / quantMult), so our int8 rows and Bergamot\'s multiply the same int8 weights (each quantizes the activations its own way: docs/bergamot.md).' : '';
  return `Its weights were converted from Marian files (${source}) by \`crossattn convert\` (${converter}).${int8}${fixture} `;
}

/** How the section's model was run: its files, and whether Bergamot computes its function. */
function modelNotes(section) {
  const { config: c } = section;
  const limits = section.decoding;
  return [
    `${section.model}: ${c.encoder_layers} encoder and ${c.decoder_layers} decoder layers${section.decoder_autoregression === 'ssru' ? ' (SSRU decoder: docs/model-format.md)' : ''}, d_model ${c.d_model}, ${c.n_heads} heads, d_ff ${c.d_ff}, ${c.vocab_size} pieces. ` +
      provenanceNote(section) +
      (section.int8_given
        ? `The int8 rows run this file; the fp32 rows${section.onnxruntime_skipped ? '' : ' and onnxruntime-web'} run its dequantized weights (${section.fp32_model}, models/dequantize.py), the very numbers the int8 engine multiplies by.`
        : `The int8 rows run ${section.int8_model} (models/quantize.py).`),
    'Bergamot runs Marian exports of the same weights (bench/export_marian.py); its tokens are counted with our tokenizer. ' +
      (section.marian_differences.length === 0
        ? 'This model follows native Marian\'s conventions (post-norm, Marian\'s sinusoids, a zero vector as the decoder\'s first input, layer-norm epsilon 1e-6: docs/bergamot.md), so Bergamot computes the same function as ours: its float32 outputs differ from ours only where float rounding flips a close choice, its int8 ones also by its own quantization (intgemm, one scale per matrix).'
        : `On this model Marian computes a different function (${section.marian_differences.join('; ')}: docs/bergamot.md), so its outputs differ from ours and its ratio compares speed on the same shapes and weights, not the same translations.`) +
      (limits ? ` Every engine decodes as Bergamot does, so that whole outputs compare: no repetition guard (repeatLimit ${limits.repeat_limit}), at most ${limits.max_length_ratio} target tokens per source token (</s> counted on both sides${limits.max_length_offset ? `, plus ${limits.max_length_offset}` : ''}: Marian's max-length-factor), each line one sentence.` : ''),
    ...(section.onnxruntime_skipped ? [`No onnxruntime-web rows: ${section.onnxruntime_skipped}; the ratios and bars against it are left out of this section.`] : []),
    section.shortlist.settings
      ? `The shortlist rows use the model file's own lexical shortlist (${section.shortlist.settings.frequent} most frequent target pieces plus the ${section.shortlist.settings.per_source} likeliest per source piece: its card), as the library does by default; the other rows score all ${c.vocab_size} pieces.`
      : `The shortlist rows are the same models with a lexical shortlist of their output layer (models/shortlist.py's defaults: the 1000 most frequent target pieces plus the 50 likeliest per source piece, counted from IBM Model 2 links of the pairs of ${section.shortlist.from}): each sentence scores its candidates only (docs/model-format.md).`,
    ...(section.engines['bergamot-wasm-int8-shortlist']
      ? ["bergamot-wasm-int8-shortlist runs the model file's shortlist as Marian's lex.s2t.bin (bench/marian_shortlist.py), as Firefox runs its models; Bergamot also scores each source piece itself and pads its candidates to a multiple of 8, a few more than ours. The int8 shortlist rows' ratios to Bergamot are against it."]
      : []),
  ];
}

/** The relaxed SIMD build's decode step and ceiling (its own kernels' peaks), where the section has them. */
function relaxedCeilingNote({ kernels, ceiling_relaxed: ceiling }) {
  if (!ceiling || !kernels.wasm_relaxed) return [];
  const step = kernels.wasm_relaxed.decode_step;
  return [`Relaxed SIMD (crossattn-relaxed.wasm, its kernels measured in the same run with its own peaks: f32x4.relaxed_madd and i32x4.relaxed_dot_i8x16_i7x16_add_s chains): ` +
    `the decode step takes fp32 ${step.f32_ms.toFixed(3)} ms (${step.f32_fraction_of_bound} of its bound) and int8 ${step.int8_ms.toFixed(3)} ms against ${step.int8_bound_ms.toFixed(3)} ms (${step.int8_bound}), ${step.int8_fraction_of_bound} of it; ` +
    `its ceiling is ${ceiling.fp32_tokens_per_s} tokens/s in fp32 and ${ceiling.int8_tokens_per_s} in int8` +
    (ceiling.int8_shortlist_tokens_per_s === undefined ? '.' : `, and ${ceiling.int8_shortlist_tokens_per_s} in int8 with the model's shortlist.`) +
    (kernels.wasm_relaxed.int8_dot_offset_form === undefined ? '' : kernels.wasm_relaxed.int8_dot_offset_form
      ? ' Its int8 products took the offset form on this machine (one dot product per 16 weights: the dot product reads bytes above 127 as unsigned with exact sums, as V8 does with AVX-VNNI; cpp/kernels/gemm_int8_dot.cc).'
      : ' Its int8 products split rows with negative values by sign on this machine (two dot products per 16 weights: the dot product does not read bytes above 127 as unsigned with exact sums; cpp/kernels/gemm_int8_dot.cc).')];
}

/**
 * The decode step against its bound (bench/kernels.cc), and what that bound allows: the section's
 * `ceiling` tokens/s and, for each bar with a `ceiling`, the highest ratio it allows against the peer.
 */
function ceilingNotes(section) {
  const { decode_step: step } = section.kernels.wasm_simd128;
  if (!section.ceiling) {
    return [`No ceiling for this model: bench/kernels.cc's decode step (fp32 ${step.f32_ms.toFixed(3)} ms, ${step.f32_fraction_of_bound} of its bound; int8 ${step.int8_ms.toFixed(3)} ms, ${step.int8_fraction_of_bound}) is a self-attention decoder's of the same widths, which streams more weights per token than this SSRU decoder, so its bound does not bound this model.`];
  }
  const notes = [
    `Decode step (wasm, bench/kernels.cc): the products of one target token at batch 1 through ${step.decoder_layers} decoder layers and the whole output layer, ${(step.weights / 1e6).toFixed(2)} M weights, each layer with its own, streamed as a translation streams them. ` +
      `fp32 ${step.f32_ms.toFixed(3)} ms against a bound of ${step.f32_bound_ms.toFixed(3)} ms (${step.f32_bound}: ${step.f32_read_gbps} GB/s over ${(4 * step.weights / 2 ** 20).toFixed(1)} MiB), ${step.f32_fraction_of_bound} of it; ` +
      `int8 ${step.int8_ms.toFixed(3)} ms against ${step.int8_bound_ms.toFixed(3)} ms (${step.int8_bound}), ${step.int8_fraction_of_bound} of it.`,
    `Ceiling: greedy decoding one sentence at a time with the whole output layer passes neither ${section.ceiling.fp32_tokens_per_s} tokens/s in fp32 nor ${section.ceiling.int8_tokens_per_s} in int8 on this machine: these sentences' ${section.ceiling.target_tokens} target tokens each take at least the step's bound (or the step's time, where shorter), their ${section.ceiling.source_tokens} source tokens the encoder's and cross-attention's key and value products at the fastest rate measured here, even with the second feed-forward matrices, attention and the rest free.`,
    ...shortlistCeilingNote(section),
  ];
  notes.push(...contentionNote(section), ...relaxedCeilingNote(section));
  for (const [name, b] of Object.entries(section.bars)) {
    if (b.ceiling === undefined) continue;
    const shortlisted = name.includes('shortlist');
    const below = b.ceiling < b.bar ? `, below the bar of ${b.bar}: no engine meets that bar here${shortlisted ? ' with this shortlist' : ' without a shortlist'}`
      : `; the bar of ${b.bar} needs ${ratio(b.bar, b.ceiling)} of it, and this run reaches ${ratio(b.value, b.ceiling)}`;
    notes.push(`${name}: the ceiling${shortlisted ? ' with the shortlist' : ''} is ${b.ceiling}x the same peer${below}.`);
  }
  return notes.flatMap((n) => [n, '']).slice(0, -1);
}

/** The int8 ceiling with the model's shortlist (decodeCeiling in bench/model.js), where the section has one. */
function shortlistCeilingNote({ ceiling, config }) {
  if (ceiling.int8_shortlist_tokens_per_s === undefined) return [];
  return [`With the model's shortlist the step scores ${ceiling.shortlist_rows_per_target_token} output rows per target token on average (bench/shortlist-candidates.js), not ${config.vocab_size}, and reads that much less of the output layer: int8 greedy decoding then passes no more than ${ceiling.int8_shortlist_tokens_per_s} tokens/s here, on the same terms.`];
}

/**
 * How much of the distance to the ceiling this host's contention takes: the ceiling counts the decode
 * step's fastest batches, a translation's tokens/s averages its whole run, so the step's median batch
 * (bench/kernels.cc, the same run) says how the same ratios read against the step as it typically ran.
 * None for kernels output without the median.
 */
function contentionNote({ ceiling, bars }) {
  if (ceiling.int8_step_median_vs_fastest === undefined) return [];
  const against = (bar, factor) => (bars[bar] ? `, so ${bar} would read about ${(bars[bar].value * factor).toFixed(2)} against the step's median` : '');
  return [`Contention: in the same kernels run the decode step's median batch took ${ceiling.int8_step_median_vs_fastest}x its fastest in int8` +
    `${against('int8_tokens_vs_ceiling', ceiling.int8_step_median_vs_fastest)}, and ${ceiling.fp32_step_median_vs_fastest}x in fp32` +
    `${against('fp32_tokens_vs_ceiling', ceiling.fp32_step_median_vs_fastest)}. The bars count the fastest: on a host shared with other work, no engine's whole run is as fast as its step's fastest batch.`];
}

/** One model's section of performance.md. */
function modelSection(report, index) {
  const section = report.models[index];
  const { engines: results, batch_sweep: batchSweep, bars, kernels } = section;
  const int8 = results['crossattn-wasm-int8'], wasmKernels = kernels.wasm_simd128;
  const batchSizes = batchSweep['crossattn-wasm-fp32'].map((s) => s.batch_size);
  const batchRow = Object.values(results).find((r) => r.batch);
  const plot = (file) => plotFile(report, index, file);
  return [
    `## ${section.name}`, '',
    `${report.sentences} sentences of ${section.test_set}, greedy (the beam4 row: beam search, 4 hypotheses), one thread; medians of ${report.runs} run(s), each engine in its own process.`,
    ...modelNotes(section), '',
    '| engine | tokens/s | sentences/s | p50 ms | p95 ms | load ms | peak memory MiB | BLEU | tokens/s vs onnxruntime-web | tokens/s vs Bergamot | outputs identical to ours |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...Object.entries(results).map(([name, r]) =>
      `| ${name} | ${r.tokens_per_s} | ${r.sentences_per_s} | ${r.p50_ms} | ${r.p95_ms} | ${r.load_ms.toFixed(0)} | ${mib(r.peak_memory_bytes)} | ${r.bleu} | ${r.ratio_to_onnxruntime_web ? `${r.ratio_to_onnxruntime_web.tokens_per_s}x` : '–'} | ${r.ratio_to_bergamot ? `${r.ratio_to_bergamot.tokens_per_s}x (${r.ratio_to_bergamot.with.slice(14)})` : ''} | ${r.agreement ? `${r.agreement.identical_sentences}/${r.agreement.of} (${r.agreement.with.slice(15)})` : ''} |`),
    '', `Batch rows: \`translateBatch\` with ${batchRow.batch} sentences per call; their p50/p95 are per call (batch).`,
    'The beam4 row decodes 4 hypotheses per sentence in one batched decoder call per step; its ratios are against greedy peers. "tokens/s vs Bergamot" is against Bergamot of the same precision (rows named int8 or q8 against bergamot-wasm-int8, the others against bergamot-wasm-fp32).',
    `Load ms of the WebAssembly engines: the median of ${int8.load_runs} first loads, each in a fresh process, from the model file on disk to a translator ready, with the engine's wasm compiled before the clock starts (ours by prepareEngine, in ${int8.engine_compile_ms} ms, which includes its warm-up of the load path, bindings/warm_up.cc; Bergamot's compiled likewise); onnxruntime-web's includes its runtime's start. The native rows read the file from the page cache.`, '',
    `![Target tokens/s by engine, ${section.name}](${plot('bench-tokens.svg')})`, '',
    `![Latency against source length, ${section.name}: the median per ${section.latency_by_source_length.bucket_tokens}-token bucket, one line per single-sentence engine](${plot('bench-latency.svg')})`, '',
    '### Batch sizes', '',
    `\`translateBatch\` over the same ${report.sentences} sentences with ${new Intl.ListFormat('en').format(batchSizes.map(String))} sentences per call; p50 ms is per call.`, '',
    '| batch size | fp32 tokens/s | int8 tokens/s | fp32 p50 ms | int8 p50 ms |', '| ---: | ---: | ---: | ---: | ---: |',
    ...batchSizes.map((size, i) => {
      const [f, q] = [batchSweep['crossattn-wasm-fp32'][i], batchSweep['crossattn-wasm-int8'][i]];
      return `| ${size} | ${f.tokens_per_s} | ${q.tokens_per_s} | ${f.p50_ms_per_call} | ${q.p50_ms_per_call} |`;
    }),
    '', `![Target tokens/s against batch size, fp32 and int8, ${section.name}](${plot('bench-batch.svg')})`, '',
    '### Bars (issues 3, 19, 49 and 62)', '', '| bar | measured | target | met |', '| --- | ---: | ---: | :---: |',
    ...Object.entries(bars).map(([name, b]) => `| ${name} | ${b.value} | ${b.lower_is_better ? '<=' : '>='} ${b.bar} | ${b.met ? 'yes' : 'no'} |`),
    '', ...ceilingNotes(section), '', `### Kernels (bench/kernels.cc, ${section.name}'s shapes)`, '',
    `SIMD128 peak (5 multiply and 5 add chains, no FMA), median over shapes: wasm ${wasmKernels.simd128_peak_gflops} GFLOP/s, native SSE4.1 ${kernels.native_sse41.simd128_peak_gflops} GFLOP/s. Each shape's peak is measured right before it, and each figure is the best of ${wasmKernels.rounds} round(s) through all shapes; "of peak" is wasm fp32 over that peak.`,
    'Roofline (wasm): each product against its bound, max(operations / compute peak, weight bytes / read bandwidth), with the int8 compute peak of i32x4.dot_i16x8_s chains and the read bandwidth over a buffer of the shape\'s weight bytes, all measured right before it; "of bound" is the time the bound allows over the time taken (1 is the limit; above 1 is noise of this shared machine), and the bound that applies is named.', '',
    'The relaxed columns are crossattn-relaxed.wasm\'s products in the same run, under a Node with relaxed SIMD, against its own peaks (f32x4.relaxed_madd chains for fp32, i32x4.relaxed_dot_i8x16_i7x16_add_s chains for int8).', '',
    '| shape | M x K x N | wasm fp32 GFLOP/s | of peak | fp32 of bound | wasm int8 GOP/s | int8 dot peak GOP/s | int8 of bound | read GB/s fp32 / int8 weights | relaxed fp32 GFLOP/s | relaxed int8 GOP/s | relaxed dot peak GOP/s | relaxed int8 of bound | wasm Eigen GFLOP/s | native fp32 | native int8 | native Eigen |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...wasmKernels.shapes.map((s, i) => {
      const n = kernels.native_sse41.shapes[i], r = kernels.wasm_relaxed?.shapes[i];
      const relaxed = r ? `${r.f32_gflops} | ${r.int8_gops} | ${r.dot_peak_gops} | ${r.int8_fraction_of_bound} (${r.int8_bound})` : '– | – | – | –';
      return `| ${s.name} | ${s.m} x ${s.k} x ${s.n} | ${s.f32_gflops} | ${s.f32_fraction_of_peak} | ${s.f32_fraction_of_bound} (${s.f32_bound}) | ${s.int8_gops} | ${s.dot_peak_gops} | ${s.int8_fraction_of_bound} (${s.int8_bound}) | ${s.f32_read_gbps} / ${s.int8_read_gbps} | ${relaxed} | ${s.eigen_gflops} | ${n.f32_gflops} | ${n.int8_gops} | ${n.eigen_gflops} |`;
    }),
    '',
  ];
}

/** The whole of performance.md. */
export function performanceMarkdown(report) {
  return [
    '# Performance', '',
    `Generated by \`${report.command}\` (bench/run.js) on ${report.date.slice(0, 10)}: ${report.machine}.`,
    `Models: ${report.models.map((m) => m.name).join(', ')}, each with every engine on the same weights and sentences.`,
    'The machine is shared and noisy: compare the ratios within this run, not absolute numbers across runs.',
    'onnxruntime-web gets source ids from Python\'s SentencePiece (tokenization is outside its timings; inside ours).',
    'onnxruntime-web-q8 runs the same export with its MatMul weights quantized as transformers.js ships its q8 models (bench/quantize_onnx.py: per-channel int8 weights, uint8 activations quantized at run time).',
    'Peak memory is the process\'s maximum resident set (Node itself is about 40-50 MiB of it).', '',
    ...(report.page ? [pageMarkdown(report.page, report)] : []),  // bench/page-first-translation.js
    ...(report.convert ? [convertMarkdown(report.convert)] : []),  // bench/page-convert.js
    ...(report.opus_mt ? [opusMtMarkdown(report.opus_mt)] : []),  // bench/opus-mt-size.js
    ...(report.profile ? [profileMarkdown(report.profile)] : []),  // bench/profile.js
    ...report.models.flatMap((_, index) => modelSection(report, index)),
  ].join('\n');
}
