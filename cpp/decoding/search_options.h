// What a decoding search (decoding/beam_search.h) is asked to do: how many hypotheses it keeps and
// returns, how it ranks and stops them, which loops it forbids, and whether it samples. Each
// default is written here once; each field's meaning, source and range are documented once, in
// option_specs() (cpp/options.cc), which TranslateOptions (cpp/options.h) exposes to the bindings,
// both CLIs and docs/api.md.
#pragma once

namespace crossattn {

struct SearchOptions {
  int beam_size = 1;
  int n_best = 1;
  float length_penalty = 1.0f;  // GNMT alpha: BeamSearch ranks by log_prob / ((5 + T) / 6)^alpha
  bool early_stopping = true;
  int repeat_limit = 3;  // repetition_guard.h
  bool sample = false;   // token_selection.h, Sampler: top_k, top_p, temperature and seed below
  int top_k = 0;
  float top_p = 1.0f;
  float temperature = 1.0f;
  int seed = 0;
};

}  // namespace crossattn
