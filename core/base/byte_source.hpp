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
};

/// Reads `n` bytes from `offset` into `out` (resized to `n`). A range past the end is the
/// same Truncated error readAt gives, refused before anything is allocated: a damaged length
/// field never costs memory the file does not have.
Result<void> readExactly(const ByteSource& source, std::uint64_t offset, std::uint64_t n, ByteBuffer& out);

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
