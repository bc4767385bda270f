// Beam search (decoding/beam_search.h): against exhaustive search on a tiny random Transformer, and
// through the Translator on the shipped model: n-best scores equal to forced decoding, the chosen
// hypothesis' cross-attention, batching, streaming, cancellation and option errors.
#include "decoding/beam_search.h"
#include "decoding/repetition_guard.h"
#include "decoding/word_repeat_guard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "error.h"
#include "kernels/ops.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

// A pre-norm Transformer (1 encoder and 1 decoder layer, D = 8, 2 heads, 6 tokens) with uniform
// random weights: small enough to enumerate every output of a few tokens.
Transformer random_model(unsigned seed) {
  const int d = 8, v = 6, f = 16;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  auto random = [&](int n) {
    std::vector<float> x(n);
    for (float& e : x) e = uniform(rng);
    return x;
  };
  auto linear = [&](int out, int in) { return PackedLinear::from_f32(random(out * in).data(), out, in, random(out).data()); };
  ModelConfig c;
  c.encoder_layers = c.decoder_layers = 1;
  c.d_model = d;
  c.n_heads = 2;
  c.d_ff = f;
  c.max_positions = 16;
  c.vocab_size = c.source_vocab_size = v;
  const LayerNorm norm{std::vector<float>(d, 1.0f), std::vector<float>(d, 0.0f)};
  TransformerWeights w;
  w.src_embed = Embedding(random(v * d), d);
  w.output_projection = linear(v, d);
  EncoderLayerWeights enc;
  enc.self_attention = {linear(3 * d, d), linear(d, d)};
  enc.ffn = {linear(f, d), linear(d, f)};
  enc.self_attention_norm = enc.ffn_norm = norm;
  w.encoder_layers.push_back(std::move(enc));
  DecoderLayerWeights dec;
  dec.self_attention = {linear(3 * d, d), linear(d, d)};
  dec.cross_attention = {linear(d, d), linear(2 * d, d), linear(d, d)};
  dec.ffn = {linear(f, d), linear(d, f)};
  dec.self_attention_norm = dec.cross_attention_norm = dec.ffn_norm = norm;
  w.decoder_layers.push_back(std::move(dec));
  w.encoder_norm = w.decoder_norm = norm;
  return Transformer(c, std::move(w));
}

struct Scored {
  std::vector<int> ids;
  float log_prob;
  float score;
};

// Every output of at most max_length tokens (ending at its first eos, or cut at max_length) with
// its log-probability by forced decoding, ranked by the GNMT score, best first.
std::vector<Scored> exhaustive(const Transformer& model, const Matrix& encoder_out, int max_length, float alpha) {
  const ModelConfig& c = model.config();
  std::vector<Scored> all;
  std::vector<std::vector<int>> prefixes = {{}};
  for (int length = 1; length <= max_length; ++length) {
    std::vector<std::vector<int>> longer;
    for (const auto& prefix : prefixes) {
      for (int token = 0; token < c.vocab_size; ++token) {
        std::vector<int> ids = prefix;
        ids.push_back(token);
        if (token == c.eos_id || length == max_length) {
          std::vector<int> inputs = {c.decoder_start_id};
          inputs.insert(inputs.end(), ids.begin(), ids.end() - 1);
          DecoderState state = model.start(encoder_out, length);
          Matrix logits;  // [T, V]
          model.decode(state, inputs, logits, nullptr);
          float log_prob = 0.0f;
          for (int t = 0; t < length; ++t) {
            int best = 0;
            log_prob += logits(t, ids[t]) - log_sum_exp(logits.row(t).data(), c.vocab_size, &best);
          }
          all.push_back({ids, log_prob, log_prob / length_penalty(length, alpha)});
        }
        if (token != c.eos_id) longer.push_back(std::move(ids));
      }
    }
    prefixes = std::move(longer);
  }
  std::stable_sort(all.begin(), all.end(), [](const Scored& a, const Scored& b) { return a.score > b.score; });
  return all;
}

TEST(BeamSearch, AWideEnoughBeamFindsTheExhaustiveRanking) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const Transformer model = random_model(seed);
    const Matrix encoder_out = model.encode({4, 5, 0, 3});
    const int max_length = 4;
    for (float alpha : {0.0f, 1.0f}) {
      const std::vector<Scored> truth = exhaustive(model, encoder_out, max_length, alpha);
      ASSERT_EQ(truth.size(), 1u + 5 + 25 + 125 + 625);
      // A beam wider than the 750 extensions of the last step keeps every prefix: exact search.
      SearchOptions o;
      o.beam_size = 1000;
      o.n_best = 20;
      o.length_penalty = alpha;
      o.early_stopping = false;
      o.repeat_limit = 0;  // exact search: the repetition guard would cut outputs such as 5 5 5 5
      const auto found = beam_search(model, {&encoder_out}, {max_length}, o).front();
      ASSERT_EQ(found.size(), 20u);
      for (size_t i = 0; i < found.size(); ++i) {
        EXPECT_EQ(found[i].ids, truth[i].ids) << "seed " << seed << " alpha " << alpha << " rank " << i;
        EXPECT_NEAR(found[i].log_prob, truth[i].log_prob, 1e-4);
        EXPECT_NEAR(found[i].score, truth[i].score, 1e-4);
      }
      // A narrow beam returns real hypotheses with their true scores, best first.
      o.beam_size = 3;
      o.n_best = 3;
      const auto narrow = beam_search(model, {&encoder_out}, {max_length}, o).front();
      for (size_t i = 0; i < narrow.size(); ++i) {
        const auto same = std::find_if(truth.begin(), truth.end(), [&](const Scored& s) { return s.ids == narrow[i].ids; });
        ASSERT_NE(same, truth.end());
        EXPECT_NEAR(narrow[i].score, same->score, 1e-4);
        if (i > 0) EXPECT_GE(narrow[i - 1].score, narrow[i].score);
      }
    }
  }
}

// A hypothesis taking over another's slot copies only the cache rows past those the two prefixes
// share (beam search passes one past the depth of their deepest common ancestor), of every layer's
// keys and values, head by head; the shared rows stay as they are, and a count past the prefix
// copies nothing.
TEST(DecoderState, AssignPrefixCopiesOnlyTheRowsPastTheSharedOnes) {
  const int layers = 2, heads = 2, capacity = 5, d_k = 3;
  DecoderState from, to, untouched;
  for (DecoderState* s : {&from, &to, &untouched}) {
    s->d_model = heads * d_k;
    s->n_heads = heads;
    s->capacity = capacity;
    s->self_kv.assign(static_cast<size_t>(layers) * 2 * heads * capacity * d_k, 0.0f);
  }
  for (size_t i = 0; i < from.self_kv.size(); ++i) from.self_kv[i] = 1.0f + static_cast<float>(i);
  from.length = 4;
  to.assign_prefix(from, 2);
  untouched.assign_prefix(from, 9);
  EXPECT_EQ(to.length, 4);
  EXPECT_EQ(untouched.length, 4);
  for (int l = 0; l < layers; ++l) {
    const size_t layer = static_cast<size_t>(l) * 2 * heads * capacity * d_k;
    for (int kv = 0; kv < 2; ++kv) {
      for (int h = 0; h < heads; ++h) {
        for (int t = 0; t < capacity; ++t) {
          for (int k = 0; k < d_k; ++k) {
            const size_t i = layer + from.self_kv_row(kv, h, t) + k;
            EXPECT_EQ(to.self_kv[i], t >= 2 && t < 4 ? from.self_kv[i] : 0.0f)
                << "layer " << l << ", kv " << kv << ", head " << h << ", row " << t;
            EXPECT_EQ(untouched.self_kv[i], 0.0f);
          }
        }
      }
    }
  }
}

// Beam search's other slots are siblings of the first: the sentence's cross-attention memory shared,
// a cache of the same capacity of their own (length 0, whatever the first slot holds), zero SSRU cells.
TEST(DecoderState, ASiblingSharesTheMemoryAndStartsEmpty) {
  DecoderState first;
  first.d_model = 2;
  first.n_heads = 2;
  first.src_len = 3;
  first.capacity = 5;
  first.length = 4;
  first.self_kv.assign(2 * 5 * 4, 7.0f);
  first.ssru_cell.assign(2 * 2, 0.5f);
  first.cross_kv = std::make_shared<const UninitializedVector<float>>(2 * 3 * 4, 1.0f);
  const DecoderState sibling = first.sibling();
  EXPECT_EQ(sibling.cross_kv.get(), first.cross_kv.get());
  EXPECT_EQ(sibling.d_model, 2);
  EXPECT_EQ(sibling.n_heads, 2);
  EXPECT_EQ(sibling.src_len, 3);
  EXPECT_EQ(sibling.capacity, 5);
  EXPECT_EQ(sibling.length, 0);
  EXPECT_EQ(sibling.self_kv.size(), first.self_kv.size());
  EXPECT_NE(sibling.self_kv.data(), first.self_kv.data());
  EXPECT_EQ(sibling.ssru_cell, std::vector<float>(first.ssru_cell.size(), 0.0f));
}

TEST(BeamSearch, BeamSizeOneIsGreedy) {
  const Transformer model = random_model(7);
  const ModelConfig& c = model.config();
  const Matrix encoder_out = model.encode({5, 4, 3});
  const int max_length = 12;
  // Greedy by hand: feed the most probable token until eos.
  std::vector<int> greedy;
  DecoderState state = model.start(encoder_out, max_length);
  DecoderWorkspace ws;
  ws.reserve(1, c);
  DecoderState* rows[1] = {&state};
  int token = c.decoder_start_id;
  while (static_cast<int>(greedy.size()) < max_length && (greedy.empty() || greedy.back() != c.eos_id)) {
    model.decode(rows, &token, 1, ws, nullptr);
    log_sum_exp(ws.logits.data(), c.vocab_size, &token);
    greedy.push_back(token);
  }
  for (float alpha : {0.0f, 0.6f, 2.0f}) {
    SearchOptions o;
    o.length_penalty = alpha;
    o.repeat_limit = 0;
    EXPECT_EQ(beam_search(model, {&encoder_out}, {max_length}, o).front().front().ids, greedy) << alpha;
  }
}

// The best hypothesis carries the decoder's final state of every step that chose one of its tokens
// (SearchProbes::final_states, the alignment layer's input): the states of a forced pass over its
// ids, greedy and with a beam whose best hypothesis left other hypotheses' rows behind.
TEST(BeamSearch, TheBestHypothesisCarriesItsFinalStates) {
  const Transformer model = random_model(11);
  const ModelConfig& c = model.config();
  const Matrix encoder_out = model.encode({1, 4, 2, 5});
  for (int beam_size : {1, 3}) {
    SearchOptions o;
    o.beam_size = beam_size;
    o.repeat_limit = 0;
    const Hypothesis best =
        beam_search(model, {&encoder_out}, {8}, o, SearchProbes{false, false, true}).front().front();
    std::vector<int> inputs = {c.decoder_start_id};  // row t predicts ids[t]
    inputs.insert(inputs.end(), best.ids.begin(), best.ids.end() - 1);
    DecoderState state = model.start(encoder_out, static_cast<int>(inputs.size()));
    Matrix logits;
    std::vector<float> forced(inputs.size() * static_cast<size_t>(c.d_model));  // [T, D]
    model.decode(state, inputs, logits, nullptr, nullptr, forced.data());
    ASSERT_EQ(best.final_states.size(), forced.size()) << beam_size;
    for (size_t i = 0; i < forced.size(); ++i) EXPECT_NEAR(best.final_states[i], forced[i], 1e-5) << beam_size << " " << i;
    EXPECT_TRUE(best.cross_attention.empty());
  }
}

TEST(BeamSearch, SamplingIsSeededScoredByTheModelAndGreedyAtTopKOne) {
  const Transformer model = random_model(7);
  const ModelConfig& c = model.config();
  const Matrix encoder_out = model.encode({5, 4, 3});
  SearchOptions greedy;
  greedy.repeat_limit = 0;
  SearchOptions sample = greedy;
  sample.sample = true;
  sample.top_k = 1;  // only the most probable token can be drawn
  EXPECT_EQ(beam_search(model, {&encoder_out}, {12}, sample).front().front().ids,
            beam_search(model, {&encoder_out}, {12}, greedy).front().front().ids);
  sample.top_k = 0;
  sample.temperature = 3.0f;  // flat: outputs differ between seeds
  std::set<std::vector<int>> outputs;
  for (int seed = 0; seed < 8; ++seed) {
    sample.seed = seed;
    const Hypothesis h = beam_search(model, {&encoder_out}, {12}, sample).front().front();
    EXPECT_EQ(beam_search(model, {&encoder_out}, {12}, sample).front().front().ids, h.ids) << "seed " << seed;
    outputs.insert(h.ids);
    // Each token's recorded log-probability is the model's at temperature 1 (forced decoding).
    std::vector<int> inputs = {c.decoder_start_id};
    inputs.insert(inputs.end(), h.ids.begin(), h.ids.end() - 1);
    DecoderState state = model.start(encoder_out, static_cast<int>(inputs.size()));
    Matrix logits;
    model.decode(state, inputs, logits, nullptr);
    for (size_t t = 0; t < h.ids.size(); ++t) {
      int best = 0;
      const float log_p = logits(t, h.ids[t]) - log_sum_exp(logits.row(t).data(), c.vocab_size, &best);
      EXPECT_NEAR(h.token_log_probs[t], log_p, 1e-5) << "seed " << seed << " t " << t;
    }
  }
  EXPECT_GE(outputs.size(), 3u);
}

// The longest run of consecutive copies of any span of 1 .. kMaxRepeatSpan tokens in ids, by brute force.
int longest_run(const std::vector<int>& ids) {
  int longest = ids.empty() ? 0 : 1;
  for (int p = 1; p <= kMaxRepeatSpan; ++p) {
    for (size_t start = 0; start + p <= ids.size(); ++start) {
      int copies = 1;
      while (start + (copies + 1) * p <= ids.size() &&
             std::equal(ids.begin() + start, ids.begin() + start + p, ids.begin() + start + copies * p)) {
        ++copies;
      }
      longest = std::max(longest, copies);
    }
  }
  return longest;
}

TEST(RepetitionGuard, BansExactlyTheTokenThatWouldExceedTheLimit) {
  auto banned = [](std::vector<int> tail, int limit) {
    std::vector<int> out;
    repeated_span_tokens(tail.data(), static_cast<int>(tail.size()), limit, out);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  EXPECT_EQ(banned({9, 5, 5, 5}, 3), std::vector<int>({5}));           // a 4th 5
  EXPECT_EQ(banned({5, 5}, 3), std::vector<int>());                      // a 3rd 5 is allowed
  EXPECT_EQ(banned({1, 2, 1, 2, 1, 2, 1}, 3), std::vector<int>({2}));  // a 4th "1 2"
  EXPECT_EQ(banned({1, 2, 1, 2, 1, 2}, 3), std::vector<int>());         // "… 1 2 1" is no 4th copy yet
  EXPECT_EQ(banned({4, 7}, 1), std::vector<int>({7}));                  // limit 1: no immediate repeat
  EXPECT_EQ(banned({4, 7, 4}, 1), std::vector<int>({4, 7}));            // neither "4 4" nor "7 4 7 4"
  EXPECT_EQ(banned({}, 1), std::vector<int>());
  // Every banned token, appended, makes a run over the limit; every other one does not.
  std::mt19937 rng(5);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<int> tail(rng() % 40);
    for (int& t : tail) t = static_cast<int>(rng() % 3);
    const int limit = 1 + static_cast<int>(rng() % 3);
    if (longest_run(tail) > limit) continue;  // the guard keeps targets below the limit
    const std::vector<int> ban = banned(tail, limit);
    for (int token = 0; token < 3; ++token) {
      std::vector<int> longer = tail;
      longer.push_back(token);
      const bool over = longest_run(longer) > limit;
      EXPECT_EQ(over, std::count(ban.begin(), ban.end(), token) == 1) << "trial " << trial << " token " << token;
    }
  }
}

TEST(BeamSearch, TheRepetitionGuardCutsLoopsAndNothingElse) {
  int looping = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    const Transformer model = random_model(seed);
    const Matrix encoder_out = model.encode({4, 5, 0});
    SearchOptions off;
    off.repeat_limit = 0;
    const auto unguarded = beam_search(model, {&encoder_out}, {14}, off).front();
    ASSERT_FALSE(unguarded.empty()) << seed;
    const std::vector<int> free = unguarded.front().ids;
    for (int beam : {1, 3}) {
      SearchOptions on;
      on.beam_size = beam;
      on.repeat_limit = 2;
      const auto guarded = beam_search(model, {&encoder_out}, {14}, on).front();
      ASSERT_FALSE(guarded.empty()) << "seed " << seed << " beam " << beam;
      for (const Hypothesis& h : guarded) {
        EXPECT_LE(longest_run(h.ids), 2) << "seed " << seed << " beam " << beam;
      }
    }
    if (longest_run(free) <= 2) {
      // Without a loop the guard changes nothing.
      SearchOptions on;
      on.repeat_limit = 2;
      EXPECT_EQ(beam_search(model, {&encoder_out}, {14}, on).front().front().ids, free) << seed;
    } else {
      ++looping;
    }
  }
  EXPECT_GE(looping, 3) << "too few random models loop for this test to mean anything";
}

// The words of ids as the word repeat guard compares them, by brute force: pieces lower-cased,
// split before each "▁", punctuation pieces at a word's end left out.
std::vector<std::string> words_of(const std::vector<int>& ids, const std::vector<std::string>& vocab) {
  std::vector<std::vector<std::string>> words;
  for (int id : ids) {
    std::string piece = vocab[id];
    for (char& c : piece) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (words.empty() || piece.rfind("\xE2\x96\x81", 0) == 0) words.emplace_back();
    words.back().push_back(piece);
  }
  std::vector<std::string> out;
  for (auto& w : words) {
    while (w.size() > 1 && std::all_of(w.back().begin(), w.back().end(), [](char c) { return std::ispunct(static_cast<unsigned char>(c)); })) w.pop_back();
    std::string joined;
    for (const std::string& piece : w) joined += piece + "|";
    out.push_back(joined);
  }
  return out;
}

bool ends_in_repeated_word(const std::vector<int>& ids, const std::vector<std::string>& vocab) {
  const std::vector<std::string> w = words_of(ids, vocab);
  return w.size() >= 2 && w[w.size() - 1] == w[w.size() - 2];
}

const std::vector<std::string> kWordVocab = {"\xE2\x96\x81" "a", "\xE2\x96\x81" "b", "\xE2\x96\x81" "A", "c", "d", ","};

TEST(WordRepeatGuard, BansExactlyTheTokensThatWouldMakeTheLastWordTheOneBefore) {
  // 0 "▁a", 1 "▁b", 2 "▁A" begin a word; 3 "c", 4 "d", 5 "," continue one.
  const auto pieces = std::make_shared<const WordPieces>(kWordVocab);
  const WordRepeatGuard guard(pieces);
  auto banned = [&](std::vector<int> tail) {
    std::vector<int> out;
    guard.forbid(tail.data(), static_cast<int>(tail.size()), out);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(banned({0}), std::vector<int>({0, 2}));        // "▁a ▁a", "▁a ▁A"
  EXPECT_EQ(banned({2, 5}), std::vector<int>({0, 2}));     // "▁A , ▁a"
  EXPECT_EQ(banned({0, 3, 1, 0}), std::vector<int>({0, 2}));
  EXPECT_EQ(banned({0, 3, 0}), std::vector<int>({0, 2, 3}));  // "▁a c ▁a c", and "▁a ▁a"
  EXPECT_EQ(banned({0, 3}), std::vector<int>());           // "▁a c ▁a" may still become "▁a c ▁a d"
  EXPECT_EQ(banned({}), std::vector<int>());
  EXPECT_TRUE(pieces->starts(0) && !pieces->starts(3) && pieces->punctuation(5) && !pieces->punctuation(3));
  EXPECT_EQ(pieces->key(2), 0);
  EXPECT_TRUE(repeats_word({1, 0, 3, 2, 3, 1}, *pieces));   // "▁a c ▁A c"
  EXPECT_TRUE(repeats_word({0, 5, 0}, *pieces));            // "▁a, ▁a"
  EXPECT_FALSE(repeats_word({0, 3, 0, 4, 0}, *pieces));
  // Every banned token, appended, makes the last word the one before; no other token does.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 4000; ++trial) {
    std::vector<int> tail = {static_cast<int>(rng() % 3)};
    for (int k = static_cast<int>(rng() % 12); k > 0; --k) tail.push_back(static_cast<int>(rng() % 6));
    if (repeats_word(tail, *pieces)) continue;  // the guard keeps targets free of repeats
    const std::vector<int> ban = banned(tail);
    for (int token = 0; token < 6; ++token) {
      std::vector<int> longer = tail;
      longer.push_back(token);
      EXPECT_EQ(ends_in_repeated_word(longer, kWordVocab), std::count(ban.begin(), ban.end(), token) >= 1)
          << "trial " << trial << " token " << token;
    }
  }
}

TEST(WordPieces, PiecesAlikeUpToAsciiCaseShareTheirSmallestIdFromViewsAsFromStrings) {
  const std::vector<std::string> vocab = {"x", "\xE2\x96\x81" "Die", "\xE2\x96\x81" "die", "die", "\xE2\x96\x81" "DIE",
                                          "\xC3\x84", "\xC3\xA4", ",", ""};
  const WordPieces from_strings(vocab);
  const WordPieces from_views(std::vector<std::string_view>(vocab.begin(), vocab.end()));
  for (const WordPieces* p : {&from_strings, &from_views}) {
    EXPECT_EQ(p->key(2), 1);
    EXPECT_EQ(p->key(4), 1);
    EXPECT_EQ(p->key(3), 3);  // no word boundary: another piece
    EXPECT_EQ(p->key(6), 6);  // "ä" is not "Ä" up to ASCII case
    EXPECT_EQ(p->key(8), 8);
    EXPECT_EQ(p->next_alike(1), 2);
    EXPECT_EQ(p->next_alike(2), 4);
    EXPECT_EQ(p->next_alike(4), -1);
    EXPECT_TRUE(p->starts(1) && !p->starts(3) && p->punctuation(7) && !p->punctuation(8));
  }
}

TEST(BeamSearch, ASentenceConstraintKeepsItsOutputFreeOfRepeatedWords) {
  // The random model's 6 ids: 0, 1 and 2 begin words, 3 is eos, 4 and 5 continue a word.
  const std::vector<std::string> vocab = {"\xE2\x96\x81" "x", "\xE2\x96\x81" "y", "\xE2\x96\x81" "z", "</s>", "p", "q"};
  const auto pieces = std::make_shared<const WordPieces>(vocab);
  auto guard = std::make_shared<const WordRepeatGuard>(pieces);
  int repeating = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    const Transformer model = random_model(seed);
    const Matrix encoder_out = model.encode({4, 5, 0});
    const int eos = model.config().eos_id;
    auto without_eos = [&](std::vector<int> ids) {
      if (!ids.empty() && ids.back() == eos) ids.pop_back();
      return ids;
    };
    for (int beam : {1, 3}) {
      SearchOptions o;
      o.beam_size = o.n_best = beam;
      const std::vector<int> free = beam_search(model, {&encoder_out}, {12}, o).front().front().ids;
      BeamSearch search(model, {&encoder_out}, {12}, o, {}, nullptr, {}, {}, {guard});
      while (!search.done()) search.step();
      const auto guarded = search.finish().front();
      ASSERT_FALSE(guarded.empty());
      for (const Hypothesis& h : guarded) EXPECT_FALSE(repeats_word(without_eos(h.ids), *pieces)) << seed << " beam " << beam;
      if (!repeats_word(without_eos(free), *pieces) && beam == 1) {
        EXPECT_EQ(guarded.front().ids, free) << seed;  // greedy without a repeat: unchanged
      }
      repeating += repeats_word(without_eos(free), *pieces);
    }
  }
  EXPECT_GE(repeating, 3) << "too few random models repeat a word for this test to mean anything";
}

TEST(BeamSearch, SettledTokensArePrefixesOfTheResult) {
  const Transformer model = random_model(11);
  const Matrix encoder_out = model.encode({4, 5, 4, 0, 3});
  SearchOptions o;
  o.beam_size = 4;
  BeamSearch search(model, {&encoder_out}, {10}, o);
  std::vector<std::vector<int>> seen;
  while (!search.done()) {
    search.step();
    seen.push_back(search.settled(0));
  }
  const std::vector<int> best = search.finish().front().front().ids;
  EXPECT_EQ(seen.back(), best);
  for (size_t i = 0; i < seen.size(); ++i) {
    ASSERT_LE(seen[i].size(), best.size());
    EXPECT_TRUE(std::equal(seen[i].begin(), seen[i].end(), best.begin())) << "step " << i;
    if (i > 0) EXPECT_GE(seen[i].size(), seen[i - 1].size());
  }
}

class TranslatorBeamTest : public ::testing::Test {
 protected:
  const Translator& translator = testing::shared_translator();

  static TranslateOptions beam(int size, int n_best = 1) {
    TranslateOptions o;
    o.beam_size = size;
    o.n_best = n_best;
    o.attention = true;  // the tests compare the best hypothesis' attention too
    return o;
  }
};

const std::vector<std::string> kSources = {
    "A man in a blue shirt is standing on a ladder cleaning windows.", "Two dogs play in the snow.",
    "A little girl climbs into a wooden playhouse.", "", "People are walking down a busy city street at night."};

TEST_F(TranslatorBeamTest, NBestHypothesesCarryTheirForcedLogProbAndScore) {
  int forced_checked = 0;
  for (const std::string& source : kSources) {
    if (source.empty()) continue;
    const Translation r = translator.translate(source, beam(5, 5));
    ASSERT_EQ(r.hypotheses.size(), 5u) << source;
    EXPECT_EQ(r.hypotheses[0].text, r.text);
    EXPECT_EQ(r.hypotheses[0].target_ids, r.target_ids);
    for (size_t i = 0; i < r.hypotheses.size(); ++i) {
      const ScoredHypothesis& h = r.hypotheses[i];
      if (i > 0) {
        EXPECT_GE(r.hypotheses[i - 1].score, h.score);
        EXPECT_NE(r.hypotheses[i - 1].target_ids, h.target_ids);
      }
      EXPECT_NEAR(h.score, h.log_prob / length_penalty(static_cast<int>(h.target_ids.size()), 1.0f), 1e-5);
      const Translation forced = translator.align(source, h.text, {});
      if (forced.target_ids != h.target_ids) continue;  // the text re-tokenizes differently
      EXPECT_NEAR(forced.log_prob, h.log_prob, 2e-3) << h.text;
      ++forced_checked;
    }
  }
  EXPECT_GE(forced_checked, 10) << "of 20 hypotheses, too few re-tokenize to their own ids";
}

TEST_F(TranslatorBeamTest, ChosenHypothesisCarriesItsCrossAttention) {
  const std::string source = kSources[0];
  TranslateOptions o = beam(4);
  o.residual = true;
  const Translation r = translator.translate(source, o);
  const Translation forced = translator.align(source, r.text, o);
  ASSERT_EQ(forced.target_ids, r.target_ids);
  ASSERT_EQ(r.cross_attention.size(), forced.cross_attention.size());
  for (size_t i = 0; i < r.cross_attention.size(); ++i) EXPECT_NEAR(r.cross_attention[i], forced.cross_attention[i], 1e-5);
  ASSERT_EQ(r.residual.size(), forced.residual.size());
  for (size_t i = 0; i < r.residual.size(); ++i) EXPECT_NEAR(r.residual[i], forced.residual[i], 1e-3);
}

TEST_F(TranslatorBeamTest, BatchedBeamSearchEqualsOneByOne) {
  const auto batch = translator.translate_batch(kSources, beam(4, 2));
  for (size_t i = 0; i < kSources.size(); ++i) {
    const Translation one = translator.translate(kSources[i], beam(4, 2));
    EXPECT_EQ(batch[i].target_ids, one.target_ids) << kSources[i];
    EXPECT_EQ(batch[i].score, one.score);
    EXPECT_EQ(batch[i].cross_attention, one.cross_attention);
    ASSERT_EQ(batch[i].hypotheses.size(), one.hypotheses.size());
    if (!one.hypotheses.empty()) EXPECT_EQ(batch[i].hypotheses[1].target_ids, one.hypotheses[1].target_ids);
  }
}

TEST_F(TranslatorBeamTest, MaxLengthIsRatioTimesSourcePlusOffsetUnderACap) {
  const std::string source = kSources[0];
  const int src_len = static_cast<int>(translator.translate(source, {}).source_ids.size());
  for (int size : {1, 4}) {
    TranslateOptions o = beam(size);
    o.max_length_ratio = 0.0f;
    o.max_length_offset = 3;
    EXPECT_EQ(translator.translate(source, o).target_ids.size(), 3u);
    o.max_length_ratio = 0.25f;
    o.max_length_offset = 0;
    EXPECT_EQ(translator.translate(source, o).target_ids.size(), static_cast<size_t>(src_len / 4));
    o.max_length = 2;
    EXPECT_EQ(translator.translate(source, o).target_ids.size(), 2u);
  }
}

TEST_F(TranslatorBeamTest, StreamingReportsEveryTokenOnceInOrder) {
  for (int size : {1, 4}) {
    std::vector<std::vector<std::string>> tokens(kSources.size());
    std::vector<std::string> texts(kSources.size());
    TranslateOptions o = beam(size);
    int events = 0;
    o.on_token = [&](const TokenEvent& e) {
      ++events;
      EXPECT_FALSE(e.tokens.empty());
      if (size == 1) EXPECT_EQ(e.tokens.size(), 1u);  // greedy: each token as it is produced
      tokens[e.index].insert(tokens[e.index].end(), e.tokens.begin(), e.tokens.end());
      texts[e.index] = e.text;
      return true;
    };
    const auto results = translator.translate_batch(kSources, o);
    EXPECT_GT(events, 0);
    for (size_t i = 0; i < kSources.size(); ++i) {
      EXPECT_EQ(tokens[i], results[i].target_tokens) << size << " " << kSources[i];
      EXPECT_EQ(texts[i], results[i].text);
    }
  }
}

TEST_F(TranslatorBeamTest, CancellingStopsWithATypedErrorAndTheTranslatorStaysUsable) {
  const Translation before = translator.translate(kSources[0], beam(4));
  for (int size : {1, 4}) {
    TranslateOptions o = beam(size);
    int events = 0;
    o.on_token = [&](const TokenEvent&) { return ++events < 2; };
    try {
      translator.translate(kSources[0], o);
      FAIL() << "not cancelled";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kCancelled);
    }
    EXPECT_EQ(events, 2);
  }
  EXPECT_EQ(translator.translate(kSources[0], beam(4)).target_ids, before.target_ids);
}

TEST_F(TranslatorBeamTest, AJobStepsToTheSameResultAndRefusesMisuse) {
  TranslationJob job = translator.start(kSources, beam(3));
  EXPECT_THROW(job.finish(), Error);  // not done yet
  int steps = 0;
  while (!job.done()) {
    job.step();
    ++steps;
  }
  EXPECT_GT(steps, 1);
  const auto results = job.finish();
  const auto expected = translator.translate_batch(kSources, beam(3));
  for (size_t i = 0; i < kSources.size(); ++i) EXPECT_EQ(results[i].text, expected[i].text);
  EXPECT_THROW(job.step(), Error);
  EXPECT_THROW(job.finish(), Error);
}

TEST_F(TranslatorBeamTest, BadSearchOptionsAreInvalidInput) {
  auto code_of = [&](const TranslateOptions& o) {
    try {
      translator.translate("A dog.", o);
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::kModelFormat;  // no error
  };
  TranslateOptions o;
  for (int size : {0, -1, 65}) {
    o.beam_size = size;
    EXPECT_EQ(code_of(o), ErrorCode::kInvalidInput) << size;
  }
  o = beam(2, 3);
  EXPECT_EQ(code_of(o), ErrorCode::kInvalidInput);
  o = beam(2, 0);
  EXPECT_EQ(code_of(o), ErrorCode::kInvalidInput);
  o = beam(2);
  o.length_penalty = std::nanf("");
  EXPECT_EQ(code_of(o), ErrorCode::kInvalidInput);
  o = beam(2);
  o.max_length_ratio = -1.0f;
  EXPECT_EQ(code_of(o), ErrorCode::kInvalidInput);
  o = beam(2);
  o.max_length_offset = -1;
  EXPECT_EQ(code_of(o), ErrorCode::kInvalidInput);
  o = beam(2);
  o.repeat_limit = -1;
  EXPECT_EQ(code_of(o), ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace crossattn
