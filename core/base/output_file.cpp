#include "output_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
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
  Error e = fileError(ErrorCode::Write, "exists already", utf8(final));
  e.remedy = Remedy::Replace;
  return e;
}

Error refused(const fs::path& final, const std::string& why) {
  return fileError(ErrorCode::Write, why + ": not replaced", utf8(final));
}

// The same file, whatever the spelling of the two paths.
bool samePath(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::weakly_canonical(fs::absolute(a, ec), ec) == fs::weakly_canonical(fs::absolute(b, ec), ec);
}

// Replaces the recording in the folder `final` (its files `old`) by the one in the folder
// `temp`: the old files are removed and the new ones moved in, metadata.yaml last, so that
// anything else in the folder stays. Refused, before anything is touched, when a new file's
// name is held by a file that is not part of the old recording.
Result<void> replaceMembers(const fs::path& temp, const fs::path& final, const std::vector<fs::path>& old) {
  std::error_code ec;
  std::vector<fs::path> incoming;
  std::string inTheWay;
  for (const auto& e : fs::directory_iterator(temp, ec)) {
    incoming.push_back(e.path().filename());
    fs::path target = final / e.path().filename();
    if (!fs::exists(fs::symlink_status(target, ec))) continue;
    bool member = std::any_of(old.begin(), old.end(), [&](const fs::path& o) { return samePath(o, target); });
    if (!member) inTheWay += (inTheWay.empty() ? "" : ", ") + utf8(e.path().filename());
  }
  if (ec) return fileError(ErrorCode::Write, "cannot list the finished output: " + systemErrorText(ec), utf8(final));
  if (!inTheWay.empty())
    return fileError(ErrorCode::Write,
                     "cannot replace the recording in this folder: files that are not part of it hold the names "
                     "of the new one's files (" +
                         inTheWay + "); nothing was changed",
                     utf8(final));
  for (const auto& o : old) {
    fs::remove(o, ec);
    if (ec)
      return fileError(
          ErrorCode::Write,
          "cannot remove '" + utf8(o.filename()) + "' of the recording it replaces: " + systemErrorText(ec),
          utf8(final));
  }
  // metadata.yaml last: the folder reads as a recording only once every file is in place.
  std::stable_partition(incoming.begin(), incoming.end(), [](const fs::path& n) { return n != "metadata.yaml"; });
  for (const auto& name : incoming) {
    fs::rename(temp / name, final / name, ec);
    if (ec)
      return fileError(ErrorCode::Write, "cannot move '" + utf8(name) + "' into place: " + systemErrorText(ec),
                       utf8(final));
  }
  return {};
}

// ".<stem>.part-<12 hex><ext>": a name temporaryBeside makes.
bool isPartName(const std::string& name) {
  auto at = name.find(".part-");
  return name.size() > 1 && name.front() == '.' && at != std::string::npos && name.size() >= at + 6 + 12 &&
         std::all_of(name.begin() + static_cast<std::ptrdiff_t>(at + 6),
                     name.begin() + static_cast<std::ptrdiff_t>(at + 18),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }) &&
         (name.size() == at + 18 || name[at + 18] == '.');
}

}  // namespace

Result<void> checkReplaceable(const fs::path& final, bool folder, bool overwrite, RecordingMembersFn members) {
  std::error_code ec;
  auto status = fs::symlink_status(final, ec);
  if (!fs::exists(status)) return {};
  if (!overwrite) return existsAlready(final);
  switch (status.type()) {
    case fs::file_type::regular:
      if (folder) return refused(final, "is a file, which a recording folder does not replace");
      return {};
    case fs::file_type::directory:
      if (!folder) return refused(final, "is a folder");
      if (!members || !members(final))
        return refused(final, "is a folder that is not a recording (no metadata.yaml that reads as rosbag2 metadata)");
      return {};
    case fs::file_type::symlink: return refused(final, "is a symbolic link (only files and recordings are replaced)");
    default: return refused(final, "is not a regular file (a FIFO, socket or device)");
  }
}

Result<void> publish(const fs::path& temp, const fs::path& final, bool overwrite, RecordingMembersFn members) {
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
  if (auto r = checkReplaceable(final, folder, overwrite, members); !r) return r;
  if (folder && fs::is_directory(fs::symlink_status(final, ec))) return replaceMembers(temp, final, *members(final));
  // A folder moves only to a name that is free (rename refuses a non-empty folder).
  fs::rename(temp, final, ec);
  if (ec)
    return fileError(ErrorCode::Write, "cannot rename the finished output into place: " + systemErrorText(ec),
                     utf8(final));
  cleanup.release();
  return {};
}

std::size_t removeStaleParts(const fs::path& dir, bool recursive) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  std::size_t removed = 0;
  auto now = fs::file_time_type::clock::now();
  auto stale = [&](const fs::directory_entry& e) {
    return isPartName(utf8(e.path().filename())) && now - e.last_write_time(ec) >= std::chrono::minutes(1);
  };
  if (!recursive) {
    for (const auto& e : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec)) {
      if (e.is_symlink(ec) || !stale(e)) continue;
      if (e.is_regular_file(ec) ? fs::remove(e.path(), ec) : e.is_directory(ec) && fs::remove_all(e.path(), ec) > 0)
        ++removed;
    }
    return removed;
  }
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && stale(*it) && fs::remove(it->path(), ec)) ++removed;
  }
  return removed;
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
  std::string why = errno ? systemErrorText(errno) : "unknown error";
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
