// Functions of a bash script, written as this repository writes them: `name() {` (or `function name {`)
// and a closing `}` alone on a line at the same indentation, or the whole function on one line. A line
// scan, not a shell parser: bash has no well-kept parser at hand here, and this layout is the one
// tools/*.sh and bindings/*.sh keep.

const OPENING = /^(\s*)(?:function\s+)?([A-Za-z_][\w-]*)\s*(?:\(\s*\))?\s*\{(.*)$/;

/** Every function in the bash `text`, as { name, start, end, lines } (1-based, opening to closing line). */
export function shellFunctions(text) {
  const lines = text.split('\n');
  const found = [];
  lines.forEach((line, index) => {
    const match = line.match(OPENING);
    if (!match || (!/\(\s*\)/.test(line) && !/^\s*function\s/.test(line))) return;
    const [, indent, name, rest] = match;
    let end = index;
    if (!/\}\s*(#.*)?$/.test(rest)) {
      end = lines.findIndex((candidate, j) => j > index && new RegExp(`^${indent}\\}\\s*(#.*)?$`).test(candidate));
      if (end < 0) throw new Error(`function ${name} on line ${index + 1} has no closing brace at its indentation`);
    }
    found.push({ name, start: index + 1, end: end + 1, lines: end - index + 1 });
  });
  return found;
}
