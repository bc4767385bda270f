// Helpers shared by the engine tests: the model and fixture under test, and file bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "error.h"
#include "model/model_file.h"
#include "translator.h"

namespace crossattn::testing {

// The model file under test: $CROSSATTN_TEST_MODEL, else the shipped model (CMake's default).
inline std::string model_path() {
  const char* env = std::getenv("CROSSATTN_TEST_MODEL");
  return env ? env : CROSSATTN_TEST_MODEL;
}

// The int8 quantization of that model: $CROSSATTN_TEST_INT8_MODEL, else CMake's default.
inline std::string int8_model_path() {
  const char* env = std::getenv("CROSSATTN_TEST_INT8_MODEL");
  return env ? env : CROSSATTN_TEST_INT8_MODEL;
}

// The PyTorch parity fixture of that model: $CROSSATTN_TEST_FIXTURE, else CMake's default.
inline std::string fixture_path() {
  const char* env = std::getenv("CROSSATTN_TEST_FIXTURE");
  return env ? env : CROSSATTN_TEST_FIXTURE;
}

// The Translator of model_path(), loaded once per test binary and shared by the tests that only
// translate with it (Translator is const and stateless between calls).
inline const Translator& shared_translator() {
  static const Translator translator = Translator::from_file(model_path());
  return translator;
}

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A safetensors buffer: 8-byte little-endian header length, the header text, then `data`.
inline std::vector<uint8_t> make_safetensors(const std::string& header, const std::vector<uint8_t>& data) {
  // Sized once and copied into: growing it by insert trips GCC 12's false -Wstringop-overread.
  std::vector<uint8_t> out(8 + header.size() + data.size());
  const uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(n >> (8 * i));
  std::copy(header.begin(), header.end(), out.begin() + 8);
  std::copy(data.begin(), data.end(), out.begin() + 8 + static_cast<std::ptrdiff_t>(header.size()));
  return out;
}

// A model file split into its JSON header and data, for rewriting the header.
struct Parts {
  nlohmann::json header;
  std::vector<uint8_t> data;
};

inline Parts split(const std::vector<uint8_t>& bytes) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  return {nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(n)),
          std::vector<uint8_t>(bytes.begin() + 8 + static_cast<long>(n), bytes.end())};
}

// Joins a rewritten header and the data into a file without a checksum (which the rewrite would
// fail), so that each test reaches the check behind the checksum that it is about.
inline std::vector<uint8_t> join(Parts p) {
  p.header["__metadata__"].erase("checksum");
  return make_safetensors(p.header.dump(), p.data);
}

// Appends a 1-D tensor of 4-byte values (int32_t as "I32", float as "F32", or any 4-byte dtype a
// test claims) to a split model file.
template <typename T>
void append_tensor(Parts& p, const std::string& name, const std::string& dtype, const std::vector<T>& values) {
  static_assert(sizeof(T) == 4, "4-byte values");
  const size_t begin = p.data.size();
  const auto* raw = reinterpret_cast<const uint8_t*>(values.data());
  p.data.insert(p.data.end(), raw, raw + values.size() * sizeof(T));
  p.header[name] = {{"dtype", dtype}, {"shape", {values.size()}}, {"data_offsets", {begin, p.data.size()}}};
}

// Expects ModelFile::parse(bytes) to raise Error(kModelFormat) whose message names `subject`.
inline void expect_model_format_error(const std::vector<uint8_t>& bytes, const std::string& subject) {
  try {
    ModelFile::parse(bytes.data(), bytes.size());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kModelFormat) << e.what();
    EXPECT_NE(std::string(e.what()).find(subject), std::string::npos) << e.what();
  }
}

// The model file `bytes` with its config JSON rewritten by `edit` (and no checksum).
inline std::vector<uint8_t> with_config(const std::vector<uint8_t>& bytes,
                                        const std::function<void(nlohmann::json&)>& edit) {
  Parts p = split(bytes);
  auto config = nlohmann::json::parse(p.header["__metadata__"]["config"].get<std::string>());
  edit(config);
  p.header["__metadata__"]["config"] = config.dump();
  return join(std::move(p));
}

}  // namespace crossattn::testing
