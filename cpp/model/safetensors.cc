#include "model/safetensors.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

#include <nlohmann/json.hpp>

#include "error.h"

namespace crossattn {
namespace {

constexpr uint64_t kMaxHeaderBytes = 64u << 20;  // a header larger than 64 MiB is not a model of ours
constexpr int64_t kMaxDim = int64_t{1} << 31;

DType parse_dtype(const std::string& name, const std::string& tensor) {
  if (name == "F32") return DType::kF32;
  if (name == "F16") return DType::kF16;
  if (name == "BF16") return DType::kBF16;
  if (name == "I32") return DType::kI32;
  if (name == "I8") return DType::kI8;
  if (name == "U8") return DType::kU8;
  fail_model_format("tensor '" + tensor + "' has unsupported dtype '" + name + "'");
}

uint64_t read_u64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Refuses tensors whose data ranges overlap or alias: every byte of the data belongs to at most one
// tensor, as in the safetensors reference reader (huggingface/safetensors safetensors/src/tensor.rs,
// Metadata::validate, which requires the entries, in offset order, each to start where the last
// ended; a hole between tensors is allowed here, as files other tools write may align their data).
void check_disjoint(const std::map<std::string, TensorView>& tensors, const uint8_t* blob) {
  std::vector<std::pair<size_t, const std::string*>> begins;  // [tensors] (data offset, name)
  for (const auto& [name, view] : tensors) {
    if (view.nbytes > 0) begins.emplace_back(static_cast<size_t>(view.data - blob), &name);
  }
  std::sort(begins.begin(), begins.end());
  for (size_t i = 1; i < begins.size(); ++i) {
    const std::string& previous = *begins[i - 1].second;
    const size_t previous_end = begins[i - 1].first + tensors.at(previous).nbytes;
    if (begins[i].first < previous_end) {
      fail_model_format("tensor '" + *begins[i].second + "' data begins at " + std::to_string(begins[i].first) +
                        ", inside tensor '" + previous + "' (ending at " + std::to_string(previous_end) +
                        "): tensors may not share bytes");
    }
  }
}

}  // namespace

void check_container(const uint8_t* data, size_t size, const std::string& name) {
  const std::string subject = name.empty() ? "the model bytes are" : name + " is";
  if (size == 0) throw Error(ErrorCode::kModelFormat, subject + " not a crossattn model file: it is empty");
  // What the TypeScript side says for the same bytes (bindings/src/engine.ts, checkModelContainer).
  if (size > 8 && read_u64_le(data) <= size - 8 && data[8] == '{') return;
  std::string start;
  for (size_t i = 0; i < std::min<size_t>(size, 24); ++i) start += data[i] >= 0x20 && data[i] < 0x7f ? static_cast<char>(data[i]) : '.';
  throw Error(ErrorCode::kModelFormat, subject + " not a crossattn model file: it starts with \"" + start + "\", not with a model header");
}

OwnedFileBytes allocate_file_bytes(size_t size) {
  // 64-byte aligned, so that a file's offsets are its addresses' alignment: the writers put int8
  // weights on 16-byte boundaries of the file (docs/model-format.md), where the int8 kernels load
  // them in place. Not zeroed: megabytes that are overwritten at once.
  constexpr size_t kAlign = 64;
  void* bytes = std::aligned_alloc(kAlign, std::max<size_t>((size + kAlign - 1) / kAlign * kAlign, kAlign));
  if (bytes == nullptr) throw std::bad_alloc();
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(bytes), [](uint8_t* p) { std::free(p); });
}

OwnedFileBytes copy_file_bytes(const uint8_t* data, size_t size) {
  OwnedFileBytes bytes = allocate_file_bytes(size);
  std::copy_n(data, size, bytes.get());
  return bytes;
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kF32:
    case DType::kI32: return 4;
    case DType::kF16:
    case DType::kBF16: return 2;
    case DType::kI8:
    case DType::kU8: return 1;
  }
  return 0;
}

int64_t TensorView::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

SafeTensors SafeTensors::parse(const uint8_t* data, size_t size) {
  check_container(data, size, "");
  const uint64_t header_len = read_u64_le(data);
  if (header_len > kMaxHeaderBytes) {
    fail_model_format("header length " + std::to_string(header_len) + " exceeds the 64 MiB a header may have");
  }
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(data + 8, data + 8 + header_len);
  } catch (const nlohmann::json::exception& e) {
    fail_model_format(std::string("header is not valid JSON (") + e.what() + ")");
  }
  if (!header.is_object()) fail_model_format("header is not a JSON object");

  const uint8_t* blob = data + 8 + header_len;
  const uint64_t blob_size = size - 8 - header_len;
  SafeTensors file;
  file.header_bytes_ = static_cast<size_t>(8 + header_len);
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") {
      if (!entry.is_object()) fail_model_format("__metadata__ is not an object");
      for (const auto& [key, value] : entry.items()) {
        if (!value.is_string()) fail_model_format("metadata '" + key + "' is not a string");
        file.metadata_[key] = value.get<std::string>();
      }
      continue;
    }
    if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") ||
        !entry.contains("data_offsets") || !entry["dtype"].is_string() || !entry["shape"].is_array() ||
        !entry["data_offsets"].is_array() || entry["data_offsets"].size() != 2) {
      fail_model_format("tensor '" + name + "' needs dtype, shape and two data_offsets");
    }
    TensorView view;
    view.dtype = parse_dtype(entry["dtype"].get<std::string>(), name);
    uint64_t numel = 1;
    for (const auto& dim : entry["shape"]) {
      if (!dim.is_number_unsigned() || dim.get<uint64_t>() >= static_cast<uint64_t>(kMaxDim)) {
        fail_model_format("tensor '" + name + "' has an invalid dimension");
      }
      const uint64_t d = dim.get<uint64_t>();
      if (d != 0 && numel > std::numeric_limits<uint64_t>::max() / 8 / d) fail_model_format("tensor '" + name + "' is too large");
      numel *= d;
      view.shape.push_back(static_cast<int64_t>(d));
    }
    const auto& offsets = entry["data_offsets"];
    if (!offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned()) {
      fail_model_format("tensor '" + name + "' has non-integer data_offsets");
    }
    const uint64_t begin = offsets[0].get<uint64_t>(), end = offsets[1].get<uint64_t>();
    if (begin > end || end > blob_size) {
      fail_model_format("tensor '" + name + "' data [" + std::to_string(begin) + ", " + std::to_string(end) +
           ") lies outside the " + std::to_string(blob_size) + " data bytes (truncated file?)");
    }
    if (end - begin != numel * dtype_size(view.dtype)) {
      fail_model_format("tensor '" + name + "' holds " + std::to_string(end - begin) + " bytes but its shape and dtype need " +
           std::to_string(numel * dtype_size(view.dtype)));
    }
    view.data = blob + begin;
    view.nbytes = static_cast<size_t>(end - begin);
    file.tensors_.emplace(name, std::move(view));
  }
  check_disjoint(file.tensors_, blob);
  return file;
}

const TensorView& SafeTensors::tensor(const std::string& name) const {
  auto it = tensors_.find(name);
  if (it == tensors_.end()) fail_model_format("missing tensor '" + name + "'");
  return it->second;
}

const TensorView* SafeTensors::find(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

const std::string& SafeTensors::metadata(const std::string& key) const {
  auto it = metadata_.find(key);
  if (it == metadata_.end()) fail_model_format("missing metadata '" + key + "'");
  return it->second;
}

std::vector<std::string> SafeTensors::names() const {
  std::vector<std::string> out;
  out.reserve(tensors_.size());
  for (const auto& entry : tensors_) out.push_back(entry.first);
  return out;
}

const std::string* SafeTensors::find_metadata(const std::string& key) const {
  auto it = metadata_.find(key);
  return it == metadata_.end() ? nullptr : &it->second;
}

}  // namespace crossattn
