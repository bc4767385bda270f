#include "model/checksum.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "error.h"

namespace crossattn {
namespace {

// kTables[k][b]: the CRC of byte b followed by k zero bytes; table 0 is the classic byte table.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

Tables make_tables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t c = b;
    for (int i = 0; i < 8; ++i) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][b] = c;
  }
  for (size_t k = 1; k < t.size(); ++k) {
    for (uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}

const Tables& tables() {
  static const Tables t = make_tables();
  return t;
}

// Both hashes go over a file in blocks of 64 KiB, each a call of its own. A WebAssembly engine that
// first compiles a function with a baseline compiler and optimizes it once it runs hot (V8's Liftoff,
// then TurboFan) swaps the optimized code in at the next call, not inside a running loop: one call
// over a whole model file would run in baseline code from its first byte to its last.
constexpr size_t kBlockBytes = 64 << 10;

// Slicing-by-8 over one block, from the inverted register `c` to the inverted register.
[[gnu::noinline]] uint32_t crc32_block(const Tables& t, const uint8_t* data, size_t size, uint32_t c) {
  for (; size >= 8; data += 8, size -= 8) {
    const uint32_t lo = c ^ (data[0] | data[1] << 8 | data[2] << 16 | static_cast<uint32_t>(data[3]) << 24);
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
        t[3][data[4]] ^ t[2][data[5]] ^ t[1][data[6]] ^ t[0][data[7]];
  }
  for (; size > 0; ++data, --size) c = (c >> 8) ^ t[0][(c ^ *data) & 0xFF];
  return c;
}

[[gnu::noinline]] void xxh3_block(XXH3_state_t& state, const uint8_t* data, size_t size) {
  XXH3_64bits_update(&state, data, size);
}

// A streaming hash of a file whose checksum digits are read as '0'.
struct Hash {
  virtual ~Hash() = default;
  virtual void update(const uint8_t* data, size_t size) = 0;
  virtual uint64_t digest() const = 0;
};

struct Crc32Hash final : Hash {
  uint32_t c = ~0u;
  void update(const uint8_t* data, size_t size) override {
    for (size_t at = 0; at < size; at += kBlockBytes) c = crc32_block(tables(), data + at, std::min(kBlockBytes, size - at), c);
  }
  uint64_t digest() const override { return ~c; }
};

struct Xxh3Hash final : Hash {
  XXH3_state_t state;
  Xxh3Hash() { XXH3_64bits_reset(&state); }
  void update(const uint8_t* data, size_t size) override {
    for (size_t at = 0; at < size; at += kBlockBytes) xxh3_block(state, data + at, std::min(kBlockBytes, size - at));
  }
  uint64_t digest() const override { return XXH3_64bits_digest(&state); }
};

struct Algorithm {
  std::string_view prefix;
  size_t digits;
};
constexpr Algorithm kXxh3{"xxh3:", 16}, kCrc32{"crc32:", 8};

}  // namespace

uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc) {
  Crc32Hash h;
  h.c = ~crc;
  h.update(data, size);
  return static_cast<uint32_t>(h.digest());
}

uint64_t xxh3_64(const uint8_t* data, size_t size) {
  Xxh3Hash h;
  h.update(data, size);
  return h.digest();
}

void verify_checksum(const uint8_t* data, size_t size, size_t header_end, const std::string& value) {
  const std::string_view v = value;
  const Algorithm a = v.substr(0, kCrc32.prefix.size()) == kCrc32.prefix ? kCrc32 : kXxh3;
  if (v.size() != a.prefix.size() + a.digits || v.substr(0, a.prefix.size()) != a.prefix ||
      v.find_first_not_of("0123456789abcdef", a.prefix.size()) != std::string_view::npos) {
    fail_model_format("metadata 'checksum' is not xxh3: and 16 lowercase hex digits (or crc32: and 8)");
  }
  const uint64_t expected = std::stoull(value.substr(a.prefix.size()), nullptr, 16);
  // Where the digits lie in the raw header: the value must occur there exactly once.
  const std::string_view header(reinterpret_cast<const char*>(data), header_end);
  const size_t found = header.find(v);
  if (found == std::string_view::npos) fail_model_format("the checksum value does not appear verbatim in the header");
  if (header.find(v, found + 1) != std::string_view::npos) fail_model_format("the checksum value occurs twice in the header");
  const size_t digits = found + a.prefix.size();
  const std::string zeros(a.digits, '0');
  Crc32Hash crc;
  Xxh3Hash xxh3;
  Hash& h = a.digits == kCrc32.digits ? static_cast<Hash&>(crc) : xxh3;
  h.update(data, digits);
  h.update(reinterpret_cast<const uint8_t*>(zeros.data()), a.digits);
  h.update(data + digits + a.digits, size - digits - a.digits);
  if (h.digest() != expected) {
    char actual[17];
    std::snprintf(actual, sizeof actual, "%0*llx", static_cast<int>(a.digits), static_cast<unsigned long long>(h.digest()));
    fail_model_format("the file is damaged: its checksum says " + value.substr(a.prefix.size()) + ", its bytes give " +
                      actual + " (download or copy it again)");
  }
}

}  // namespace crossattn
