// Replacing one section of docs/performance.md, for the benches that write their own section
// (bench/page-convert.js, bench/opus-mt-size.js) into the file that bench/report.js writes whole.

/**
 * `markdown` with the section under `heading` replaced by `section`, the blank line before the next
 * heading kept; a section not there yet goes before "## Where the time goes" (or at the end).
 */
export function replaceSection(markdown, heading, section) {
  section = section.endsWith('\n\n') ? section : `${section}\n`;  // a blank line before the next heading
  const start = markdown.indexOf(heading);
  if (start >= 0) {
    const next = markdown.indexOf('\n## ', start + heading.length);
    return markdown.slice(0, start) + section + (next >= 0 ? markdown.slice(next + 1) : '');
  }
  const where = markdown.indexOf('\n## Where the time goes');
  return where >= 0 ? `${markdown.slice(0, where + 1)}${section}${markdown.slice(where + 1)}` : `${markdown}\n${section}`;
}
