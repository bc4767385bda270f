#include "alignment/word_alignment.h"

#include <string>

#include "error.h"

namespace crossattn {
namespace {

void check(bool ok, const std::string& message) {
  if (!ok) throw Error(ErrorCode::kInvalidInput, message);
}

// The (layer, head) pairs to average, layer indices resolved.
std::vector<std::pair<int, int>> selected_heads(const CrossAttentionView& a, const AlignmentOptions& o) {
  std::vector<int> layers = o.layers;
  if (layers.empty()) layers = a.layers > 1 ? std::vector<int>{-2, -1} : std::vector<int>{-1};
  std::vector<int> heads = o.heads;
  if (heads.empty()) {
    for (int h = 0; h < a.heads; ++h) heads.push_back(h);
  }
  std::vector<std::pair<int, int>> selected;
  for (int layer : layers) {
    if (layer < -a.layers || layer >= a.layers) {
      throw Error(OptionFault{"layers", std::to_string(layer), "integers from -" + std::to_string(a.layers) + " to " +
                              std::to_string(a.layers - 1) + " for this model's decoder", "", ""});
    }
    for (int h : heads) {
      if (h < 0 || h >= a.heads) {
        throw Error(OptionFault{"heads", std::to_string(h), "integers from 0 to " + std::to_string(a.heads - 1) +
                                " for this model's decoder", "", ""});
      }
      selected.emplace_back(layer < 0 ? layer + a.layers : layer, h);
    }
  }
  return selected;
}

// Index of each piece's unit (its word, or its own index among pieces in words when not merged).
std::vector<int> units(const WordMap& map, bool merge, int* count) {
  std::vector<int> unit(map.word_of_piece.size(), -1);
  *count = merge ? map.words : 0;
  for (size_t p = 0; p < unit.size(); ++p) {
    const int word = map.word_of_piece[p];
    check(word < map.words, "a piece maps to a word past the last one");
    if (word >= 0) unit[p] = merge ? word : (*count)++;
  }
  return unit;
}

// Grow-diag-final-and (Koehn et al. 2003; Moses' symmetrization): start from the links both
// directions agree on, grow into neighbouring links of either direction that align a word not yet
// aligned, then add links of either direction between two unaligned words. Links are [T, S] masks.
std::vector<char> grow_diag_final_and(const std::vector<char>& t2s, const std::vector<char>& s2t, int t_len,
                                      int s_len) {
  const size_t n = t2s.size();
  std::vector<char> links(n, 0), either(n);
  std::vector<char> t_aligned(t_len, 0), s_aligned(s_len, 0);
  auto at = [s_len](int t, int s) { return static_cast<size_t>(t) * s_len + s; };
  auto add = [&](int t, int s) {
    links[at(t, s)] = 1;
    t_aligned[t] = s_aligned[s] = 1;
  };
  for (size_t i = 0; i < n; ++i) either[i] = t2s[i] || s2t[i];
  for (int t = 0; t < t_len; ++t) {
    for (int s = 0; s < s_len; ++s) {
      if (t2s[at(t, s)] && s2t[at(t, s)]) add(t, s);
    }
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (int t = 0; t < t_len; ++t) {
      for (int s = 0; s < s_len; ++s) {
        if (!links[at(t, s)]) continue;
        for (int nt = t - 1; nt <= t + 1; ++nt) {
          for (int ns = s - 1; ns <= s + 1; ++ns) {
            if (nt < 0 || nt >= t_len || ns < 0 || ns >= s_len || links[at(nt, ns)] || !either[at(nt, ns)]) continue;
            if (!t_aligned[nt] || !s_aligned[ns]) add(nt, ns), grew = true;
          }
        }
      }
    }
  }
  for (const auto* direction : {&t2s, &s2t}) {
    for (int t = 0; t < t_len; ++t) {
      for (int s = 0; s < s_len; ++s) {
        if ((*direction)[at(t, s)] && !t_aligned[t] && !s_aligned[s]) add(t, s);
      }
    }
  }
  return links;
}

// Links of a word matrix `weights` [T, S] by `method`, among the words present on each side (a
// word SentencePiece dropped has no attention to read). Sorted by target, then source.
std::vector<std::pair<int, int>> links_of(const std::vector<float>& weights, int t_len, int s_len,
                                          const std::vector<char>& src_present, const std::vector<char>& tgt_present,
                                          AlignmentMethod method, float threshold) {
  auto at = [s_len](int t, int s) { return static_cast<size_t>(t) * s_len + s; };
  // Links as [T, S] masks: t2s from each target word, s2t from each source word.
  std::vector<char> t2s(weights.size(), 0), s2t(weights.size(), 0);
  for (int t = 0; t < t_len; ++t) {
    if (!tgt_present[t]) continue;
    int best = -1;
    for (int s = 0; s < s_len; ++s) {
      if (!src_present[s]) continue;
      if (best < 0 || weights[at(t, s)] > weights[at(t, best)]) best = s;
      if (method == AlignmentMethod::kThreshold && weights[at(t, s)] >= threshold) t2s[at(t, s)] = 1;
    }
    if (best >= 0 && method != AlignmentMethod::kThreshold) t2s[at(t, best)] = 1;
  }
  if (method == AlignmentMethod::kGrowDiagFinalAnd) {
    for (int s = 0; s < s_len; ++s) {
      if (!src_present[s]) continue;
      int best = -1;
      for (int t = 0; t < t_len; ++t) {
        if (tgt_present[t] && (best < 0 || weights[at(t, s)] > weights[at(best, s)])) best = t;
      }
      if (best >= 0) s2t[at(best, s)] = 1;
    }
    t2s = grow_diag_final_and(t2s, s2t, t_len, s_len);
  }
  std::vector<std::pair<int, int>> links;
  for (int t = 0; t < t_len; ++t) {
    for (int s = 0; s < s_len; ++s) {
      if (t2s[at(t, s)]) links.emplace_back(s, t);
    }
  }
  return links;
}

}  // namespace

WordAlignment align_words(const CrossAttentionView& a, const WordMap& src, const WordMap& tgt,
                          const AlignmentOptions& o, const std::vector<float>* prior) {
  check(static_cast<int>(src.word_of_piece.size()) == a.src_len &&
            static_cast<int>(tgt.word_of_piece.size()) == a.tgt_len,
        "the word maps do not match the attention's shape");
  check(prior == nullptr || prior->size() == static_cast<size_t>(a.tgt_len) * a.src_len,
        "the alignment prior does not match the attention's shape");
  check(o.threshold > 0.0f && o.threshold <= 1.0f, "the alignment threshold must lie in (0, 1]");
  const auto heads = selected_heads(a, o);
  WordAlignment out;
  const std::vector<int> src_unit = units(src, o.merge_subwords, &out.src_len);
  const std::vector<int> tgt_unit = units(tgt, o.merge_subwords, &out.tgt_len);
  const int t_len = out.tgt_len, s_len = out.src_len;
  auto at = [s_len](int t, int s) { return static_cast<size_t>(t) * s_len + s; };

  // weights [T_units, S_units]: each piece row averaged over the chosen heads, renormalized without
  // eos, summed over the pieces of a source word and averaged over the pieces of a target word.
  out.weights.assign(static_cast<size_t>(t_len) * s_len, 0.0f);
  std::vector<int> pieces_per_target(t_len, 0);
  std::vector<char> src_present(s_len, 0);  // source words that have pieces (SentencePiece may drop one)
  for (int s : src_unit) {
    if (s >= 0) src_present[s] = 1;
  }
  std::vector<float> row(a.src_len);  // [S] averaged attention of one decoder step
  const size_t plane = static_cast<size_t>(a.tgt_len) * a.src_len;
  for (int i = 0; i < a.tgt_len; ++i) {
    if (tgt_unit[i] < 0) continue;
    const int step = o.shift && i + 1 < a.tgt_len ? i + 1 : i;  // Shift-Att: the step fed token i
    std::fill(row.begin(), row.end(), 0.0f);
    for (const auto& [l, h] : heads) {
      const float* w = a.weights + (static_cast<size_t>(l) * a.heads + h) * plane + static_cast<size_t>(step) * a.src_len;
      for (int s = 0; s < a.src_len; ++s) row[s] += w[s];
    }
    if (prior != nullptr) {  // [T, S]: token i's row, whichever step its attention was read at
      for (int s = 0; s < a.src_len; ++s) row[s] *= (*prior)[static_cast<size_t>(i) * a.src_len + s];
    }
    float mass = 0.0f;
    for (int s = 0; s < a.src_len; ++s) mass += src_unit[s] >= 0 ? row[s] : 0.0f;
    for (int s = 0; s < a.src_len; ++s) {
      if (src_unit[s] >= 0 && mass > 0.0f) out.weights[at(tgt_unit[i], src_unit[s])] += row[s] / mass;
    }
    ++pieces_per_target[tgt_unit[i]];
  }
  for (int t = 0; t < t_len; ++t) {
    for (int s = 0; s < s_len && pieces_per_target[t] > 1; ++s) out.weights[at(t, s)] /= pieces_per_target[t];
  }

  std::vector<char> tgt_present(t_len);
  for (int t = 0; t < t_len; ++t) tgt_present[t] = pieces_per_target[t] > 0;
  out.links = links_of(out.weights, t_len, s_len, src_present, tgt_present, o.method, o.threshold);
  return out;
}

WordAlignment symmetrize(const WordAlignment& forward, const WordAlignment& backward, AlignmentMethod method,
                         float threshold) {
  check(forward.src_len >= 0 && forward.tgt_len >= 0 && forward.src_len == backward.tgt_len &&
            forward.tgt_len == backward.src_len &&
            forward.weights.size() == static_cast<size_t>(forward.src_len) * static_cast<size_t>(forward.tgt_len) &&
            forward.weights.size() == backward.weights.size(),
        "the two alignments are not of the same sentence pair in opposite directions");
  check(threshold > 0.0f && threshold <= 1.0f, "the alignment threshold must lie in (0, 1]");
  WordAlignment out;
  out.src_len = forward.src_len;
  out.tgt_len = forward.tgt_len;
  const int t_len = out.tgt_len, s_len = out.src_len;
  out.weights.resize(forward.weights.size());
  for (int t = 0; t < t_len; ++t) {
    for (int s = 0; s < s_len; ++s) {
      const size_t ts = static_cast<size_t>(t) * s_len + s, st = static_cast<size_t>(s) * t_len + t;
      out.weights[ts] = 0.5f * (forward.weights[ts] + backward.weights[st]);
    }
  }
  out.links = links_of(out.weights, t_len, s_len, std::vector<char>(s_len, 1), std::vector<char>(t_len, 1), method, threshold);
  return out;
}

}  // namespace crossattn
