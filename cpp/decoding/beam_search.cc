#include "decoding/beam_search.h"

#include <algorithm>
#include <cmath>

#include "decoding/repetition_guard.h"
#include "error.h"
#include "kernels/ops.h"
#include "layers/probe_records.h"

namespace crossattn {

namespace {

// A node of a sentence's prefix tree: the prefix ending with `token` at `depth` (the root is the
// decoder start token at depth 0) and log p(token | parent's prefix, source) in nats. `record` is
// where the probes of the step that fed this prefix to the decoder went, -1 if it never was
// (finished prefixes).
struct Node {
  int parent;
  int token;
  int depth;
  float token_log_prob;
  int record;
};

struct Finished {
  int node;
  float log_prob;
  float score;
};

}  // namespace

struct BeamSearch::Live {
  int node;
  int slot;  // index of its DecoderState
  float log_prob;
};

struct BeamSearch::Candidate {
  float log_prob;
  int beam;  // index into the sentence's live hypotheses
  int token;
};

float length_penalty(int length, float alpha) { return std::pow((5.0f + length) / 6.0f, alpha); }

struct BeamSearch::Sentence {
  int max_length = 0;
  int src_len = 0;
  bool stopped = false;
  std::vector<int> prefix;  // [P] forced target ids
  std::vector<int> ids;      // [n_i] with a shortlist, its own candidate ids, ascending; empty without
  std::vector<int> columns;  // [n_i] the shortlist column of each; empty when they are all its columns
  std::unique_ptr<TokenSelector> selector;  // its own, so that a sampler's draws do not depend on the batch
  std::shared_ptr<const TokenConstraint> constraint;  // its own, besides the search's; may be null
  std::vector<DecoderState> slots;  // [beam_size]
  std::vector<int> fed;             // [beam_size] the node each slot was last fed (its cache rows hold that
                                    // node's path), -1 before any
  std::vector<Node> nodes;
  std::vector<Live> live;          // best first
  std::vector<Finished> finished;  // best first, at most beam_size
  int records = 0;
  std::unique_ptr<ProbeRecords> probes;  // one record per row fed, of every hypothesis (node.record)

  // The last (at most n) target ids ending at `node`, oldest first, into tail; returns how many.
  int tail(int node, int n, std::vector<int>& out) const {
    out.resize(n);
    int count = 0;
    for (; count < n && nodes[node].depth > 0; node = nodes[node].parent) out[n - 1 - count++] = nodes[node].token;
    std::copy(out.end() - count, out.end(), out.begin());
    return count;
  }

  // The deepest common ancestor of nodes a and b.
  int ancestor(int a, int b) const {
    while (nodes[a].depth > nodes[b].depth) a = nodes[a].parent;
    while (nodes[b].depth > nodes[a].depth) b = nodes[b].parent;
    while (a != b) a = nodes[a].parent, b = nodes[b].parent;
    return a;
  }

  // The target ids from the root to `node` [T].
  std::vector<int> path(int node) const {
    std::vector<int> ids(nodes[node].depth);
    for (int n = node; nodes[n].depth > 0; n = nodes[n].parent) ids[nodes[n].depth - 1] = nodes[n].token;
    return ids;
  }

  // The log-probability of each of those ids [T] (a finished hypothesis' scores, read once).
  std::vector<float> token_log_probs(int node) const {
    std::vector<float> out(nodes[node].depth);
    for (int n = node; nodes[n].depth > 0; n = nodes[n].parent) out[nodes[n].depth - 1] = nodes[n].token_log_prob;
    return out;
  }

  int add_node(int parent, int token, float token_log_prob) {
    nodes.push_back({parent, token, nodes[parent].depth + 1, token_log_prob, -1});
    return static_cast<int>(nodes.size()) - 1;
  }

  void add_finished(int node, float log_prob, float alpha, int beam_size) {
    const Finished f{node, log_prob, log_prob / length_penalty(nodes[node].depth, alpha)};
    auto at = std::upper_bound(finished.begin(), finished.end(), f,
                               [](const Finished& a, const Finished& b) { return a.score > b.score; });
    finished.insert(at, f);
    if (static_cast<int>(finished.size()) > beam_size) finished.pop_back();
  }
};

BeamSearch::BeamSearch(const Transformer& model, std::vector<const Matrix*> encoder_outs, std::vector<int> max_lengths,
                       SearchOptions options, SearchProbes probes, std::shared_ptr<const OutputShortlist> shortlist,
                       std::vector<std::vector<int>> prefixes, std::vector<std::vector<int>> candidates,
                       std::vector<std::shared_ptr<const TokenConstraint>> sentence_constraints)
    : model_(&model), options_(options), probes_(probes), shortlist_(std::move(shortlist)), sentences_(encoder_outs.size()) {
  const ModelConfig& c = model.config();
  if (!prefixes.empty() && prefixes.size() != sentences_.size()) {
    throw Error(ErrorCode::kInvalidInput, "a search needs one target prefix per sentence");
  }
  if (!candidates.empty() && (!shortlist_ || candidates.size() != sentences_.size())) {
    throw Error(ErrorCode::kInvalidInput, "a search needs a shortlist and one candidate list per sentence");
  }
  if (!sentence_constraints.empty() && sentence_constraints.size() != sentences_.size()) {
    throw Error(ErrorCode::kInvalidInput, "a search needs one constraint (or none) per sentence");
  }
  if (options.repeat_limit > 0) constraints_.push_back(std::make_unique<RepetitionGuard>(options.repeat_limit));
  for (size_t i = 0; i < sentences_.size(); ++i) {
    Sentence& s = sentences_[i];
    s.max_length = max_lengths[i];
    if (!prefixes.empty()) s.prefix = std::move(prefixes[i]);
    if (!sentence_constraints.empty()) s.constraint = std::move(sentence_constraints[i]);
    if (shortlist_) set_candidates(s, candidates.empty() ? shortlist_->ids : std::move(candidates[i]));
    if (static_cast<int>(s.prefix.size()) >= s.max_length) {
      throw Error(ErrorCode::kInvalidInput, "a target prefix of " + std::to_string(s.prefix.size()) +
                                                " tokens leaves no room in a maximum length of " + std::to_string(s.max_length));
    }
    for (int token : s.prefix) {
      if (token < 0 || token >= c.vocab_size || token == c.eos_id || column(s, token) < 0) {
        throw Error(ErrorCode::kInvalidInput, "target prefix token " + std::to_string(token) +
                                                  " is eos, outside the vocabulary or not among the shortlist's candidates");
      }
    }
    s.src_len = static_cast<int>(encoder_outs[i]->rows());
    s.probes = std::make_unique<ProbeRecords>(c.decoder_layers, c.n_heads, s.src_len, probes.attention, probes.residual,
                                              probes.final_states ? c.d_model : 0);
    s.selector = make_selector(options);
    s.slots.reserve(options.beam_size);
    s.slots.push_back(model.start(*encoder_outs[i], max_lengths[i]));
    while (static_cast<int>(s.slots.size()) < options.beam_size) s.slots.push_back(s.slots.front().sibling());
    s.fed.assign(options.beam_size, -1);
    s.nodes.push_back({-1, c.decoder_start_id, 0, 0.0f, -1});
    s.live.push_back({0, 0, 0.0f});
  }
}

BeamSearch::~BeamSearch() = default;
BeamSearch::BeamSearch(BeamSearch&&) noexcept = default;
BeamSearch& BeamSearch::operator=(BeamSearch&&) noexcept = default;

bool BeamSearch::done() const {
  return std::all_of(sentences_.begin(), sentences_.end(), [](const Sentence& s) { return s.stopped; });
}

void BeamSearch::step() {
  const int m = collect_rows();
  if (m == 0) return;
  const CrossAttentionProbe probe{weight_rows_.data(), residual_rows_.data()};
  model_->decode(rows_.data(), tokens_.data(), m, ws_, &probe, shortlist_.get());
  if (probes_.final_states) {
    const int d = model_->config().d_model;
    for (int r = 0; r < m; ++r) std::copy_n(ws_.x.data() + static_cast<size_t>(r) * d, d, state_rows_[r]);  // [D]
  }
  const int n = shortlist_ ? static_cast<int>(shortlist_->ids.size()) : model_->config().vocab_size;
  float* logits = ws_.logits.data();  // [M, n], rows in the order collect_rows() made them
  for (Sentence& s : sentences_) {
    if (s.stopped) continue;
    propose(s, logits, n);
    logits += s.live.size() * static_cast<size_t>(n);
    extend(s);
    assign_slots(s);
    s.stopped = should_stop(s);
  }
}

// Bookkeeping: one row per live hypothesis of every running sentence, with where its probes go;
// returns the number of rows, for which the workspace is reserved.
int BeamSearch::collect_rows() {
  const ModelConfig& c = model_->config();
  rows_.clear();
  tokens_.clear();
  weight_rows_.clear();
  residual_rows_.clear();
  state_rows_.clear();
  for (Sentence& s : sentences_) {
    if (s.stopped) continue;
    const int first = s.records;
    s.records += static_cast<int>(s.live.size());
    s.probes->resize(s.records);
    for (size_t b = 0; b < s.live.size(); ++b) {
      Node& node = s.nodes[s.live[b].node];
      node.record = first + static_cast<int>(b);
      rows_.push_back(&s.slots[s.live[b].slot]);
      s.fed[s.live[b].slot] = s.live[b].node;
      tokens_.push_back(node.token);
      weight_rows_.push_back(s.probes->attention(node.record));
      residual_rows_.push_back(s.probes->residual(node.record));
      state_rows_.push_back(s.probes->final_state(node.record));
    }
  }
  const int m = static_cast<int>(rows_.size());
  if (m > 0) ws_.reserve(m, c);
  return m;
}

// Sentence s's own candidates `ids` (ascending, each among shortlist_->ids) and the shortlist column
// of each. Raises Error(kInvalidInput) for an empty list, or ids out of order or not in the shortlist.
void BeamSearch::set_candidates(Sentence& s, std::vector<int> ids) const {
  const std::vector<int>& all = shortlist_->ids;  // ascending
  s.columns.clear();
  for (size_t i = 0, at = 0; i < ids.size(); ++i) {
    while (at < all.size() && all[at] < ids[i]) ++at;
    if (at == all.size() || all[at] != ids[i] || (i > 0 && ids[i] <= ids[i - 1])) {
      throw Error(ErrorCode::kInvalidInput, "a sentence's shortlist candidates must be ascending ids of the shortlist; " +
                                                std::to_string(ids[i]) + " is not");
    }
    s.columns.push_back(static_cast<int>(at));
  }
  if (ids.empty()) throw Error(ErrorCode::kInvalidInput, "a sentence's shortlist has no candidates");
  if (ids.size() == all.size()) s.columns.clear();  // all of them, in order
  s.ids = std::move(ids);
}

// The column of `token` in a row of sentence s's logits as propose() reads it: the token itself, or
// its index among the sentence's shortlist candidates (-1 when it is not one of them).
int BeamSearch::column(const Sentence& s, int token) const {
  if (!shortlist_) return token;
  const auto at = std::lower_bound(s.ids.begin(), s.ids.end(), token);
  return at != s.ids.end() && *at == token ? static_cast<int>(at - s.ids.begin()) : -1;
}

// Scoring: each live hypothesis' candidate extensions from its logits [n] (one row per hypothesis,
// in live order), into candidates_ best first. Column i scores token i, or with a shortlist token
// shortlist_->ids[i]. With a shortlist the row is first narrowed to the sentence's own candidates
// [n_i] (s.columns), so that in a batch each sentence ranks, normalizes and selects over its own
// shortlist, exactly as alone: the same values in the same order, so log_sum_exp's SIMD lanes add
// them alike (masking the other columns to -inf in place would move them between lanes). Marian
// and Bergamot score a batch over the union of its sentences' shortlists instead (marian-dev
// src/data/shortlist.cpp:105-139 LexicalShortlistGenerator::generate, 257-300 BinaryShortlistGenerator),
// so there a batch's translations can differ from single ones; crossattn keeps them equal.
// Constraints set the logits of forbidden tokens to -inf, the selector picks among the rest; a
// candidate's log-probability is the model's, normalized over the row's columns (forbidden mass is
// not redistributed). A hypothesis inside its sentence's forced prefix has one candidate, the
// prefix's next token, whatever the constraints and the selector say.
void BeamSearch::propose(Sentence& s, float* logits, int n) {
  const int width = s.columns.empty() ? n : static_cast<int>(s.columns.size());
  const int k = std::min(2 * options_.beam_size, width);
  candidates_.clear();
  for (size_t b = 0; b < s.live.size(); ++b, logits += n) {
    float* row = logits;  // [width]
    if (!s.columns.empty()) {
      row_.resize(width);
      for (int i = 0; i < width; ++i) row_[i] = logits[s.columns[i]];
      row = row_.data();
    }
    const float log_z = log_sum_exp(row, width);
    const size_t depth = s.nodes[s.live[b].node].depth;
    if (depth < s.prefix.size()) {
      const int token = s.prefix[depth];
      candidates_.push_back({s.live[b].log_prob + row[column(s, token)] - log_z, static_cast<int>(b), token});
      continue;
    }
    const auto forbid = [&](const TokenConstraint& constraint) {
      banned_.clear();
      const int history = s.tail(s.live[b].node, constraint.history(), tail_);
      constraint.forbid(tail_.data(), history, banned_);
      for (int token : banned_) {
        if (const int at = column(s, token); at >= 0) row[at] = -INFINITY;
      }
    };
    for (const auto& constraint : constraints_) forbid(*constraint);
    if (s.constraint) forbid(*s.constraint);
    s.selector->select(row, width, k, selected_);
    for (int at : selected_) {
      const int token = shortlist_ ? s.ids[at] : at;
      candidates_.push_back({s.live[b].log_prob + row[at] - log_z, static_cast<int>(b), token});
    }
  }
  std::stable_sort(candidates_.begin(), candidates_.end(),
                   [](const Candidate& a, const Candidate& b) { return a.log_prob > b.log_prob; });
}

// Pruning and finishing: the beam_size best candidates that do not end in eos become the live
// hypotheses; those ending in eos that rank among the beam_size best finish; at max_length every
// live one finishes without eos.
void BeamSearch::extend(Sentence& s) {
  const int beam = options_.beam_size, eos = model_->config().eos_id;
  next_.clear();
  for (size_t rank = 0; rank < candidates_.size() && static_cast<int>(next_.size()) < beam; ++rank) {
    const Candidate& cand = candidates_[rank];
    const Live& parent = s.live[cand.beam];
    const float token_log_prob = cand.log_prob - parent.log_prob;
    if (cand.token != eos) {
      next_.push_back({s.add_node(parent.node, cand.token, token_log_prob), parent.slot, cand.log_prob});
    } else if (static_cast<int>(rank) < beam) {
      s.add_finished(s.add_node(parent.node, cand.token, token_log_prob), cand.log_prob, options_.length_penalty, beam);
    }
  }
  if (!next_.empty() && s.nodes[next_.front().node].depth >= s.max_length) {  // out of room
    for (const Live& h : next_) s.add_finished(h.node, h.log_prob, options_.length_penalty, beam);
    next_.clear();
  }
  s.live.swap(next_);  // next_ keeps the old buffer for the next sentence
}

// Slot bookkeeping: the first extension of a hypothesis keeps its parent's DecoderState slot, the
// others take the slots of hypotheses without extensions and copy the parent's prefix, past the
// rows the slot already holds: those of the deepest common ancestor of the parent and the node the
// slot was fed last (beams mostly differ in their last few tokens).
void BeamSearch::assign_slots(Sentence& s) {
  claimed_.assign(options_.beam_size, 0);
  homeless_.clear();
  for (size_t i = 0; i < s.live.size(); ++i) {
    if (claimed_[s.live[i].slot]) homeless_.push_back(static_cast<int>(i));
    claimed_[s.live[i].slot] = 1;
  }
  for (int slot = 0, i = 0; i < static_cast<int>(homeless_.size()); ++slot) {
    if (claimed_[slot]) continue;
    Live& h = s.live[homeless_[i++]];
    const int parent = s.fed[h.slot];
    const int shared_rows = s.fed[slot] < 0 ? 0 : s.nodes[s.ancestor(s.fed[slot], parent)].depth + 1;
    s.slots[slot].assign_prefix(s.slots[h.slot], shared_rows);
    s.fed[slot] = parent;
    h.slot = slot;
  }
}

// Stopping: no live hypothesis left, or beam_size finished ones that (with early_stopping, or by
// the bound below) no live hypothesis can beat.
bool BeamSearch::should_stop(const Sentence& s) const {
  if (s.live.empty()) return true;
  if (static_cast<int>(s.finished.size()) < options_.beam_size) return false;
  if (options_.early_stopping) return true;
  // The score of a future hypothesis is at most its best live prefix's log-probability over lp at
  // one of the extreme lengths it can reach (the score is monotonic in the length).
  const int depth = s.nodes[s.live.front().node].depth;
  const float best = s.live.front().log_prob, alpha = options_.length_penalty;
  const float bound = std::max(best / length_penalty(depth + 1, alpha), best / length_penalty(s.max_length, alpha));
  return bound <= s.finished.back().score;
}

bool BeamSearch::stopped(int sentence) const { return sentences_[sentence].stopped; }

std::vector<int> BeamSearch::settled(int sentence) const {
  const Sentence& s = sentences_[sentence];
  if (s.stopped) return s.path(s.finished.front().node);
  // The deepest common ancestor of the live hypotheses and the best finished one.
  int common = s.live.front().node;
  for (const Live& h : s.live) common = s.ancestor(common, h.node);
  if (!s.finished.empty()) common = s.ancestor(common, s.finished.front().node);
  return s.path(common);
}

std::vector<std::vector<Hypothesis>> BeamSearch::finish() {
  const ModelConfig& c = model_->config();
  std::vector<std::vector<Hypothesis>> out(sentences_.size());
  for (size_t i = 0; i < sentences_.size(); ++i) {
    const Sentence& s = sentences_[i];
    const size_t n = std::min<size_t>(options_.n_best, s.finished.size());
    for (size_t rank = 0; rank < n; ++rank) {
      const Finished& f = s.finished[rank];
      Hypothesis h;
      h.ids = s.path(f.node);
      h.token_log_probs = s.token_log_probs(f.node);
      h.log_prob = f.log_prob;
      h.score = f.score;
      out[i].push_back(std::move(h));
    }
    if (n == 0 || (!probes_.attention && !probes_.residual && !probes_.final_states)) continue;
    // The probes of the best hypothesis: position t was recorded when its prefix of depth t was fed.
    Hypothesis& best = out[i].front();
    const int t_len = static_cast<int>(best.ids.size());
    std::vector<int> records(t_len);
    for (int node = s.nodes[s.finished.front().node].parent; node >= 0; node = s.nodes[node].parent) {
      records[s.nodes[node].depth] = s.nodes[node].record;
    }
    const size_t layers = c.decoder_layers;
    if (probes_.attention) best.cross_attention.resize(layers * c.n_heads * t_len * s.src_len);
    if (probes_.residual) best.residual.resize(layers * t_len * 3);
    if (probes_.final_states) best.final_states.resize(static_cast<size_t>(t_len) * c.d_model);
    // [L, H, T, S], [L, T, 3], [T, D]
    s.probes->gather(records, best.cross_attention.data(), best.residual.data(), best.final_states.data());
  }
  return out;
}

std::vector<std::vector<Hypothesis>> beam_search(const Transformer& model, const std::vector<const Matrix*>& encoder_outs,
                                                 const std::vector<int>& max_lengths, const SearchOptions& options,
                                                 SearchProbes probes, std::shared_ptr<const OutputShortlist> shortlist,
                                                 std::vector<std::vector<int>> prefixes,
                                                 std::vector<std::vector<int>> candidates) {
  BeamSearch search(model, encoder_outs, max_lengths, options, probes, std::move(shortlist), std::move(prefixes),
                    std::move(candidates));
  while (!search.done()) search.step();
  return search.finish();
}

}  // namespace crossattn
