// The measurement behind docs/confidence.md: the ROC AUC and threshold helpers on cases worked out
// by hand, the synthetic errors of tools/confidence-inject.js doing what they say, and the
// shortlist table read as the engine reads it.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { ERROR_TYPES, injectErrors, splitWord, wordsOf } from '../../tools/confidence-inject.js';
import { precisionRecall, rocAuc, youdenThreshold } from '../../tools/confidence-roc.js';
import { readShortlist } from '../../tools/confidence-shortlist.js';
import { formatProbability } from '../../web/confidence-view.js';
import { DATA, ROOT } from './paths.js';

test('ROC AUC: the share of (BAD, OK) pairs ordered right, ties counting one half', () => {
  expect(rocAuc([3, 4, 1, 2], [1, 1, 0, 0])).toBe(1);
  expect(rocAuc([1, 2, 3, 4], [1, 1, 0, 0])).toBe(0);
  expect(rocAuc([5, 5, 5], [1, 0, 0])).toBe(0.5);
  // BAD 0.8 and 0.4 against OK 0.6, 0.2, 0.4: 0.8 beats all three, 0.4 beats 0.2 and ties 0.4: 4.5 of 6.
  expect(rocAuc([0.8, 0.6, 0.4, 0.2, 0.4], [1, 0, 1, 0, 0])).toBeCloseTo(0.75, 12);
  expect(() => rocAuc([1, 2], [1, 1])).toThrow(/one BAD and one OK/);
  expect(() => rocAuc([1, 2], [1])).toThrow(/same length/);
});

test("Youden's J picks the threshold with the best recall minus false-positive rate; precision and recall at it", () => {
  const scores = [0.9, 0.8, 0.7, 0.6, 0.1], labels = [1, 1, 0, 1, 0];
  // At >= 0.9: J = 1/3; >= 0.8: 2/3 - 0; >= 0.7: 2/3 - 1/2; >= 0.6: 1 - 1/2; >= 0.1: 0.
  const { threshold, j } = youdenThreshold(scores, labels);
  expect(threshold).toBe(0.8);
  expect(j).toBeCloseTo(2 / 3, 12);
  expect(precisionRecall(scores, labels, 0.8)).toEqual({ precision: 1, recall: 2 / 3 });
  expect(precisionRecall(scores, labels, 0.6)).toEqual({ precision: 0.75, recall: 1 });
  // Tied scores are one threshold: both 0.5s are in or out together.
  expect(youdenThreshold([0.5, 0.5, 0.1], [1, 0, 0]).threshold).toBe(0.5);
});

const lines = (file) => readFileSync(`${DATA}/flores-dev/${file}`, 'utf8').split('\n').filter(Boolean).slice(0, 200);
const source = lines('dev.en'), reference = lines('dev.de');
const cores = (text) => wordsOf(text).map((w) => splitWord(w)[1]);

test('each injected error is the one change it says, at the word it tags BAD', () => {
  const corrupted = injectErrors(source, reference, 7);
  const seen = new Set();
  corrupted.forEach((list, i) => {
    const words = wordsOf(reference[i]);
    expect(list.map((c) => c.type)).toEqual(ERROR_TYPES.filter((t) => list.some((c) => c.type === t)));
    for (const c of list) {
      seen.add(c.type);
      const out = wordsOf(c.text);
      if (c.type === 'dropped word') {
        expect(out).toEqual(words.filter((_, k) => k !== c.bad));          // one word gone, at c.bad
        expect(words[c.bad]).toBe(c.original);
        expect(out[c.bad]).toBe(words[c.bad + 1]);                          // BAD: the word after the gap
        expect(c.bad).toBeGreaterThan(0);
        expect(/^\p{L}+$/u.test(c.original)).toBe(true);
        continue;
      }
      expect(out).toHaveLength(words.length);
      expect(out.filter((w, k) => w !== words[k]).length).toBe(1);          // one word changed,
      expect(out[c.bad]).not.toBe(words[c.bad]);                             // the BAD one
      expect(words[c.bad]).toBe(c.original);
      const [lead, core, trail] = splitWord(out[c.bad]), [oldLead, oldCore, oldTrail] = splitWord(c.original);
      if (c.type === 'wrong number') {
        expect(out[c.bad].replace(/\d/g, '#')).toBe(c.original.replace(/\d/g, '#'));  // digits only, as many
        continue;
      }
      expect([lead, trail]).toEqual([oldLead, oldTrail]);                   // punctuation kept
      const elsewhere = reference.filter((r, j) => j !== i && cores(r).includes(core));
      expect(elsewhere.length).toBeGreaterThan(0);                           // drawn from another sentence
      expect(cores(reference[i])).not.toContain(core);
      if (c.type === 'swapped name') {
        expect(cores(source[i])).toContain(oldCore);                         // a name the source has too
        expect(core).toMatch(/^\p{Lu}\p{L}+$/u);
      } else {
        expect(/^\p{Lu}/u.test(core)).toBe(/^\p{Lu}/u.test(oldCore));      // same first-letter case
        expect(cores(source[i])).not.toContain(core);
      }
    }
  });
  expect([...seen].sort()).toEqual([...ERROR_TYPES].sort());
});

test('a sentence without digits gets no wrong number; the errors are the same for the same seed', () => {
  const src = ['Anna met Paul in Vienna yesterday.', 'The cathedral has 3 towers and 12 bells.', 'Maria visited Berlin.'];
  const ref = ['Gestern traf Anna Paul in Wien.', 'Die Kathedrale hat 3 Türme und 12 Glocken.', 'Maria besuchte Berlin.'];
  const corrupted = injectErrors(src, ref, 3);
  expect(corrupted[0].map((c) => c.type)).not.toContain('wrong number');
  expect(corrupted[1].map((c) => c.type)).toContain('wrong number');
  const swapped = corrupted[0].find((c) => c.type === 'swapped name');
  expect(swapped.original).toMatch(/^(Anna|Paul)$/);
  expect(wordsOf(swapped.text)[swapped.bad]).toBe('Berlin');  // the one name of another sentence
  expect(injectErrors(src, ref, 3)).toEqual(corrupted);
  expect(() => injectErrors(src, ref.slice(1))).toThrow(/same length/);
});

test("every piece of a shortlisted translation is among the shortlist's candidates for its source; not so without it", async () => {
  const model = `${ROOT}models/general-en-de/general-en-de.int8.crossattn`;
  const candidatesOf = readShortlist(model);
  const t = await Translator.load(model);
  try {
    let outsideWithout = 0;
    for (const sentence of source.slice(0, 20)) {
      const r = await t.translate(sentence, { attention: false, copyThrough: false });
      const candidates = candidatesOf(r.sourceIds);
      expect(r.targetIds.slice(0, -1).filter((id) => !candidates.has(id))).toEqual([]);  // eos last
      const full = await t.translate(sentence, { attention: false, copyThrough: false, shortlist: false });
      outsideWithout += full.targetIds.filter((id) => !candidates.has(id)).length;
    }
    expect(outsideWithout).toBeGreaterThan(0);  // the whole vocabulary does reach beyond it
  } finally {
    t.dispose();
  }
  expect(readShortlist(`${ROOT}models/multi30k-en-de/multi30k-en-de.crossattn`)).toBeNull();
});

test('the page words a probability in percent, with two significant digits below 1%', () => {
  expect([0.234, 0.0021, 0.00022, 1e-9].map(formatProbability)).toEqual(['23%', '0.21%', '0.022%', 'less than 0.0001%']);
});
