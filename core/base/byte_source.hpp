#pragma once
// ByteSource: random-access, read-only bytes of an input (a file, or memory for tests and
// fuzzing). Readers ask for exact ranges; nothing is mapped, so behaviour is the same on
// Linux, Windows and macOS.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "byte_buffer.hpp"
#include "result.hpp"

namespace bagscope {

/// A view of a mapped file, kept mapped while any copy of `owner` lives.
struct MappedBytes {
  std::span<const std::byte> bytes;
  std::shared_ptr<const void> owner;
};

class ByteSource {
public:
  virtual ~ByteSource() = default;
  /// Size in bytes at open time.
  virtual std::uint64_t size() const = 0;
  /// Fills all of `out` from `offset`; a range past the end is a Truncated error.
  /// Thread-safe.
  virtual Result<void> readAt(std::uint64_t offset, std::span<std::byte> out) const = 0;
  /// The name errors use: the path as the user gave it.
  virtual const std::string& name() const = 0;
  /// The whole file mapped read-only, when the system maps it: read in place, no copy.
  /// Empty when not mapped, or once the file was found cut while mapped (then readAt() says
  /// what is missing).
  virtual MappedBytes mapped() const { return {}; }
  /// Whether the file now ends before `offset` (it was cut since it was opened): what was
  /// read from mapped() there may be zeros, and is not to be trusted. The mapping is then
  /// handed out no more.
  virtual bool endsBefore(std::uint64_t offset) const {
    (void)offset;
    return false;
  }
  /// Maps the pages of `range` (within mapped()) at once, on the calling thread: a loader on a
  /// worker takes the page faults its consumer would otherwise take one by one.
  virtual void prefault(std::span<const std::byte> range) const { (void)range; }
};

/// Reads `n` bytes from `offset` into `out` (resized to `n`). A range past the end is the
/// same Truncated error readAt gives, refused before anything is allocated: a damaged length
/// field never costs memory the file does not have.
Result<void> readExactly(const ByteSource& source, std::uint64_t offset, std::uint64_t n, ByteBuffer& out);

/// `n` bytes of `source` from `offset`: in place when `mapped` (its mapped()) holds the file,
/// else read into `buffer`. `whole`: the caller reads every byte (a decompressor, a checksum),
/// so the pages are populated at once; else they fault in as they are touched (listing an
/// uncompressed chunk's records touches one page of each large message, and populating all
/// of the 1.2 GB sensor bag's made its scan 5x slower). Errors as readExactly's.
Result<std::span<const std::byte>> bytesAt(const ByteSource& source, const MappedBytes& mapped, std::uint64_t offset,
                                           std::uint64_t n, ByteBuffer& buffer, bool whole);
/// Whether `bytes`, taken by bytesAt() from `mapped` at `offset`, may hold zeros: the file was
/// cut since, before their end (read last: a cut shows there). False for bytes that were read.
bool cutSince(const ByteSource& source, const MappedBytes& mapped, std::span<const std::byte> bytes,
              std::uint64_t offset);

/// The folder of the running program (the modules and the desktop app are found beside it);
/// empty when the system does not say.
std::filesystem::path executableFolder();

/// A path as UTF-8 text (for messages and JSON), on every platform.
inline std::string utf8(const std::filesystem::path& p) {
  auto s = p.u8string();
  return {s.begin(), s.end()};
}

/// A path as UTF-8 text with '/' between its parts, on every platform: for what other programs
/// read (an export's manifest), so that one written on Windows reads the same elsewhere.
inline std::string genericUtf8(const std::filesystem::path& p) {
  auto s = p.generic_u8string();
  return {s.begin(), s.end()};
}

/// Opens a file read-only (the file is never modified, locked or created).
Result<std::unique_ptr<ByteSource>> openFile(const std::filesystem::path& path);

/// Bytes held in memory, named `name` in errors.
std::unique_ptr<ByteSource> memorySource(std::vector<std::byte> bytes, std::string name);

}  // namespace bagscope
