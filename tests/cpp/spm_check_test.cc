#include "tokenizer/spm_check.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "error.h"

namespace crossattn {
namespace {

// A length-delimited protobuf field (number < 16, length < 128 or two-byte varint).
std::string field(int number, const std::string& body) {
  std::string out(1, static_cast<char>((number << 3) | 2));
  size_t n = body.size();
  while (n >= 0x80) {
    out += static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  out += static_cast<char>(n);
  return out + body;
}

// A ModelProto whose normalizer_spec carries a charsmap of these trie units and strings.
std::string model_with(const std::vector<uint32_t>& units, const std::string& strings) {
  std::string blob(4 + 4 * units.size(), '\0');
  const uint32_t trie_size = static_cast<uint32_t>(4 * units.size());
  std::memcpy(&blob[0], &trie_size, 4);
  std::memcpy(&blob[4], units.data(), 4 * units.size());
  return field(3, field(1, "nmt_nfkc") + field(2, blob + strings));
}

ErrorCode error_of(const std::string& bytes) {
  try {
    check_spm_model(bytes);
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::kModelFormat;  // "no error", distinct from the expected kTokenizer
}

TEST(SpmCheck, AcceptsAWellFormedTrieAndModelsWithoutRules) {
  EXPECT_NO_THROW(check_spm_model(model_with(std::vector<uint32_t>(256, 0), std::string("a\0", 2))));
  EXPECT_NO_THROW(check_spm_model(field(1, "pieces only")));
  EXPECT_NO_THROW(check_spm_model(""));
}

TEST(SpmCheck, RefusesRulesThatWouldBeReadOutOfBounds) {
  std::vector<uint32_t> units(256, 0);
  units[0] = 300u << 10;  // offset 300: the block of unit 0's children starts past the trie
  EXPECT_EQ(error_of(model_with(units, std::string("\0", 1))), ErrorCode::kTokenizer);
  units[0] = 1u << 8;  // a leaf whose value (256) lies past the one-byte strings
  EXPECT_EQ(error_of(model_with(units, std::string("\0", 1))), ErrorCode::kTokenizer);
  units[0] = 0;
  EXPECT_EQ(error_of(model_with(units, "abc")), ErrorCode::kTokenizer);  // strings without NUL
  EXPECT_EQ(error_of(model_with({}, std::string("\0", 1))), ErrorCode::kTokenizer);  // no trie
  std::string truncated = model_with(units, std::string("\0", 1));
  truncated.resize(truncated.size() - 10);
  EXPECT_EQ(error_of(truncated), ErrorCode::kTokenizer);
  EXPECT_EQ(error_of(std::string("\x1b", 1)), ErrorCode::kTokenizer);  // wire type 3 (groups)
}

}  // namespace
}  // namespace crossattn
