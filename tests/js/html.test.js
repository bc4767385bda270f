// HTML translation (translate(html, { html: true }), bindings/src/html.ts): on 37 fragments from
// plain text to nested and broken markup, the output is well-formed, keeps every element with its
// attributes, leaves script/style/pre/code alone and translates alt and title; on a hand-checked
// subset, each tagged word lands on its German translation. A fake translator checks the carrying
// itself and that translated text never becomes markup.
import { readFileSync } from 'node:fs';
import { parseFragment, serialize } from 'parse5';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { translateHtml } from '../../dist/html.js';
import { ROOT } from './paths.js';

const FRAGMENTS = JSON.parse(readFileSync(`${ROOT}tests/fixtures/html-fragments.json`, 'utf8'));
const TRANSLATED = new Set(['alt', 'title']);
const VERBATIM = new Set(['script', 'style', 'pre', 'code']);

let t;
beforeAll(async () => { t = await Translator.load(`${ROOT}models/tatoeba-en-de/tatoeba-en-de.int8.crossattn`); });
afterAll(() => t.dispose());

/** Every element of a parsed fragment, depth first. */
function elements(node, out = []) {
  for (const child of node.childNodes ?? []) {
    if (child.tagName) out.push(child);
    elements(child.content ?? child, out);
  }
  return out;
}
const textOf = (node) => (node.value ?? '') + (node.childNodes ?? []).map(textOf).join('');
const signature = (el) => `${el.tagName} ${el.attrs.filter((a) => !TRANSLATED.has(a.name)).map((a) => `${a.name}=${a.value}`).join(' ')}`;

test('every fragment: well-formed output, every element kept with its attributes, verbatim content untouched', async () => {
  expect(FRAGMENTS.length).toBeGreaterThanOrEqual(30);
  for (const html of FRAGMENTS) {
    const r = await t.translate(html, { html: true });
    const source = parseFragment(html), target = parseFragment(r.text);
    expect(serialize(target), html).toBe(r.text);  // balanced: a re-parse changes nothing
    const [se, te] = [elements(source), elements(target)];
    expect(te.map(signature).sort(), html).toEqual(se.map(signature).sort());
    for (const tag of VERBATIM) {
      expect(te.filter((e) => e.tagName === tag).map(textOf), html).toEqual(se.filter((e) => e.tagName === tag).map(textOf));
    }
    for (const el of te) {
      for (const a of el.attrs.filter((x) => TRANSLATED.has(x.name))) {
        const original = se.find((s) => s.tagName === el.tagName && s.attrs.some((x) => x.name === a.name)).attrs.find((x) => x.name === a.name);
        expect(a.value.length, html).toBeGreaterThan(0);
        expect(a.value, html).not.toBe(original.value);
      }
    }
    if (textOf(source).trim()) expect(textOf(target).trim().length, html).toBeGreaterThan(0);
    expect(r.sentences.every((s) => s.alignment)).toBe(true);
  }
});

// Hand-checked: the German word each tagged English word should land on.
const PLACED = [
  ['<p>The <b>dog</b> is <i>very</i> small.</p>', { b: /^Hund$/, i: /^sehr$/ }],
  ['I <a href="/x">love</a> you.', { a: /^liebe$/ }],
  ['<p>My <span class="x">mother</span> is a teacher.</p>', { span: /^Mutter$/ }],
  ['The <b>cat</b> sleeps on the <i>bed</i>.', { b: /^Katze$/, i: /^Bett\.?$/ }],
  ['<ol><li>One apple.</li><li>Two <b>big</b> apples.</li></ol>', { b: /^große$/ }],
  ['<blockquote><p>I <b>never</b> lie.</p></blockquote>', { b: /^nie$/ }],
  ['<p><b>Tom</b> gave <i>Mary</i> a <u>book</u>.</p>', { b: /^Tom$/, i: /^Maria$/, u: /^Buch\.?$/ }],
  ['<p>I have <sup>two</sup> brothers and <sub>one</sub> sister.</p>', { sup: /^zwei$/, sub: /^eine$/ }],
  ['<p>The <mark>meeting</mark> is at noon.</p>', { mark: /^Sitzung$/ }],
  ['<p>Read <a href="/b">this book</a> today.</p>', { a: /^dieses Buch$/ }],
];

test('hand-checked: tagged words land on their translation', async () => {
  for (const [html, expected] of PLACED) {
    const out = parseFragment((await t.translate(html, { html: true })).text);
    for (const [tag, pattern] of Object.entries(expected)) {
      expect(textOf(elements(out).find((e) => e.tagName === tag)).trim(), `${html}: <${tag}>`).toMatch(pattern);
    }
  }
});

test('the carrying, with a translator that reverses word order: elements follow their words, and nest', async () => {
  const reverse = async (texts) => texts.map((text) => {
    const words = text.split(' ');
    return { text: [...words].reverse().join(' '), links: words.map((_, s) => [s, words.length - 1 - s]) };
  });
  expect(await translateHtml('<p><b>a</b> b <i>c d</i></p>', 'en', reverse)).toBe('<p><i>d c</i> b <b>a</b></p>');
  expect(await translateHtml('x <b>y <i>z</i></b>', 'en', reverse)).toBe('<b><i>z</i> y</b> x');
  // An element with no aligned word goes after the target of the word before it.
  const unaligned = async (texts) => texts.map((text) => ({ text, links: [[0, 0]] }));
  expect(await translateHtml('a <b>b</b> c', 'en', unaligned)).toBe('a<b></b> b c');
});

test('translated text never becomes markup, whatever the translator returns', async () => {
  const hostile = async (texts) => texts.map(() => ({ text: '<script>alert(1)</script> <img src=x onerror=alert(1)>', links: [[0, 0]] }));
  const out = await translateHtml('<p title="t">Hello <b>world</b></p>', 'en', hostile);
  expect(elements(parseFragment(out)).map((e) => e.tagName).sort()).toEqual(['b', 'p']);
  expect(out).toContain('&lt;script&gt;');
});

test('errors of the engine pass through as typed errors, and the translator stays usable', async () => {
  await expect(t.translate(`<p>${'word '.repeat(9000)}</p>`, { html: true })).rejects.toMatchObject({ name: 'InputTooLongError' });
  // A period the model adds goes after </b>: the source had none inside (html-punctuation.test.js).
  expect((await t.translate('<b>Hello</b>', { html: true })).text).toMatch(/^<b>[^.]+<\/b>\.?$/);
});
