// What a decoding search (decoding/beam_search.h) is asked to do: how many hypotheses it keeps and
// returns, how it ranks and stops them, which loops it forbids, and whether it samples. Each
// default is written here once: TranslateOptions (cpp/options.h) extends this struct, and
// option_specs() there describes every field to the bindings, both CLIs and docs/api.md.
#pragma once

namespace crossattn {

struct SearchOptions {
  /// Hypotheses kept per sentence (1 .. 64); 1 is greedy decoding.
  int beam_size = 1;
  /// Hypotheses returned per sentence, best first (1 .. beam_size).
  int n_best = 1;
  /// GNMT length penalty alpha (Wu et al. 2016, eq. 14): finished hypotheses are ranked by
  /// log_prob / ((5 + T) / 6)^alpha. 0 ranks by log-probability alone. Any finite value.
  float length_penalty = 1.0f;
  /// Stop a sentence once beam_size hypotheses have finished; false searches on until no live
  /// hypothesis can beat them (slower, rarely different).
  bool early_stopping = true;
  /// The repetition guard (repetition_guard.h): no span of up to 16 target tokens occurs more than
  /// repeat_limit times in a row (>= 0; 0 turns the guard off).
  int repeat_limit = 3;
  /// Draw each token at random (token_selection.h, Sampler) instead of taking the most probable
  /// ones; needs beam_size 1.
  bool sample = false;
  /// With sample: draw among the top_k most probable tokens only (Fan et al. 2018); 0 means all.
  int top_k = 0;
  /// With sample: draw from the nucleus, the fewest most probable tokens whose probability reaches
  /// top_p (Holtzman et al. 2020), in (0, 1]; 1 keeps all.
  float top_p = 1.0f;
  /// With sample: the logits are divided by this (> 0) before top_k, top_p and the draw; below 1
  /// sharpens the distribution, above 1 flattens it.
  float temperature = 1.0f;
  /// With sample: where each sentence's random stream starts (0 .. 2^31 - 1): the same seed gives
  /// the same translation on every platform, alone or in a batch.
  int seed = 0;
};

}  // namespace crossattn
