#include "model/safetensors.h"

#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include "error.h"
#include "test_util.h"

namespace crossattn {
namespace {

using testing::make_safetensors;

std::vector<uint8_t> floats(std::initializer_list<float> values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

ErrorCode parse_error(const std::vector<uint8_t>& bytes) {
  try {
    SafeTensors::parse(bytes.data(), bytes.size());
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "parse accepted a damaged file";
  return ErrorCode::kInvalidInput;
}

// The writers put int8 weights on 16-byte boundaries of the file (docs/model-format.md); a file's
// storage starts on a 64-byte one, so those weights lie on 16-byte addresses too.
TEST(SafeTensors, FileBytesStartOn64ByteBoundaries) {
  for (const size_t size : {size_t{0}, size_t{1}, size_t{63}, size_t{4096}, size_t{1} << 20}) {
    const OwnedFileBytes bytes = allocate_file_bytes(size);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(bytes.get()) % 64, 0u) << size;
  }
}

TEST(SafeTensors, ReadsTensorsAndMetadata) {
  const auto bytes = make_safetensors(
      R"({"__metadata__":{"format":"crossattn"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})",
      floats({1, 2, 3, 4}));
  const auto file = SafeTensors::parse(bytes.data(), bytes.size());
  EXPECT_EQ(file.metadata("format"), "crossattn");
  const auto& w = file.tensor("w");
  EXPECT_EQ(w.dtype, DType::kF32);
  EXPECT_EQ(w.shape, (std::vector<int64_t>{2, 2}));
  float values[4];
  std::memcpy(values, w.data, 16);
  EXPECT_EQ(values[3], 4.0f);
}

TEST(SafeTensors, RejectsDamagedHeaders) {
  const auto data = floats({1, 2, 3, 4});
  EXPECT_EQ(parse_error({1, 2, 3}), ErrorCode::kModelFormat);  // shorter than the length field
  EXPECT_EQ(parse_error(make_safetensors("{not json", data)), ErrorCode::kModelFormat);
  EXPECT_EQ(parse_error(make_safetensors("[1,2]", data)), ErrorCode::kModelFormat);
  // Offsets past the end of the data (a truncated file).
  EXPECT_EQ(parse_error(make_safetensors(R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,32]}})", data)),
            ErrorCode::kModelFormat);
  // Byte count that disagrees with shape x dtype.
  EXPECT_EQ(parse_error(make_safetensors(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}})", data)),
            ErrorCode::kModelFormat);
  // begin > end, negative dimension, unknown dtype, missing field, non-string metadata.
  EXPECT_EQ(parse_error(make_safetensors(R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[8,4]}})", data)),
            ErrorCode::kModelFormat);
  EXPECT_EQ(parse_error(make_safetensors(R"({"w":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}})", data)),
            ErrorCode::kModelFormat);
  EXPECT_EQ(parse_error(make_safetensors(R"({"w":{"dtype":"F64","shape":[2],"data_offsets":[0,16]}})", data)),
            ErrorCode::kModelFormat);
  EXPECT_EQ(parse_error(make_safetensors(R"({"w":{"dtype":"F32","data_offsets":[0,16]}})", data)),
            ErrorCode::kModelFormat);
  EXPECT_EQ(parse_error(make_safetensors(R"({"__metadata__":{"a":1}})", data)), ErrorCode::kModelFormat);
  // Dimensions whose product overflows 64 bits.
  EXPECT_EQ(parse_error(make_safetensors(
                R"({"w":{"dtype":"F32","shape":[2147483647,2147483647,2147483647],"data_offsets":[0,16]}})", data)),
            ErrorCode::kModelFormat);
}

TEST(SafeTensors, HeaderLengthBeyondFileIsAnError) {
  auto bytes = make_safetensors(R"({})", {});
  bytes[0] = 0xff;  // claims a 255-byte header in a 10-byte file
  EXPECT_EQ(parse_error(bytes), ErrorCode::kModelFormat);
  bytes[0] = 0, bytes[7] = 0x80;  // a length near 2^63
  EXPECT_EQ(parse_error(bytes), ErrorCode::kModelFormat);
}

TEST(SafeTensors, MissingTensorIsAnError) {
  const auto bytes = make_safetensors("{}", {});
  const auto file = SafeTensors::parse(bytes.data(), bytes.size());
  EXPECT_THROW(file.tensor("nope"), Error);
  EXPECT_THROW(file.metadata("nope"), Error);
}

}  // namespace
}  // namespace crossattn
