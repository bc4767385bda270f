#include "decoding/word_repeat_guard.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <unordered_map>

namespace crossattn {

namespace {

constexpr std::string_view kWordStart = "\xE2\x96\x81";  // U+2581, SentencePiece's word boundary

// A word of ids: [begin, end) with the punctuation pieces at its end left out.
struct Word {
  int begin, end;
};

// The word that starts at `begin` and ends before `end`, its trailing punctuation left out.
Word trimmed(const int* ids, int begin, int end, const WordPieces& pieces) {
  while (end - 1 > begin && pieces.punctuation(ids[end - 1])) --end;
  return {begin, end};
}

// Whether ids[a] and ids[b] spell the same word (WordPieces::key, piece by piece).
bool same(const int* ids, Word a, Word b, const WordPieces& pieces) {
  if (a.end - a.begin != b.end - b.begin) return false;
  for (int k = 0; k < a.end - a.begin; ++k) {
    if (pieces.key(ids[a.begin + k]) != pieces.key(ids[b.begin + k])) return false;
  }
  return true;
}

// Index of the last word start in ids [0, end), or -1.
int last_start(const int* ids, int end, const WordPieces& pieces) {
  for (int i = end - 1; i >= 0; --i) {
    if (pieces.starts(ids[i])) return i;
  }
  return -1;
}

// c lower-cased by std::tolower (ASCII only, in the "C" locale the engine runs in).
unsigned char folded(char c) { return static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(c))); }

// A piece's hash up to ASCII case (FNV-1a of its folded bytes), so that pieces are compared up to
// case without a lower-cased copy of each.
struct FoldedHash {
  size_t operator()(std::string_view s) const {
    uint32_t h = 2166136261u;
    for (char c : s) h = (h ^ folded(c)) * 16777619u;
    return h;
  }
};

// Whether two pieces are the same up to ASCII case.
struct FoldedEqual {
  bool operator()(std::string_view a, std::string_view b) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (folded(a[i]) != folded(b[i])) return false;
    }
    return true;
  }
};

// Views of `pieces`, valid while it is.
std::vector<std::string_view> views_of(const std::vector<std::string>& pieces) {
  return std::vector<std::string_view>(pieces.begin(), pieces.end());
}

}  // namespace

WordPieces::WordPieces(const std::vector<std::string>& pieces) : WordPieces(views_of(pieces)) {}

WordPieces::WordPieces(const std::vector<std::string_view>& pieces)
    : starts_(pieces.size()), punctuation_(pieces.size()), key_(pieces.size()), next_alike_(pieces.size(), -1) {
  // A piece, up to ASCII case -> its smallest id. Its keys are views of `pieces`, used only here.
  std::unordered_map<std::string_view, int, FoldedHash, FoldedEqual> first;
  first.reserve(pieces.size());
  std::vector<int> last(pieces.size(), -1);  // per key: the last id of its list so far
  for (size_t id = 0; id < pieces.size(); ++id) {
    const std::string_view p = pieces[id];
    starts_[id] = p.substr(0, kWordStart.size()) == kWordStart;
    punctuation_[id] = !p.empty() && std::all_of(p.begin(), p.end(), [](char c) { return std::ispunct(static_cast<unsigned char>(c)); });
    const int key = first.emplace(p, static_cast<int>(id)).first->second;
    key_[id] = key;
    if (last[key] >= 0) next_alike_[last[key]] = static_cast<int>(id);
    last[key] = static_cast<int>(id);
  }
}

bool repeats_word(const std::vector<int>& ids, const WordPieces& pieces) {
  const int n = static_cast<int>(ids.size());
  std::vector<int> begins;  // the first piece of each word, then n
  for (int i = 0; i < n; ++i) {
    if (i == 0 || pieces.starts(ids[i])) begins.push_back(i);
  }
  begins.push_back(n);
  for (size_t w = 1; w + 1 < begins.size(); ++w) {
    const Word a = trimmed(ids.data(), begins[w - 1], begins[w], pieces);
    const Word b = trimmed(ids.data(), begins[w], begins[w + 1], pieces);
    if (same(ids.data(), a, b, pieces)) return true;
  }
  return false;
}

void WordRepeatGuard::forbid(const int* tail, int n, std::vector<int>& banned) const {
  const WordPieces& p = *pieces_;
  const int current = last_start(tail, n, p);  // the last word: tail[current, n)
  if (current < 0) return;
  const auto ban = [&](int id) {  // every id spelled alike
    for (int k = p.key(id); k >= 0; k = p.next_alike(k)) banned.push_back(k);
  };
  // A token that begins a word may not copy a one-piece last word.
  const Word last = trimmed(tail, current, n, p);
  if (last.end - last.begin == 1) ban(tail[current]);
  // A token inside the last word may not complete a copy of the word before it.
  const int previous = last_start(tail, current, p);
  if (previous < 0) return;
  const Word before = trimmed(tail, previous, current, p);
  const Word so_far{current, n};
  if (before.end - before.begin != n - current + 1) return;
  if (same(tail, so_far, {before.begin, before.end - 1}, p)) ban(tail[before.end - 1]);
}

}  // namespace crossattn
