// The HTML path and the elements whose content HTML reads as text (bindings/src/html-raw-text.ts):
// script, style, textarea, title, noscript, xmp, noembed, noframes, iframe and plaintext are left
// untranslated, their content byte for byte as it came (issue 46, items 6 and 8), while the text
// around them is translated; and a fragment nested past MAX_HTML_DEPTH is an InvalidInputError,
// not a RangeError (issue 46, item 4).
import { parseFragment } from 'parse5';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InvalidInputError, Translator } from '../../dist/index.js';
import { translateHtml } from '../../dist/html.js';
import { MAX_HTML_DEPTH } from '../../dist/html-depth.js';
import { INT8_MODEL } from './paths.js';

// A translator that makes every word upper case and links word i to word i: what it touched shows.
const upper = async (sentences) => sentences.map((s) => ({ text: s.toUpperCase(), links: s.split(/\s+/).map((_, i) => [i, i]) }));

/** The tag names of every element of `html` as parse5 reads it, depth first. */
function tags(html) {
  const out = [];
  const walk = (node) => node.childNodes?.forEach((c) => { if (c.tagName) out.push(c.tagName); walk(c); });
  walk(parseFragment(html));
  return out;
}

const RAW = ['script', 'style', 'textarea', 'title', 'noscript', 'xmp', 'noembed', 'noframes', 'iframe'];

test('the five the probe found translated (noscript, xmp, noembed, noframes, iframe): untranslated, byte for byte, no breakout', async () => {
  for (const tag of ['noscript', 'xmp', 'noembed', 'noframes', 'iframe']) {
    // What the probe tried: markup-like text inside, and an end tag the model might respace ("< /tag").
    const inner = `The dog runs. < /${tag}><img src=x onerror=alert(1)> &amp; &#65; "q"`;
    const html = `<p>A small house.</p><${tag}>${inner}</${tag}><p>The end.</p>`;
    const out = await translateHtml(html, 'en', upper);
    expect(out, tag).toBe(`<p>A SMALL HOUSE.</p><${tag}>${inner}</${tag}><p>THE END.</p>`);
    expect(tags(out), tag).toEqual(tags(html));  // no <img> came out of the raw text
  }
});

test('every raw-text element keeps its content as written: entities, CRLF, markup-like text, an unclosed one', async () => {
  for (const tag of RAW) {
    const inner = `Hello &amp; &#65; &lt;b&gt; <b>world</b>\r\nline two\u0000 .`;
    const html = `<div>Before it <${tag} id=x>${inner}</${tag}> after it.</div>`;
    const out = await translateHtml(html, 'en', upper);
    expect(out, tag).toContain(`<${tag} id="x">${inner}</${tag}>`);
    expect(out, tag).toMatch(/BEFORE IT/);
    expect(out, tag).toMatch(/AFTER IT\./);
  }
  // An unclosed raw-text element runs to the end of the input; a plaintext always does, and no end tag follows it.
  expect(await translateHtml('<p>A dog.</p><script>let a = 1 < 2; // </scrip', 'en', upper))
    .toBe('<p>A DOG.</p><script>let a = 1 < 2; // </scrip</script>');
  expect(await translateHtml('<p>A dog.</p><plaintext>a </plaintext> <b>x', 'en', upper))
    .toBe('<p>A DOG.</p><plaintext>a </plaintext> <b>x');
  // Raw text inside inline markup, and an alt attribute on the raw-text element itself, still translated.
  expect(await translateHtml('<b>Big <title>keep me</title> news</b>', 'en', upper)).toMatch(/<title>keep me<\/title>/);
  expect(await translateHtml('<iframe title="a map">keep</iframe>', 'en', upper)).toBe('<iframe title="A MAP">keep</iframe>');
});

let translator;
beforeAll(async () => { translator = await Translator.load(INT8_MODEL); });
afterAll(() => translator?.dispose());

test('through the model: the raw-text content stays English and exact, the paragraph around it is translated', async () => {
  for (const tag of [...RAW, 'plaintext']) {
    const inner = 'A man is riding a bicycle &amp; smiling.';
    const html = `<p>A dog runs through the grass.</p><${tag}>${inner}</${tag}>`;
    const r = await translator.translate(html, { html: true });
    const paragraph = /^<p>(.*)<\/p>/.exec(r.text)[1];
    expect(paragraph, tag).not.toMatch(/dog|grass/);  // translated
    expect(r.text.slice(paragraph.length + 7), tag).toBe(`<${tag}>${inner}</${tag}>`);  // a plaintext's "</plaintext>" is its text
  }
});

test(`HTML nested past ${MAX_HTML_DEPTH} elements is an InvalidInputError naming the depth, at once; ${MAX_HTML_DEPTH} is translated`, async () => {
  expect(MAX_HTML_DEPTH).toBe(512);
  for (const tag of ['div', 'b', 'span', 'template', 'ul']) {
    for (const depth of [MAX_HTML_DEPTH + 1, 5000, tag === 'div' ? 50_000 : 5001]) {
      const html = `<${tag}>`.repeat(depth) + 'A dog runs.' + `</${tag}>`.repeat(depth);
      const error = await translator.translate(html, { html: true }).then(() => null, (e) => e);
      expect(error, `${tag} ${depth}`).toBeInstanceOf(InvalidInputError);
      expect(error.message).toMatch(/the HTML nests elements \d+ deep; at most 512 are translated/);
    }
  }
  const deep = '<b>'.repeat(MAX_HTML_DEPTH) + 'A dog runs.' + '</b>'.repeat(MAX_HTML_DEPTH);
  const r = await translator.translate(deep, { html: true });
  expect(tags(r.text)).toEqual(Array(MAX_HTML_DEPTH).fill('b'));
  expect((await translator.translate('A dog runs.')).text.length).toBeGreaterThan(0);  // still usable
});
