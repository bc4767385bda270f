/**
 * JSON and YAML text parsed with an explicit limit on nesting, measured without recursion before
 * any parser or walk recurses. The yaml library composes collections by recursion: 5,000 levels of
 * `- ` overflow the stack, and 100,000 levels of `[` ended Node with a fatal out-of-memory error in
 * V8's regular-expression compiler (yaml 2.9.1, Node 20, 2026-11-29). V8's JSON.parse is iterative,
 * but the converter's own walks over a tokenizer.json recurse. A real config.json, tokenizer.json,
 * safetensors header or model.yml nests 5 levels at most.
 */
import { Lexer, parse } from 'yaml';
import { ConvertError } from './convert-error.js';

/** The deepest nesting of arrays and objects (JSON) or collections (YAML) a file may have. */
export const MAX_NESTING = 64;
/**
 * The largest YAML text read, in characters: Marian's model.yml and decoder.yml are a few kilobytes,
 * and the yaml library's time grows with the square of the keys or anchors (2026-11-29: a megabyte
 * of keys took 129 s, of anchors 96 s).
 */
export const MAX_YAML_CHARACTERS = 1 << 16;

/** Whether JSON `text` nests arrays and objects deeper than `limit`: a scan of brackets outside strings. */
function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;  // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * Whether YAML `text` nests deeper than `limit`, from the yaml library's lexer (a state machine, no
 * recursion): open flow collections, plus the block levels of its indentation, plus the `-` and `?`
 * indicators that open a collection on the same line (`- - - a`). Quoted and block scalars are single
 * tokens, so brackets inside them do not count. The count may exceed the composed depth; it falls
 * short of it only where a sequence sits at its key's indentation, by at most half.
 */
function yamlDeeperThan(text: string, limit: number): boolean {
  let flow = 0;
  let onLine = 0;
  let indent = 0;
  let lineStart = true;
  const indents: number[] = [];
  for (const token of new Lexer().lex(text)) {
    if (token === '\n' || token === '\r\n') {
      lineStart = true;
      onLine = 0;
      indent = 0;
      continue;
    }
    if (lineStart && /^ +$/.test(token)) {
      indent = token.length;
      continue;
    }
    if (token.startsWith('#') || token === ' ' || token === '\u001f') continue;  // comments, spaces, scalar markers
    if (lineStart && flow === 0) {
      while (indents.length && indents[indents.length - 1] >= indent) indents.pop();
      indents.push(indent);
    }
    lineStart = false;
    if (token === '[' || token === '{') flow++;
    else if ((token === ']' || token === '}') && flow > 0) flow--;
    else if (token === '-' || token === '?') onLine++;
    if (flow + indents.length + onLine > limit) return true;
  }
  return false;
}

const nestingError = (file: string, field: string) =>
  new ConvertError(file, field, `nests deeper than ${MAX_NESTING} levels, which no model file does: refused before parsing`);

/**
 * The JSON value of `text`.
 * @param file, field name the text in errors.
 * @throws ConvertError when it is not JSON or nests deeper than MAX_NESTING.
 */
export function parseJson(text: string, file: string, field: string): unknown {
  if (jsonDeeperThan(text, MAX_NESTING)) throw nestingError(file, field);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ConvertError(file, field, `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/**
 * The YAML mapping of `text` (Marian's model.yml and decoder.yml).
 * @throws ConvertError ('yaml') when it is not YAML, not a mapping, longer than MAX_YAML_CHARACTERS,
 *   nests deeper than MAX_NESTING, or expands more aliases than the yaml library's limit (100, against alias bombs).
 */
export function parseYamlMapping(text: string, file: string): Record<string, unknown> {
  if (text.length > MAX_YAML_CHARACTERS) {
    throw new ConvertError(file, 'yaml', `holds ${text.length} characters, more than the ${MAX_YAML_CHARACTERS} a Marian model.yml may: refused before parsing`);
  }
  let value: unknown;
  try {
    if (yamlDeeperThan(text, MAX_NESTING)) throw nestingError(file, 'yaml');
    value = parse(text, { logLevel: 'error' });  // errors thrown, warnings (an unknown tag) not printed to the user's stderr
  } catch (e) {
    if (e instanceof ConvertError) throw e;
    throw new ConvertError(file, 'yaml', `is not valid YAML (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConvertError(file, 'yaml', 'is not a YAML mapping');
  return value as Record<string, unknown>;
}
