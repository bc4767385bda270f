// detectLanguage and crossattn/translator-api's LanguageDetector, as the web-platform-tests of the
// Language Detector API check it (ai/language_detection/*), in Node: ranked results ending in 'und',
// confidences that add up to exactly 1, canonical tags, expectedInputLanguages, the monitor, aborts,
// destroy and the quota; and German and English found on sentences of their own.
import { expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { detectLanguage } from '../../dist/index.js';
import { DETECTION_LANGUAGES } from '../../dist/detect-language.js';
import { LanguageDetector, configureTranslatorApi, DEFAULT_INPUT_QUOTA } from '../../dist/translator-api/index.js';
import { detectionResults } from '../../dist/translator-api/language-detector.js';

/** The spec's checks of a detect() result (detector.https.window.js and .any.js). */
function expectValid(results) {
  const und = results.at(-1);
  expect(und.detectedLanguage).toBe('und');
  expect(und.confidence).toBeGreaterThan(0);
  const languages = results.slice(0, -1);
  let total = 0, last = 1;
  for (const { detectedLanguage, confidence } of languages) {
    expect(Intl.getCanonicalLocales(detectedLanguage)[0]).toBe(detectedLanguage);
    expect(confidence).toBeGreaterThan(und.confidence);
    expect(confidence).toBeLessThanOrEqual(last);
    last = confidence;
    total += confidence;
  }
  if (languages.length) expect(total - languages.at(-1).confidence).toBeLessThan(0.99);
  expect(total + und.confidence).toBe(1);
}

test('detectLanguage: German and English sentences, confidences summing to 1; nothing for text without letters', async () => {
  const de = await detectLanguage('Wo ist der Bahnhof? Ich habe meinen Zug verpasst.');
  expect(de[0].language).toBe('de');
  expect(de[0].confidence).toBeGreaterThan(0.9);
  expect(de.reduce((s, g) => s + g.confidence, 0)).toBeCloseTo(1, 12);
  expect((await detectLanguage('this string is in English'))[0].language).toBe('en');
  expect(await detectLanguage('12:30 — 4,5 %')).toEqual([]);
  // The languages listed without loading eld are eld's own, canonical.
  const { eld } = await import('eld/extrasmall');
  expect([...DETECTION_LANGUAGES].sort()).toEqual(Object.values(eld.info().Languages).map((c) => Intl.getCanonicalLocales(c)[0]).sort());
});

test('detect(): the spec\'s list for texts of every kind, und last, summing to exactly 1', async () => {
  const detector = await LanguageDetector.create();
  const texts = ['this string is in English', 'Please write a sentence in English.', 'Das ist ein deutscher Satz.', 'Hi', 'ok', '', '123', 'Hello world!'.repeat(50)];
  for (const text of texts) expectValid(await detector.detect(text));
  expect((await detector.detect('this string is in English'))[0].detectedLanguage).toBe('en');
  expect(await detector.detect('123')).toEqual([{ detectedLanguage: 'und', confidence: 1 }]);
  // Guesses summing to 1 in floats that round past it, and many small ones.
  expectValid(detectionResults([{ language: 'en', confidence: 0.7 }, { language: 'de', confidence: 0.2 }, { language: 'nl', confidence: 0.1 }]));
  expectValid(detectionResults(Array.from({ length: 60 }, (_, i) => ({ language: String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26)), confidence: 1 / 60 }))));
});

test('availability and create: available after the first create, expectedInputLanguages kept canonical or null, unknown ones refused', async () => {
  await LanguageDetector.create();
  expect(await LanguageDetector.availability()).toBe('available');
  expect((await LanguageDetector.create()).expectedInputLanguages).toBe(null);
  expect((await LanguageDetector.create({ expectedInputLanguages: [] })).expectedInputLanguages).toBe(null);
  expect((await LanguageDetector.create({ expectedInputLanguages: ['en', 'DE'] })).expectedInputLanguages).toEqual(['en', 'de']);
  expect(await LanguageDetector.availability({ expectedInputLanguages: ['en', 'tlh'] })).toBe('unavailable');
  expect((await rejection(LanguageDetector.create({ expectedInputLanguages: ['tlh'] }))).name).toBe('NotSupportedError');
  expect(await rejection(LanguageDetector.availability({ expectedInputLanguages: ['en_US'] }))).toBeInstanceOf(RangeError);
});

test('the monitor: 0 then 1; a throwing monitor rejects create with its error', async () => {
  const loaded = [];
  await LanguageDetector.create({ monitor: (m) => m.addEventListener('downloadprogress', (e) => loaded.push(e.loaded)) });
  expect(loaded).toEqual([0, 1]);
  const thrown = new Error('CreateMonitorCallback threw an error');
  expect(await rejection(LanguageDetector.create({ monitor: () => { throw thrown; } }))).toBe(thrown);
});

test('aborts: create, detect and measureInputUsage reject with the signal\'s reason; destroy and the create signal end a detector', async () => {
  const aborted = AbortSignal.abort();
  expect((await rejection(LanguageDetector.create({ signal: aborted }))).name).toBe('AbortError');
  const detector = await LanguageDetector.create();
  expect((await rejection(detector.detect('hello', { signal: aborted }))).name).toBe('AbortError');
  expect((await rejection(detector.measureInputUsage('hello', { signal: aborted }))).name).toBe('AbortError');
  const reason = new Error('test');
  expect(await rejection(detector.detect('hello', { signal: AbortSignal.abort(reason) }))).toBe(reason);
  const inFlight = detector.detect('Please write a sentence in English.');
  detector.destroy();
  expect((await rejection(inFlight)).name).toBe('AbortError');
  expect((await rejection(detector.measureInputUsage('x'))).name).toBe('AbortError');
  const controller = new AbortController(), why = new Error('The create abort signal was aborted.');
  const second = await LanguageDetector.create({ signal: controller.signal });
  controller.abort(why);
  expect(await rejection(second.detect('hello'))).toBe(why);
});

test('the quota: characters; past it a QuotaExceededError', async () => {
  const detector = await LanguageDetector.create();
  expect(detector.inputQuota).toBe(DEFAULT_INPUT_QUOTA);
  expect(await detector.measureInputUsage('Hello world!'.repeat(10000))).toBe(120_000);
  const error = await rejection(detector.detect('Hello world!'.repeat(10000)));
  expect([error.name, error.quota, error.requested]).toEqual(['QuotaExceededError', DEFAULT_INPUT_QUOTA, 120_000]);
  configureTranslatorApi({ inputQuota: DEFAULT_INPUT_QUOTA });
});
