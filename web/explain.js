// The explain view: what cross-attention computes for the current sentence, in this model's
// numbers. Shapes (queries from the decoder, keys and values from the final encoder output), how
// much each cross-attention residual adds to the decoder state that asked (Translation.residual),
// and why the seemingly symmetric alternatives cannot serve an autoregressive decoder.
import { displayToken } from './heatmap.js';

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children.flat());
  return node;
}

const shape = (...dims) => h('code', {}, `[${dims.join(', ')}]`);
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

// Largest |sum of a row - 1| over every layer, head and target row: the rows are distributions.
function worstRowSum(attention) {
  let worst = 0;
  for (const heads of attention) for (const rows of heads) for (const row of rows) {
    worst = Math.max(worst, Math.abs(row.reduce((a, b) => a + b, 0) - 1));
  }
  return worst;
}

function shapes(result, config) {
  const n = result.sourceTokens.length, m = result.targetTokens.length;
  const d = config.dModel, heads = config.nHeads, dk = d / heads;
  return h('ol', { class: 'shapes' },
    h('li', {}, 'The encoder reads the ', h('b', {}, `${n} source tokens`), ' once: encoder_out is ', shape('n', 'd_model'),
      ' = ', shape(n, d), '. That one matrix is the memory of ', h('b', {}, `all ${config.decoderLayers} decoder layers`),
      '; each layer l projects it with its own weights into keys K = encoder_out W_K^l and values V = encoder_out W_V^l, ',
      shape('n', 'd_k'), ' = ', shape(n, dk), ' per head (d_k = d_model / n_heads = ', `${d} / ${heads}).`),
    h('li', {}, 'Queries come from the decoder: its states for the ', h('b', {}, `${m} target positions`), ' give Q = x W_Q^l, ',
      shape('m', 'd_k'), ' = ', shape(m, dk), ' per head.'),
    h('li', {}, 'The weights softmax(Q Kᵀ / √d_k) are ', shape('m', 'n'), ' = ', shape(m, n),
      ' per head; each row is a convex combination over source positions. In this translation the largest deviation of a row sum from 1 is ',
      h('b', {}, worstRowSum(result.crossAttention).toExponential(1)), '.'),
    h('li', {}, 'Each head mixes the values, weights · V = ', shape(m, dk), '; the ', String(heads), ' heads are concatenated to ',
      shape(m, d), ' and W_O ', shape(d, d), ' maps them back to d_model: the update u, ', shape(m, d), '.'),
    h('li', {}, 'The residual adds u to the decoder state x that asked: x + u, ', shape(m, d),
      ', one row per target position whatever the source length.'));
}

// Per layer and target token: |x|, |u| and cos(x, u), with a bar for |u| / |x|.
function residualTable(result) {
  const { inputNorm, updateNorm, cosine } = result.residual;
  const layers = inputNorm.length;
  const head = h('tr', {}, h('th', {}, 'target token'),
    ...Array.from({ length: layers }, (_, l) => h('th', { colspan: 3 }, `layer ${l + 1}: |x|, |u|, cos(x, u)`)));
  const rows = result.targetTokens.map((token, t) => h('tr', {}, h('td', {}, displayToken(token)),
    ...Array.from({ length: layers }, (_, l) => [
      h('td', {}, inputNorm[l][t].toFixed(1)),
      h('td', {}, h('span', { class: 'bar', style: `width:${Math.min(60, 60 * updateNorm[l][t] / inputNorm[l][t]).toFixed(0)}px` }),
        ` ${updateNorm[l][t].toFixed(1)}`),
      h('td', {}, cosine[l][t].toFixed(2)),
    ]).flat()));
  const summary = Array.from({ length: layers }, (_, l) => {
    const ratio = mean(Array.from(updateNorm[l], (u, t) => u / inputNorm[l][t]));
    return h('li', {}, `layer ${l + 1}: on average |u| is ${(100 * ratio).toFixed(0)}% of |x|, cos(x, u) = ${mean(Array.from(cosine[l])).toFixed(2)}`);
  });
  return [
    h('p', {}, 'How much of the decoder state after the block is its own state x and how much the mixture of encoder values u it fetched: ',
      'the norms of both and the cosine between them, for every decoder layer and target position. ',
      'If |u| were tiny next to |x|, the decoder would ignore the source; if u dominated x, or pointed the same way (cosine near 1), ',
      'the state after the block would mostly be encoder values passed through. The numbers below say which it is in each layer.'),
    h('ul', { class: 'residual-summary' }, summary),
    // A Tab stop: on a phone the table scrolls sideways, and the arrow keys scroll it (axe-core: scrollable-region-focusable).
    h('table', { class: 'residual', tabindex: '0', 'aria-label': 'norms and cosine per decoder layer and target token' },
      h('thead', {}, head), h('tbody', {}, rows)),
  ];
}

function alternatives(result, config) {
  const n = result.sourceTokens.length, m = result.targetTokens.length, d = config.dModel;
  return h('ul', { class: 'alternatives' },
    h('li', {}, h('b', {}, 'Encoder states as queries, decoder states as keys and values. '),
      'The weights would be ', shape('n', 'm'), ' = ', shape(n, m), ' and the block would return ', h('b', {}, `n = ${n}`),
      ' vectors ', shape(n, d), ', one per source token, where the decoder needs ', h('b', {}, `m = ${m}`), ', one per target position ',
      shape(m, d), ' to predict the next token from. While decoding, position t exists only after t steps, so the keys would grow under the queries at every step, ',
      'and no row of the result belongs to the position being predicted.'),
    h('li', {}, h('b', {}, 'The residual taken from the values (V + attention output). '),
      'V has one row per source token ', shape(n, d), '; the attention output has one per target position ', shape(m, d),
      '. They add up only when n = m', n === m ? ' (true here by chance, and wrong for every other length: row i of V has nothing to do with target position i)' : ` (here ${n} ≠ ${m})`,
      '. And the state that asked would be lost: position t\u2019s own information (the words it has already produced) would no longer reach the layers above.'),
    h('li', {}, 'With queries from the decoder and the residual from the queries, the block maps ', shape(m, d), ' to ', shape(m, d),
      ' for any source length, which is what an autoregressive decoder needs.'));
}

// Why this model has more encoder than decoder layers: the work of this sentence per stack, and the
// measured comparison of models/architecture.json (tools/architecture-compare.js), when there is one.
function depth(result, config, architecture) {
  const n = result.sourceTokens.length, m = result.targetTokens.length;
  const enc = config.encoderLayers, dec = config.decoderLayers;
  const items = [h('p', {}, `This model has ${enc} encoder and ${dec} decoder layers. For this sentence the encoder ran its ${enc} layers once, `,
    `over all ${n} source tokens in parallel; the decoder ran its ${dec} layers ${m} times, once per target token, each step waiting for the one before. `,
    'Layers in the decoder cost a sequential step per output token; layers in the encoder do not, which is why a deep encoder and a shallow decoder ',
    'translate faster at the same size (Kasai et al. 2021, "Deep Encoder, Shallow Decoder").')];
  if (architecture) {
    const cols = [['layers (enc + dec)', (r) => `${r.encoder_layers} + ${r.decoder_layers}`], ['valid loss', (r) => r.valid_loss],
      ['dev BLEU', (r) => r.bleu_dev], [`${architecture.set} BLEU`, (r) => r.bleu_wasm_int8],
      ['sentences/s (wasm int8)', (r) => r.sentences_per_s], ['tokens/s', (r) => r.tokens_per_s]];
    items.push(h('p', {}, `Measured on our own models, trained on the same data for the same budget (docs/deep-encoder.md; `,
      `loss and dev BLEU after ${architecture.compared_at_step} updates each, ${architecture.set} BLEU and speed of each run's last weights):`),
      h('table', { class: 'architecture' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), ...architecture.candidates.map((r) => h('th', {}, r.name)))),
        h('tbody', {}, cols.map(([label, f]) => h('tr', {}, h('td', {}, label), ...architecture.candidates.map((r) => h('td', {}, String(f(r)))))))));
    if (architecture.verdict) items.push(h('p', { class: 'verdict' }, architecture.verdict));
  }
  return items;
}

/**
 * Renders the explain view of result (with crossAttention and residual) into container; architecture
 * is the parsed models/architecture.json, or null.
 */
export function renderExplain(container, result, config, architecture = null) {
  container.replaceChildren(
    h('h3', {}, 'Shapes in this sentence'), shapes(result, config),
    h('h3', {}, 'What the residual adds'), ...residualTable(result),
    h('h3', {}, 'Why not the other way round?'), alternatives(result, config),
    h('h3', {}, 'A deep encoder and a shallow decoder, or a balanced model?'), ...depth(result, config, architecture));
  container.dataset.targetTokens = String(result.targetTokens.length);
}
