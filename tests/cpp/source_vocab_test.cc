// A separate source vocabulary (config source_vocab_size, source_eos_id, source_unk_id; metadata
// source_vocab; docs/model-format.md, "Vocabularies"): a tiny model made by the test whose source
// side numbers the shipped SentencePiece model's pieces otherwise than its target side, with more
// source pieces than target pieces.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "error.h"
#include "model/model_file.h"
#include "model/transformer.h"
#include "tiny_model.h"
#include "tokenizer/tokenizer.h"
#include "translator.h"

namespace crossattn {
namespace {

constexpr int kExtra = 5;  // source pieces the target side lacks

// Five made-up pieces, then the SentencePiece model's pieces in reverse order.
std::vector<std::string> source_pieces() {
  const Tokenizer spm(testing::shipped_spm(), testing::shipped_spm(), {}, 1);
  std::vector<std::string> pieces;
  for (int i = 0; i < kExtra; ++i) pieces.push_back("<extra" + std::to_string(i) + ">");
  for (int id = spm.vocab_size() - 1; id >= 0; --id) pieces.push_back(spm.piece(id));
  return pieces;
}

int index_of(const std::vector<std::string>& pieces, const std::string& piece) {
  return static_cast<int>(std::find(pieces.begin(), pieces.end(), piece) - pieces.begin());
}

nlohmann::json separate_config(const std::vector<std::string>& pieces) {
  nlohmann::json c = testing::tiny_config();
  c["shared_vocab"] = false;
  c["source_vocab_size"] = pieces.size();
  c["source_eos_id"] = index_of(pieces, "</s>");
  c["source_unk_id"] = index_of(pieces, "<unk>");
  return c;
}

std::vector<uint8_t> separate_file(const nlohmann::json& config, const std::map<std::string, testing::RawTensor>& tensors,
                                   const std::vector<std::string>& pieces) {
  return testing::model_file(config, tensors, {{"source_vocab", nlohmann::json(pieces).dump()}});
}

TEST(SourceVocabulary, EncodeReadsTheSourceVocabulary) {
  const std::vector<std::string> pieces = source_pieces();
  const nlohmann::json config = separate_config(pieces);
  const auto tensors = testing::random_tensors(config, 2);
  EXPECT_EQ(tensors.at("encoder.embed_tokens.weight").shape, (std::vector<int64_t>{8000 + kExtra, 16}));
  const auto bytes = separate_file(config, tensors, pieces);
  const Translator translator = Translator::from_bytes(bytes.data(), bytes.size());
  TranslateOptions o;
  o.max_length = 8;
  const Translation r = translator.translate("A dog runs through the grass.", o);
  ASSERT_GT(r.source_ids.size(), 2u);
  EXPECT_EQ(r.source_ids.back(), config["source_eos_id"].get<int>());
  EXPECT_EQ(r.source_tokens.back(), "</s>");
  const Tokenizer target(testing::shipped_spm(), testing::shipped_spm(), {}, 1);
  for (size_t k = 0; k < r.source_ids.size(); ++k) {
    EXPECT_EQ(r.source_ids[k], index_of(pieces, r.source_tokens[k])) << r.source_tokens[k];
    EXPECT_NE(r.source_ids[k], target.to_ids({r.source_tokens[k]})[0]) << "the target numbering, not the source's";
  }
  for (int id : r.target_ids) EXPECT_LT(id, 8000);

  // The encoder takes every id below source_vocab_size (more than the target's vocab_size) and none past it.
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  EXPECT_NO_THROW(model.encode({8000 + kExtra - 1, 4}));
  try {
    model.encode({8000 + kExtra, 4});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
    EXPECT_NE(std::string(e.what()).find("source vocabulary"), std::string::npos) << e.what();
  }
  DecoderState state = model.start(model.encode({4, 5}), 2);
  Matrix logits;
  EXPECT_THROW(model.decode(state, {8000}, logits, nullptr), Error) << "target ids stop at vocab_size";
}

TEST(SourceVocabulary, MismatchedSizesAreNamed) {
  const std::vector<std::string> pieces = source_pieces();
  const nlohmann::json config = separate_config(pieces);
  const auto tensors = testing::random_tensors(config, 2);
  std::vector<std::string> short_list(pieces.begin(), pieces.end() - 1);
  testing::expect_model_format_error(separate_file(config, tensors, short_list), "source_vocab");

  nlohmann::json shared = config;
  shared["shared_vocab"] = true;
  testing::expect_model_format_error(separate_file(shared, tensors, pieces), "source_vocab_size");
  nlohmann::json eos = config;
  eos["source_eos_id"] = 8000 + kExtra;
  testing::expect_model_format_error(separate_file(eos, tensors, pieces), "source_eos_id");

  auto narrow = tensors;  // the source embedding sized by vocab_size
  narrow["encoder.embed_tokens.weight"] = tensors.at("decoder.embed_tokens.weight");
  testing::expect_model_format_error(separate_file(config, narrow, pieces), "encoder.embed_tokens.weight");

  // Without source_vocab (and without vocab) the source side reads the source SentencePiece model's
  // own 8000 ids: source_vocab_size must then be 8000.
  const auto no_source_vocab = testing::model_file(config, tensors);
  try {
    Translator::from_bytes(no_source_vocab.data(), no_source_vocab.size());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kModelFormat);
    EXPECT_NE(std::string(e.what()).find("source_vocab_size"), std::string::npos) << e.what();
  }
}

// Shortlist offsets are indexed by source ids: [source_vocab_size + 1]; targets are target ids.
TEST(SourceVocabulary, ShortlistIsIndexedBySourceIds) {
  const std::vector<std::string> pieces = source_pieces();
  const nlohmann::json config = separate_config(pieces);
  auto tensors = testing::random_tensors(config, 2);
  const int v_src = 8000 + kExtra;
  std::vector<int32_t> offsets(v_src + 1), targets(v_src), frequent = {10, 11, 12};
  for (int s = 0; s <= v_src; ++s) offsets[s] = s;
  for (int s = 0; s < v_src; ++s) targets[s] = (s * 7) % 8000;
  tensors["shortlist.frequent"] = testing::raw_tensor("I32", {3}, frequent);
  tensors["shortlist.targets"] = testing::raw_tensor("I32", {v_src}, targets);
  tensors["shortlist.offsets"] = testing::raw_tensor("I32", {v_src + 1}, offsets);
  const auto bytes = separate_file(config, tensors, pieces);
  const Translator translator = Translator::from_bytes(bytes.data(), bytes.size());
  TranslateOptions o;
  o.max_length = 8;
  const Translation r = translator.translate("A dog runs through the grass.", o);
  std::set<int> allowed(frequent.begin(), frequent.end());
  allowed.insert(config["eos_id"].get<int>());
  for (int s : r.source_ids) allowed.insert(targets[s]);
  for (int id : r.target_ids) EXPECT_TRUE(allowed.count(id)) << "token " << id << " is not a shortlist candidate";

  auto target_sized = tensors;  // offsets over the target vocabulary
  offsets.resize(8001);
  targets.resize(8000);
  target_sized["shortlist.targets"] = testing::raw_tensor("I32", {8000}, targets);
  target_sized["shortlist.offsets"] = testing::raw_tensor("I32", {8001}, offsets);
  testing::expect_model_format_error(separate_file(config, target_sized, pieces), "shortlist.offsets");
}

}  // namespace
}  // namespace crossattn
