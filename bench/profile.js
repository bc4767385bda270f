#!/usr/bin/env node
// Where a translation's time goes in WebAssembly, by phase: V8's sampling profiler over the engine
// translating a test set one sentence at a time as npm run bench does, after the load (which it leaves out), each sample
// charged to the function it stopped in and each function to a phase by its name (PHASES below).
//
//   node bench/profile.js --model FILE --src FILE [--limit N] [--beam-size N] [--no-shortlist] [--top N]
//       [--simd simd128|relaxed] [--write [--out DIR]]
//
// The engine is relinked once into build/profile/ with --profiling-funcs (the same objects as
// dist/crossattn.wasm, or with --simd relaxed dist/crossattn-relaxed.wasm, only function names added:
// V8 compiles the same code), beside a copy of dist/'s JavaScript; so `bash tools/dev.sh build`
// first. The relaxed build needs a Node that runs relaxed SIMD (22 or later). Prints one JSON object: the sampled ms,
// each phase's ms and share, target tokens, and the `--top` functions by their own time. --write also
// keeps it in --out/performance.json (docs/ by default) under `profile`, one entry per model and
// decoding, and writes performance.md again from that file (bench/profile-report.js's section).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performanceMarkdown } from './report.js';

const { values } = parseArgs({
  options: { model: { type: 'string' }, src: { type: 'string' }, limit: { type: 'string' },
             'beam-size': { type: 'string', default: '1' }, 'no-shortlist': { type: 'boolean', default: false },
             top: { type: 'string', default: '12' }, simd: { type: 'string', default: 'simd128' },
             write: { type: 'boolean', default: false },
             out: { type: 'string', default: 'docs' } },
});
if (!values.model || !values.src || !['simd128', 'relaxed'].includes(values.simd)) {
  console.error('usage: node bench/profile.js --model FILE --src FILE [--limit N] [--beam-size N] [--no-shortlist] [--top N] [--simd simd128|relaxed]');
  process.exit(2);
}
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'build', 'profile');
/** The engine build profiled: its build folder (bindings/build-wasm.sh) and its file name in dist/. */
const build = values.simd === 'relaxed' ? { dir: 'wasm-relaxed', name: 'crossattn-relaxed' } : { dir: 'wasm', name: 'crossattn' };

/** Each phase and the function names (C++ demangled, or JavaScript) charged to it; the first match wins. */
const PHASES = [
  ['products', /PackedLinear|\(anonymous namespace\)::(block|gathered_block|gathered_row|rows|row_block|panels_of_block|multiply_block|pack_block|pack_rows)|quantize_rows/],
  ['attention', /attend|attention|scores|weighted_sum|crossattn::(softmax|dot|axpy)\(|ssru|swap_leading_axes/],
  ['norms', /layer_norm/],
  ['output softmax and top-k', /log_sum_exp|top_k|max_of|exp_shifted|MostProbable|TopK|Sampler/],
  ['search bookkeeping', /BeamSearch|Transformer::decode|DecoderState|RepetitionGuard|repetition|TokenSelection|Embedding::lookup|crossattn::add\(/],
  ['copies across the boundary', /emval|embind|memcpy_big|UTF8|copyInto|writeBuffer|wasm-to-js|js-to-wasm|invoker|readLatin1|HEAP/],
  ['tokenization', /sentencepiece|Darts|Normalizer/],
  ['memory', /^(dlmalloc|dlfree|memset|memcpy|__memcpy|memmove|memcmp|operator new|operator delete|sbrk)/],
  ['garbage collection and idle', /^\((garbage collector|idle|program)\)$/],
];

/** Relinks the build's objects with function names into `out`, beside dist/'s JavaScript. */
function profilingBuild() {
  const wasmDir = path.join(root, 'build', build.dir);
  const link = readFileSync(path.join(wasmDir, 'CMakeFiles', 'crossattn-wasm.dir', 'link.txt'), 'utf8').trim().split(/\s+/);
  const at = link.indexOf('-o');
  link.splice(at, 2, '--profiling-funcs', '-o', path.join(out, `${build.name}.mjs`));
  mkdirSync(out, { recursive: true });
  cpSync(path.join(root, 'dist'), out, { recursive: true, filter: (f) => path.basename(f) !== `${build.name}.mjs` && path.basename(f) !== `${build.name}.wasm` });
  writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }\n');
  // The relaxed build links with LLVM 19 through Emscripten 3.1.6, as bindings/build-wasm.sh does.
  const relaxed = values.simd === 'relaxed' ? { EM_LLVM_ROOT: path.join(root, 'build', 'llvm19-for-emscripten'), EMCC_READ_METADATA: 'python' } : {};
  execFileSync(link[0], link.slice(1), { cwd: wasmDir, stdio: 'inherit', env: { ...process.env, NODE_PATH: '/usr/share/nodejs', ...relaxed } });
}

/**
 * Self ms per function name of a V8 CPU profile (samples charged by their time deltas), leaving out
 * the profiler's own (node:inspector's session.post, which starts and stops it).
 */
function selfMs(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const ms = new Map();
  profile.samples.forEach((id, i) => {
    const { functionName, url } = nodes.get(id).callFrame;
    if (url.startsWith('node:inspector')) return;
    const name = functionName || '(anonymous)';
    ms.set(name, (ms.get(name) ?? 0) + profile.timeDeltas[i] / 1000);
  });
  return ms;
}

profilingBuild();
const { Translator, prepareEngine } = await import(path.join(out, 'index.js'));
const wasm = await prepareEngine(readFileSync(path.join(out, `${build.name}.wasm`)));
const translator = await Translator.load(readFileSync(values.model), { wasm });
let lines = readFileSync(values.src, 'utf8').split('\n').filter((l) => l.trim());
if (values.limit) lines = lines.slice(0, Number(values.limit));
// As npm run bench decodes (bench/engine.js): the model's own translation, without copy-through's
// repairs, which decode again the sentences whose numbers went missing (docs/copy-through.md).
const options = { attention: false, copyThrough: false, beamSize: Number(values['beam-size']), shortlist: !values['no-shortlist'] };
await translator.translate(lines[0], options);  // untimed: the first translation compiles the hot functions

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
let targetTokens = 0;
for (const line of lines) targetTokens += (await translator.translate(line, options)).targetIds.length;
const { profile } = await session.post('Profiler.stop');
session.disconnect();

const ms = selfMs(profile);
const total = [...ms.values()].reduce((a, b) => a + b, 0);
const phases = Object.fromEntries([...PHASES.map(([name]) => name), 'other'].map((name) => [name, 0]));
for (const [name, t] of ms) phases[(PHASES.find(([, re]) => re.test(name)) ?? ['other'])[0]] += t;
const round = (x, digits = 1) => Number(x.toFixed(digits));
const cpu = os.cpus()[0];
const result = {
  date: new Date().toISOString(), machine: `${cpu.model}, ${os.cpus().length} cores, Node ${process.version}`,
  command: ['npm run bench:profile --', ...process.argv.slice(2).filter((a) => a !== '--write')].join(' '),
  model: values.model, src: values.src, simd: values.simd, sentences: lines.length, beam_size: options.beamSize, shortlist: options.shortlist,
  target_tokens: targetTokens, sampled_ms: round(total),
  phases: Object.fromEntries(Object.entries(phases).map(([name, t]) => [name, { ms: round(t), share: round(t / total, 3) }])),
  top_functions: [...ms].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))
    .map(([name, t]) => ({ name: name.slice(0, 120), ms: round(t), share: round(t / total, 3) })),
};
console.log(JSON.stringify(result, null, 1));

if (values.write) {
  const file = path.join(values.out, 'performance.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const same = (p) => p.model === result.model && p.beam_size === result.beam_size && p.shortlist === result.shortlist && (p.simd ?? 'simd128') === result.simd;
  report.profile = [...(report.profile ?? []).filter((p) => !same(p)), result];
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  if (report.models) writeFileSync(path.join(values.out, 'performance.md'), performanceMarkdown(report));
}
