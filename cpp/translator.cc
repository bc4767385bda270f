#include "translator.h"

#include <fstream>
#include <iterator>

#include "decoding/greedy.h"
#include "error.h"
#include "kernels/ops.h"
#include "model/model_file.h"
#include "model/transformer.h"
#include "tokenizer/tokenizer.h"

namespace crossattn {

Translator::Translator(std::unique_ptr<Transformer> model, std::unique_ptr<Tokenizer> tokenizer)
    : model_(std::move(model)), tokenizer_(std::move(tokenizer)) {}
Translator::Translator(Translator&&) noexcept = default;
Translator& Translator::operator=(Translator&&) noexcept = default;
Translator::~Translator() = default;

Translator Translator::from_bytes(const uint8_t* data, size_t size) {
  ModelFile file = ModelFile::parse(data, size);
  auto tokenizer = std::make_unique<Tokenizer>(file.source_spm, file.target_spm, std::move(file.vocab),
                                               file.config.unk_id);
  auto model = std::make_unique<Transformer>(std::move(file.config), std::move(file.weights));
  return Translator(std::move(model), std::move(tokenizer));
}

Translator Translator::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::kModelFormat, "cannot open model file '" + path + "'");
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return from_bytes(bytes.data(), bytes.size());
}

const ModelConfig& Translator::config() const { return model_->config(); }

Translation Translator::translate(const std::string& text, const TranslateOptions& options) const {
  return std::move(translate_batch({text}, options).front());
}

namespace {

// The source side of a translation: tokens and ids with eos appended, checked against the model.
Translation prepare(const Tokenizer& tokenizer, const ModelConfig& c, const std::string& text) {
  Translation result;
  result.layers = c.decoder_layers;
  result.heads = c.n_heads;
  Encoding source = tokenizer.encode(text, Side::kSource);
  if (source.pieces.empty()) return result;  // empty or whitespace-only text
  result.source_ids = tokenizer.to_ids(source.pieces);
  result.source_tokens = std::move(source.pieces);
  result.source_words = std::move(source.words);
  result.source_word_of_token = std::move(source.word_of_piece);
  result.source_tokens.push_back(tokenizer.piece(c.eos_id));
  result.source_ids.push_back(c.eos_id);
  result.source_word_of_token.push_back(-1);
  if (static_cast<int>(result.source_ids.size()) > c.max_positions) {
    throw Error(ErrorCode::kInputTooLong, "the text has " + std::to_string(result.source_ids.size()) +
                                              " tokens; this model takes at most " +
                                              std::to_string(c.max_positions) + " (split it into sentences)");
  }
  return result;
}

bool special(const ModelConfig& c, int id) { return id == c.eos_id || id == c.bos_id || id == c.pad_id; }

// Word alignments of a finished translation, when requested; drops the attention if only the
// alignment needed it.
void add_alignment(const TranslateOptions& options, Translation& r) {
  if (!options.alignment || r.target_ids.empty()) return;
  const CrossAttentionView view{r.cross_attention.data(), r.layers, r.heads, static_cast<int>(r.target_ids.size()),
                                static_cast<int>(r.source_ids.size())};
  r.alignment = align_words(view, {r.source_word_of_token, static_cast<int>(r.source_words.size())},
                            {r.target_word_of_token, static_cast<int>(r.target_words.size())}, *options.alignment);
  if (!options.attention) r.cross_attention.clear();
}

// Fills the target side of `result` from a decoded hypothesis.
void finish(const Tokenizer& tokenizer, const ModelConfig& c, Hypothesis hyp, Translation& result) {
  result.target_ids = std::move(hyp.ids);
  result.cross_attention = std::move(hyp.cross_attention);
  result.residual = std::move(hyp.residual);
  result.log_prob = hyp.log_prob;
  std::vector<std::string> text_pieces;
  for (int id : result.target_ids) {
    result.target_tokens.push_back(tokenizer.piece(id));
    if (!special(c, id)) text_pieces.push_back(result.target_tokens.back());
  }
  result.text = tokenizer.decode_pieces(text_pieces);
  result.target_words = split_words(result.text);
  const std::vector<int> words = words_of_pieces(text_pieces, static_cast<int>(result.target_words.size()));
  for (size_t t = 0, k = 0; t < result.target_ids.size(); ++t) {
    result.target_word_of_token.push_back(special(c, result.target_ids[t]) ? -1 : words[k++]);
  }
}

void check_options(const ModelConfig& c, const TranslateOptions& options) {
  if (options.max_length < 0 || options.max_length > c.max_positions) {
    throw Error(ErrorCode::kInvalidInput,
                "max_length must lie in 0 .. " + std::to_string(c.max_positions) + " (0 picks a default)");
  }
}

}  // namespace

std::vector<Translation> Translator::translate_batch(const std::vector<std::string>& texts,
                                                     const TranslateOptions& options) const {
  const ModelConfig& c = model_->config();
  check_options(c, options);
  std::vector<Translation> results;
  results.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    try {
      results.push_back(prepare(*tokenizer_, c, texts[i]));
    } catch (const Error& e) {
      if (texts.size() == 1) throw;
      throw Error(e.code(), "text " + std::to_string(i) + ": " + e.what());
    }
  }
  std::vector<Matrix> encoder_outs;  // [S_i, D] per non-empty text
  std::vector<const Matrix*> inputs;
  std::vector<int> max_lengths;
  std::vector<size_t> decoded;  // indices into results
  encoder_outs.reserve(texts.size());
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].source_ids.empty()) continue;
    const int src_len = static_cast<int>(results[i].source_ids.size());
    encoder_outs.push_back(model_->encode(results[i].source_ids));
    inputs.push_back(&encoder_outs.back());
    max_lengths.push_back(options.max_length ? options.max_length : std::min(c.max_positions, 2 * src_len + 10));
    decoded.push_back(i);
  }
  const SearchProbes probes{options.attention || options.alignment.has_value(), options.residual};
  std::vector<Hypothesis> hyps = greedy_search(*model_, inputs, max_lengths, probes);
  for (size_t k = 0; k < decoded.size(); ++k) {
    Translation& r = results[decoded[k]];
    finish(*tokenizer_, c, std::move(hyps[k]), r);
    add_alignment(options, r);
  }
  return results;
}

Translation Translator::align(const std::string& source, const std::string& target,
                              const TranslateOptions& options) const {
  const ModelConfig& c = model_->config();
  check_options(c, options);
  Translation r = prepare(*tokenizer_, c, source);
  if (r.source_ids.empty()) return r;
  Encoding tgt = tokenizer_->encode(target, Side::kTarget);
  if (static_cast<int>(tgt.pieces.size()) + 1 > c.max_positions) {
    throw Error(ErrorCode::kInputTooLong, "the target has " + std::to_string(tgt.pieces.size() + 1) +
                                              " tokens; this model takes at most " + std::to_string(c.max_positions));
  }
  r.text = target;
  r.target_ids = tokenizer_->to_ids(tgt.pieces);
  r.target_ids.push_back(c.eos_id);
  r.target_tokens = std::move(tgt.pieces);
  r.target_tokens.push_back(tokenizer_->piece(c.eos_id));
  r.target_words = std::move(tgt.words);
  r.target_word_of_token = std::move(tgt.word_of_piece);
  r.target_word_of_token.push_back(-1);
  // Decoder input: bos then the target; row t predicts target_ids[t], as in greedy decoding.
  std::vector<int> inputs = {c.decoder_start_id};
  inputs.insert(inputs.end(), r.target_ids.begin(), r.target_ids.end() - 1);
  const int t_len = static_cast<int>(inputs.size());
  DecoderState state = model_->start(model_->encode(r.source_ids), t_len);
  const bool attention = options.attention || options.alignment.has_value();
  r.cross_attention.resize(attention ? static_cast<size_t>(r.layers) * r.heads * t_len * r.source_ids.size() : 0);
  r.residual.resize(options.residual ? static_cast<size_t>(r.layers) * t_len * 3 : 0);
  Matrix logits;  // [T, V]
  model_->decode(state, inputs, logits, attention ? r.cross_attention.data() : nullptr,
                 options.residual ? r.residual.data() : nullptr);
  for (int t = 0; t < t_len; ++t) {
    int best = 0;
    r.log_prob += logits(t, r.target_ids[t]) - log_sum_exp(logits.row(t).data(), c.vocab_size, &best);
  }
  add_alignment(options, r);
  return r;
}

}  // namespace crossattn
