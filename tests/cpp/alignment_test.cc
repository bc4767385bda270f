// Word alignments from cross-attention (alignment/word_alignment.h): forced alignment on a
// Transformer built by hand whose cross-attention reads positions, subword merging and the
// linking methods on known matrices, and the Translator's align() on the shipped model.
#include "alignment/word_alignment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "error.h"
#include "model/transformer.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

using Links = std::vector<std::pair<int, int>>;

// A one-head pre-norm Transformer with no encoder layers, zero embeddings and every sub-layer's
// output zeroed except cross-attention, whose W_Q and W_K are the identity. Both sides then carry
// only layer-normed sinusoids, every row of norm sqrt(D), so target position t attends most to
// source position t (Cauchy-Schwarz): the model a copy task with identical lengths would learn.
Transformer positional_copy_model() {
  const int d = 16, v = 8;
  ModelConfig c;
  c.encoder_layers = 0;
  c.decoder_layers = 1;
  c.d_model = d;
  c.n_heads = 1;
  c.d_ff = d;
  c.layer_norm_eps = 1e-6f;
  c.max_positions = 64;
  c.vocab_size = c.source_vocab_size = v;
  const std::vector<float> zeros(d * d * 2, 0.0f), zero_bias(2 * d, 0.0f), ones(d, 1.0f);
  std::vector<float> identity(d * d, 0.0f), kv(2 * d * d, 0.0f);  // kv: keys = identity, values = 0
  for (int i = 0; i < d; ++i) identity[i * d + i] = kv[i * d + i] = 1.0f;
  const LayerNorm norm{ones, std::vector<float>(d, 0.0f)};
  TransformerWeights w;
  w.src_embed = Embedding(std::vector<float>(v * d, 0.0f), d);
  w.output_projection = PackedLinear::from_f32(std::vector<float>(v * d, 0.0f).data(), v, d, nullptr);
  DecoderLayerWeights layer;
  layer.self_attention = {PackedLinear::from_f32(std::vector<float>(3 * d * d, 0.0f).data(), 3 * d, d, nullptr),
                          PackedLinear::from_f32(zeros.data(), d, d, nullptr)};
  layer.cross_attention = {PackedLinear::from_f32(identity.data(), d, d, nullptr),
                           PackedLinear::from_f32(kv.data(), 2 * d, d, nullptr),
                           PackedLinear::from_f32(zeros.data(), d, d, nullptr)};
  layer.ffn = {PackedLinear::from_f32(zeros.data(), d, d, nullptr), PackedLinear::from_f32(zeros.data(), d, d, nullptr)};
  layer.self_attention_norm = layer.cross_attention_norm = layer.ffn_norm = norm;
  w.decoder_layers.push_back(std::move(layer));
  w.encoder_norm = w.decoder_norm = norm;
  return Transformer(c, std::move(w));
}

// Each piece its own word; the last piece (eos) in none.
WordMap one_word_per_piece(int pieces) {
  WordMap map{std::vector<int>(pieces), pieces - 1};
  std::iota(map.word_of_piece.begin(), map.word_of_piece.end(), 0);
  map.word_of_piece.back() = -1;
  return map;
}

TEST(ForcedAlignment, CopyTaskOfIdenticalLengthAlignsTheDiagonal) {
  const Transformer model = positional_copy_model();
  for (int n : {1, 5, 17}) {
    const std::vector<int> src(n + 1, 4);  // n words and eos; the ids do not matter to this model
    std::vector<int> tgt_in(n + 1, 4);     // bos, then the n copied words: rows predict them and eos
    tgt_in[0] = model.config().decoder_start_id;
    DecoderState state = model.start(model.encode(src), n + 1);
    Matrix logits;
    std::vector<float> cross((n + 1) * (n + 1));  // [L=1, H=1, T, S]
    model.decode(state, tgt_in, logits, cross.data());
    const CrossAttentionView view{cross.data(), 1, 1, n + 1, n + 1};
    Links diagonal;
    for (int i = 0; i < n; ++i) diagonal.emplace_back(i, i);
    for (auto method : {AlignmentMethod::kArgmax, AlignmentMethod::kGrowDiagFinalAnd}) {
      AlignmentOptions o;
      o.method = method;
      EXPECT_EQ(align_words(view, one_word_per_piece(n + 1), one_word_per_piece(n + 1), o).links, diagonal) << n;
    }
    // Shift-Att reads each word's attention one step later: one position further on the source.
    AlignmentOptions shifted;
    shifted.method = AlignmentMethod::kArgmax;
    shifted.shift = true;
    Links off_by_one;
    for (int i = 0; i < n; ++i) off_by_one.emplace_back(i + 1 < n ? i + 1 : n - 1, i);
    if (n > 1) EXPECT_EQ(align_words(view, one_word_per_piece(n + 1), one_word_per_piece(n + 1), shifted).links, off_by_one);
  }
}

// attention [1, 1, T, S] from rows.
std::vector<float> flat(const std::vector<std::vector<float>>& rows) {
  std::vector<float> out;
  for (const auto& r : rows) out.insert(out.end(), r.begin(), r.end());
  return out;
}

TEST(WordAlignment, MergesSubwordsSummingSourcePiecesAndAveragingTargetPieces) {
  // Source "Ein Schäferhund" as pieces ▁Ein ▁Schäfer hund </s>; target "a sheep dog" as
  // ▁a ▁sheep ▁do g </s>. "Schäferhund" gets its mass split over two pieces, "dog" over two rows.
  const std::vector<float> weights = flat({{0.8f, 0.1f, 0.1f, 0.0f},
                                           {0.2f, 0.5f, 0.1f, 0.2f},    // sheep: 0.2 on eos
                                           {0.3f, 0.3f, 0.3f, 0.1f},    // do
                                           {0.7f, 0.05f, 0.05f, 0.2f},  // g
                                           {0.1f, 0.1f, 0.1f, 0.7f}});  // eos row
  const CrossAttentionView view{weights.data(), 1, 1, 5, 4};
  const WordMap src{{0, 1, 1, -1}, 2}, tgt{{0, 1, 2, 2, -1}, 3};
  AlignmentOptions o;
  o.method = AlignmentMethod::kArgmax;
  const WordAlignment a = align_words(view, src, tgt, o);
  ASSERT_EQ(a.tgt_len, 3);
  ASSERT_EQ(a.src_len, 2);
  // Rows renormalized without eos, then source pieces summed: "dog" = mean of do {1/3, 2/3} and
  // g {0.875, 0.125}, so it links to Ein, where its first piece alone would pick Schäferhund.
  const std::vector<float> expected = {0.8f, 0.2f, 0.25f, 0.75f, (1.0f / 3 + 0.875f) / 2, (2.0f / 3 + 0.125f) / 2};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(a.weights[i], expected[i], 1e-6) << i;
  EXPECT_EQ(a.links, (Links{{0, 0}, {1, 1}, {0, 2}}));
  o.merge_subwords = false;  // pieces: 3 source, 4 target
  const WordAlignment pieces = align_words(view, src, tgt, o);
  EXPECT_EQ(pieces.src_len, 3);
  EXPECT_EQ(pieces.links, (Links{{0, 0}, {1, 1}, {0, 2}, {0, 3}}));
}

TEST(WordAlignment, GrowDiagFinalAndAddsTheSourceSidesLinks) {
  // Two target words both attend most to source 0; source 1 is attended most by target 1, so the
  // reverse direction links it and grow-diag-final-and keeps 1-1 next to the agreed 0-0.
  const std::vector<float> weights = flat({{0.9f, 0.1f, 0.0f}, {0.6f, 0.4f, 0.0f}, {0.0f, 0.0f, 1.0f}});
  const CrossAttentionView view{weights.data(), 1, 1, 3, 3};
  const WordMap map{{0, 1, -1}, 2};
  AlignmentOptions o;
  o.method = AlignmentMethod::kArgmax;
  EXPECT_EQ(align_words(view, map, map, o).links, (Links{{0, 0}, {0, 1}}));
  o.method = AlignmentMethod::kGrowDiagFinalAnd;
  EXPECT_EQ(align_words(view, map, map, o).links, (Links{{0, 0}, {0, 1}, {1, 1}}));
  o.method = AlignmentMethod::kThreshold;
  o.threshold = 0.5f;
  EXPECT_EQ(align_words(view, map, map, o).links, (Links{{0, 0}, {0, 1}}));
}

TEST(WordAlignment, SymmetrizeAveragesBothDirectionsBeforeLinking) {
  // Two target and three source words. Forward (T x S) hesitates for target word 1 between source
  // words 1 and 2; backward (S x T) is sure that source word 2 goes with target word 1.
  WordAlignment forward{3, 2, {0.8f, 0.1f, 0.1f,   // t0
                               0.1f, 0.46f, 0.44f}, {}};  // t1: argmax s1
  WordAlignment backward{2, 3, {0.9f, 0.1f,    // s0
                                0.5f, 0.5f,    // s1
                                0.05f, 0.95f}, {}};  // s2 -> t1
  const WordAlignment both = symmetrize(forward, backward, AlignmentMethod::kArgmax, 0.3f);
  ASSERT_EQ(both.weights.size(), 6u);
  EXPECT_FLOAT_EQ(both.weights[1 * 3 + 2], 0.5f * (0.44f + 0.95f));
  EXPECT_EQ(both.links, (std::vector<std::pair<int, int>>{{0, 0}, {2, 1}}));
  // The same pair the wrong way round is not a pair of opposite directions.
  EXPECT_THROW(symmetrize(forward, forward, AlignmentMethod::kArgmax, 0.3f), Error);
  EXPECT_THROW(symmetrize(forward, backward, AlignmentMethod::kThreshold, 0.0f), Error);
}

TEST(WordAlignment, RejectsOptionsOutOfRange) {
  const std::vector<float> weights(2 * 2 * 2 * 2, 0.25f);  // [L=2, H=2, T=2, S=2]
  const CrossAttentionView view{weights.data(), 2, 2, 2, 2};
  const WordMap map{{0, -1}, 1};
  auto fails = [&](AlignmentOptions o) {
    EXPECT_THROW(align_words(view, map, map, o), Error);
  };
  AlignmentOptions o;
  o.layers = {2};
  fails(o);
  o.layers = {-3};
  fails(o);
  o = {};
  o.heads = {5};
  fails(o);
  o = {};
  o.threshold = 0.0f;
  fails(o);
  o.layers = {-1, 0};
  o.threshold = 0.3f;
  EXPECT_EQ(align_words(view, map, map, o).links, (Links{{0, 0}}));
}

class TranslatorAlignTest : public ::testing::Test {
 protected:
  Translator translator = Translator::from_file(testing::model_path());
};

TEST_F(TranslatorAlignTest, AlignsWhitespaceWordsOfAGivenPair) {
  TranslateOptions o;
  o.alignment = AlignmentOptions{};
  const std::string source = "A man in a blue shirt is riding a bicycle.";
  const std::string target = "Ein Mann in einem blauen Hemd fährt Fahrrad.";
  const Translation r = translator.align(source, target, o);
  EXPECT_EQ(r.text, target);
  EXPECT_EQ(r.source_words.size(), 10u);
  EXPECT_EQ(r.target_words.size(), 8u);
  EXPECT_EQ(r.target_tokens.back(), "</s>");
  ASSERT_TRUE(r.alignment.has_value());
  EXPECT_EQ(r.alignment->src_len, 10);
  EXPECT_EQ(r.alignment->tgt_len, 8);
  for (const auto& [s, t] : r.alignment->links) {
    EXPECT_LT(s, 10);
    EXPECT_LT(t, 8);
  }
  // Words whose translation is unambiguous: man-Mann, blue-blauen, shirt-Hemd.
  for (auto link : Links{{1, 1}, {4, 4}, {5, 5}}) {
    EXPECT_NE(std::find(r.alignment->links.begin(), r.alignment->links.end(), link), r.alignment->links.end())
        << link.first << "-" << link.second;
  }
  // Every piece of a word maps to that word: "einem" is two pieces (▁eine m), both word 3.
  for (size_t k = 0; k < r.target_tokens.size() - 1; ++k) {
    const int word = r.target_word_of_token[k];
    ASSERT_GE(word, 0);
    const std::string piece = r.target_tokens[k].rfind("\xe2\x96\x81", 0) == 0 ? r.target_tokens[k].substr(3)
                                                                              : r.target_tokens[k];
    EXPECT_NE(r.target_words[word].find(piece), std::string::npos) << piece << " in " << r.target_words[word];
  }
  EXPECT_EQ(r.target_word_of_token.back(), -1);
}

TEST_F(TranslatorAlignTest, ForcingTheGreedyOutputReproducesItsScoreAndAttention) {
  TranslateOptions o;
  o.alignment = AlignmentOptions{};
  o.attention = true;
  const std::string source = "Two dogs play in the snow.";
  const Translation greedy = translator.translate(source, o);
  const Translation forced = translator.align(source, greedy.text, o);
  ASSERT_EQ(forced.target_ids, greedy.target_ids);  // the output re-tokenizes to the same pieces
  EXPECT_NEAR(forced.log_prob, greedy.log_prob, 1e-3);
  ASSERT_EQ(forced.cross_attention.size(), greedy.cross_attention.size());
  for (size_t i = 0; i < greedy.cross_attention.size(); ++i) {
    EXPECT_NEAR(forced.cross_attention[i], greedy.cross_attention[i], 1e-5);
  }
  EXPECT_EQ(forced.alignment->links, greedy.alignment->links);
}

TEST_F(TranslatorAlignTest, ResidualStatisticsDescribeTheCrossAttentionUpdate) {
  TranslateOptions plain, probed;
  probed.residual = true;
  const std::string source = "A woman sings on a stage.";
  const Translation a = translator.translate(source, plain), b = translator.translate(source, probed);
  EXPECT_EQ(a.target_ids, b.target_ids);
  const size_t t_len = b.target_ids.size();
  ASSERT_EQ(b.residual.size(), static_cast<size_t>(b.layers) * t_len * 3);
  for (size_t i = 0; i < b.residual.size(); i += 3) {
    EXPECT_GT(b.residual[i], 0.0f);      // |x|
    EXPECT_GT(b.residual[i + 1], 0.0f);  // |update|
    EXPECT_LE(std::abs(b.residual[i + 2]), 1.0f + 1e-5f);
  }
  const Translation forced = translator.align(source, b.text, probed);
  ASSERT_EQ(forced.residual.size(), b.residual.size());
  for (size_t i = 0; i < b.residual.size(); ++i) EXPECT_NEAR(forced.residual[i], b.residual[i], 1e-3) << i;
}

TEST_F(TranslatorAlignTest, AModelsTrainedAlignmentHeadIsTheDefaultAndExplicitChoicesWin) {
  const int last = translator.config().decoder_layers - 1;
  const std::vector<uint8_t> file = testing::with_config(testing::read_bytes(testing::model_path()),
                                                         [&](nlohmann::json& c) {
                                                           c["alignment_layer"] = last;
                                                           c["alignment_head"] = 1;
                                                         });
  const Translator guided = Translator::from_bytes(file.data(), file.size());
  const std::string source = "A man in a blue shirt is riding a bicycle.";
  const std::string target = "Ein Mann in einem blauen Hemd fährt Fahrrad.";
  TranslateOptions by_default, that_head, two_layers;
  by_default.alignment = AlignmentOptions{};
  that_head.alignment = AlignmentOptions{};
  that_head.alignment->layers = {last};
  that_head.alignment->heads = {1};
  two_layers.alignment = AlignmentOptions{};
  two_layers.alignment->layers = {-1, -2};
  const WordAlignment guided_default = *guided.align(source, target, by_default).alignment;
  EXPECT_EQ(guided_default.weights, translator.align(source, target, that_head).alignment->weights);
  EXPECT_NE(guided_default.weights, translator.align(source, target, by_default).alignment->weights);
  EXPECT_EQ(guided.align(source, target, two_layers).alignment->weights,
            translator.align(source, target, two_layers).alignment->weights);
}

TEST_F(TranslatorAlignTest, BadInputIsATypedError) {
  TranslateOptions o;
  o.alignment = AlignmentOptions{};
  o.alignment->layers = {7};
  EXPECT_THROW(translator.align("A dog.", "Ein Hund.", o), Error);
  o.alignment = AlignmentOptions{};
  EXPECT_THROW(translator.align("A dog.", std::string("Ein \xff Hund."), {}), Error);
  EXPECT_THROW(translator.align("A dog.", std::string(3000, 'x') + std::string(" x", 3000), {}), Error);
  EXPECT_TRUE(translator.align("", "Ein Hund.", {}).target_ids.empty());
  const Translation empty_target = translator.align("A dog.", "", o);  // only eos: no words to align
  EXPECT_EQ(empty_target.target_tokens, std::vector<std::string>{"</s>"});
  EXPECT_TRUE(empty_target.alignment->links.empty());
  EXPECT_FALSE(translator.align("A dog.", "Ein Hund.", o).alignment->links.empty());  // still usable
}

}  // namespace
}  // namespace crossattn
