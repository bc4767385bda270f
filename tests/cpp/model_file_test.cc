// The real model file, damaged in the ways files get damaged: every failure is a clean
// Error(kModelFormat), never a crash or an out-of-bounds read (run under ASan/valgrind to see).
#include "model/model_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "error.h"
#include "test_util.h"
#include "tokenizer/tokenizer.h"
#include "translator.h"

namespace crossattn {
namespace {

ErrorCode load_error(const std::vector<uint8_t>& bytes) {
  try {
    Translator::from_bytes(bytes.data(), bytes.size());
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "a damaged model file loaded";
  return ErrorCode::kInvalidInput;
}

using testing::join;
using testing::split;
using testing::Parts;

class ModelFileTest : public ::testing::Test {
 protected:
  std::vector<uint8_t> bytes = testing::read_bytes(testing::model_path());
};

TEST_F(ModelFileTest, LoadsIntact) {
  const auto model = ModelFile::parse(bytes.data(), bytes.size());
  // A listed vocabulary has the config's size; export.py lists none (the SentencePiece model's).
  if (!model.vocab.empty()) EXPECT_EQ(static_cast<int>(model.vocab.size()), model.config.vocab_size);
  EXPECT_EQ(static_cast<int>(model.weights.decoder_layers.size()), model.config.decoder_layers);
}

// A file without `vocab` (what export.py writes) numbers pieces as its SentencePiece model does;
// for a model trained on that SentencePiece model, listing its pieces as `vocab` (what older files
// do) changes nothing.
TEST_F(ModelFileTest, WithoutVocabTheSentencePieceIdsAreTheVocabulary) {
  Parts p = split(bytes);
  auto& metadata = p.header["__metadata__"];
  if (!metadata.contains("vocab")) {
    const ModelFile model = ModelFile::parse(bytes.data(), bytes.size());
    const Tokenizer pieces(model.source_spm, model.target_spm, {}, model.config.unk_id);
    nlohmann::json vocab = nlohmann::json::array();
    for (int id = 0; id < pieces.vocab_size(); ++id) vocab.push_back(pieces.piece(id));
    metadata["vocab"] = vocab.dump();
  }
  const std::vector<uint8_t> with = join(p);
  metadata.erase("vocab");
  const std::vector<uint8_t> without = join(p);
  EXPECT_FALSE(ModelFile::parse(with.data(), with.size()).vocab.empty());
  EXPECT_TRUE(ModelFile::parse(without.data(), without.size()).vocab.empty());
  const Translator listed = Translator::from_bytes(with.data(), with.size());
  const Translator implied = Translator::from_bytes(without.data(), without.size());
  TranslateOptions options;
  options.attention = false;
  const std::vector<std::string> sources = {"A dog runs through the grass.", "Zwei Männer spielen Fußball.",
                                            "xqzv ☃ 12345"};  // unknown pieces and characters too
  const auto a = listed.translate_batch(sources, options), b = implied.translate_batch(sources, options);
  for (size_t i = 0; i < sources.size(); ++i) {
    EXPECT_EQ(a[i].source_ids, b[i].source_ids) << sources[i];
    EXPECT_EQ(a[i].target_ids, b[i].target_ids) << sources[i];
    EXPECT_EQ(a[i].text, b[i].text) << sources[i];
  }
}

TEST_F(ModelFileTest, EveryTruncationIsACleanError) {
  for (size_t keep : {size_t{0}, size_t{7}, size_t{8}, size_t{100}, bytes.size() / 3, bytes.size() / 2,
                      bytes.size() - 4096, bytes.size() - 1}) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(keep));
    EXPECT_EQ(load_error(cut), ErrorCode::kModelFormat) << "truncated to " << keep << " bytes";
  }
}

TEST_F(ModelFileTest, InconsistentHeaderIsACleanError) {
  {
    Parts p = split(bytes);  // a weight whose shape disagrees with the config
    auto& entry = p.header["decoder.layers.0.fc1.weight"];
    auto shape = entry["shape"];
    entry["shape"] = {shape[1], shape[0]};
    EXPECT_EQ(load_error(join(p)), ErrorCode::kModelFormat);
  }
  {
    Parts p = split(bytes);  // a missing weight
    p.header.erase("encoder.layers.0.self_attn.k_proj.weight");
    EXPECT_EQ(load_error(join(p)), ErrorCode::kModelFormat);
  }
  {
    Parts p = split(bytes);  // a config that is not JSON
    p.header["__metadata__"]["config"] = "{";
    EXPECT_EQ(load_error(join(p)), ErrorCode::kModelFormat);
  }
  {
    Parts p = split(bytes);  // a vocabulary of the wrong size
    p.header["__metadata__"]["vocab"] = R"(["<pad>"])";
    EXPECT_EQ(load_error(join(p)), ErrorCode::kModelFormat);
  }
  {
    Parts p = split(bytes);  // another format altogether
    p.header["__metadata__"]["format"] = "gguf";
    EXPECT_EQ(load_error(join(p)), ErrorCode::kModelFormat);
  }
  {
    Parts p = split(bytes);  // n_heads that does not divide d_model
    auto config = nlohmann::json::parse(p.header["__metadata__"]["config"].get<std::string>());
    config["n_heads"] = 7;
    p.header["__metadata__"]["config"] = config.dump();
    EXPECT_EQ(load_error(join(p)), ErrorCode::kModelFormat);
  }
  // An alignment head that names no head of the decoder, or only half of one.
  for (auto [layer, head] : {std::pair{0, -1}, {-1, 0}, {-2, 0}, {0, 99}, {99, 0}}) {
    EXPECT_EQ(load_error(testing::with_config(bytes, [&](nlohmann::json& c) {
                c["alignment_layer"] = layer;
                c["alignment_head"] = head;
              })),
              ErrorCode::kModelFormat)
        << "alignment_layer " << layer << ", alignment_head " << head;
  }
  // A layer_norm_eps that is infinite as a float, or not a small positive number, would make every
  // layer norm return zeros or NaN: the model would load and translate everything into nothing.
  for (double eps : {1e300, 1e39, 0.0, -1e-5, 0.5}) {
    Parts p = split(bytes);
    auto config = nlohmann::json::parse(p.header["__metadata__"]["config"].get<std::string>());
    config["layer_norm_eps"] = eps;
    p.header["__metadata__"]["config"] = config.dump();
    EXPECT_EQ(load_error(join(p)), ErrorCode::kModelFormat) << "layer_norm_eps " << eps;
  }
}

TEST_F(ModelFileTest, CorruptTokenizerIsACleanError) {
  Parts p = split(bytes);
  const auto offsets = p.header["tokenizer.spm"]["data_offsets"];
  for (size_t i = offsets[0].get<size_t>(); i < offsets[1].get<size_t>(); ++i) p.data[i] = 0xff;
  const ErrorCode code = load_error(join(p));
  EXPECT_TRUE(code == ErrorCode::kTokenizer || code == ErrorCode::kModelFormat);
}

TEST_F(ModelFileTest, MissingFileIsACleanError) {
  EXPECT_THROW(Translator::from_file("/nonexistent/model.crossattn"), Error);
}

}  // namespace
}  // namespace crossattn
