#pragma once
// Decompression of chunk payloads: bz2 (ROS 1), LZ4 frames (ROS 1 roslz4 and MCAP), zstd
// (MCAP, rosbag2). Output grows only as data is really produced, so a hostile size field
// cannot make us allocate memory the input does not fill. And compression of chunks in the
// same codecs, for the recording writers.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/byte_buffer.hpp"
#include "core/base/result.hpp"

namespace bagscope::compress {

enum class Codec : std::uint8_t { None, Bz2, Lz4Frame, Zstd };

/// "none"/"bz2"/"lz4"/"zstd" (as ROS 1 chunk headers and MCAP chunk records name them).
/// Returns false for names it does not know.
bool codecFromName(std::string_view name, Codec& out);
const char* codecName(Codec codec);

/// The decompressed size a frame announces in its header (zstd frames may; LZ4 frames may),
/// or nothing when it does not say or the data is not such a frame.
std::optional<std::uint64_t> frameContentSize(Codec codec, std::span<const std::byte> in);

/// Streams a whole zstd-compressed file (rosbag2's "file" compression mode) into `out`,
/// which is created or replaced. Memory use stays small whatever the size. Errors name the
/// input file.
Result<void> decompressFile(const std::filesystem::path& in, const std::filesystem::path& out);

/// The most a compressed chunk (or a message compressed on its own) may claim to hold: 1 GiB.
/// A larger claim is refused before anything is inflated — a decompression bomb, or a
/// damaged size field; real chunks are far smaller (rosbag writes 768 KiB, MCAP writers 1-4
/// MiB), and a claim beyond what the codec can make of the compressed bytes (lz4 at most
/// 255:1, zstd 32768:1) is refused as well. Memory for one chunk so stays within this bound
/// whatever a file says.
constexpr std::uint64_t kMaxUncompressedBytes = std::uint64_t{1} << 30;

/// Why `claimed` bytes cannot come from `compressedBytes` of `codec` (past kMaxUncompressedBytes,
/// or more than the codec can produce), or nothing when the claim is plausible.
std::optional<std::string> implausibleSize(Codec codec, std::uint64_t compressedBytes, std::uint64_t claimed);

/// Data of `codec` that came to `got` bytes where its header says `expected`: Truncated when
/// fewer, Format when more. One wording for the decompressor and for readers that take
/// uncompressed data where it lies.
Error sizeMismatch(Codec codec, std::uint64_t got, std::uint64_t expected);

/// Decompresses chunk payloads, reusing its codec contexts from one call to the next.
/// One thread at a time: give each reader or worker its own.
class Decompressor {
public:
  Decompressor();
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  /// Decompresses all of `in` into `out` (resized), which must come to exactly
  /// `expectedSize` bytes. Errors: Format for corrupt data or an implausible size (nothing
  /// is inflated), Truncated when the input ends early. LZ4 frames' block and content
  /// checksums are verified (by xxHash's XXH32, faster than liblz4's own).
  Result<void> decompress(Codec codec, std::span<const std::byte> in, std::size_t expectedSize, ByteBuffer& out);

  /// For recovering a cut chunk: decompresses as much of `in` as decodes cleanly, up to
  /// `maxSize` bytes, into `out`. Never fails; `out` holds what could be decoded (nothing
  /// when `maxSize` is implausible).
  void decompressPrefix(Codec codec, std::span<const std::byte> in, std::size_t maxSize, ByteBuffer& out);

  struct Contexts;  ///< the codecs' own state (opaque)

private:
  std::unique_ptr<Contexts> contexts_;
};

/// Compresses all of `in` into `out` (resized to the compressed size) as one frame that the
/// decompressor above, and every reader of ROS 1 bags and MCAP, reads back: LZ4 frames with
/// independent blocks and a content checksum (what roslz4 requires), zstd at level 1 (the
/// MCAP C++ library's default, which `ros2 bag record -s mcap` writes), bz2 with 900 kB blocks (as rosbag writes).
/// `None` copies. Thread-safe (keeps no state).
Result<void> compress(Codec codec, std::span<const std::byte> in, ByteBuffer& out);

}  // namespace bagscope::compress
