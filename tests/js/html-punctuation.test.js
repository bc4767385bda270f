// HTML translation keeps punctuation on the side of an inline element it was on in the source
// (bindings/src/html.ts, step 5): "Open the <a>settings</a>." gives "<a>Einstellungen</a>.", never
// "<a>Einstellungen.</a>"; punctuation inside the element in the source stays inside. Checked with
// the shipped general-en-de and general-de-en models for <a>, <em> and <b> followed by each of
// . , ; : ! ?, for punctuation inside, and for nested elements; and exactly with fake translators.
import { readFileSync } from 'node:fs';
import { parseFragment, serialize } from 'parse5';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Translator, modelFor, parseCatalog } from '../../dist/index.js';
import { translateHtml } from '../../dist/html.js';
import { ROOT } from './paths.js';

const CATALOG = parseCatalog(readFileSync(`${ROOT}models/catalog.json`, 'utf8'), `${ROOT}models/`);
const PUNCTUATION = ['.', ',', ';', ':', '!', '?'];
const ENDS_IN_PUNCTUATION = /[.,;:!?]$/u;

/** Every element of a parsed fragment, depth first. */
function elements(node, out = []) {
  for (const child of node.childNodes ?? []) {
    if (child.tagName) out.push(child);
    elements(child, out);
  }
  return out;
}
const textOf = (node) => (node.value ?? '') + (node.childNodes ?? []).map(textOf).join('');
/** The text of the fragment that no element wraps. */
const outsideText = (root) => root.childNodes.filter((n) => !n.tagName).map(textOf).join('');
const words = (text) => text.replace(/\s+/g, ' ').trim();

// A sentence per tag and direction; PUNCT is where the punctuation goes, outside the element.
// ". ! ?" end the sentence, ", ; :" go on with a clause.
const CASES = {
  'en-de': {
    a: ['Open the <a href="/s">settings</a>PUNCT', 'Open the <a href="/s">settings</a>PUNCT then close the window.'],
    em: ['This is <em>important</em>PUNCT', 'This is <em>important</em>PUNCT so read it twice.'],
    b: ['I saw the <b>dog</b>PUNCT', 'I saw the <b>dog</b>PUNCT and it saw me.'],
  },
  'de-en': {
    a: ['Öffne die <a href="/s">Einstellungen</a>PUNCT', 'Öffne die <a href="/s">Einstellungen</a>PUNCT dann schließe das Fenster.'],
    em: ['Das ist <em>wichtig</em>PUNCT', 'Das ist <em>wichtig</em>PUNCT also lies es zweimal.'],
    b: ['Ich sah den <b>Hund</b>PUNCT', 'Ich sah den <b>Hund</b>PUNCT und er sah mich.'],
  },
};
const sentenceFor = (templates, p) => (['.', '!', '?'].includes(p) ? templates[0] : templates[1]).replace('PUNCT', p);

for (const [direction, byTag] of Object.entries(CASES)) {
  describe(`${direction} (shipped general model)`, () => {
    let t;
    beforeAll(async () => {
      const [from, to] = direction.split('-');
      t = await Translator.load(modelFor(CATALOG, from, to).model);
    });
    afterAll(() => t?.dispose());

    /** The HTML translation of `html`, parsed, and the plain translation of its text. */
    async function both(html) {
      const out = (await t.translate(html, { html: true })).text;
      const root = parseFragment(out);
      expect(serialize(root), html).toBe(out);
      const plain = (await t.translate(textOf(parseFragment(html)))).text;
      // No word is lost or changed by carrying the markup: the text is the plain translation.
      expect(words(textOf(root)), `${html} -> ${out}`).toBe(words(plain));
      return { out, root, plain };
    }

    for (const [tag, templates] of Object.entries(byTag)) {
      test(`<${tag}> followed by each of . , ; : ! ? keeps the punctuation outside`, async () => {
        for (const p of PUNCTUATION) {
          const html = sentenceFor(templates, p);
          const { out, root, plain } = await both(html);
          const element = elements(root).find((e) => e.tagName === tag);
          expect(element, `${html} -> ${out}`).toBeDefined();
          expect(textOf(element).trim(), `${html} -> ${out}`).not.toMatch(ENDS_IN_PUNCTUATION);
          // Whatever punctuation the model wrote stays outside the element, and none is lost.
          for (const mark of PUNCTUATION) {
            const count = (s) => s.split(mark).length - 1;
            expect(count(outsideText(root)), `${html} -> ${out}: '${mark}'`).toBe(count(plain));
          }
        }
      });
    }

    test('punctuation inside the element in the source stays inside', async () => {
      const html = direction === 'en-de' ? 'Open the <a href="/s">settings.</a>' : 'Öffne die <a href="/s">Einstellungen.</a>';
      const { out, root, plain } = await both(html);
      expect(plain, 'the model ends the sentence with a period').toMatch(/\.$/);
      expect(textOf(elements(root).find((e) => e.tagName === 'a')).trim(), out).toMatch(/\.$/);
      expect(outsideText(root), out).not.toContain('.');
    });

    test('nested elements: punctuation outside the outer element is outside both; inside the outer, outside the inner', async () => {
      const [outside, inside] = direction === 'en-de'
        ? ['Where is the <b><i>station</i></b>?', '<b>Where is the <i>station</i>?</b>']
        : ['Wo ist der <b><i>Bahnhof</i></b>?', '<b>Wo ist der <i>Bahnhof</i>?</b>'];
      {
        const { out, root, plain } = await both(outside);
        expect(plain).toMatch(/\?$/);
        for (const tag of ['b', 'i']) expect(textOf(elements(root).find((e) => e.tagName === tag)), out).not.toContain('?');
        expect(outsideText(root), out).toContain('?');
      }
      {
        const { out, root, plain } = await both(inside);
        expect(plain).toMatch(/\?$/);
        const [b, i] = ['b', 'i'].map((tag) => textOf(elements(root).find((e) => e.tagName === tag)));
        expect(b.trim(), out).toMatch(/\?$/);
        expect(i, out).not.toContain('?');
      }
    });
  });
}

describe('exactly, with fake translators', () => {
  // Returns the same words, each linked to itself.
  const identity = async (texts) => texts.map((text) => ({ text, links: text.split(' ').map((_, i) => [i, i]) }));
  // One fixed translation with its links, whatever the input.
  const fixed = (text, links) => async (texts) => texts.map(() => ({ text, links }));

  test('punctuation stays where the source had it, leading and trailing, nested or not', async () => {
    for (const html of ['Open the <a href="/s">settings</a>.', 'Open the <a href="/s">settings.</a>',
      '<b><i>Hello</i></b>, world!', '<b>Hello <i>world</i>!</b>', 'Read (<b>see</b> below).', 'Read <b>(see</b> below).',
      'He said „<em>Hallo</em>“ twice.', 'I like <code>main.js</code>.', '<b>Hello</b>?!']) {
      expect(await translateHtml(html, 'en', identity)).toBe(html);
    }
  });

  test('the element moves to its aligned word and leaves the punctuation glued to that word outside', async () => {
    const german = fixed('Öffnen Sie die Einstellungen.', [[0, 0], [1, 2], [2, 3]]);
    expect(await translateHtml('Open the <a href="/s">settings</a>.', 'en', german)).toBe('Öffnen Sie die <a href="/s">Einstellungen</a>.');
    expect(await translateHtml('Open the <a href="/s">settings.</a>', 'en', german)).toBe('Öffnen Sie die <a href="/s">Einstellungen.</a>');
    // The sentence's punctuation comes from another source word: outside the element too.
    const reordered = fixed('Jetzt öffnen Sie die Einstellungen.', [[0, 1], [1, 3], [2, 4], [3, 0]]);
    expect(await translateHtml('Open the <b>settings</b> now.', 'en', reordered)).toBe('Jetzt öffnen Sie die <b>Einstellungen</b>.');
  });
});
