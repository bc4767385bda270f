// Streaming: the target tokens of one text that a decoding step made final, and the callback that
// receives them (TranslateOptions::on_token, TranslationJob::step in translator.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace crossattn {

/// The target tokens of one text that became final during a decoding step (streaming): with greedy
/// decoding each token as it is produced, with beam search the prefix every hypothesis that can
/// still win agrees on (BeamSearch::settled).
struct TokenEvent {
  int index = 0;                    // the text's position in the batch
  std::vector<std::string> tokens;  // pieces settled since this text's previous event, eos included
  std::string text;                 // the detokenized target settled so far
};

/// Receives TokenEvents while a translation runs; returning false cancels it (Error(kCancelled)).
using TokenCallback = std::function<bool(const TokenEvent&)>;

}  // namespace crossattn
