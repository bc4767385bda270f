// Functions of a C++ file, found by a brace-matching scan: comments, string, character and raw string
// literals and preprocessor lines are blanked first (newlines kept), so a brace inside them never counts.
// A function is a `{` at namespace or class scope after a signature (`...)`, its qualifiers, or a
// constructor's initializer list); every brace inside it, lambdas included, belongs to it.

const IDENTIFIER = /[A-Za-z0-9_]/;
// an access specifier before a member function, and the blank space around it
const ACCESS = /^\s*((public|private|protected)\s*:(?!:))?\s*/;

/** The end of the literal, comment or directive that starts at `i`, or -1 when none starts there. */
function skipEnd(text, i) {
  const c = text[i];
  const next = text[i + 1];
  if (c === '/' && next === '/') return lineEnd(text, i);
  if (c === '/' && next === '*') {
    const close = text.indexOf('*/', i + 2);
    return close < 0 ? text.length : close + 2;
  }
  if (c === '"' && isRawStringPrefix(text, i)) {
    const open = text.indexOf('(', i);
    const delimiter = `)${text.slice(i + 1, open)}"`;
    const close = text.indexOf(delimiter, open);
    return close < 0 ? text.length : close + delimiter.length;
  }
  if (c === '"' || (c === "'" && !isDigitSeparator(text, i))) return quotedEnd(text, i, c);
  if (c === '#' && /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', i - 1) + 1, i))) return directiveEnd(text, i);
  return -1;
}

function lineEnd(text, i) {
  const end = text.indexOf('\n', i);
  return end < 0 ? text.length : end;
}

// A directive runs to the end of its line, and on past each line ending in a backslash.
function directiveEnd(text, i) {
  let end = lineEnd(text, i);
  while (end < text.length && text[end - 1] === '\\') end = lineEnd(text, end + 1);
  return end;
}

function quotedEnd(text, i, quote) {
  let j = i + 1;
  while (j < text.length && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
  return Math.min(j + 1, text.length);
}

// R"delim( ... )delim", with an optional u8, u, U or L before the R.
function isRawStringPrefix(text, i) {
  if (text[i - 1] !== 'R') return false;
  const before = text.slice(0, i - 1).match(/[A-Za-z0-9_]*$/)[0];
  return before === '' || before === 'u8' || before === 'u' || before === 'U' || before === 'L';
}

// 1'000'000: a quote inside a number literal.
function isDigitSeparator(text, i) {
  const token = text.slice(0, i).match(/[A-Za-z0-9_.]*$/)[0];
  return /^[0-9]/.test(token);
}

/** `text` with every comment, literal and preprocessor directive replaced by spaces (newlines kept). */
export function blankLiterals(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const end = skipEnd(text, i);
    if (end < 0) {
      out += text[i++];
      continue;
    }
    out += text.slice(i, end).replace(/[^\n]/g, ' ');
    i = end;
  }
  return out;
}

/** What a `{` opens at namespace or class scope, from the text since the previous statement there. */
function classify(head) {
  const text = head.trim();
  if (/^(template\s*<.*>\s*)?(namespace|class|struct|union|extern)\b/s.test(text) && !/\)\s*$/.test(text)) return 'scope';
  if (/\)\s*(const|volatile|noexcept|override|final|mutable|&|&&|->[^{;]*|\s)*$/.test(text)) return 'function';
  if (/\)\s*(const\s*|noexcept\s*)*:(?!:)/.test(text)) return 'initializer-list';
  return 'block';
}

// The last character before `i` that is not white space.
function previousCharacter(code, i) {
  let j = i - 1;
  while (j >= 0 && /\s/.test(code[j])) --j;
  return code[j] ?? '';
}

function functionName(head) {
  const match = head.match(/(~?[A-Za-z_][\w:~]*(?:\s*operator\s*(?:\(\)|[^\s(]+))?)\s*(?:<[^()]*>)?\s*\(/);
  return match ? match[1].replace(/\s+/g, '') : '(anonymous)';
}

/**
 * Every function with a body in the C++ `text`, as { name, start, end, lines }: 1-based lines from the
 * first line of its signature (its template line included) to its closing brace.
 */
export function cppFunctions(text) {
  const code = blankLiterals(text);
  const lineAt = (index) => code.slice(0, index).split('\n').length;
  const found = [];
  const stack = [];  // 'scope', 'block', 'function', 'init' (a brace initializer in an initializer list)
  let statementStart = 0;
  let pending = null;  // the signature whose initializer list is being read
  for (let i = 0; i < code.length; ++i) {
    const c = code[i];
    const inFunction = stack.some((entry) => entry.kind === 'function');
    if (c === ';' && !inFunction) statementStart = i + 1;
    if (c === '{') {
      if (inFunction) {
        stack.push({ kind: 'block' });
        continue;
      }
      const head = code.slice(statementStart, i).replace(ACCESS, '');
      const kind = pending ? 'function' : classify(head);
      if (kind === 'initializer-list' || (pending && IDENTIFIER.test(previousCharacter(code, i)))) {
        // a member's brace initializer (`value_{0}`) inside a constructor's initializer list
        pending = pending ?? head;
        stack.push({ kind: 'init' });
        continue;
      }
      const signature = pending ?? head;
      pending = null;
      const offset = statementStart + code.slice(statementStart).match(ACCESS)[0].length;
      stack.push(kind === 'function'
        ? { kind, name: functionName(signature), start: lineAt(offset) }
        : { kind });
      statementStart = i + 1;
    } else if (c === '}') {
      const entry = stack.pop();
      if (entry?.kind === 'function') {
        found.push({ name: entry.name, start: entry.start, end: lineAt(i) });
      }
      if (entry?.kind !== 'init' && !stack.some((e) => e.kind === 'function')) statementStart = i + 1;
    }
  }
  return found.map(({ name, start, end }) => ({ name, start, end, lines: end - start + 1 }));
}
