#include "translator.h"

#include <fstream>
#include <iterator>

#include "decoding/greedy.h"
#include "error.h"
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
  result.source_tokens = tokenizer.encode_pieces(text);
  if (result.source_tokens.empty()) return result;  // empty or whitespace-only text
  result.source_ids = tokenizer.to_ids(result.source_tokens);
  result.source_tokens.push_back(tokenizer.piece(c.eos_id));
  result.source_ids.push_back(c.eos_id);
  if (static_cast<int>(result.source_ids.size()) > c.max_positions) {
    throw Error(ErrorCode::kInputTooLong, "the text has " + std::to_string(result.source_ids.size()) +
                                              " tokens; this model takes at most " +
                                              std::to_string(c.max_positions) + " (split it into sentences)");
  }
  return result;
}

// Fills the target side of `result` from a decoded hypothesis.
void finish(const Tokenizer& tokenizer, const ModelConfig& c, Hypothesis hyp, Translation& result) {
  result.target_ids = std::move(hyp.ids);
  result.cross_attention = std::move(hyp.cross_attention);
  result.log_prob = hyp.log_prob;
  std::vector<std::string> text_pieces;
  for (int id : result.target_ids) {
    result.target_tokens.push_back(tokenizer.piece(id));
    if (id != c.eos_id && id != c.bos_id && id != c.pad_id) text_pieces.push_back(result.target_tokens.back());
  }
  result.text = tokenizer.decode_pieces(text_pieces);
}

}  // namespace

std::vector<Translation> Translator::translate_batch(const std::vector<std::string>& texts,
                                                     const TranslateOptions& options) const {
  const ModelConfig& c = model_->config();
  if (options.max_length < 0 || options.max_length > c.max_positions) {
    throw Error(ErrorCode::kInvalidInput,
                "max_length must lie in 0 .. " + std::to_string(c.max_positions) + " (0 picks a default)");
  }
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
  std::vector<Hypothesis> hyps = greedy_search(*model_, inputs, max_lengths, options.attention);
  for (size_t k = 0; k < decoded.size(); ++k) finish(*tokenizer_, c, std::move(hyps[k]), results[decoded[k]]);
  return results;
}

}  // namespace crossattn
