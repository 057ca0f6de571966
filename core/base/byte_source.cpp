#include "byte_source.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace bagscope {
namespace {

Error rangeError(const std::string& name, std::uint64_t offset, std::uint64_t n, std::uint64_t size) {
  Error e = makeError(ErrorCode::Truncated,
                      "read of " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                          " goes past the end of the file (" + std::to_string(size) + " bytes)",
                      static_cast<std::int64_t>(offset));
  e.file = name;
  return e;
}

#ifdef _WIN32
class FileSource final : public ByteSource {
public:
  FileSource(HANDLE h, std::uint64_t size, std::string name) : h_(h), size_(size), name_(std::move(name)) {}
  ~FileSource() override { CloseHandle(h_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  Result<void> readAt(std::uint64_t offset, std::span<std::byte> out) const override {
    if (offset > size_ || out.size() > size_ - offset) return rangeError(name_, offset, out.size(), size_);
    std::size_t done = 0;
    while (done < out.size()) {
      OVERLAPPED ov{};
      std::uint64_t at = offset + done;
      ov.Offset = static_cast<DWORD>(at);
      ov.OffsetHigh = static_cast<DWORD>(at >> 32);
      DWORD want = static_cast<DWORD>(std::min<std::size_t>(out.size() - done, 1u << 30));
      DWORD got = 0;
      if (!ReadFile(h_, out.data() + done, want, &got, &ov) || got == 0) {
        Error e = makeError(ErrorCode::Io, "read failed", static_cast<std::int64_t>(at));
        e.file = name_;
        return e;
      }
      done += got;
    }
    return {};
  }

private:
  HANDLE h_;
  std::uint64_t size_;
  std::string name_;
};
#else
class FileSource final : public ByteSource {
public:
  FileSource(int fd, std::uint64_t size, std::string name) : fd_(fd), size_(size), name_(std::move(name)) {}
  ~FileSource() override { ::close(fd_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  Result<void> readAt(std::uint64_t offset, std::span<std::byte> out) const override {
    if (offset > size_ || out.size() > size_ - offset) return rangeError(name_, offset, out.size(), size_);
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t got = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        Error e = makeError(ErrorCode::Io,
                            got == 0 ? "file ended early (was it truncated while open?)"
                                     : std::string("read failed: ") + std::strerror(errno),
                            static_cast<std::int64_t>(offset + done));
        e.file = name_;
        return e;
      }
      done += static_cast<std::size_t>(got);
    }
    return {};
  }

private:
  int fd_;
  std::uint64_t size_;
  std::string name_;
};
#endif

class MemorySource final : public ByteSource {
public:
  MemorySource(std::vector<std::byte> bytes, std::string name) : bytes_(std::move(bytes)), name_(std::move(name)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  const std::string& name() const override { return name_; }
  Result<void> readAt(std::uint64_t offset, std::span<std::byte> out) const override {
    if (offset > bytes_.size() || out.size() > bytes_.size() - offset)
      return rangeError(name_, offset, out.size(), bytes_.size());
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return {};
  }

private:
  std::vector<std::byte> bytes_;
  std::string name_;
};

}  // namespace

Result<std::unique_ptr<ByteSource>> openFile(const std::filesystem::path& path) {
  const std::u8string u8 = path.u8string();
  const std::string name(u8.begin(), u8.end());  // UTF-8 on every platform, for messages
  auto fail = [&](ErrorCode code, std::string why) {
    Error e = makeError(code, std::move(why));
    e.file = name;
    return e;
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail(ErrorCode::InvalidArgument, "is a folder, not a file");
#ifdef _WIN32
  HANDLE h = CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                         OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE)
    return fail(ErrorCode::Io, "cannot open file (error " + std::to_string(GetLastError()) + ")");
  LARGE_INTEGER size{};
  if (!GetFileSizeEx(h, &size)) {
    CloseHandle(h);
    return fail(ErrorCode::Io, "cannot read file size");
  }
  return std::unique_ptr<ByteSource>(std::make_unique<FileSource>(h, static_cast<std::uint64_t>(size.QuadPart), name));
#else
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return fail(ErrorCode::Io, std::string("cannot stat: ") + std::strerror(errno));
  }
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return std::unique_ptr<ByteSource>(std::make_unique<FileSource>(fd, static_cast<std::uint64_t>(st.st_size), name));
#endif
}

std::unique_ptr<ByteSource> memorySource(std::vector<std::byte> bytes, std::string name) {
  return std::make_unique<MemorySource>(std::move(bytes), std::move(name));
}

Result<void> readExactly(const ByteSource& source, std::uint64_t offset, std::uint64_t n, ByteBuffer& out) {
  if (offset > source.size() || n > source.size() - offset) return rangeError(source.name(), offset, n, source.size());
  out.resize(static_cast<std::size_t>(n));
  return source.readAt(offset, out.span());
}

}  // namespace bagscope
