// One self-contained model file: a safetensors container (docs/model-format.md) whose metadata
// holds the config, the names of the SentencePiece tensors and, for vocabularies that number pieces
// otherwise than SentencePiece does, the vocabulary; its tensors hold the weights and the tokenizer
// model bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/config.h"
#include "model/safetensors.h"
#include "model/weights.h"

namespace crossattn {

/// The largest model file read from a path (bytes): 1 GiB, as bindings/src/sources.ts MAX_FILE_BYTES.
inline constexpr size_t kMaxModelFileBytes = size_t{1} << 30;

/// The bytes of a file read from a path: its first `size` bytes are the file.
struct ModelFileBytes {
  OwnedFileBytes bytes;
  size_t size = 0;
};

/// Reads the model file at `path`, deciding by the opened descriptor's type and size before any
/// read: the file is opened non-blocking (O_RDONLY | O_NONBLOCK, so that a FIFO does not wait for a
/// writer) and fstat must say a regular file of at most kMaxModelFileBytes; a stat of the path
/// followed by open() could look at one file and open another. The rule of bindings/src/sources.ts
/// (readFileInto), in its words. Then check_container (model/safetensors.h) refuses, naming `path`,
/// bytes that are not a model file at all.
/// Raises Error(kLoad) for a path that is missing, unreadable, not a regular file (a FIFO, a folder,
/// a device, a socket) or larger than 1 GiB; Error(kModelFormat) from check_container.
ModelFileBytes read_model_file(const std::string& path);

struct ModelFile {
  ModelConfig config;
  TransformerWeights weights;
  std::string source_spm, target_spm;  // serialized SentencePiece models
  // [vocab_size] pieces, id = index; empty when the file has no `vocab`: the pieces are then those
  // of the target SentencePiece model, in its id order (every file export.py writes).
  std::vector<std::string> vocab;
  // [source_vocab_size] source pieces, id = index (metadata `source_vocab`); empty when the file has
  // none: the source side then reads `vocab`, or without it the source SentencePiece model's own ids.
  std::vector<std::string> source_vocab;

  /// Parses the `size` bytes of a model file at `bytes`, which it only reads: int8 weights in the
  /// file's kernel layout are converted into new memory, and nothing refers to the bytes after
  /// parse. Raises Error(kModelFormat) for anything truncated,
  /// corrupt or inconsistent (see SafeTensors::parse and TransformerWeights::load), and for any
  /// damaged byte when the file has a `checksum` (model/checksum.h), as every file export.py and
  /// quantize.py write does.
  static ModelFile parse(const FileBytes& bytes, size_t size);
  /// The same on bytes the caller gives up: int8 weights in the kernel layout are converted where
  /// they lie (PackedLinear::from_int8_panels_in_place, after the checksum), and the model keeps the
  /// bytes alive. No new memory for those weights, and no fresh pages to fault in (wasm).
  static ModelFile parse_owned(OwnedFileBytes bytes, size_t size);
  /// parse_owned on a copy of `size` bytes at `data`.
  static ModelFile parse(const uint8_t* data, size_t size);

 private:
  static ModelFile parse_bytes(const FileBytes& bytes, size_t size, bool owned);
};

}  // namespace crossattn
