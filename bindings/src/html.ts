/**
 * HTML translation: the text of an HTML fragment is translated, and its inline markup is carried to
 * the target words that the source words it wrapped were aligned to (word alignments from
 * cross-attention, docs/alignment.md), as Bergamot does for Firefox Translations.
 *
 * 1. parse5 parses the fragment with the HTML5 algorithm, so broken markup is repaired as browsers
 *    repair it.
 * 2. Every block (p, li, td, div, ..., and the fragment itself) gives segments: maximal runs of
 *    text and inline elements (b, i, a, code, span, ...). A segment's text (whitespace collapsed)
 *    is split into sentences; each of its words knows the inline elements around it.
 * 3. All sentences, and every alt and title attribute, are translated in one batch with alignments.
 * 4. Each inline element takes the span of target words aligned to its source words; a child is
 *    clipped to its parent and siblings are kept apart, so the result always nests. An element with
 *    no aligned word (empty, void such as <br> and <img>, or unaligned) goes after the target word
 *    aligned to the source word before it.
 * 5. Punctuation stays on the side of the element it was on in the source. The model writes
 *    punctuation glued to a word ("Einstellungen."), and the alignment links whole words, so each
 *    target word is cut into leading punctuation, its core and trailing punctuation
 *    (html-punctuation.ts). An element whose source text does not end in trailing punctuation ("Open the
 *    <a>settings</a>.") ends before the trailing punctuation of its last target word
 *    ("<a>Einstellungen</a>."); one whose text does ("<a>settings.</a>") keeps it inside. Leading
 *    punctuation ("(<b>see</b> ...", "„<b>Hallo</b>“") likewise. Nested elements follow the same
 *    rule each, clipped to their parent: punctuation that an outer element leaves out is outside
 *    the inner ones too.
 * 6. The target is built from new text nodes and copies of the elements (attributes as given, alt
 *    and title translated) and serialised by parse5: text never becomes markup.
 *
 * The raw-text elements (script, style, textarea, title, noscript, xmp, noembed, noframes, iframe,
 * plaintext: html-raw-text.ts) are left untranslated, their content byte for byte as it came; pre
 * and template are left as parse5 parsed them; an inline <code> keeps its content (the model sees
 * it, so the sentence stays whole) and moves like any inline element. A fragment nesting elements
 * deeper than MAX_HTML_DEPTH (512, html-depth.ts) is refused with an InvalidInputError, measured
 * without recursion before the (recursive, so bounded by it) walks below.
 */
import { defaultTreeAdapter as adapter, parseFragment, serialize, type DefaultTreeAdapterTypes as T } from 'parse5';
import { checkHtmlDepth } from './html-depth.js';
import { cutWords, LEADING, placeUnits, TRAILING, type Unit } from './html-punctuation.js';
import { holdRawText, RAW_TEXT } from './html-raw-text.js';
import { splitSentences } from './sentences.js';
import { checkWellFormed } from './well-formed.js';

/** Inline (phrasing) elements that are carried to the aligned target words. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i',
  'img', 'ins', 'kbd', 'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr']);
/** Elements whose content is never translated. */
const VERBATIM = new Set([...RAW_TEXT, 'pre', 'template', 'code']);
/** Attributes whose values are translated. */
const TRANSLATED_ATTRIBUTES = ['alt', 'title'];

/** Translates sentences, each with word alignments: `links` are [sourceWord, targetWord] pairs. */
export type AlignedTranslate = (sentences: string[]) => Promise<{ text: string; links: [number, number][] }[]>;

type Node = T.ChildNode;
const isElement = (n: Node): n is T.Element => 'tagName' in n;
const isText = (n: Node): n is T.TextNode => n.nodeName === '#text';

/** An inline node of a segment that is not text: an element, or a comment kept in place. */
interface Item {
  node: T.Element | T.CommentNode;
  parent: number;   // enclosing item, -1 for none
  anchor: number;   // source words before it
  words: number[];  // source words inside it
  span: [number, number];  // target words it wraps, [a, b), then (placeUnits) target units; a == b: none, placed at a
  ownsLeading: boolean;    // its source text begins with LEADING punctuation
  ownsTrailing: boolean;   // its source text ends with TRAILING punctuation
}

/** A run of text and inline elements inside one block, with its words and items. */
interface Segment {
  parent: T.ParentNode;
  nodes: Node[];       // the run's original nodes, replaced by the translation
  words: string[];     // whitespace-separated source words
  items: Item[];       // in document order, so parents precede children
  sentences: number[]; // word count of each sentence
  lead: boolean;       // the run began with whitespace
  trail: boolean;      // the run ended with whitespace
}

const textContent = (node: Node): string =>
  isText(node) ? node.value : isElement(node) ? node.childNodes.map(textContent).join('') : '';

const inlineOnly = (n: Node): boolean =>
  !isElement(n) || (INLINE.has(n.tagName) && n.childNodes.every(inlineOnly));

/** The segments of a fragment, and the elements with attributes to translate. */
function collect(root: T.ParentNode, lang: string) {
  const segments: Segment[] = [];
  const attributes: T.Element[] = [];
  const visit = (parent: T.ParentNode) => {
    let run: Node[] = [];
    const flush = () => {
      if (run.length) segments.push(segment(parent, run, lang));
      run = [];
    };
    for (const child of parent.childNodes) {
      if (isText(child) || child.nodeName === '#comment' || inlineOnly(child)) {
        run.push(child);
        continue;
      }
      flush();
      if (isElement(child) && !VERBATIM.has(child.tagName)) visit(child);
    }
    flush();
  };
  visit(root);
  const withAttributes = (node: Node) => {
    if (!isElement(node)) return;
    if (node.attrs.some((a) => TRANSLATED_ATTRIBUTES.includes(a.name) && a.value.trim())) attributes.push(node);
    if (node.tagName !== 'script' && node.tagName !== 'style') node.childNodes.forEach(withAttributes);
  };
  root.childNodes.forEach(withAttributes);
  return { segments: segments.filter((s) => s.words.length > 0), attributes };
}

/** Words and items of one run; whitespace collapses as HTML renders it. */
function segment(parent: T.ParentNode, nodes: Node[], lang: string): Segment {
  const words: string[] = [];
  const items: Item[] = [];
  let open = false;  // the last word may still grow (no whitespace since)
  const addText = (text: string, stack: number[]) => {
    for (const part of text.split(/(\s+)/)) {
      if (part === '') continue;
      if (/^\s/.test(part)) {
        open = false;
        continue;
      }
      if (!open) words.push('');
      words[words.length - 1] += part;
      open = true;
      for (const i of stack) if (items[i].words.at(-1) !== words.length - 1) items[i].words.push(words.length - 1);
    }
  };
  const walk = (node: Node, stack: number[]) => {
    if (isText(node)) return addText(node.value, stack);
    if (!isElement(node) && node.nodeName !== '#comment') return;
    const text = isElement(node) ? textContent(node).trim() : '';
    items.push({ node: node as T.Element | T.CommentNode, parent: stack.at(-1) ?? -1, anchor: words.length, words: [], span: [0, 0],
                 ownsLeading: LEADING.test(text), ownsTrailing: TRAILING.test(text) });
    const id = items.length - 1;
    if (isElement(node)) {
      if (node.tagName === 'br' || node.tagName === 'img') open = false;
      for (const child of node.childNodes) walk(child, [...stack, id]);
    }
  };
  for (const node of nodes) walk(node, []);
  const text = words.join(' ');
  const first = nodes[0], last = nodes[nodes.length - 1];
  let sentences = splitSentences(text, lang).map((s) => s.split(/\s+/).length);
  if (sentences.reduce((a, b) => a + b, 0) !== words.length) sentences = [words.length];
  return { parent, nodes, words, items, sentences,
           lead: isText(first) && /^\s/.test(first.value), trail: isText(last) && /\s$/.test(last.value) };
}

const bare = (word: string) => word.replace(/[.,;:!?)"'»“”]+$/u, '');

/**
 * Target word spans of the items of a segment, from the word links of its translation. An inline
 * <code> keeps its own text, so it takes only the target words that are copies of its words
 * (the model copies identifiers); the words around it stay.
 */
function placeItems(items: Item[], links: [number, number][], sourceWords: string[], targetWords: string[]) {
  const targetLength = targetWords.length;
  const targetsOf = new Map<number, number[]>();
  for (const [s, t] of links) targetsOf.set(s, [...(targetsOf.get(s) ?? []), t]);
  // Where an item with no aligned word goes: after the last target word aligned to a source word before it.
  const after = (anchor: number) => {
    let best = 0;
    for (const [s, t] of links) if (s < anchor) best = Math.max(best, t + 1);
    return best;
  };
  const placed: Item[] = [];
  for (const item of items) {
    let targets = item.words.flatMap((w) => targetsOf.get(w) ?? []);
    if (isElement(item.node) && item.node.tagName === 'code') {
      const own = new Set(item.words.map((w) => bare(sourceWords[w])));
      targets = targetWords.flatMap((word, t) => (own.has(bare(word)) ? [t] : []));
    }
    let [a, b] = targets.length ? [Math.min(...targets), Math.max(...targets) + 1] : [after(item.anchor), -1];
    if (b < 0) b = a;
    const [lo, hi] = item.parent >= 0 ? items[item.parent].span : [0, targetLength];
    a = Math.min(Math.max(a, lo), hi);
    b = Math.min(Math.max(b, a), hi);
    // Siblings placed before it keep their words: start after any it overlaps.
    for (const sibling of placed) {
      if (sibling.parent !== item.parent) continue;
      const [sa, sb] = sibling.span;
      if (a < sb && (b > sa || (a === b && a > sa))) a = Math.min(sb, hi);
      b = Math.max(b, a);
    }
    item.span = [a, b];
    placed.push(item);
  }
}

function cloneDeep(node: Node): Node {
  if (isText(node)) return adapter.createTextNode(node.value);
  if (!isElement(node)) return adapter.createCommentNode((node as T.CommentNode).data);
  const copy = adapter.createElement(node.tagName, node.namespaceURI, node.attrs.map((a) => ({ ...a })));
  for (const child of node.childNodes) adapter.appendChild(copy, cloneDeep(child));
  return copy;
}

/** An element's attributes, with the translated values of alt and title where `translated` has them. */
function attributesOf(el: T.Element, translated: Map<T.Element, Map<string, string>>) {
  return el.attrs.map((a) => ({ ...a, value: translated.get(el)?.get(a.name) ?? a.value }));
}

/** The translated run: target units (cutWords) and copies of the items, nested by their unit spans. */
function build(seg: Segment, units: Unit[], translated: Map<T.Element, Map<string, string>>): Node[] {
  const out: Node[] = [];
  const emit = (into: Node[], parent: number, lo: number, hi: number) => {
    // Siblings by where they start in the target (their spans are disjoint), empty ones first.
    const children = seg.items.map((item, id) => ({ item, id })).filter(({ item }) => item.parent === parent)
      .sort((x, y) => x.item.span[0] - y.item.span[0] ||
                      Number(x.item.span[1] > x.item.span[0]) - Number(y.item.span[1] > y.item.span[0]) || x.id - y.id);
    let pos = lo, next = 0;
    // A space before each word (not before punctuation glued to it) but the container's first, and
    // after anything emitted before it.
    const space = (at: number) => {
      if ((units[at]?.wordStart ?? true) && (pos > lo || into.length > 0)) into.push(adapter.createTextNode(' '));
    };
    for (;;) {
      const child = children[next];
      if (child && child.item.span[0] <= pos) {
        ++next;
        const { node, span } = child.item;
        if (!isElement(node)) {
          into.push(adapter.createCommentNode(node.data));
          continue;
        }
        if (span[1] > span[0] || ['img', 'br', 'code'].includes(node.tagName)) space(span[0]);  // it shows something
        const copy = adapter.createElement(node.tagName, node.namespaceURI, attributesOf(node, translated));
        const inner: Node[] = [];
        if (node.tagName === 'code') inner.push(...node.childNodes.map(cloneDeep));  // its own text, untranslated
        else emit(inner, child.id, span[0], span[1]);
        for (const n of inner) adapter.appendChild(copy, n);
        into.push(copy);
        pos = Math.max(pos, span[1]);
        continue;
      }
      if (pos >= hi) break;
      space(pos);
      into.push(adapter.createTextNode(units[pos].text));
      ++pos;
    }
  };
  emit(out, -1, 0, units.length);
  if (seg.lead) out.unshift(adapter.createTextNode(' '));
  if (seg.trail) out.push(adapter.createTextNode(' '));
  return out;
}

/** Elements that start a new scope of formatting elements in HTML's parser (a marker): a link inside may nest in an outer one. */
const FORMATTING_SCOPE = new Set(['td', 'th', 'caption', 'object', 'marquee', 'applet', 'template']);

/**
 * Moves every <a> that the parser put inside another <a> to just after its outermost <a> ancestor.
 * Markup cannot say a link inside a link: the tree `<b><a><table><a>` builds (the table's <a> is
 * foster-parented into the first) is written `<a><a></a>...</a>`, which a browser re-reads as two
 * sibling links, so the output would not re-parse to the tree written. Iterative, like html-depth.ts.
 * A link inside a table cell, caption, object, marquee, applet or template's content is left where it
 * is: the parser starts a new scope of formatting elements there (a marker, HTML Standard 13.2.4.3,
 * "the list of active formatting elements"), so the nesting re-parses as written.
 */
function unnestLinks(root: T.ParentNode): void {
  const nested: [T.Element, T.Element][] = [];  // [inner <a>, its outermost <a> ancestor], document order
  const stack: [T.ParentNode, T.Element | undefined][] = [[root, undefined]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, link] = top;
    if ('content' in node && node.content) stack.push([node.content as T.DocumentFragment, undefined]);
    for (const child of [...node.childNodes].reverse()) {
      if (!isElement(child)) continue;
      const isLink = child.tagName === 'a' && child.namespaceURI === 'http://www.w3.org/1999/xhtml';
      if (isLink && link) nested.push([child, link]);
      stack.push([child, FORMATTING_SCOPE.has(child.tagName) ? undefined : link ?? (isLink ? child : undefined)]);
    }
  }
  for (const [inner, outer] of nested.reverse()) {
    adapter.detachNode(inner);
    const after = outer.parentNode!.childNodes[outer.parentNode!.childNodes.indexOf(outer) + 1];
    if (after) adapter.insertBefore(outer.parentNode!, inner, after);
    else adapter.appendChild(outer.parentNode!, inner);
  }
}

/**
 * Translates the HTML fragment `html` (source language `lang`) with `translate`, keeping its
 * markup: block structure as it is, inline elements on the aligned target words. Returns the
 * serialised target fragment. Errors of `translate` (e.g. InputTooLongError) pass through.
 * @throws InvalidInputError if `html` has a lone UTF-16 surrogate (well-formed.ts), or nests
 *   elements deeper than MAX_HTML_DEPTH (html-depth.ts).
 */
export async function translateHtml(html: string, lang: string, translate: AlignedTranslate): Promise<string> {
  checkWellFormed(html, 'the HTML');
  const root = parseFragment(html, { sourceCodeLocationInfo: true });
  checkHtmlDepth(root);
  unnestLinks(root);
  const restoreRawText = holdRawText(root, html);
  const { segments, attributes } = collect(root, lang);
  const sentences: string[] = [];
  for (const seg of segments) {
    let w = 0;
    for (const n of seg.sentences) sentences.push(seg.words.slice(w, (w += n)).join(' '));
  }
  const attributeTexts = attributes.flatMap((el) =>
    el.attrs.filter((a) => TRANSLATED_ATTRIBUTES.includes(a.name) && a.value.trim()).map((a) => a.value));
  const results = await translate([...sentences, ...attributeTexts]);
  // alt and title first: copies of inline elements take the translated values.
  let next = sentences.length;
  const translated = new Map<T.Element, Map<string, string>>();
  for (const el of attributes) {
    const values = new Map<string, string>();
    for (const a of el.attrs) if (TRANSLATED_ATTRIBUTES.includes(a.name) && a.value.trim()) values.set(a.name, results[next++].text);
    translated.set(el, values);
    el.attrs = attributesOf(el, translated);  // elements outside runs keep their place
  }
  next = 0;
  for (const seg of segments) {
    const targetWords: string[] = [], links: [number, number][] = [];
    let sourceOffset = 0;
    for (const n of seg.sentences) {
      const r = results[next++];
      const words = r.text.split(/\s+/).filter(Boolean);
      // A link outside the sentence's words (a translator's mistake) is dropped, never followed.
      const inside = (i: number, size: number) => Number.isInteger(i) && i >= 0 && i < size;
      for (const [s, t] of r.links) if (inside(s, n) && inside(t, words.length)) links.push([s + sourceOffset, t + targetWords.length]);
      targetWords.push(...words);
      sourceOffset += n;
    }
    placeItems(seg.items, links, seg.words, targetWords);
    const { units, first } = cutWords(targetWords);
    placeUnits(seg.items, units, first);
    const replacement = build(seg, units, translated);
    for (const n of replacement) adapter.insertBefore(seg.parent, n, seg.nodes[0]);
    for (const n of seg.nodes) adapter.detachNode(n);
  }
  return restoreRawText(serialize(root));
}
