// crossattn/translator-api against the web platform's Translator API
// (https://webmachinelearning.github.io/translation-api/) as its web-platform-tests check it
// (ai/translator/*), with the en↔de models of the package's catalog, in Node: the IDL's members,
// availability, create() with its monitor and signal, translate and translateStreaming, the quota,
// destroy, and what crossattn adds (translateDetailed, engine).
import { afterAll, expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { Translator as Engine, composeAlignments } from '../../dist/index.js';
import { Translator, catalogProvider, configureTranslatorApi, DEFAULT_INPUT_QUOTA } from '../../dist/translator-api/index.js';
import { ROOT } from './paths.js';

const EN_DE = { sourceLanguage: 'en', targetLanguage: 'de' };
afterAll(() => configureTranslatorApi({ inputQuota: DEFAULT_INPUT_QUOTA }));

/** `method(signal)` rejects with an AbortError when aborted after the call, and with the reason given, as util.js's testAbortPromise checks. */
async function abortsWithReason(method) {
  const controller = new AbortController();
  const pending = method(controller.signal);
  controller.abort();
  expect((await rejection(pending)).name).toBe('AbortError');
  expect((await rejection(method(controller.signal))).name).toBe('AbortError');
  const reason = new Error('test'), second = new AbortController();
  const waiting = method(second.signal);
  second.abort(reason);
  expect(await rejection(waiting)).toBe(reason);
  expect(await rejection(method(second.signal))).toBe(reason);
}

test('availability: available for en→de (its model is at hand), unavailable for a pair without one; malformed tags reject', async () => {
  expect(await Translator.availability(EN_DE)).toBe('available');
  expect(await Translator.availability({ sourceLanguage: 'de', targetLanguage: 'en' })).toBe('available');
  expect(await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'xx' })).toBe('unavailable');
  expect(await Translator.availability({ sourceLanguage: 'en-US', targetLanguage: 'de-CH' })).toBe('available');  // by language, region aside
  expect(await rejection(Translator.availability({ sourceLanguage: 'en_US', targetLanguage: 'de' }))).toBeInstanceOf(RangeError);
  expect(await rejection(Translator.availability({ sourceLanguage: 'en' }))).toBeInstanceOf(TypeError);
  expect((await rejection(Translator.create({ sourceLanguage: 'en', targetLanguage: 'xx' }))).name).toBe('NotSupportedError');
});

test('create: the languages as given, canonical; the monitor sees progress from 0 to 1, multiples of 1/65536, none after', async () => {
  const events = [];
  let created = false;
  const t = await Translator.create({ ...EN_DE, monitor: (m) => m.addEventListener('downloadprogress', (e) => { expect(created).toBe(false); events.push(e); }) });
  created = true;
  expect([t.sourceLanguage, t.targetLanguage]).toEqual(['en', 'de']);
  expect(events.length).toBeGreaterThanOrEqual(2);
  expect([events[0].loaded, events.at(-1).loaded]).toEqual([0, 1]);
  for (const [i, e] of events.entries()) {
    expect([e.type, e.lengthComputable, e.total]).toEqual(['downloadprogress', true, 1]);
    expect(e.loaded % (1 / 0x10000)).toBe(0);
    if (i > 0) expect(e.loaded).toBeGreaterThan(events[i - 1].loaded);
  }
  const thrown = new Error('CreateMonitorCallback threw an error');
  expect(await rejection(Translator.create({ ...EN_DE, monitor: () => { throw thrown; } }))).toBe(thrown);
  expect((await Translator.create({ sourceLanguage: 'EN', targetLanguage: 'de' })).sourceLanguage).toBe('en');
});

test('create: an aborted signal rejects; an abort during create rejects with its reason and stops progress events', async () => {
  const controller = new AbortController();
  controller.abort();
  expect((await rejection(Translator.create({ ...EN_DE, signal: controller.signal }))).name).toBe('AbortError');
  await abortsWithReason((signal) => Translator.create({ ...EN_DE, signal }));
  for (const at of [0, 1]) {  // util.js's testCreateMonitorWithAbortAt
    const second = new AbortController(), reason = new Error('test');
    let seen = 0;
    let fired;
    const firedAt = new Promise((resolve) => { fired = resolve; });
    const pending = Translator.create({ ...EN_DE, signal: second.signal, monitor: (m) => m.addEventListener('downloadprogress', (e) => { if (e.loaded === at) { seen++; fired(); } }) });
    await firedAt;
    second.abort(reason);
    expect(await rejection(pending)).toBe(reason);
    expect(seen).toBe(1);
  }
});

test('translate: German; white space and control characters alone come back as they are, and with words they are translated', async () => {
  const t = await Translator.create(EN_DE);
  expect(await t.translate('I am very tired.')).toMatch(/müde/);
  const untranslatable = ['', ' ', '     ', ' \r\n\t\f', ...Array.from({ length: 0x1f }, (_, c) => String.fromCharCode(c))];
  expect(await Promise.all(untranslatable.map((s) => t.translate(s)))).toEqual(untranslatable);
  const translatable = untranslatable.map((s) => `Hello ${s} world`);
  const out = await Promise.all(translatable.map((s) => t.translate(s)));
  out.forEach((o, i) => expect(o).not.toBe(translatable[i]));
  expect(await t.translate('I am tired.\nWhere is the station? It is late.')).toMatch(/^[^\n]+\n[^\n]+\?[^\n]+$/);
});

test('translateStreaming: a ReadableStream whose chunks make translate()\'s text; aborted and destroyed streams fail', async () => {
  const t = await Translator.create(EN_DE);
  const text = 'I am tired. Where is the station?\nIt is late.';
  const stream = t.translateStreaming(text);
  expect(Object.prototype.toString.call(stream)).toBe('[object ReadableStream]');
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  expect(chunks.length).toBe(4);  // one a sentence, and the line break
  expect(chunks.join('')).toBe(await t.translate(text));
  const controller = new AbortController();
  const aborted = t.translateStreaming(text, { signal: controller.signal });
  controller.abort();
  expect((await rejection(aborted.pipeTo(new WritableStream()))).name).toBe('AbortError');
  expect(() => t.translateStreaming(text, { signal: controller.signal })).toThrow(expect.objectContaining({ name: 'AbortError' }));
  const reason = new DOMException('test', 'VersionError'), second = new AbortController();
  const withReason = t.translateStreaming(text, { signal: second.signal });
  second.abort(reason);
  expect(await rejection(withReason.pipeTo(new WritableStream()))).toBe(reason);
  const doomed = t.translateStreaming(text);
  t.destroy();
  expect((await rejection(doomed.pipeTo(new WritableStream()))).name).toBe('AbortError');
});

test('translate and measureInputUsage: aborted signals reject with their reasons', async () => {
  const t = await Translator.create(EN_DE);
  const controller = new AbortController();
  controller.abort();
  expect((await rejection(t.translate('hello', { signal: controller.signal }))).name).toBe('AbortError');
  expect((await rejection(t.measureInputUsage('hello', { signal: controller.signal }))).name).toBe('AbortError');
  await abortsWithReason((signal) => t.translate('hello', { signal }));
  await abortsWithReason((signal) => t.measureInputUsage('hello', { signal }));
});

test('destroy rejects calls in flight and later ones with an AbortError; the create signal\'s abort with its reason', async () => {
  const t = await Translator.create(EN_DE);
  const calls = (x) => [x.translate('Please write a sentence in English.'), x.measureInputUsage('Please write a sentence in English.')];
  const inFlight = calls(t);
  t.destroy();
  for (const p of [...inFlight, ...calls(t)]) expect((await rejection(p)).name).toBe('AbortError');
  const controller = new AbortController(), reason = new Error('The create abort signal was aborted.');
  const u = await Translator.create({ ...EN_DE, signal: controller.signal });
  const before = calls(u);
  controller.abort(reason);
  for (const p of [...before, ...calls(u)]) expect(await rejection(p)).toBe(reason);
  const other = await Translator.create(EN_DE);  // the model stays for other translators
  expect(await other.translate('I am very tired.')).toMatch(/müde/);
});

test('inputQuota and measureInputUsage: characters; past the quota a QuotaExceededError with quota and requested', async () => {
  const t = await Translator.create(EN_DE);
  expect(t.inputQuota).toBe(DEFAULT_INPUT_QUOTA);
  expect(await t.measureInputUsage('hello')).toBe(5);
  expect(await t.measureInputUsage('Grüße 👋')).toBe(7);
  configureTranslatorApi({ inputQuota: 10 });
  const error = await rejection(t.translate('This sentence is longer than ten characters.'));
  expect(error.name).toBe('QuotaExceededError');
  expect([error.quota, error.requested]).toEqual([10, 44]);
  expect(await t.translate('Hello.')).not.toBe('');
  configureTranslatorApi({ inputQuota: DEFAULT_INPUT_QUOTA });
  expect(() => configureTranslatorApi({ inputQuota: 0 })).toThrow(RangeError);
});

test('beyond the spec: translateDetailed gives crossattn\'s result with attention and alignment; engines are the models', async () => {
  const t = await Translator.create(EN_DE);
  const r = await t.translateDetailed('I am very tired.', { attention: true, alignment: true });
  expect(r.text).toBe(await t.translate('I am very tired.'));
  expect(r.crossAttention.length).toBeGreaterThan(0);
  expect(r.alignment.links.length).toBeGreaterThan(0);
  expect(t.engines.map((e) => e.info.targetLang)).toEqual(['de']);
});

test('composeAlignments: hand-aligned pairs through a pivot give the hand alignment of source to target', () => {
  const rows = (n, links) => Array.from({ length: n }, (_, t) => {
    const row = new Float32Array(links.length ? Math.max(...links.map(([s]) => s)) + 1 : 0), sources = links.filter(([, u]) => u === t);
    for (const [s] of sources) row[s] = 1 / sources.length;
    return row;
  });
  // de "Ich habe Hunger ." → en "I am hungry ." → fr "J'ai faim ." (hand-aligned), and the de–fr hand alignment.
  const deEn = [[0, 0], [1, 1], [2, 2], [3, 3]], enFr = [[0, 0], [1, 0], [2, 1], [3, 2]];
  const composed = composeAlignments({ links: deEn, weights: rows(4, deEn) }, { links: enFr, weights: rows(3, enFr) });
  expect(composed.links).toEqual([[0, 0], [1, 0], [2, 1], [3, 2]]);
  expect(Array.from(composed.weights[0])).toEqual([0.5, 0.5, 0, 0]);
  for (const row of composed.weights) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  // A word of the pivot that two source words share, and a target word from two pivot words.
  const a = [[0, 0], [1, 0], [2, 1]], b = [[0, 0], [1, 0], [1, 1]];
  expect(composeAlignments({ links: a, weights: rows(2, a) }, { links: b, weights: rows(2, b) }).links).toEqual([[0, 0], [1, 0], [2, 0], [2, 1]]);
  expect(() => composeAlignments({ links: a, weights: rows(2, a) }, { links: [], weights: [new Float32Array(3)] })).toThrow(RangeError);
});

test('a pair no model joins goes through English: two legs, both in the result, the alignment composed', async () => {
  // This repository has no French model: the provider serves de→en, and as en→fr the en→de model.
  const files = { 'de>en': `${ROOT}models/general-de-en/general-de-en.int8.crossattn`, 'en>fr': `${ROOT}models/general-en-de/general-en-de.int8.crossattn` };
  configureTranslatorApi({ provider: {
    availability: async (from, to) => (files[`${from}>${to}`] ? 'available' : 'unavailable'),
    load: (from, to) => Engine.load(files[`${from}>${to}`]),
  } });
  try {
    const pair = { sourceLanguage: 'de', targetLanguage: 'fr' };
    expect(await Translator.availability(pair)).toBe('available');
    expect(await Translator.availability({ sourceLanguage: 'fr', targetLanguage: 'de' })).toBe('unavailable');
    const t = await Translator.create(pair);
    expect(t.engines.map((e) => `${e.info.sourceLang}>${e.info.targetLang}`)).toEqual(['de>en', 'en>de']);
    const text = 'Ich bin sehr müde.';
    const r = await t.translateDetailed(text, { alignment: true });
    expect(r.legs.length).toBe(2);
    expect(r.legs[0].text).toMatch(/tired/);
    expect(r.legs[1].sourceWords).toEqual(r.legs[0].targetWords);
    expect(r.text).toBe(r.legs[1].text);
    expect(await t.translate(text)).toBe(r.text);
    expect(r.alignment).toEqual(composeAlignments(r.legs[0].alignment, r.legs[1].alignment));
    expect(r.alignment.weights.length).toBe(r.targetWords.length);
    expect(r.alignment.weights[0].length).toBe(r.sourceWords.length);
  } finally {
    configureTranslatorApi({ provider: catalogProvider() });
  }
});
