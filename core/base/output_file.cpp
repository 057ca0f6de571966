#include "output_file.hpp"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <random>

#include "byte_source.hpp"

#ifndef _WIN32
#include <unistd.h>
#endif

namespace bagscope {
namespace fs = std::filesystem;

fs::path temporaryBeside(const fs::path& final) {
  static std::mutex mutex;
  static std::mt19937_64 random{std::random_device{}()};
  std::lock_guard lock(mutex);
  char tag[20];
  std::snprintf(tag, sizeof tag, "%012llx", static_cast<unsigned long long>(random() & 0xFFFFFFFFFFFFull));
  return final.parent_path() / fs::u8path("." + utf8(final.stem()) + ".part-" + tag + utf8(final.extension()));
}

namespace {

Error existsAlready(const fs::path& final) {
  return fileError(ErrorCode::Write, "exists already (not replaced without --overwrite)", utf8(final));
}

}  // namespace

Result<void> publish(const fs::path& temp, const fs::path& final, bool overwrite,
                     bool (*replaceableFolder)(const fs::path&)) {
  std::error_code ec;
  TemporaryPath cleanup(temp);  // removed on every way out but success
  bool folder = fs::is_directory(temp, ec);
#ifndef _WIN32
  if (!overwrite && !folder) {
    // link() fails if the name exists: no window between a check and the rename.
    if (::link(temp.c_str(), final.c_str()) == 0) return {};
    if (errno == EEXIST) return existsAlready(final);
    // A file system without hard links: fall through to check-and-rename.
  }
#endif
  if (fs::exists(fs::symlink_status(final, ec))) {
    if (!overwrite) return existsAlready(final);
    if (fs::is_directory(final, ec)) {
      if (!folder || !replaceableFolder || !replaceableFolder(final))
        return fileError(ErrorCode::Write, "is a folder that is not a recording: not replaced", utf8(final));
      fs::remove_all(final, ec);
      if (ec)
        return fileError(ErrorCode::Write, "cannot remove the recording it replaces: " + ec.message(), utf8(final));
    } else if (folder) {
      return fileError(ErrorCode::Write, "is a file: a recording folder does not replace it", utf8(final));
    }
  }
  // A folder moves only to a name that is free (rename refuses a non-empty folder).
  fs::rename(temp, final, ec);
  if (ec)
    return fileError(ErrorCode::Write, "cannot rename the finished output into place: " + ec.message(), utf8(final));
  cleanup.release();
  return {};
}

TemporaryPath::~TemporaryPath() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

Result<OutputFile> OutputFile::create(const fs::path& path, std::string displayName) {
  OutputFile f;
  f.path_ = path;
  f.name_ = std::move(displayName);
#ifdef _WIN32
  f.file_ = _wfopen(path.c_str(), L"wbx");
#else
  f.file_ = std::fopen(path.c_str(), "wbx");  // x: fails when it exists
#endif
  if (!f.file_) return f.failure("cannot create a file here");
  std::setvbuf(f.file_, nullptr, _IOFBF, 1 << 20);
  return f;
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : file_(std::exchange(o.file_, nullptr)),
      path_(std::exchange(o.path_, {})),
      name_(std::move(o.name_)),
      position_(o.position_),
      closed_(o.closed_) {}

OutputFile& OutputFile::operator=(OutputFile&& o) noexcept {
  if (this != &o) {
    this->~OutputFile();
    new (this) OutputFile(std::move(o));
  }
  return *this;
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
  if (!closed_ && !path_.empty()) {
    std::error_code ec;
    fs::remove(path_, ec);
  }
}

Error OutputFile::failure(const std::string& what) const {
  std::string why = errno ? std::strerror(errno) : "unknown error";
  return fileError(ErrorCode::Write, what + ": " + why, name_);
}

Result<void> OutputFile::write(std::span<const std::byte> bytes) {
  if (bytes.empty()) return {};
  errno = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    return failure("writing failed at byte " + std::to_string(position_));
  position_ += bytes.size();
  return {};
}

Result<void> OutputFile::patch(std::uint64_t offset, std::span<const std::byte> bytes) {
  errno = 0;
#ifdef _WIN32
  bool ok = _fseeki64(file_, static_cast<__int64>(offset), SEEK_SET) == 0 &&
            std::fwrite(bytes.data(), 1, bytes.size(), file_) == bytes.size() &&
            _fseeki64(file_, static_cast<__int64>(position_), SEEK_SET) == 0;
#else
  bool ok = fseeko(file_, static_cast<off_t>(offset), SEEK_SET) == 0 &&
            std::fwrite(bytes.data(), 1, bytes.size(), file_) == bytes.size() &&
            fseeko(file_, static_cast<off_t>(position_), SEEK_SET) == 0;
#endif
  if (!ok) return failure("rewriting byte " + std::to_string(offset) + " failed");
  return {};
}

Result<void> OutputFile::close() {
  errno = 0;
  bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
  ok = std::fclose(std::exchange(file_, nullptr)) == 0 && ok;
  if (!ok) return failure("finishing the file failed");
  closed_ = true;
  return {};
}

}  // namespace bagscope
