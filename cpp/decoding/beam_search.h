// Beam search over a batch of sentences, one decoder step at a time, with greedy decoding as its
// beam_size = 1 case.
//
// Each sentence keeps up to beam_size live hypotheses. A step feeds every live hypothesis of every
// sentence to the decoder as one batched call (rows of [rows, D] matrices), adds each row's
// log-softmax to its hypothesis' log-probability, and keeps, per sentence, the beam_size best
// extensions that do not end in eos; extensions ending in eos that rank among the beam_size best
// are finished. Finished hypotheses are ranked by the GNMT length-normalized score (Wu et al. 2016,
// eq. 14, without the coverage term):
//
//   score(Y) = log P(Y | X) / lp(Y),   lp(Y) = ((5 + |Y|) / 6)^length_penalty
//
// with |Y| the number of target tokens, eos included. A sentence stops when no live hypothesis is
// left, when it reaches its max_length (live hypotheses are then finished without eos), or once
// beam_size hypotheses have finished: at once with early_stopping, otherwise when no live
// hypothesis can still score above the worst kept finished one (exact for length_penalty >= 0).
// With beam_size = 1 and early_stopping this is greedy decoding: the most probable token each step.
//
// Hypotheses own their self-attention caches (DecoderState), one slot per beam; when a hypothesis
// has several surviving extensions, the extras take the slots of hypotheses that died and copy the
// prefix (DecoderState::assign_prefix). The cross-attention memory is shared by all of them.
// A sentence may have a forced target prefix (prefix decoding: CTranslate2's target_prefix,
// src/decoding.cc:21-61 update_sample_with_prefix; fairseq's prefix_tokens): while a hypothesis is
// shorter than the prefix its only extension is the prefix's next token, scored with the model's
// log-probability of it whatever its rank; after the prefix the search goes on as usual. A prefix
// keeps one live hypothesis, so the beam opens where the prefix ends.
// Ties are broken by beam order, then token id, so a search is deterministic (a sampling one for a
// given seed). Which extensions are candidates is decided at one seam (token_selection.h): the
// constraints forbid tokens (the repetition guard, repetition_guard.h; a sentence's own, the word
// repeat guard, word_repeat_guard.h), the selector picks among
// the others (the most probable ones, or a random draw when sampling).
// Legend: L decoder layers, H n_heads, T target tokens, S src_len, D d_model, V vocab_size.
#pragma once

#include <memory>
#include <vector>

#include "decoding/search_options.h"
#include "decoding/token_selection.h"
#include "model/transformer.h"

namespace crossattn {

/// What a search records of each sentence's best hypothesis, besides its tokens.
struct SearchProbes {
  bool attention = false;     // its cross-attention weights
  bool residual = false;      // its cross-attention residual statistics (CrossAttentionProbe)
  bool final_states = false;  // its decoder's final states, the alignment layer's input
};

struct Hypothesis {
  std::vector<int> ids;                // [T] target ids, ending with eos unless max_length stopped it
  std::vector<float> token_log_probs;  // [T] log p(ids[t] | ids[<t], source), nats; they sum to log_prob
  std::vector<float> cross_attention;  // [L, H, T, S] for the best hypothesis when requested, else empty
  std::vector<float> residual;         // [L, T, 3] for the best hypothesis when requested, else empty
  std::vector<float> final_states;     // [T, D] for the best hypothesis when requested, else empty: row t
                                       // the decoder's output state at the step that chose ids[t]
  float log_prob = 0.0f;               // sum of log p(token) over ids, in nats
  float score = 0.0f;                  // log_prob / lp(T), the ranking score
};

/// ((5 + length) / 6)^alpha, the GNMT length penalty (Wu et al. 2016, eq. 14).
float length_penalty(int length, float alpha);

class BeamSearch {
 public:
  /// Sets up the search of sentence i from encoder_outs[i] [S_i, D] for at most max_lengths[i] >= 1
  /// target tokens (at most max_positions). `model` and the encoder outputs must outlive the search.
  /// `options` must be valid (check_options in cpp/options.h): sampling with beam_size 1. With a
  /// shortlist (Transformer::shortlist of these sentences' sources), only its candidates are scored.
  /// `prefixes`, empty or one per sentence, holds each sentence's forced target prefix [P_i] (target
  /// ids without eos, P_i < max_lengths[i]; with a shortlist, each among its sentence's candidates):
  /// its output starts with them. `candidates`, empty or one per sentence (only with a shortlist),
  /// holds each sentence's own candidate ids [n_i], ascending, a subset of shortlist->ids: the
  /// decoder computes the logits of all the shortlist's columns once per step, and each sentence's
  /// rows are normalized and searched over its own n_i columns only, so that a sentence decodes bit
  /// for bit as it would alone with shortlist = its candidates. Empty: every sentence has all the
  /// shortlist's columns. `sentence_constraints`, empty or one per sentence (null: none), adds a
  /// sentence's own TokenConstraint to the search's (the word repeat guard of a source that repeats
  /// no word: word_repeat_guard.h). Raises Error(kInvalidInput) for a prefix, candidate list or
  /// constraint list that breaks these rules.
  BeamSearch(const Transformer& model, std::vector<const Matrix*> encoder_outs, std::vector<int> max_lengths,
             SearchOptions options, SearchProbes probes = {}, std::shared_ptr<const OutputShortlist> shortlist = nullptr,
             std::vector<std::vector<int>> prefixes = {}, std::vector<std::vector<int>> candidates = {},
             std::vector<std::shared_ptr<const TokenConstraint>> sentence_constraints = {});
  ~BeamSearch();
  BeamSearch(BeamSearch&&) noexcept;
  BeamSearch& operator=(BeamSearch&&) noexcept;

  /// True when every sentence has stopped.
  bool done() const;
  /// One decoder call over every live hypothesis of every sentence that has not stopped.
  void step();
  /// True when sentence i has stopped (its settled() is then its whole best hypothesis).
  bool stopped(int sentence) const;
  /// The target ids of sentence i that no continuation of the search can change: the common prefix
  /// of its best finished hypothesis and its live ones; the whole best hypothesis once the sentence
  /// has stopped. For greedy decoding, every token as soon as it is produced (streaming).
  std::vector<int> settled(int sentence) const;
  /// The n_best hypotheses of each sentence, best first; the first carries the probes. Call once,
  /// when done().
  std::vector<std::vector<Hypothesis>> finish();

 private:
  struct Sentence;   // one sentence's hypotheses, slots and prefix tree
  struct Live;       // a live hypothesis
  struct Candidate;  // an extension of a live hypothesis by one token

  // The parts of step(), in order: bookkeeping of the rows to feed, scoring (the seam of
  // token_selection.h), pruning and finishing, slot bookkeeping, stopping.
  int collect_rows();
  void set_candidates(Sentence& s, std::vector<int> ids) const;
  int column(const Sentence& s, int token) const;
  void propose(Sentence& s, float* logits, int n);
  void extend(Sentence& s);
  void assign_slots(Sentence& s);
  bool should_stop(const Sentence& s) const;

  const Transformer* model_;
  SearchOptions options_;
  SearchProbes probes_;
  std::shared_ptr<const OutputShortlist> shortlist_;
  std::vector<std::unique_ptr<TokenConstraint>> constraints_;
  std::vector<Sentence> sentences_;
  DecoderWorkspace ws_;
  // Per row of the current step: its state, the token it feeds, where its probes go.
  std::vector<DecoderState*> rows_;
  std::vector<int> tokens_;
  std::vector<float*> weight_rows_, residual_rows_, state_rows_;
  // Scratch of the candidate selection, kept between steps.
  std::vector<int> selected_, homeless_, tail_, banned_;
  std::vector<float> row_;  // [n_i] one row's logits over its sentence's own candidates
  std::vector<char> claimed_;
  std::vector<Candidate> candidates_;
  std::vector<Live> next_;
};

/// Runs a BeamSearch to the end: the n_best hypotheses of each sentence, best first.
std::vector<std::vector<Hypothesis>> beam_search(const Transformer& model, const std::vector<const Matrix*>& encoder_outs,
                                                 const std::vector<int>& max_lengths, const SearchOptions& options,
                                                 SearchProbes probes = {},
                                                 std::shared_ptr<const OutputShortlist> shortlist = nullptr,
                                                 std::vector<std::vector<int>> prefixes = {},
                                                 std::vector<std::vector<int>> candidates = {});

}  // namespace crossattn
