/**
 * How deeply a parsed HTML fragment nests, measured without recursion, so that a fragment of
 * thousands of nested tags is a typed error instead of a RangeError (maximum call stack) from the
 * recursive walks that follow (html.ts, and parse5's serializer).
 */
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { InvalidInputError } from './errors.js';

/**
 * The deepest element nesting translated: Chromium's HTML parser builds no deeper DOM either
 * (kMaximumHTMLParserDOMTreeDepth = 512, third_party/blink/renderer/core/html/parser/
 * html_construction_site.cc), so no page a browser shows as written is refused.
 */
export const MAX_HTML_DEPTH = 512;

/**
 * The element depth of `root`'s deepest node: 0 for text alone, 1 for `<b>x</b>`; a <template>'s
 * content counts as nested in it. Iterative (an explicit stack of [node, depth]), O(nodes).
 */
export function htmlDepth(root: T.ParentNode): number {
  let deepest = 0;
  const stack: [T.ParentNode, number][] = [[root, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    deepest = Math.max(deepest, depth);
    const children: T.ChildNode[] = [...node.childNodes];
    if ('content' in node && node.content) children.push(...(node.content as T.DocumentFragment).childNodes);
    for (const child of children) if ('childNodes' in child) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Throws if `root` nests deeper than MAX_HTML_DEPTH elements.
 * @throws InvalidInputError "the HTML nests elements 5000 deep; at most 512 are translated".
 */
export function checkHtmlDepth(root: T.ParentNode): void {
  const depth = htmlDepth(root);
  if (depth > MAX_HTML_DEPTH) {
    throw new InvalidInputError(`the HTML nests elements ${depth} deep; at most ${MAX_HTML_DEPTH} are translated (as deep as Chromium's parser builds)`);
  }
}
