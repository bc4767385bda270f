// Small helpers shared by the page's SVG views.
export const SVG = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes, appended to parent when given. */
export function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent?.appendChild(node);
  return node;
}

/** Shows tooltip (a fixed-position element) with text beside the mouse while over node. */
export function hoverText(node, tooltip, text) {
  node.addEventListener('mousemove', (event) => {
    tooltip.hidden = false;
    tooltip.textContent = typeof text === 'function' ? text() : text;
    tooltip.style.left = `${event.clientX + 12}px`;
    tooltip.style.top = `${event.clientY + 12}px`;
  });
  node.addEventListener('mouseleave', () => { tooltip.hidden = true; });
}
