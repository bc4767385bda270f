// The engine's builds in Debian's Chromium. The pthreads engine: web/serve.js sends COOP/COEP, so the
// page is cross-origin isolated: threadsAvailable() counts the cores (at most 4), the page runs one
// worker of that many threads, and a Translator on 2 threads gives what one on 1 thread gives, token
// for token and score for score (each output feature is computed by one thread, in the same order).
// The relaxed SIMD engine (crossattn-relaxed.wasm): Chromium has relaxed SIMD, so a single-thread
// translator takes that build by default, and an int8 model translates on it exactly as on the
// SIMD128 build (texts, log-probabilities, cross-attention), greedy and beam. Served without COOP/COEP
// (a static host), the page runs one thread, and its `simd` parameter picks the build.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { launchChromium, translateOn } from './browser.js';

const MODEL = '/models/tatoeba-en-de/tatoeba-en-de.int8.crossattn';
const GENERAL_MODEL = '/models/general-en-de/general-en-de.int8.crossattn';
const SENTENCES = [
  'A dog runs.',
  'The committee said on Tuesday that the new rules, which were agreed after months of talks, will take effect next year.',
  'Scientists at the university have found that the small fish can survive in water that is much colder than expected.',
  'He told reporters that he did not know when the bridge would be opened again, because the damage was worse than they had thought.',
];

let server, url, browser, page;
const pageErrors = [];

// Runs `body` (an async function's body, given `arg`) in the page. A string, so that Vitest does not
// rewrite its import() into its own loader, which the page does not have.
const inPage = (body, arg = null) => page.evaluate(`(async (arg) => { ${body} })(${JSON.stringify(arg)})`);

beforeAll(async () => {
  ({ server, url } = await serve(0));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test('served with COOP/COEP the page is cross-origin isolated and offers every core, up to 4', async () => {
  const { isolated, available, cores } = await inPage(`
    const { threadsAvailable } = await import('/dist/index.js');
    return { isolated: crossOriginIsolated, available: threadsAvailable(), cores: navigator.hardwareConcurrency };`);
  expect(isolated).toBe(true);
  expect(available).toBe(Math.min(4, cores));
});

test('2 threads translate exactly as 1 thread does, and the engine says how many it runs', async () => {
  const runs = await inPage(`
    const { Translator } = await import('/dist/index.js');
    const out = [];
    for (const threads of [1, 2]) {
      const t = await Translator.load(arg.model, { threads });
      const results = await t.translateBatch(arg.sentences);
      const single = await t.translate(arg.sentences[1], { beamSize: 4 });
      out.push({ threads: t.threads, texts: results.map((r) => r.text), logProbs: results.map((r) => r.logProb),
                 beam: [single.text, single.score] });
      t.dispose();
    }
    return out;`, { model: MODEL, sentences: SENTENCES });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  expect(runs[0].threads).toBe(1);
  expect(runs[1].threads).toBe(Math.min(2, cores));
  expect(runs[0].texts.every((t) => t.length > 0)).toBe(true);
  expect(runs[1].texts).toEqual(runs[0].texts);
  expect(runs[1].logProbs).toEqual(runs[0].logProbs);
  expect(runs[1].beam).toEqual(runs[0].beam);
  expect(pageErrors).toEqual([]);
});

// The pthreads engine is built with Emscripten's JavaScript-based exceptions (bindings/build-wasm.sh):
// an engine error must still arrive as its typed error, and the translator stay usable.
test('on 2 threads, engine errors arrive typed and the translator stays usable', async () => {
  const outcome = await inPage(`
    const { Translator } = await import('/dist/index.js');
    const t = await Translator.load(arg.model, { threads: 2 });
    const errors = [];
    for (const [text, options] of [['dog '.repeat(9000), {}], ['A dog.', { beamSize: -1 }], ['A dog.', { nBest: 3 }]]) {
      errors.push(await t.translate(text, options).then(() => null, (e) => [e.name, e.message]));
    }
    const after = (await t.translate('A dog runs.')).text;
    t.dispose();
    return { errors, after };`, { model: MODEL });
  expect(outcome.errors[0][0]).toBe('InputTooLongError');
  expect(outcome.errors[0][1]).toMatch(/at most \d+/);
  expect(outcome.errors[1][0]).toBe('InvalidInputError');
  expect(outcome.errors[2][0]).toBe('InvalidInputError');
  expect(outcome.after.length).toBeGreaterThan(0);
});

test('the page itself translates on its threaded worker and says so', async () => {
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await translateOn(page, SENTENCES[2]);
  const meta = await page.textContent('#meta');
  if (Math.min(4, cores) > 1) expect(meta).toMatch(new RegExp(`on ${Math.min(4, cores)} threads`));
  else expect(meta).not.toMatch(/threads/);
  expect(pageErrors).toEqual([]);
});

test('Chromium has relaxed SIMD, and a single-thread translator runs crossattn-relaxed.wasm by default', async () => {
  const { supported, simd } = await inPage(`
    const { Translator, relaxedSimdSupported } = await import('/dist/index.js');
    const t = await Translator.load(arg, { threads: 1 });
    const simd = t.simd;
    t.dispose();
    return { supported: relaxedSimdSupported(), simd };`, GENERAL_MODEL);
  expect(supported).toBe(true);
  expect(simd).toBe('relaxed');
});

test('an int8 model translates bit for bit the same on the relaxed and SIMD128 builds', async () => {
  const runs = await inPage(`
    const { Translator } = await import('/dist/index.js');
    const out = {};
    for (const simd of ['simd128', 'relaxed']) {
      const t = await Translator.load(arg.model, { threads: 1, simd });
      const greedy = await t.translateBatch(arg.sentences, { attention: true });
      const beam = await t.translate(arg.sentences[1], { beamSize: 4 });
      out[simd] = { simd: t.simd, texts: greedy.map((r) => r.text), logProbs: greedy.map((r) => r.logProb),
                    attention: greedy[2].crossAttention.flat(2).map((row) => Array.from(row)), beam: [beam.text, beam.score] };
      t.dispose();
    }
    return out;`, { model: GENERAL_MODEL, sentences: SENTENCES });
  expect([runs.simd128.simd, runs.relaxed.simd]).toEqual(['simd128', 'relaxed']);
  expect(runs.relaxed.texts).toEqual(runs.simd128.texts);
  expect(runs.relaxed.logProbs).toEqual(runs.simd128.logProbs);
  expect(runs.relaxed.attention).toEqual(runs.simd128.attention);
  expect(runs.relaxed.beam).toEqual(runs.simd128.beam);
  expect(pageErrors).toEqual([]);
});

test('served without COOP/COEP, the page runs one thread, and its simd parameter picks the build', async () => {
  const plain = await serve(0, { isolated: false });
  const other = await browser.newPage();
  try {
    const fetched = {};
    for (const query of ['', '?simd=simd128']) {
      await other.goto(plain.url + query);
      await translateOn(other, SENTENCES[0]);
      fetched[query] = await other.evaluate(() => [globalThis.crossOriginIsolated,
        performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.wasm')).map((p) => p.split('/').pop())]);
    }
    expect(fetched['']).toEqual([false, ['crossattn-relaxed.wasm']]);  // Chromium has relaxed SIMD
    expect(fetched['?simd=simd128']).toEqual([false, ['crossattn.wasm']]);
  } finally {
    await other.close();
    plain.server.close();
  }
});
