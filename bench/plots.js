// The pictures of `npm run bench`, drawn from one model's section of the report that bench/run.js
// writes to performance.json (with the run's date, command, sentences and runs): plain SVG strings, 640 x 360, d3-scale for the axes, no fonts, scripts or
// styles from outside the file. bench/run.js writes them beside performance.json.
//
//   bench-tokens.svg   target tokens/s by engine: one horizontal bar per engine row of the report
//                      (`engines`), its value written at its end. Target tokens are the generated
//                      SentencePiece pieces plus eos, over the translation time (load excluded);
//                      crossattn rows in blue, the peers in grey.
//   bench-latency.svg  latency (ms per sentence, log scale) against the source sentence's length
//                      (tokens: pieces plus eos): the median per length bucket, one line per
//                      single-sentence engine (`latency_by_source_length`).
//   bench-batch.svg    target tokens/s against batch size (sentences per translateBatch call, log 2
//                      scale), one line per crossattn WebAssembly precision, fp32 and int8 (`batch_sweep`).
import { scaleBand, scaleLinear, scaleLog, scaleOrdinal } from 'd3-scale';
import { schemeTableau10 } from 'd3-scale-chromatic';

const WIDTH = 640, HEIGHT = 360;
const AXIS_COLOR = '#444', GRID_COLOR = '#e4e4e4';
const CROSSATTN_COLOR = '#1f77b4', PEER_COLOR = '#9a9a9a';
/** The line plots' area; their legend sits to its right. */
const LINE_PLOT_AREA = { left: 58, right: WIDTH - 195, top: 52, bottom: HEIGHT - 42 };

/** Text made safe for SVG content and attribute values. */
export function escapeXml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A coordinate with one decimal, enough at this size and short in the file. */
const px = (v) => Number(v.toFixed(1));

/**
 * The whole picture: white background, title and subtitle (the run the numbers come from), the
 * body, and the axis labels centred on the plot area `area` ({left, right, top, bottom}).
 */
function frame({ title, report, area, xLabel, yLabel, body }) {
  const subtitle = `${report.model ? `${report.model}, ` : ''}${report.sentences} sentences of ${report.test_set}, ${report.runs} run(s); ` +
    `${report.command}, ${report.date.slice(0, 10)}`;
  const xMid = px((area.left + area.right) / 2), yMid = px((area.top + area.bottom) / 2);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ` +
      'role="img" font-family="sans-serif" font-size="11" fill="#222">',
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text class="title" x="12" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text class="subtitle" x="12" y="38" fill="#666">${escapeXml(subtitle)}</text>`,
    body,
    `<text class="axis-label" x="${xMid}" y="${HEIGHT - 8}" text-anchor="middle">${escapeXml(xLabel)}</text>`,
    `<text class="axis-label" transform="translate(14 ${yMid}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`,
    '</svg>', '',
  ].join('\n');
}

/**
 * The bottom axis of plot area `area`, with vertical grid lines (none over the left axis): tick marks
 * and labels at `ticks`.
 */
function xAxis(scale, area, ticks, format) {
  const y = area.bottom;
  return [
    ...ticks.map((t) => {
      const x = px(scale(t));
      return (x > area.left ? `<line x1="${x}" x2="${x}" y1="${area.top}" y2="${y}" stroke="${GRID_COLOR}"/>` : '') +
        `<line x1="${x}" x2="${x}" y1="${y}" y2="${y + 4}" stroke="${AXIS_COLOR}"/>` +
        `<text class="tick" x="${x}" y="${y + 15}" text-anchor="middle">${escapeXml(format(t))}</text>`;
    }),
    `<line x1="${area.left}" x2="${area.right}" y1="${y}" y2="${y}" stroke="${AXIS_COLOR}"/>`,
  ].join('\n');
}

/** The left axis of plot area `area`, with horizontal grid lines (none over the bottom axis). */
function yAxis(scale, area, ticks, format) {
  const x = area.left;
  return [
    ...ticks.map((t) => {
      const y = px(scale(t));
      return (y < area.bottom ? `<line x1="${x}" x2="${area.right}" y1="${y}" y2="${y}" stroke="${GRID_COLOR}"/>` : '') +
        `<line x1="${x - 4}" x2="${x}" y1="${y}" y2="${y}" stroke="${AXIS_COLOR}"/>` +
        `<text class="tick" x="${x - 7}" y="${y + 4}" text-anchor="end">${escapeXml(format(t))}</text>`;
    }),
    `<line x1="${x}" x2="${x}" y1="${area.top}" y2="${area.bottom}" stroke="${AXIS_COLOR}"/>`,
  ].join('\n');
}

/**
 * Lines with their points, one per series ({name, points: [{x, y}]}), and a legend to the right of
 * the plot area starting at (`legendX`, `legendY`).
 */
function lineSeries(series, x, y, legendX, legendY) {
  const color = scaleOrdinal(schemeTableau10).domain(series.map((s) => s.name));
  return series.map((s, i) => {
    const c = color(s.name), ly = legendY + i * 16;
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${px(x(p.x))},${px(y(p.y))}`).join('');
    return `<g class="series">\n<path class="line" d="${d}" fill="none" stroke="${c}" stroke-width="2"/>\n` +
      s.points.map((p) => `<circle class="point" cx="${px(x(p.x))}" cy="${px(y(p.y))}" r="3" fill="${c}">` +
        `<title>${escapeXml(`${s.name}: ${p.y}`)}</title></circle>`).join('\n') +
      `\n<line x1="${legendX}" x2="${legendX + 16}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2"/>` +
      `<text class="legend" x="${legendX + 21}" y="${ly + 4}">${escapeXml(s.name)}</text>\n</g>`;
  }).join('\n');
}

/** bench-tokens.svg: target tokens/s of each engine row, one labelled horizontal bar each. */
export function tokensPerSecondSvg(report) {
  const rows = Object.entries(report.engines).map(([name, r]) => ({ name, value: r.tokens_per_s }));
  const area = { left: 190, right: WIDTH - 60, top: 52, bottom: HEIGHT - 42 };
  const x = scaleLinear().domain([0, Math.max(...rows.map((r) => r.value))]).nice().range([area.left, area.right]);
  const y = scaleBand().domain(rows.map((r) => r.name)).range([area.top, area.bottom]).paddingInner(0.2);
  const bars = rows.map(({ name, value }) => {
    const top = px(y(name)), height = px(y.bandwidth()), middle = px(y(name) + y.bandwidth() / 2 + 4);
    const color = name.startsWith('crossattn') ? CROSSATTN_COLOR : PEER_COLOR;
    return `<text class="engine" x="${area.left - 6}" y="${middle}" text-anchor="end">${escapeXml(name)}</text>` +
      `<rect class="bar" x="${area.left}" y="${top}" width="${px(x(value) - area.left)}" height="${height}" fill="${color}">` +
      `<title>${escapeXml(`${name}: ${value} tokens/s`)}</title></rect>` +
      `<text class="value" x="${px(x(value) + 4)}" y="${middle}">${escapeXml(value)}</text>`;
  });
  const body = [
    xAxis(x, area, x.ticks(6), x.tickFormat(6)),
    `<line x1="${area.left}" x2="${area.left}" y1="${area.top}" y2="${area.bottom}" stroke="${AXIS_COLOR}"/>`,
    ...bars,
  ].join('\n');
  return frame({ title: 'Target tokens per second by engine (higher is faster)', report, area,
                 xLabel: 'target tokens/s', yLabel: 'engine', body });
}

/** bench-latency.svg: median latency per source-length bucket, one line per single-sentence engine. */
export function latencySvg(report) {
  const { bucket_tokens: bucketTokens, engines } = report.latency_by_source_length;
  const series = Object.entries(engines).map(([name, buckets]) => ({
    name, points: buckets.map((b) => ({ x: (b.from_tokens + b.to_tokens) / 2, y: b.p50_ms })),
  }));
  const points = series.flatMap((s) => s.points), area = LINE_PLOT_AREA;
  const title = 'Latency against source sentence length (lower is faster)';
  const xLabel = `source sentence length (tokens; ${bucketTokens}-token buckets, at their middle)`;
  const yLabel = 'latency (ms, log scale; bucket median)';
  if (points.length === 0) {  // too few sentences for any bucket (bench/run.js --sentences)
    const note = `no length bucket holds ${report.latency_by_source_length.min_sentences} sentences`;
    return frame({ title, report, area, xLabel, yLabel, body: `<text class="note" x="${area.left}" y="${area.top + 20}">${note}</text>` });
  }
  const x = scaleLinear().domain([Math.min(...points.map((p) => p.x)), Math.max(...points.map((p) => p.x))])
    .nice().range([area.left, area.right]);
  // Log scale: the engines' latencies lie a factor of 10 or more apart. Every tick a grid line,
  // labels where d3 finds room (1, 2, 3 of each decade for a few decades).
  const y = scaleLog().domain([Math.min(...points.map((p) => p.y)), Math.max(...points.map((p) => p.y))]).nice()
    .range([area.bottom, area.top]);
  const body = [
    xAxis(x, area, x.ticks(8), x.tickFormat(8)),
    yAxis(y, area, y.ticks(), y.tickFormat(6, (t) => String(Number(t.toPrecision(3))))),
    lineSeries(series, x, y, area.right + 10, area.top + 4),
  ].join('\n');
  return frame({ title, report, area, xLabel, yLabel, body });
}

/** bench-batch.svg: target tokens/s against sentences per translateBatch call, fp32 and int8. */
export function batchSvg(report) {
  const series = Object.entries(report.batch_sweep).map(([name, sizes]) => ({
    name, points: sizes.map((s) => ({ x: s.batch_size, y: s.tokens_per_s })),
  }));
  const sizes = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const area = LINE_PLOT_AREA;
  // A single size would give an empty log domain: widen it by one power of 2 each side.
  const domain = sizes.length > 1 ? [sizes[0], sizes.at(-1)] : [sizes[0] / 2, sizes[0] * 2];
  const x = scaleLog().base(2).domain(domain).range([area.left + 16, area.right - 16]);
  const y = scaleLinear().domain([0, Math.max(...series.flatMap((s) => s.points.map((p) => p.y)))]).nice()
    .range([area.bottom, area.top]);
  const body = [
    xAxis(x, area, sizes, String),
    yAxis(y, area, y.ticks(6), y.tickFormat(6)),
    lineSeries(series, x, y, area.right + 10, area.top + 4),
  ].join('\n');
  return frame({ title: 'Batch throughput of translateBatch (higher is faster)', report, area,
                 xLabel: 'batch size (sentences per call, log scale)', yLabel: 'target tokens/s', body });
}

/** The three pictures by file name, as bench/run.js writes them beside performance.json. */
export function benchPlots(report) {
  return {
    'bench-tokens.svg': tokensPerSecondSvg(report),
    'bench-latency.svg': latencySvg(report),
    'bench-batch.svg': batchSvg(report),
  };
}
