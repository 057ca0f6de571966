#pragma once
// Decompression of chunk payloads: bz2 (ROS 1), LZ4 frames (ROS 1 roslz4 and MCAP), zstd
// (MCAP, rosbag2). Output grows only as data is really produced, so a hostile size field
// cannot make us allocate memory the input does not fill.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/base/byte_buffer.hpp"
#include "core/base/result.hpp"

namespace bagscope::compress {

enum class Codec : std::uint8_t { None, Bz2, Lz4Frame, Zstd };

/// "none"/"bz2"/"lz4"/"zstd" (as ROS 1 chunk headers and MCAP chunk records name them).
/// Returns false for names it does not know.
bool codecFromName(std::string_view name, Codec& out);
const char* codecName(Codec codec);

/// Decompresses all of `in` into `out` (resized), which must come to exactly
/// `expectedSize` bytes. Errors: Format for corrupt data, Truncated when the input ends early.
/// Offsets in errors are relative to `in`.
Result<void> decompress(Codec codec, std::span<const std::byte> in, std::size_t expectedSize,
                        ByteBuffer& out);

/// For recovering a cut chunk: decompresses as much of `in` as decodes cleanly, up to
/// `maxSize` bytes, into `out`. Never fails; returns what could be decoded (maybe nothing).
void decompressPrefix(Codec codec, std::span<const std::byte> in, std::size_t maxSize,
                      ByteBuffer& out);

}  // namespace bagscope::compress
