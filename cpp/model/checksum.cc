#include "model/checksum.h"

#include <array>
#include <cstdio>
#include <cstring>

#include "error.h"

namespace crossattn {
namespace {

constexpr size_t kDigits = 8;

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

}  // namespace

uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc) {
  const Tables& t = tables();
  uint32_t c = ~crc;
  for (; size >= 8; data += 8, size -= 8) {
    const uint32_t lo = c ^ (data[0] | data[1] << 8 | data[2] << 16 | static_cast<uint32_t>(data[3]) << 24);
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
        t[3][data[4]] ^ t[2][data[5]] ^ t[1][data[6]] ^ t[0][data[7]];
  }
  for (; size > 0; ++data, --size) c = (c >> 8) ^ t[0][(c ^ *data) & 0xFF];
  return ~c;
}

void verify_checksum(const uint8_t* data, size_t size, size_t header_end, const std::string& value) {
  const size_t prefix = std::strlen(kChecksumPrefix);
  unsigned expected = 0;
  char rest = 0;
  if (value.size() != prefix + kDigits || value.compare(0, prefix, kChecksumPrefix) != 0 ||
      value.find_first_not_of("0123456789abcdef", prefix) != std::string::npos ||
      std::sscanf(value.c_str() + prefix, "%8x%c", &expected, &rest) != 1) {
    fail_model_format("metadata 'checksum' is not crc32: and 8 lowercase hex digits");
  }
  // Where the digits lie in the raw header: the value must occur there exactly once.
  const uint8_t* header_last = data + header_end;
  const uint8_t* found = nullptr;
  for (const uint8_t* p = data; p + value.size() <= header_last; ++p) {
    if (std::memcmp(p, value.data(), value.size()) != 0) continue;
    if (found != nullptr) fail_model_format("the checksum value occurs twice in the header");
    found = p;
  }
  if (found == nullptr) fail_model_format("the checksum value does not appear verbatim in the header");
  const uint8_t* digits = found + prefix;
  const uint8_t zeros[kDigits] = {'0', '0', '0', '0', '0', '0', '0', '0'};
  uint32_t crc = crc32(data, static_cast<size_t>(digits - data));
  crc = crc32(zeros, kDigits, crc);
  crc = crc32(digits + kDigits, size - static_cast<size_t>(digits + kDigits - data), crc);
  if (crc != expected) {
    char actual[kDigits + 1];
    std::snprintf(actual, sizeof actual, "%08x", crc);
    fail_model_format("the file is damaged: its checksum says " + value.substr(prefix) + ", its bytes give " + actual +
                      " (download or copy it again)");
  }
}

}  // namespace crossattn
