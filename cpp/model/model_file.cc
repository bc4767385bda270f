#include "model/model_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>

#include "error.h"
#include "model/checksum.h"
#include "model/safetensors.h"
#include "model/tensor_spec.h"

namespace crossattn {
namespace {

constexpr const char* kFormat = "crossattn";
constexpr const char* kFormatVersion = "1";

std::string read_bytes_tensor(const SafeTensors& file, const std::string& name) {
  const TensorView& t = file.tensor(name);
  if (t.dtype != DType::kU8 || t.shape.size() != 1) fail_model_format("tokenizer tensor '" + name + "' must be U8 [n]");
  return std::string(reinterpret_cast<const char*>(t.data), t.nbytes);
}

[[noreturn]] void fail_load(const std::string& what) { throw Error(ErrorCode::kLoad, what); }

// Closes a file descriptor on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

ModelFileBytes read_model_file(const std::string& path) {
  // O_NONBLOCK changes nothing for a regular file (POSIX open(3p), "O_NONBLOCK"); for a FIFO it makes
  // open() return at once instead of waiting for a writer, so that fstat can refuse it.
  const Descriptor file{open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    if (errno == ENOENT) fail_load(path + " does not exist");
    fail_load("cannot read " + path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (fstat(file.fd, &st) != 0) fail_load("cannot read " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail_load(path + " is not a regular file");
  if (st.st_size < 0 || static_cast<uint64_t>(st.st_size) > kMaxModelFileBytes) {
    fail_load(path + " is " + std::to_string(st.st_size) + " bytes; files above " + std::to_string(kMaxModelFileBytes) +
              " bytes (1 GiB) are refused");
  }
  const size_t capacity = static_cast<size_t>(st.st_size);
  std::shared_ptr<uint8_t> bytes = allocate_file_bytes(capacity);
  size_t size = 0;
  while (size < capacity) {
    const ssize_t n = read(file.fd, bytes.get() + size, capacity - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_load("cannot read " + path + ": " + std::strerror(errno));
    if (n == 0) break;  // the file shrank while it was read
    size += static_cast<size_t>(n);
  }
  check_container(bytes.get(), size, path);
  return {std::move(bytes), size};
}

ModelFile ModelFile::parse(const uint8_t* data, size_t size) { return parse_owned(copy_file_bytes(data, size), size); }

ModelFile ModelFile::parse(const FileBytes& bytes, size_t size) { return parse_bytes(bytes, size, false); }

ModelFile ModelFile::parse_owned(OwnedFileBytes bytes, size_t size) { return parse_bytes(bytes, size, true); }

ModelFile ModelFile::parse_bytes(const FileBytes& bytes, size_t size, bool owned) {
  const uint8_t* data = bytes.get();
  const SafeTensors file = SafeTensors::parse(data, size);
  if (file.metadata("format") != kFormat) fail_model_format("metadata 'format' is not '" + std::string(kFormat) + "'");
  if (file.metadata("format_version") != kFormatVersion) {
    fail_model_format("format_version '" + file.metadata("format_version") + "' is not supported (this engine reads " +
         kFormatVersion + ")");
  }
  // A fuzzing build skips the checksum, so that the fuzzer's mutations reach the parsers behind it.
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  if (const std::string* checksum = file.find_metadata("checksum")) {
    verify_checksum(data, size, file.header_bytes(), *checksum);
  }
#endif
  ModelFile model;
  model.config = ModelConfig::from_json(file.metadata("config"));
  std::vector<std::string> tokenizer_tensors;
  try {
    if (const std::string* vocab = file.find_metadata("vocab")) {
      model.vocab = nlohmann::json::parse(*vocab).get<std::vector<std::string>>();
      if (static_cast<int>(model.vocab.size()) != model.config.vocab_size) {
        fail_model_format("the vocabulary has " + std::to_string(model.vocab.size()) + " pieces, the config says " +
                          std::to_string(model.config.vocab_size));
      }
    }
    if (const std::string* source_vocab = file.find_metadata("source_vocab")) {
      model.source_vocab = nlohmann::json::parse(*source_vocab).get<std::vector<std::string>>();
      if (static_cast<int>(model.source_vocab.size()) != model.config.source_vocab_size) {
        fail_model_format("metadata 'source_vocab' has " + std::to_string(model.source_vocab.size()) +
                          " pieces, the config's source_vocab_size says " +
                          std::to_string(model.config.source_vocab_size));
      }
    }
    const auto tokenizer = nlohmann::json::parse(file.metadata("tokenizer"));
    tokenizer_tensors = {tokenizer.at("source_spm").get<std::string>(), tokenizer.at("target_spm").get<std::string>()};
    model.source_spm = read_bytes_tensor(file, tokenizer_tensors[0]);
    model.target_spm = read_bytes_tensor(file, tokenizer_tensors[1]);
  } catch (const nlohmann::json::exception& e) {
    fail_model_format(std::string("metadata 'vocab', 'source_vocab' or 'tokenizer' is malformed (") + e.what() + ")");
  }
  check_tensors(file, model.config, tokenizer_tensors);  // cpp/model/tensor_spec.json
  model.weights = TransformerWeights::load(file, model.config, bytes, owned);
  return model;
}

}  // namespace crossattn
