/**
 * Command-line options parsed by node:util parseArgs, with its strict mode's checks made here, so
 * that every subcommand (translate, align, convert) refuses a bad command line in one line of its
 * own: Node's strict-mode messages span sentences and quote unevenly ("Unknown option '--nope'. To
 * specify a positional argument starting with a '-', place it ... as in '-- "--nope"").
 */
import { parseArgs } from 'node:util';

/** The options a command takes, as parseArgs takes them (Node 20 docs, util.parseArgs, config.options). */
export type ArgOptions = Record<string, { type: 'string' | 'boolean'; short?: string }>;

type ValueOf<Type> = Type extends 'boolean' ? boolean : string;

/** What parseStrictly found: each option's value by its long name, and the other arguments in order. */
export interface ParsedArgs<T extends ArgOptions> {
  values: { [K in keyof T]?: ValueOf<T[K]['type']> };
  positionals: string[];
}

/**
 * `args` parsed against `options`, positionals allowed anywhere. The first unknown option, boolean
 * given a value (--json=yes), or string option without one (--model at the end; --max-length -5,
 * which must be written --max-length=-5) is passed to `refuse` as one line, e.g.
 * "unknown option '--nope'" or "--model needs a value"; `refuse` must not return (it exits).
 */
export function parseStrictly<T extends ArgOptions>(args: string[], options: T, refuse: (message: string) => never): ParsedArgs<T> {
  const parsed = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const type = Object.hasOwn(options, token.name) ? options[token.name].type : undefined;
    if (type === undefined) refuse(`unknown option '${token.rawName}'`);
    if (type === 'boolean' && token.inlineValue) refuse(`${token.rawName} takes no value`);
    if (type === 'string' && token.value === undefined) refuse(`${token.rawName} needs a value`);
    if (type === 'string' && !token.inlineValue && token.value!.length > 1 && token.value!.startsWith('-')) {
      refuse(`${token.rawName} needs a value (for one that starts with a dash: ${token.rawName}=${token.value})`);
    }
  }
  return parsed as unknown as ParsedArgs<T>;
}
