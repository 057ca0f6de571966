#pragma once
// Writing outputs safely: every file (or folder) is written under a temporary name beside its
// final one and moved into place only when complete, so a failed, cancelled or killed write
// never leaves a partial file under the name the user asked for; nothing is replaced unless
// asked. Used by the exporters and the recording writers.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "result.hpp"

namespace bagscope {

/// A temporary name beside `final`: "<dir>/.<stem>.part-<12 hex><ext>" (the extension kept
/// for writers that choose a container by it).
std::filesystem::path temporaryBeside(const std::filesystem::path& final);

/// Moves a finished temporary file or folder to its final name. Without `overwrite` an
/// existing file or folder is never replaced (an error naming it); with it, an existing file
/// is replaced, and an existing folder only when `replaceableFolder` says it may be (a
/// recording of ours, never an arbitrary folder). On error the temporary is removed.
Result<void> publish(const std::filesystem::path& temp, const std::filesystem::path& final, bool overwrite,
                     bool (*replaceableFolder)(const std::filesystem::path&) = nullptr);

/// A file written front to back (with patches of what was written: header fields that are
/// known only at the end), buffered. Created new: opening fails if the path exists. Every
/// error names the file and says what the system said (a full disk is "No space left on
/// device"). The file is removed on destruction unless keep() was called.
class OutputFile {
public:
  static Result<OutputFile> create(const std::filesystem::path& path, std::string displayName);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  Result<void> write(std::span<const std::byte> bytes);
  Result<void> write(std::string_view text) { return write(std::as_bytes(std::span(text.data(), text.size()))); }
  /// Overwrites bytes already written at `offset`; the write position stays at the end.
  Result<void> patch(std::uint64_t offset, std::span<const std::byte> bytes);
  /// Bytes written so far (the offset the next write lands at).
  std::uint64_t position() const { return position_; }
  /// Flushes and closes; the file stays on disk (the caller publishes it).
  Result<void> close();
  const std::filesystem::path& path() const { return path_; }

private:
  OutputFile() = default;
  Error failure(const std::string& what) const;
  std::FILE* file_ = nullptr;
  std::filesystem::path path_;
  std::string name_;
  std::uint64_t position_ = 0;
  bool closed_ = false;
};

/// A temporary file or folder that is removed when this goes out of scope, unless released.
class TemporaryPath {
public:
  explicit TemporaryPath(std::filesystem::path path) : path_(std::move(path)) {}
  TemporaryPath(const TemporaryPath&) = delete;
  TemporaryPath& operator=(const TemporaryPath&) = delete;
  ~TemporaryPath();
  const std::filesystem::path& path() const { return path_; }
  void release() { path_.clear(); }

private:
  std::filesystem::path path_;
};

}  // namespace bagscope
