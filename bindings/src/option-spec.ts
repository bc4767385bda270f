/**
 * The shape of one row of the engine's option table (cpp/options.h, option_specs()), on its own so
 * that the table generated from it (options.generated.ts) and the code that reads the table at run
 * time (options.ts, search.ts) both stand on it.
 */

/** One option of the engine's table (cpp/options.h): what `optionSpecs()` returns. */
export interface OptionSpec {
  /** The engine's neutral name, its C++ field (beam_size). */
  name: string;
  /** The JavaScript name (beamSize); alignment options are fields of `alignment`. */
  jsName: string;
  /** The command-line flag without dashes (beam-size); a boolean that defaults to true is --no-FLAG. */
  flag: string;
  group: 'search' | 'length' | 'output' | 'alignment';
  type: 'int' | 'float' | 'bool' | 'choice' | 'int[]';
  min?: number;
  max?: number;
  minExclusive: boolean;
  choices?: string[];
  /** The value front ends use for a sentence a person typed, where it differs from `default` (beamSize: 4). */
  sentenceDefault?: number;
  /** The range in words ("from 1 to 64", "in (0, 1]"), empty when unbounded. */
  range: string;
  /** What a value must be, as errors say it: "an integer from 1 to 64". */
  rule: string;
  default: number | boolean | string | number[];
  /** One line; other options named by their JavaScript names. */
  doc: string;
  /** The same naming other options by their command-line flags (--beam-size), for the CLI's help. */
  flagDoc: string;
}
