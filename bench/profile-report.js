// The section of performance.md on where a translation's time goes in WebAssembly, from the
// `profile` list of performance.json that bench/profile.js --write keeps (one entry per model and
// decoding; bench/run.js keeps the list, bench/report.js prints it).

/** performance.md's section for `profiles` (performance.json's profile list). */
export function profileMarkdown(profiles) {
  const phases = Object.keys(profiles[0].phases);
  const label = (p) => `${p.model.split('/').pop()}, ${p.beam_size === 1 ? 'greedy' : `beam ${p.beam_size}`}, ${p.shortlist ? 'shortlist' : 'whole output layer'}, ${p.simd === 'relaxed' ? 'relaxed SIMD' : 'SIMD128'}`;
  return [
    '## Where the time goes', '',
    `Measured by \`${profiles[0].command}\` and the like (bench/profile.js) on ${profiles[0].date.slice(0, 10)}: ` +
    `${[...new Set(profiles.map((p) => p.machine))].join('; and ')}.`,
    "V8's sampling profiler over the wasm engine translating the sentences one at a time after its load, as the tables below decode them (copy-through's repairs off), each sample charged to the function it stopped in, each function to a phase by its name (bench/profile.js lists the names); share of the sampled time.",
    '',
    `| phase | ${profiles.map(label).join(' | ')} |`,
    `| --- | ${profiles.map(() => '---:').join(' | ')} |`,
    ...phases.map((phase) => `| ${phase} | ${profiles.map((p) => `${(100 * p.phases[phase].share).toFixed(1)}%`).join(' | ')} |`),
    `| sampled ms (target tokens) | ${profiles.map((p) => `${Math.round(p.sampled_ms)} (${p.target_tokens})`).join(' | ')} |`,
    '',
  ].join('\n');
}
