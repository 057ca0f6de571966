#pragma once
// Writing outputs safely: every file (or folder) is written under a temporary name beside its
// final one and moved into place only when complete, so a failed, cancelled or killed write
// never leaves a partial file under the name the user asked for; nothing is replaced unless
// asked. Used by the exporters and the recording writers.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "result.hpp"

namespace bagscope {

/// A temporary name beside `final`: "<dir>/.<stem>.part-<12 hex><ext>" (the extension kept
/// for writers that choose a container by it).
std::filesystem::path temporaryBeside(const std::filesystem::path& final);

/// The files an existing recording folder consists of — what replacing it removes — or
/// nothing when the folder is not a recording (its writer knows: rosbag2's metadata.yaml).
using RecordingMembersFn = std::optional<std::vector<std::filesystem::path>> (*)(const std::filesystem::path& folder);

/// Whether an output may be written under `final` (a file, or with `folder` a recording
/// folder): the name is free; or, with `overwrite`, it is a regular file (for a file) or a
/// recording folder `members` recognises (for a folder). FIFOs, sockets, devices, symbolic
/// links and any other folder are never replaced. Checked before writing and when publishing.
Result<void> checkReplaceable(const std::filesystem::path& final, bool folder, bool overwrite,
                              RecordingMembersFn members = nullptr);

/// Moves a finished temporary file or folder to its final name, as checkReplaceable allows.
/// A recording folder is replaced member by member: its own files are removed and the new
/// ones moved in (metadata last), anything else in the folder stays; a new file whose name
/// another file of the folder holds is refused, naming every such file. On error the
/// temporary is removed.
Result<void> publish(const std::filesystem::path& temp, const std::filesystem::path& final, bool overwrite,
                     RecordingMembersFn members = nullptr);

/// Removes what a writer stopped by kill -9 or a power cut left in `dir`: files (and, not
/// recursive, folders) of temporaryBeside's pattern not written to for a minute, so that a
/// concurrent writer's are left alone. Returns how many were removed.
std::size_t removeStaleParts(const std::filesystem::path& dir, bool recursive);

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
