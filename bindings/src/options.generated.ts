// Made by tools/internals/options-table.js from the engine's option table (cpp/options.cc, option_specs()).
// Do not edit: `node tools/internals/options-table.js --write` makes it anew; tests/js/options.test.js fails
// when it differs from what the table makes.
import type { OptionSpec } from './option-spec.js';

/** The search and length options of the engine's table (search.ts, SearchOptions). */
export interface TableSearchOptions {
  /** Hypotheses kept per sentence; 1 is greedy decoding, the fastest. An integer from 1 to 64; default 1. */
  beamSize?: number;
  /** Hypotheses returned per sentence, best first; at most beamSize. An integer from 1 to 64; default 1. */
  nBest?: number;
  /** GNMT length penalty alpha (Wu et al. 2016, eq. 14): finished hypotheses are ranked by log_prob / ((5 + T) / 6)^alpha for T target tokens; 0 ranks by log_prob. A finite number; default 1. */
  lengthPenalty?: number;
  /** Stop a sentence once beamSize hypotheses have finished; false searches on until no live hypothesis can beat them (slower, rarely different). A boolean; default true. */
  earlyStopping?: boolean;
  /** Repetition guard: no span of up to 16 target tokens repeats more often in a row, which stops loops on out-of-domain input, and no word is written twice in a row unless the source repeats one; 0 turns the guard off. An integer from 0 to 100; default 3. */
  repeatLimit?: number;
  /** Draw each token at random from the model's distribution instead of the most probable (needs beamSize 1). A boolean; default false. */
  sample?: boolean;
  /** With sample: draw among the k most probable tokens only (Fan et al. 2018); 0 means all. An integer >= 0; default 0. */
  topK?: number;
  /** With sample: draw from the nucleus, the fewest most probable tokens whose probability reaches p (Holtzman et al. 2020); 1 keeps all. A finite number in (0, 1]; default 1. */
  topP?: number;
  /** With sample: divides the logits before the draw; below 1 sharpens, above 1 flattens. A finite number > 0; default 1. */
  temperature?: number;
  /** With sample: where each sentence's random stream starts; the same seed gives the same translation on every platform, alone or in a batch. An integer >= 0; default 0. */
  seed?: number;
  /** Most target tokens per sentence, eos included: floor(maxLengthRatio * S + maxLengthOffset) for S source tokens, at most this; 0 means the model's max_positions. An integer >= 0; default 0. */
  maxLength?: number;
  /** Target tokens allowed per source token. A finite number >= 0; default 2. */
  maxLengthRatio?: number;
  /** Target tokens allowed beyond maxLengthRatio * S. An integer >= 0; default 10. */
  maxLengthOffset?: number;
  /** Score only the model's lexical shortlist of target pieces, when its file has one (a faster output layer); false scores the whole vocabulary. A boolean; default true. */
  shortlist?: boolean;
}

/** The output options of the engine's table (translator.ts, TranslateOptions). */
export interface TableOutputOptions {
  /** Return the cross-attention weights [layers][heads][T][S] of the best hypothesis. A boolean; default false. */
  attention?: boolean;
  /** Return the statistics of each cross-attention residual connection. A boolean; default false. */
  residual?: boolean;
}

/** The alignment options of the engine's table (alignment.ts, AlignmentOptions). */
export interface TableAlignmentOptions {
  /** Decoder layers whose attention is averaged, negative from the last (-1); with no layers, no heads and no shift given: the model's alignment layer if it has one, else its trained alignment head, else the last two layers. A non-empty list of integers from -1024 to 1023; default none. */
  layers?: number[];
  /** Heads averaged in those layers; none given: all. A non-empty list of integers from -1024 to 1023; default none. */
  heads?: number[];
  /** How attention becomes links: argmax (each target word to the source word it attends to most), grow-diag-final-and (that and each source word's most attending target word, symmetrized as Koehn et al. 2003 do for two directions) or threshold (every pair whose weight reaches threshold). One of argmax, grow-diag-final-and, threshold; default "grow-diag-final-and". */
  method?: 'argmax' | 'grow-diag-final-and' | 'threshold';
  /** With method threshold: every pair whose weight reaches it links. A finite number in (0, 1]; default 0.3. */
  threshold?: number;
  /** Shift-Att: read token i's attention at the step fed token i (Chen et al. 2020). A boolean; default false. */
  shift?: boolean;
  /** Link words (source pieces summed, target pieces averaged); false links SentencePiece pieces, indexed as the tokens without eos. A boolean; default true. */
  mergeSubwords?: boolean;
  /** Weigh attention by the model's alignment lexicon when its file has one (how often the training data linked each source piece to each target piece; docs/alignment.md): links come from attention x (lexicon + 1e-4); false reads attention alone. A boolean; default true. */
  lexicon?: boolean;
}

/** The engine's option table as optionSpecs() returns it, for code that needs it without an engine (the CLI). */
export const OPTION_TABLE: readonly OptionSpec[] = [
  {
    "default": 1,
    "doc": "hypotheses kept per sentence; 1 is greedy decoding, the fastest",
    "flag": "beam-size",
    "flagDoc": "hypotheses kept per sentence; 1 is greedy decoding, the fastest",
    "group": "search",
    "jsName": "beamSize",
    "max": 64,
    "min": 1,
    "minExclusive": false,
    "name": "beam_size",
    "range": "from 1 to 64",
    "rule": "an integer from 1 to 64",
    "sentenceDefault": 4,
    "type": "int"
  },
  {
    "default": 1,
    "doc": "hypotheses returned per sentence, best first; at most beamSize",
    "flag": "n-best",
    "flagDoc": "hypotheses returned per sentence, best first; at most --beam-size",
    "group": "search",
    "jsName": "nBest",
    "max": 64,
    "min": 1,
    "minExclusive": false,
    "name": "n_best",
    "range": "from 1 to 64",
    "rule": "an integer from 1 to 64",
    "type": "int"
  },
  {
    "default": 1,
    "doc": "GNMT length penalty alpha (Wu et al. 2016, eq. 14): finished hypotheses are ranked by log_prob / ((5 + T) / 6)^alpha for T target tokens; 0 ranks by log_prob",
    "flag": "length-penalty",
    "flagDoc": "GNMT length penalty alpha (Wu et al. 2016, eq. 14): finished hypotheses are ranked by log_prob / ((5 + T) / 6)^alpha for T target tokens; 0 ranks by log_prob",
    "group": "search",
    "jsName": "lengthPenalty",
    "minExclusive": false,
    "name": "length_penalty",
    "range": "",
    "rule": "a finite number",
    "type": "float"
  },
  {
    "default": true,
    "doc": "stop a sentence once beamSize hypotheses have finished; false searches on until no live hypothesis can beat them (slower, rarely different)",
    "flag": "early-stopping",
    "flagDoc": "stop a sentence once --beam-size hypotheses have finished; false searches on until no live hypothesis can beat them (slower, rarely different)",
    "group": "search",
    "jsName": "earlyStopping",
    "minExclusive": false,
    "name": "early_stopping",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  },
  {
    "default": 3,
    "doc": "repetition guard: no span of up to 16 target tokens repeats more often in a row, which stops loops on out-of-domain input, and no word is written twice in a row unless the source repeats one; 0 turns the guard off",
    "flag": "repeat-limit",
    "flagDoc": "repetition guard: no span of up to 16 target tokens repeats more often in a row, which stops loops on out-of-domain input, and no word is written twice in a row unless the source repeats one; 0 turns the guard off",
    "group": "search",
    "jsName": "repeatLimit",
    "max": 100,
    "min": 0,
    "minExclusive": false,
    "name": "repeat_limit",
    "range": "from 0 to 100",
    "rule": "an integer from 0 to 100",
    "type": "int"
  },
  {
    "default": false,
    "doc": "draw each token at random from the model's distribution instead of the most probable (needs beamSize 1)",
    "flag": "sample",
    "flagDoc": "draw each token at random from the model's distribution instead of the most probable (needs --beam-size 1)",
    "group": "search",
    "jsName": "sample",
    "minExclusive": false,
    "name": "sample",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  },
  {
    "default": 0,
    "doc": "with sample: draw among the k most probable tokens only (Fan et al. 2018); 0 means all",
    "flag": "top-k",
    "flagDoc": "with --sample: draw among the k most probable tokens only (Fan et al. 2018); 0 means all",
    "group": "search",
    "jsName": "topK",
    "max": 2147483647,
    "min": 0,
    "minExclusive": false,
    "name": "top_k",
    "range": ">= 0",
    "rule": "an integer >= 0",
    "type": "int"
  },
  {
    "default": 1,
    "doc": "with sample: draw from the nucleus, the fewest most probable tokens whose probability reaches p (Holtzman et al. 2020); 1 keeps all",
    "flag": "top-p",
    "flagDoc": "with --sample: draw from the nucleus, the fewest most probable tokens whose probability reaches p (Holtzman et al. 2020); 1 keeps all",
    "group": "search",
    "jsName": "topP",
    "max": 1,
    "min": 0,
    "minExclusive": true,
    "name": "top_p",
    "range": "in (0, 1]",
    "rule": "a finite number in (0, 1]",
    "type": "float"
  },
  {
    "default": 1,
    "doc": "with sample: divides the logits before the draw; below 1 sharpens, above 1 flattens",
    "flag": "temperature",
    "flagDoc": "with --sample: divides the logits before the draw; below 1 sharpens, above 1 flattens",
    "group": "search",
    "jsName": "temperature",
    "min": 0,
    "minExclusive": true,
    "name": "temperature",
    "range": "> 0",
    "rule": "a finite number > 0",
    "type": "float"
  },
  {
    "default": 0,
    "doc": "with sample: where each sentence's random stream starts; the same seed gives the same translation on every platform, alone or in a batch",
    "flag": "seed",
    "flagDoc": "with --sample: where each sentence's random stream starts; the same seed gives the same translation on every platform, alone or in a batch",
    "group": "search",
    "jsName": "seed",
    "max": 2147483647,
    "min": 0,
    "minExclusive": false,
    "name": "seed",
    "range": ">= 0",
    "rule": "an integer >= 0",
    "type": "int"
  },
  {
    "default": 0,
    "doc": "most target tokens per sentence, eos included: floor(maxLengthRatio * S + maxLengthOffset) for S source tokens, at most this; 0 means the model's max_positions",
    "flag": "max-length",
    "flagDoc": "most target tokens per sentence, eos included: floor(--max-length-ratio * S + --max-length-offset) for S source tokens, at most this; 0 means the model's max_positions",
    "group": "length",
    "jsName": "maxLength",
    "max": 2147483647,
    "min": 0,
    "minExclusive": false,
    "name": "max_length",
    "range": ">= 0",
    "rule": "an integer >= 0",
    "type": "int"
  },
  {
    "default": 2,
    "doc": "target tokens allowed per source token",
    "flag": "max-length-ratio",
    "flagDoc": "target tokens allowed per source token",
    "group": "length",
    "jsName": "maxLengthRatio",
    "min": 0,
    "minExclusive": false,
    "name": "max_length_ratio",
    "range": ">= 0",
    "rule": "a finite number >= 0",
    "type": "float"
  },
  {
    "default": 10,
    "doc": "target tokens allowed beyond maxLengthRatio * S",
    "flag": "max-length-offset",
    "flagDoc": "target tokens allowed beyond --max-length-ratio * S",
    "group": "length",
    "jsName": "maxLengthOffset",
    "max": 2147483647,
    "min": 0,
    "minExclusive": false,
    "name": "max_length_offset",
    "range": ">= 0",
    "rule": "an integer >= 0",
    "type": "int"
  },
  {
    "default": true,
    "doc": "score only the model's lexical shortlist of target pieces, when its file has one (a faster output layer); false scores the whole vocabulary",
    "flag": "shortlist",
    "flagDoc": "score only the model's lexical shortlist of target pieces, when its file has one (a faster output layer); false scores the whole vocabulary",
    "group": "search",
    "jsName": "shortlist",
    "minExclusive": false,
    "name": "shortlist",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  },
  {
    "default": false,
    "doc": "return the cross-attention weights [layers][heads][T][S] of the best hypothesis",
    "flag": "attention",
    "flagDoc": "return the cross-attention weights [layers][heads][T][S] of the best hypothesis",
    "group": "output",
    "jsName": "attention",
    "minExclusive": false,
    "name": "attention",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  },
  {
    "default": false,
    "doc": "return the statistics of each cross-attention residual connection",
    "flag": "residual",
    "flagDoc": "return the statistics of each cross-attention residual connection",
    "group": "output",
    "jsName": "residual",
    "minExclusive": false,
    "name": "residual",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  },
  {
    "default": [],
    "doc": "decoder layers whose attention is averaged, negative from the last (-1); with no layers, no heads and no shift given: the model's alignment layer if it has one, else its trained alignment head, else the last two layers",
    "flag": "layers",
    "flagDoc": "decoder layers whose attention is averaged, negative from the last (-1); with no --layers, no --heads and no --shift given: the model's alignment layer if it has one, else its trained alignment head, else the last two layers",
    "group": "alignment",
    "jsName": "layers",
    "max": 1023,
    "min": -1024,
    "minExclusive": false,
    "name": "layers",
    "range": "from -1024 to 1023",
    "rule": "a non-empty list of integers from -1024 to 1023",
    "type": "int[]"
  },
  {
    "default": [],
    "doc": "heads averaged in those layers; none given: all",
    "flag": "heads",
    "flagDoc": "heads averaged in those layers; none given: all",
    "group": "alignment",
    "jsName": "heads",
    "max": 1023,
    "min": -1024,
    "minExclusive": false,
    "name": "heads",
    "range": "from -1024 to 1023",
    "rule": "a non-empty list of integers from -1024 to 1023",
    "type": "int[]"
  },
  {
    "choices": [
      "argmax",
      "grow-diag-final-and",
      "threshold"
    ],
    "default": "grow-diag-final-and",
    "doc": "how attention becomes links: argmax (each target word to the source word it attends to most), grow-diag-final-and (that and each source word's most attending target word, symmetrized as Koehn et al. 2003 do for two directions) or threshold (every pair whose weight reaches threshold)",
    "flag": "method",
    "flagDoc": "how attention becomes links: argmax (each target word to the source word it attends to most), grow-diag-final-and (that and each source word's most attending target word, symmetrized as Koehn et al. 2003 do for two directions) or threshold (every pair whose weight reaches --threshold)",
    "group": "alignment",
    "jsName": "method",
    "minExclusive": false,
    "name": "method",
    "range": "",
    "rule": "one of argmax, grow-diag-final-and, threshold",
    "type": "choice"
  },
  {
    "default": 0.3,
    "doc": "with method threshold: every pair whose weight reaches it links",
    "flag": "threshold",
    "flagDoc": "with --method threshold: every pair whose weight reaches it links",
    "group": "alignment",
    "jsName": "threshold",
    "max": 1,
    "min": 0,
    "minExclusive": true,
    "name": "threshold",
    "range": "in (0, 1]",
    "rule": "a finite number in (0, 1]",
    "type": "float"
  },
  {
    "default": false,
    "doc": "Shift-Att: read token i's attention at the step fed token i (Chen et al. 2020)",
    "flag": "shift",
    "flagDoc": "Shift-Att: read token i's attention at the step fed token i (Chen et al. 2020)",
    "group": "alignment",
    "jsName": "shift",
    "minExclusive": false,
    "name": "shift",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  },
  {
    "default": true,
    "doc": "link words (source pieces summed, target pieces averaged); false links SentencePiece pieces, indexed as the tokens without eos",
    "flag": "merge-subwords",
    "flagDoc": "link words (source pieces summed, target pieces averaged); false links SentencePiece pieces, indexed as the tokens without eos",
    "group": "alignment",
    "jsName": "mergeSubwords",
    "minExclusive": false,
    "name": "merge_subwords",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  },
  {
    "default": true,
    "doc": "weigh attention by the model's alignment lexicon when its file has one (how often the training data linked each source piece to each target piece; docs/alignment.md): links come from attention x (lexicon + 1e-4); false reads attention alone",
    "flag": "lexicon",
    "flagDoc": "weigh attention by the model's alignment lexicon when its file has one (how often the training data linked each source piece to each target piece; docs/alignment.md): links come from attention x (lexicon + 1e-4); false reads attention alone",
    "group": "alignment",
    "jsName": "lexicon",
    "minExclusive": false,
    "name": "lexicon",
    "range": "",
    "rule": "a boolean",
    "type": "bool"
  }
];
