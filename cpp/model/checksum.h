// The model file's checksum (docs/model-format.md, "Checksum"): a hash of the whole file, with the
// hex digits of the checksum itself read as "0". A damaged byte anywhere (header, config,
// vocabulary, tensor data, tokenizer bytes) then fails the load with a typed error instead of
// loading a model that translates into something else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace crossattn {

/// CRC-32 as in zlib, gzip and PNG (ISO-HDLC: reflected polynomial 0xEDB88320, initial and final
/// XOR 0xFFFFFFFF), continuing from `crc` (0 to start), so that crc32(b, crc32(a)) = crc32(a + b).
/// crc32("123456789") = 0xCBF43926, the catalogued check value. Slicing-by-8 (Kounavis and Berry
/// 2008), about 1 GB/s natively. The checksum of files written before "xxh3:".
uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc = 0);

/// XXH3-64 (xxHash 0.8, seed 0; Collet, https://github.com/Cyan4973/xxHash) of `size` bytes, as
/// Python's xxhash.xxh3_64 computes it: the checksum of files written now, several times fewer
/// instructions a byte than CRC-32 (no table lookups; docs/model-format.md has the load times).
uint64_t xxh3_64(const uint8_t* data, size_t size);

/// Checks `size` bytes of a model file against `value`, its `checksum` metadata: "xxh3:" and 16
/// lowercase hex digits, or "crc32:" and 8. The value must occur exactly once in the file's header
/// (the first `header_end` bytes), and the hash of the file with those digits read as '0' must equal
/// them. Raises Error(kModelFormat) for a malformed value or a mismatch ("the file is damaged").
void verify_checksum(const uint8_t* data, size_t size, size_t header_end, const std::string& value);

}  // namespace crossattn
