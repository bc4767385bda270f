// Run by tests/js/relaxed-simd.test.js under a Node with WebAssembly relaxed SIMD (Node 21 and later;
// tools/dev.sh installs one into .cache/node-relaxed): translates the sentences with each model on
// both single-thread builds and prints, as JSON, each run's build, texts, log-probabilities and the
// first sentence's cross-attention (Translation.crossAttention, as rows), so that the test compares them.
//   node tests/js/relaxed-host.js '{"models": [...], "sentences": [...], "beamSize": 1}'
import { Translator, relaxedSimdSupported } from '../../dist/index.js';

const { models, sentences, beamSize = 1 } = JSON.parse(process.argv[2]);
const runs = [];
for (const model of models) {
  for (const simd of ['simd128', 'relaxed']) {
    const t = await Translator.load(model, { simd });
    const results = await t.translateBatch(sentences, { beamSize });
    const { crossAttention } = await t.translate(sentences[0], { attention: true });
    runs.push({
      model, simd: t.simd, texts: results.map((r) => r.text), logProbs: results.map((r) => r.logProb),
      attention: crossAttention.flat(2).map((row) => Array.from(row)),
    });
    t.dispose();
  }
}
console.log(JSON.stringify({ node: process.version, relaxedSimdSupported: relaxedSimdSupported(), runs }));
