/**
 * Raw-text elements of an HTML fragment, kept byte for byte: their content is never translated,
 * and what the output holds between their tags is the input's own text, not parse5's re-escaped
 * form of it (which would decode `&#65;` in a <title> and turn CRLF into LF).
 */
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { defaultTreeAdapter as adapter } from 'parse5';

/**
 * Elements whose content the HTML tokenizer reads as text, not markup: the raw text elements
 * (script, style), the escapable raw text elements (textarea, title), and the elements the tree
 * builder switches the tokenizer to RAWTEXT or PLAINTEXT for (xmp, iframe, noembed, noframes,
 * noscript with scripting enabled, as parse5 parses, and plaintext). WHATWG HTML, 13.1.2
 * "Elements" and 13.2.6.4.4 "The 'in head' insertion mode" / 13.2.6.4.7 "The 'in body' insertion mode".
 */
export const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'noscript', 'xmp', 'noembed', 'noframes', 'iframe', 'plaintext']);

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** A fresh marker prefix: private-use characters and a random number that `html` does not hold. */
function markerPrefix(html: string): string {
  for (;;) {
    const prefix = `\uE000crossattn-raw-${Math.random().toString(36).slice(2)}-`;
    if (!html.includes(prefix)) return prefix;
  }
}

/**
 * Replaces the content of each HTML raw-text element of `root` (parsed from `html` with
 * sourceCodeLocationInfo) by a marker, and returns the function that puts each element's source
 * text back into the serialized fragment in place of its marker. An element that has no end tag
 * runs to the end of the input (the tokenizer reads raw text until its end tag): a plaintext's
 * content always does, and the end tags parse5 writes after it are dropped when nothing else
 * follows, so the output reads back as the input did. Elements outside the HTML namespace (an SVG
 * <title> or <style>) and ones that hold anything but text are left to parse5's serializer.
 * Iterative: the depth was bounded before (html-depth.ts), but nothing here needs it.
 */
export function holdRawText(root: T.ParentNode, html: string): (serialized: string) => string {
  const prefix = markerPrefix(html);
  const held: { text: string; plaintext: boolean }[] = [];
  const stack: T.ParentNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const child of node.childNodes) if ('childNodes' in child) stack.push(child);
    if ('content' in node && node.content) stack.push(node.content as T.DocumentFragment);
    if (!('tagName' in node) || !RAW_TEXT.has(node.tagName) || node.namespaceURI !== HTML_NS) continue;
    const location = node.sourceCodeLocation;
    if (!location?.startTag || !node.childNodes.every((c) => c.nodeName === '#text')) continue;
    const end = location.endTag ? location.endTag.startOffset : html.length;
    held.push({ text: html.slice(location.startTag.endOffset, end), plaintext: node.tagName === 'plaintext' });
    for (const child of [...node.childNodes]) adapter.detachNode(child);
    adapter.insertText(node, `${prefix}${held.length - 1}\uE001`);
  }
  const marker = new RegExp(`${prefix}(\\d+)\uE001`, 'g');
  return (serialized) => {
    let out = '', last = 0, plaintextEnd = -1;
    for (const m of serialized.matchAll(marker)) {
      const { text, plaintext } = held[Number(m[1])];
      out += serialized.slice(last, m.index) + text;
      last = m.index! + m[0].length;
      if (plaintext) plaintextEnd = out.length;
    }
    out += serialized.slice(last);
    // A plaintext runs to the end of the input: end tags after it would read back as its text.
    return plaintextEnd >= 0 && /^(?:<\/[^<>]+>)*$/.test(out.slice(plaintextEnd)) ? out.slice(0, plaintextEnd) : out;
  };
}
