// The benchmark's pictures (bench/plots.js) from a small hand-made report: each SVG is well formed
// (tags balanced, no bare & or < in text), the bar chart has one bar per engine with its name and
// value and bar lengths ordered as the values, lines and points follow the data, axis labels carry
// their units, and engine names with < and & are escaped.
import { describe, expect, test } from 'vitest';
import { batchSvg, benchPlots, escapeXml, latencySvg, tokensPerSecondSvg } from '../../bench/plots.js';

const ODD_NAME = 'peer <q8> & co';
const REPORT = {
  date: '2025-01-02T03:04:05.000Z', command: 'npm run bench -- --quick',
  test_set: 'multi30k test_2016_flickr en-de', sentences: 12, runs: 1,
  engines: {
    'crossattn-wasm-fp32': { tokens_per_s: 341.3 },
    'crossattn-wasm-int8': { tokens_per_s: 1264.4 },
    [ODD_NAME]: { tokens_per_s: 204.7 },
    'crossattn-wasm-int8-batch32': { tokens_per_s: 1684.1, batch: 32 },
  },
  batch_sweep: {
    'crossattn-wasm-fp32': [{ batch_size: 1, tokens_per_s: 330 }, { batch_size: 4, tokens_per_s: 520 }, { batch_size: 32, tokens_per_s: 821 }],
    'crossattn-wasm-int8': [{ batch_size: 1, tokens_per_s: 1200 }, { batch_size: 4, tokens_per_s: 1500 }, { batch_size: 32, tokens_per_s: 1684.1 }],
  },
  latency_by_source_length: {
    bucket_tokens: 5, min_sentences: 5,
    engines: {
      'crossattn-wasm-fp32': [{ from_tokens: 10, to_tokens: 14, sentences: 6, p50_ms: 30 }, { from_tokens: 15, to_tokens: 19, sentences: 6, p50_ms: 45 }],
      [ODD_NAME]: [{ from_tokens: 10, to_tokens: 14, sentences: 6, p50_ms: 50 }, { from_tokens: 15, to_tokens: 19, sentences: 6, p50_ms: 80 }],
    },
  },
};

/** Throws unless `svg` is one <svg> element whose tags all close in order and whose text escapes & and <. */
function expectWellFormed(svg) {
  const stack = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  for (let m; (m = tag.exec(svg));) {
    const text = svg.slice(last, m.index);
    expect(text, 'text between tags').not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|#\d+);)/);
    const [, closing, name, attributes, selfClosing] = m;
    expect(attributes, `attributes of <${name}>`).not.toMatch(/&(?!(amp|lt|gt|quot|#\d+);)/);
    if (closing) expect(stack.pop(), `</${name}> closes the open tag`).toBe(name);
    else if (!selfClosing) stack.push(name);
    if (stack.length === 0) expect(svg.slice(m.index + m[0].length).trim(), 'nothing after </svg>').toBe('');
    last = tag.lastIndex;
  }
  expect(stack).toEqual([]);
  expect(svg.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg).toMatch(/width="640" height="360"/);
  expect(svg, 'nothing fetched or run').not.toMatch(/<script|<image|@import|url\(|href=/);
  expect(svg, 'every coordinate a number').not.toMatch(/NaN|Infinity|undefined/);
}

/** The text contents of elements `<name class="className" ...>`, in document order. */
const texts = (svg, className) => [...svg.matchAll(new RegExp(`<text class="${className}"[^>]*>([^<]*)</text>`, 'g'))].map((m) => m[1]);
const numbers = (svg, pattern) => [...svg.matchAll(pattern)].map((m) => Number(m[1]));

describe('bench-tokens.svg', () => {
  const svg = tokensPerSecondSvg(REPORT);

  test('is well formed, with a title and axis labels with units', () => {
    expectWellFormed(svg);
    expect(texts(svg, 'title')).toEqual(['Target tokens per second by engine (higher is faster)']);
    expect(texts(svg, 'axis-label')).toEqual(['target tokens/s', 'engine']);
    expect(texts(svg, 'subtitle')[0]).toContain('12 sentences of multi30k test_2016_flickr en-de, 1 run(s); npm run bench -- --quick, 2025-01-02');
  });

  test("names the model of the report's section in its subtitle", () => {
    const subtitle = texts(tokensPerSecondSvg({ ...REPORT, model: 'general-en-de' }), 'subtitle')[0];
    expect(subtitle.startsWith('general-en-de, 12 sentences of')).toBe(true);
  });

  test('draws one bar per engine row, named and labelled with its value, its length ordered as the values', () => {
    const names = Object.keys(REPORT.engines), values = names.map((n) => REPORT.engines[n].tokens_per_s);
    expect(texts(svg, 'engine')).toEqual(names.map(escapeXml));
    expect(texts(svg, 'value')).toEqual(values.map(String));
    const widths = numbers(svg, /<rect class="bar"[^>]* width="([\d.]+)"/g);
    expect(widths).toHaveLength(names.length);
    // Lengths proportional to the values (the axis starts at 0), up to the rounding to 0.1 px.
    widths.forEach((w, i) => expect(w / widths[1]).toBeCloseTo(values[i] / values[1], 2));
    const byWidth = names.map((n, i) => [n, widths[i]]).sort((a, b) => a[1] - b[1]).map(([n]) => n);
    const byValue = names.map((n, i) => [n, values[i]]).sort((a, b) => a[1] - b[1]).map(([n]) => n);
    expect(byWidth).toEqual(byValue);
  });

  test('escapes engine names with < and &, in the label and in the bar\'s tooltip', () => {
    expect(svg).toContain('peer &lt;q8&gt; &amp; co</text>');
    expect(svg).toContain('<title>peer &lt;q8&gt; &amp; co: 204.7 tokens/s</title>');
    expect(svg).not.toContain(ODD_NAME);
  });
});

describe('bench-latency.svg', () => {
  const svg = latencySvg(REPORT);

  test('is well formed, with axis labels with units and one legend entry per engine', () => {
    expectWellFormed(svg);
    expect(texts(svg, 'axis-label')).toEqual([
      'source sentence length (tokens; 5-token buckets, at their middle)', 'latency (ms, log scale; bucket median)']);
    expect(texts(svg, 'legend')).toEqual(['crossattn-wasm-fp32', 'peer &lt;q8&gt; &amp; co']);
  });

  test('draws a line per engine through its buckets, a slower bucket higher up', () => {
    expect(svg.match(/<path class="line"/g)).toHaveLength(2);
    const cx = numbers(svg, /<circle class="point" cx="([\d.]+)"/g), cy = numbers(svg, /<circle class="point" cx="[\d.]+" cy="([\d.]+)"/g);
    expect(cx).toHaveLength(4);
    expect(cx[0]).toBeLessThan(cx[1]);             // the 10-14 bucket left of the 15-19 one
    expect(cx[0]).toBe(cx[2]);                     // the same bucket at the same place for both engines
    // SVG's y grows downwards: 80 ms above 50 above 45 above 30.
    expect([cy[3], cy[2], cy[1], cy[0]]).toEqual([...cy].sort((a, b) => a - b));
  });
});

test('bench-latency.svg says so when no length bucket holds enough sentences', () => {
  const svg = latencySvg({ ...REPORT, latency_by_source_length: { bucket_tokens: 5, min_sentences: 5, engines: { 'crossattn-wasm-fp32': [] } } });
  expectWellFormed(svg);
  expect(texts(svg, 'note')).toEqual(['no length bucket holds 5 sentences']);
  expect(svg).not.toContain('NaN');
});

describe('bench-batch.svg', () => {
  const svg = batchSvg(REPORT);

  test('is well formed, with axis labels with units, a tick per batch size and a line per precision', () => {
    expectWellFormed(svg);
    expect(texts(svg, 'axis-label')).toEqual(['batch size (sentences per call, log scale)', 'target tokens/s']);
    expect(texts(svg, 'legend')).toEqual(['crossattn-wasm-fp32', 'crossattn-wasm-int8']);
    expect(texts(svg, 'tick').slice(0, 3)).toEqual(['1', '4', '32']);
    expect(svg.match(/<path class="line"/g)).toHaveLength(2);
  });

  test('places batch sizes on a log 2 scale', () => {
    const cx = numbers(svg, /<circle class="point" cx="([\d.]+)"/g).slice(0, 3);
    // 1 -> 4 is two doublings, 4 -> 32 three.
    expect((cx[2] - cx[1]) / (cx[1] - cx[0])).toBeCloseTo(1.5, 2);
  });

  test('draws a single batch size too', () => {
    const one = { ...REPORT, batch_sweep: { 'crossattn-wasm-int8': [{ batch_size: 32, tokens_per_s: 1684.1 }] } };
    const single = batchSvg(one);
    expectWellFormed(single);
    expect(numbers(single, /<circle class="point" cx="([\d.]+)"/g).every(Number.isFinite)).toBe(true);
  });
});

test('benchPlots names the three files that bench/run.js writes', () => {
  expect(Object.keys(benchPlots(REPORT))).toEqual(['bench-tokens.svg', 'bench-latency.svg', 'bench-batch.svg']);
});

test('the well-formedness check itself catches a bare & and an unclosed tag', () => {
  expect(() => expectWellFormed('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><text>a & b</text></svg>')).toThrow();
  expect(() => expectWellFormed('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><g></svg>')).toThrow();
});
