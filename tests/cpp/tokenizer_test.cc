#include "tokenizer/tokenizer.h"

#include <gtest/gtest.h>

#include "error.h"
#include "model/model_file.h"
#include "test_util.h"

namespace crossattn {
namespace {

class TokenizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto bytes = testing::read_bytes(testing::model_path());
    ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
    unk_id = file.config.unk_id;
    tokenizer = std::make_unique<Tokenizer>(file.source_spm, file.target_spm, file.vocab, unk_id);
  }
  std::unique_ptr<Tokenizer> tokenizer;
  int unk_id = 0;
};

TEST_F(TokenizerTest, RoundTripsText) {
  for (const std::string text : {"A dog runs through the grass.", "Zwei Männer spielen Fußball auf einer Wiese.",
                                 "Ein kleines Mädchen klettert in ein Spielhaus aus Holz."}) {
    const auto pieces = tokenizer->encode(text, Side::kSource).pieces;
    ASSERT_FALSE(pieces.empty());
    EXPECT_EQ(tokenizer->decode_pieces(pieces), text);
    // Pieces map to ids and back to the same pieces.
    for (int id : tokenizer->to_ids(pieces)) EXPECT_NE(tokenizer->piece(id), "");
  }
}

TEST_F(TokenizerTest, MapsPiecesToTheWhitespaceWordsOfTheTextAsGiven) {
  const std::string text = "  A   dog\truns through\nSchäferhunde. ";
  const Encoding e = tokenizer->encode(text, Side::kSource);
  EXPECT_EQ(e.words, (std::vector<std::string>{"A", "dog", "runs", "through", "Schäferhunde."}));
  ASSERT_EQ(e.word_of_piece.size(), e.pieces.size());
  ASSERT_GT(e.pieces.size(), e.words.size());  // some word is cut into several pieces
  int previous = 0;
  for (size_t k = 0; k < e.pieces.size(); ++k) {
    const int word = e.word_of_piece[k];
    ASSERT_GE(word, previous);  // words in order, none skipped
    ASSERT_LE(word, previous + 1);
    previous = word;
    // Each piece spells part of its word (SentencePiece's visible space aside).
    const std::string piece = e.pieces[k].rfind("\xe2\x96\x81", 0) == 0 ? e.pieces[k].substr(3) : e.pieces[k];
    EXPECT_NE(e.words[word].find(piece), std::string::npos) << piece << " in " << e.words[word];
  }
  EXPECT_EQ(previous, 4);
}

TEST_F(TokenizerTest, ALeadingLanguageTokenOfTheSourceVocabularyIsOnePieceOfItsOwn) {
  // Multi-target OPUS-MT models: MarianTokenizer cuts ">>fra<<" off before SentencePiece.
  const auto bytes = testing::read_bytes(testing::model_path());
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  std::vector<std::string> vocab = file.vocab;
  vocab.push_back(">>fra<<");
  const Tokenizer with_token(file.source_spm, file.target_spm, vocab, unk_id);
  const std::string text = ">>fra<< A dog runs.";
  const Encoding e = with_token.encode(text, Side::kSource);
  const Encoding plain = with_token.encode("A dog runs.", Side::kSource);
  ASSERT_EQ(e.pieces.size(), plain.pieces.size() + 1);
  EXPECT_EQ(e.pieces[0], ">>fra<<");
  EXPECT_EQ(std::vector<std::string>(e.pieces.begin() + 1, e.pieces.end()), plain.pieces);
  EXPECT_EQ(with_token.to_ids({e.pieces[0]}, Side::kSource)[0], static_cast<int>(vocab.size()) - 1);
  EXPECT_EQ(e.words, (std::vector<std::string>{">>fra<<", "A", "dog", "runs."}));
  EXPECT_EQ(e.word_of_piece[0], 0);
  EXPECT_EQ(e.word_of_piece[1], 1);
  // Not a token the vocabulary has, not at the start, or on the target side: SentencePiece's pieces.
  EXPECT_NE(tokenizer->encode(text, Side::kSource).pieces[0], ">>fra<<");
  EXPECT_NE(with_token.encode(">>deu<< A dog runs.", Side::kSource).pieces[0], ">>deu<<");
  EXPECT_NE(with_token.encode("A >>fra<< dog", Side::kSource).pieces[1], ">>fra<<");
  EXPECT_NE(with_token.encode(text, Side::kTarget).pieces[0], ">>fra<<");
}

TEST_F(TokenizerTest, UnknownPiecesMapToUnk) {
  EXPECT_EQ(tokenizer->to_ids({"this piece is not in any vocabulary"}), std::vector<int>{unk_id});
}

TEST_F(TokenizerTest, RejectsInvalidUtf8) {
  EXPECT_THROW(tokenizer->encode(std::string("caf\xc3", 4), Side::kTarget), Error);
  EXPECT_THROW(tokenizer->piece(-1), Error);
  EXPECT_THROW(tokenizer->piece(tokenizer->vocab_size()), Error);
}

TEST(Utf8, ValidatesEncodings) {
  EXPECT_TRUE(is_valid_utf8("plain ascii"));
  EXPECT_TRUE(is_valid_utf8("Grüße \xF0\x9F\x90\xB6"));     // ü, ß and an emoji (U+1F436)
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));                  // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));              // UTF-16 surrogate U+D800
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));          // past U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xE2\x82"));                  // truncated sequence
  EXPECT_FALSE(is_valid_utf8("\xFF"));                      // never valid
}

}  // namespace
}  // namespace crossattn
