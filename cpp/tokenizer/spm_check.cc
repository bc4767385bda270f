#include "tokenizer/spm_check.h"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "error.h"

namespace crossattn {
namespace {

[[noreturn]] void damaged(const std::string& what) {
  throw Error(ErrorCode::kTokenizer, "the SentencePiece model is damaged: " + what);
}

// A cursor over protobuf wire format (https://protobuf.dev/programming-guides/encoding/).
struct Wire {
  std::string_view bytes;
  size_t at = 0;

  bool done() const { return at >= bytes.size(); }

  uint64_t varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= bytes.size()) damaged("a number runs past the end");
      const auto byte = static_cast<uint8_t>(bytes[at++]);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
    damaged("a number of more than 64 bits");
  }

  std::string_view take(uint64_t n) {
    if (n > bytes.size() - at) damaged("a field runs past the end");
    const std::string_view out = bytes.substr(at, n);
    at += n;
    return out;
  }

  // Calls on_field(number, bytes) for each length-delimited field; skips the others.
  template <typename F>
  void each_field(F&& on_field) {
    while (!done()) {
      const uint64_t key = varint();
      switch (key & 7) {
        case 0: varint(); break;
        case 1: take(8); break;
        case 2: {
          const uint64_t n = varint();
          on_field(key >> 3, take(n));
          break;
        }
        case 5: take(4); break;
        default: damaged("an unknown protobuf wire type");
      }
    }
  }
};

uint32_t read_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);  // little endian, as SentencePiece writes it (wasm and x86 are)
  return v;
}

void check_charsmap(std::string_view blob, const char* spec) {
  const std::string where = std::string(spec) + " rules: ";
  if (blob.size() <= 4) damaged(where + "too short");
  const uint32_t trie_size = read_u32(blob.data());
  if (trie_size >= blob.size() - 4 || trie_size % 4 != 0 || trie_size == 0) damaged(where + "bad trie size");
  const std::string_view strings = blob.substr(4 + trie_size);
  if (strings.back() != '\0') damaged(where + "replacement strings not terminated");
  const size_t units = trie_size / 4;
  const char* trie = blob.data() + 4;
  auto offset = [](uint32_t u) -> size_t { return (u >> 10) << ((u & (1u << 9)) >> 6); };
  for (size_t i = 0; i < units; ++i) {
    const uint32_t u = read_u32(trie + 4 * i);
    if (u >> 31) continue;  // a value unit: its label never matches a byte, so no walk goes through it
    const size_t base = i ^ offset(u);
    if ((base | 0xff) >= units) damaged(where + "the trie points outside itself");
    const bool has_leaf = (u >> 8) & 1;
    if (has_leaf && (read_u32(trie + 4 * base) & 0x7fffffffu) >= strings.size()) {
      damaged(where + "a replacement lies outside its strings");
    }
  }
}

}  // namespace

void check_spm_model(const std::string& spm_bytes) {
  Wire{spm_bytes}.each_field([](uint64_t field, std::string_view spec_bytes) {
    if (field != 3 && field != 5) return;  // normalizer_spec, denormalizer_spec
    const char* spec = field == 3 ? "normalization" : "denormalization";
    Wire{spec_bytes}.each_field([spec](uint64_t f, std::string_view blob) {
      if (f == 2 && !blob.empty()) check_charsmap(blob, spec);  // precompiled_charsmap
    });
  });
}

}  // namespace crossattn
