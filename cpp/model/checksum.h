// The model file's checksum (docs/model-format.md, "Checksum"): CRC-32 of the whole file, with the
// eight hex digits of the checksum itself read as "00000000". A damaged byte anywhere (header,
// config, vocabulary, tensor data, tokenizer bytes) then fails the load with a typed error instead
// of loading a model that translates into something else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace crossattn {

/// CRC-32 as in zlib, gzip and PNG (ISO-HDLC: reflected polynomial 0xEDB88320, initial and final
/// XOR 0xFFFFFFFF), continuing from `crc` (0 to start), so that crc32(b, crc32(a)) = crc32(a + b).
/// crc32("123456789") = 0xCBF43926, the catalogued check value. Slicing-by-8 (Kounavis and Berry
/// 2008), about 1 GB/s natively.
uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc = 0);

/// The prefix of the `checksum` metadata value: "crc32:" then 8 lowercase hex digits.
constexpr const char* kChecksumPrefix = "crc32:";

/// Checks `size` bytes of a model file against `value`, its `checksum` metadata ("crc32:" and 8 hex
/// digits): the value must occur exactly once in the file's header (the first `header_end` bytes), and
/// the CRC-32 of the file with those 8 digits read as zeros must equal them. Raises
/// Error(kModelFormat) for a malformed value or a mismatch ("the file is damaged").
void verify_checksum(const uint8_t* data, size_t size, size_t header_end, const std::string& value);

}  // namespace crossattn
