// Reader for the safetensors container (https://github.com/huggingface/safetensors):
//   [8 bytes: header length N, little-endian u64][N bytes: JSON header][raw little-endian tensor data]
// The JSON header maps each tensor name to {"dtype", "shape", "data_offsets": [begin, end)} relative
// to the start of the data, plus an optional "__metadata__" map of strings. Every field is checked
// against the bytes actually present, so a truncated or corrupt file raises Error(kModelFormat)
// instead of reading out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace crossattn {

enum class DType { kF32, kF16, kBF16, kI32, kI8, kU8 };

/// The bytes of a whole file, shared by whatever reads them: they live as long as their last reader.
using FileBytes = std::shared_ptr<const uint8_t>;

/// The bytes of a whole file that their reader owns alone and may rewrite (a model file's int8
/// panels are converted where they lie: ModelFile::parse_owned).
using OwnedFileBytes = std::shared_ptr<uint8_t>;

/// Uninitialised storage for `size` bytes, for the caller to fill (a file read, a copy from JS),
/// 64-byte aligned. Raises std::bad_alloc when memory runs out.
OwnedFileBytes allocate_file_bytes(size_t size);

/// A copy of `size` bytes at `data`.
OwnedFileBytes copy_file_bytes(const uint8_t* data, size_t size);

/// Size of one element in bytes.
size_t dtype_size(DType dtype);

/// A tensor inside a parsed file: a view into the caller's buffer, not a copy.
struct TensorView {
  DType dtype;
  std::vector<int64_t> shape;  // row-major, outermost first
  const uint8_t* data;         // nbytes bytes, possibly unaligned
  size_t nbytes;
  int64_t numel() const;
};

/// Refuses bytes that cannot be a safetensors file, before anything else reads them: a file begins
/// with 8 bytes of header length N (little-endian) and N bytes of JSON that begin with '{'
/// (huggingface/safetensors README, "Format"). A text file or an HTML page fails here. `name` is the
/// file as the user gave it, or "" for bytes. Raises Error(kModelFormat) "NAME is not a crossattn model
/// file: it starts with \"...\", not with a model header", in the words of bindings/src/engine.ts.
void check_container(const uint8_t* data, size_t size, const std::string& name);

class SafeTensors {
 public:
  /// Parses and validates the header of `size` bytes at `data` (check_container first; then every
  /// tensor's dtype, shape and data range, inside the data and sharing no byte with another
  /// tensor's). The buffer must outlive this object. Raises Error(kModelFormat) naming the first
  /// problem found.
  static SafeTensors parse(const uint8_t* data, size_t size);

  /// The tensor called `name`; Error(kModelFormat) if the file has none.
  const TensorView& tensor(const std::string& name) const;
  /// The tensor called `name`, or nullptr if the file has none.
  const TensorView* find(const std::string& name) const;
  /// The names of every tensor in the file, sorted.
  std::vector<std::string> names() const;
  /// The "__metadata__" string called `key`; Error(kModelFormat) if it is missing.
  const std::string& metadata(const std::string& key) const;
  /// The "__metadata__" string called `key`, or nullptr if the file has none.
  const std::string* find_metadata(const std::string& key) const;
  /// Bytes before the tensor data: the 8-byte length and the JSON header.
  size_t header_bytes() const { return header_bytes_; }

 private:
  std::map<std::string, TensorView> tensors_;
  std::map<std::string, std::string> metadata_;
  size_t header_bytes_ = 0;
};

}  // namespace crossattn
