// Damaged model files, class by class (issue 17): a byte changed anywhere in a shipped model file
// (the length prefix, the JSON header's tensor table, the config, the vocabulary, the tensor data,
// the tokenizer bytes) must end in a typed Error or, if it changes nothing that matters, in the
// same translations as the intact file: never a model that loads and translates into garbage.
// The checksum (model/checksum.h) is what turns a damaged weight into an error; this test asserts
// the outcome, whatever mechanism gives it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "error.h"
#include "model/checksum.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

const std::vector<std::string> kSentences = {"A dog runs through the grass.", "Two men are playing football.",
                                             "A woman in a red coat is reading."};

std::vector<std::string> translate_all(const Translator& t) {
  TranslateOptions options;
  options.attention = false;
  std::vector<std::string> out;
  for (const auto& r : t.translate_batch(kSentences, options)) out.push_back(r.text);
  return out;
}

// [begin, end) of the JSON string value of metadata `key` inside the raw header (escapes skipped).
struct Region {
  size_t begin, end;
};

Region string_value(const std::vector<uint8_t>& bytes, size_t header_end, const std::string& key) {
  const std::string needle = "\"" + key + "\":\"";
  const std::string header(bytes.begin(), bytes.begin() + static_cast<long>(header_end));
  const size_t at = header.find(needle);
  if (at == std::string::npos) throw std::runtime_error("no metadata " + key);
  size_t end = at + needle.size();
  while (header[end] != '"') end += header[end] == '\\' ? 2 : 1;
  return {at + needle.size(), end};
}

class DamagedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = testing::read_bytes(testing::int8_model_path());
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | bytes_[i];
    header_end_ = 8 + n;
    expected_ = translate_all(Translator::from_bytes(bytes_.data(), bytes_.size()));
  }

  // Damages `count` files one at a time, each in a run of up to `run` bytes at a random place of
  // `region` (every byte XORed with a random non-zero value), and expects each to fail with an
  // Error or translate as the intact one does. Returns how many ended in an Error.
  int damage(Region region, int count, uint32_t seed, size_t run = 1) {
    std::mt19937 rng(seed);
    int errors = 0;
    for (int i = 0; i < count; ++i) {
      std::vector<uint8_t> damaged = bytes_;
      const size_t at = region.begin + rng() % (region.end - region.begin);
      for (size_t j = at; j < std::min(at + run, region.end); ++j) damaged[j] ^= static_cast<uint8_t>(1 + rng() % 255);
      try {
        const auto t = Translator::from_bytes(damaged.data(), damaged.size());
        EXPECT_EQ(translate_all(t), expected_) << "byte " << at << " damaged: the model loads and translates differently";
      } catch (const Error&) {
        ++errors;
      }
    }
    return errors;
  }

  std::vector<uint8_t> bytes_;
  size_t header_end_ = 0;
  std::vector<std::string> expected_;
};

TEST_F(DamagedFileTest, LengthPrefix) { EXPECT_EQ(damage({0, 8}, 16, 1), 16); }

TEST_F(DamagedFileTest, TensorTable) {
  // After the metadata, whose last value is the checksum: the tensor entries and the padding.
  const Region checksum = string_value(bytes_, header_end_, "checksum");
  damage({checksum.end + 2, header_end_}, 40, 2);
}

TEST_F(DamagedFileTest, Config) { damage(string_value(bytes_, header_end_, "config"), 40, 3); }

TEST_F(DamagedFileTest, Vocabulary) { damage(string_value(bytes_, header_end_, "vocab"), 40, 4); }

// A damaged disk block or a bad download: 4 KiB of weights replaced.
TEST_F(DamagedFileTest, TensorData) { damage({header_end_, bytes_.size()}, 40, 5, 4096); }

TEST_F(DamagedFileTest, TokenizerBytes) {
  // The SentencePiece model is the U8 tensor "tokenizer.spm": narrower dtypes are written last, so
  // it is at the end of the data; its offsets come from the header.
  const std::string header(bytes_.begin(), bytes_.begin() + static_cast<long>(header_end_));
  const size_t entry = header.find("\"tokenizer.spm\"");
  ASSERT_NE(entry, std::string::npos);
  const size_t offsets = header.find("\"data_offsets\":[", entry) + 16;
  const size_t comma = header.find(',', offsets);
  const size_t begin = std::stoull(header.substr(offsets, comma - offsets));
  const size_t end = std::stoull(header.substr(comma + 1));
  damage({header_end_ + begin, header_end_ + end}, 60, 6, 16);
}

TEST(Checksum, Crc32MatchesTheCatalogueAndChains) {
  const std::string check = "123456789";
  const auto* p = reinterpret_cast<const uint8_t*>(check.data());
  EXPECT_EQ(crc32(p, check.size()), 0xCBF43926u);  // the CRC-32/ISO-HDLC check value
  EXPECT_EQ(crc32(p + 4, 5, crc32(p, 4)), 0xCBF43926u);
  EXPECT_EQ(crc32(p, 0), 0u);
  // Every length around the 8-byte stride gives the bytewise answer.
  std::vector<uint8_t> bytes(37);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 73 + 11);
  for (size_t n = 0; n <= bytes.size(); ++n) {
    uint32_t bytewise = 0;
    for (size_t i = 0; i < n; ++i) bytewise = crc32(&bytes[i], 1, bytewise);
    EXPECT_EQ(crc32(bytes.data(), n), bytewise) << n << " bytes";
  }
}

TEST(Checksum, Xxh3MatchesTheReference) {
  // Values of Python's xxhash.xxh3_64 (python3-xxhash), which models/model_file.py writes.
  const std::string check = "123456789";
  EXPECT_EQ(xxh3_64(reinterpret_cast<const uint8_t*>(check.data()), check.size()), 0x72dcb18b67a17dffull);
  EXPECT_EQ(xxh3_64(nullptr, 0), 0x2d06800538d394c2ull);
  // 256,000 bytes: several of the 64 KiB blocks it hashes one call at a time, and a partial one.
  std::vector<uint8_t> bytes(256000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(xxh3_64(bytes.data(), bytes.size()), 0x776474c39d20f9aaull);
}

TEST_F(DamagedFileTest, ChecksumErrorSaysTheFileIsDamaged) {
  std::vector<uint8_t> damaged = bytes_;
  damaged[damaged.size() / 2] ^= 1;
  try {
    Translator::from_bytes(damaged.data(), damaged.size());
    FAIL() << "a flipped weight bit loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kModelFormat);
    EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crossattn
