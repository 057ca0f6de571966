#include "byte_source.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <list>
#include <mutex>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
#if defined(__APPLE__)
#include <mach-o/dyld.h>
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

// The system's file handle, and one read of up to `n` bytes at `at`: the count read, 0 at an
// early end of the file, or the error's text.
#ifdef _WIN32
std::string windowsErrorText() { return systemErrorText({static_cast<int>(GetLastError()), std::system_category()}); }
using FileHandle = HANDLE;
void closeHandle(HANDLE h) { CloseHandle(h); }
std::size_t readSome(HANDLE h, std::uint64_t at, std::byte* out, std::size_t n, std::string& why) {
  OVERLAPPED ov{};
  ov.Offset = static_cast<DWORD>(at);
  ov.OffsetHigh = static_cast<DWORD>(at >> 32);
  DWORD got = 0;
  if (!ReadFile(h, out, static_cast<DWORD>(std::min<std::size_t>(n, 1u << 30)), &got, &ov)) {
    why = "read failed: " + windowsErrorText();
    return 0;
  }
  return got;
}
#else
using FileHandle = int;
void closeHandle(int fd) { ::close(fd); }
std::size_t readSome(int fd, std::uint64_t at, std::byte* out, std::size_t n, std::string& why) {
  while (true) {
    ssize_t got = ::pread(fd, out, n, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) why = "read failed: " + systemErrorText(errno);
    return got < 0 ? 0 : static_cast<std::size_t>(got);
  }
}
#endif

// Opens `path` read-only: the handle, or the system's reason.
#ifdef _WIN32
bool openHandle(const std::filesystem::path& path, FileHandle& h, std::string& why) {
  h = CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                  OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h != INVALID_HANDLE_VALUE) return true;
  why = "cannot open: " + windowsErrorText();
  return false;
}
std::int64_t handleSize(HANDLE h) {
  LARGE_INTEGER size{};
  return GetFileSizeEx(h, &size) ? static_cast<std::int64_t>(size.QuadPart) : -1;
}
#else
bool openHandle(const std::filesystem::path& path, FileHandle& h, std::string& why) {
  h = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (h >= 0) return true;
  why = "cannot open: " + systemErrorText(errno);
  return false;
}
std::int64_t handleSize(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<std::int64_t>(st.st_size) : -1;
}
#endif

class FileSource;

std::filesystem::path absolutePath(const std::filesystem::path& p) {
  std::error_code ec;
  auto a = std::filesystem::absolute(p, ec);
  return ec ? p : a;
}

// The files' open handles, at most kMaxOpen at once for the whole process (a session over
// thousands of files, or a metadata.yaml listing as many): a file not being read gives its
// handle back, least recently used first, and opens it again when next read.
class HandlePool {
public:
  static HandlePool& instance() {
    static HandlePool pool;
    return pool;
  }
  // 256, or half of what the process may open where that is less (ulimit -n).
  const std::size_t maxOpen = [] {
    std::size_t most = 256;
#ifndef _WIN32
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      most = std::clamp<std::size_t>(static_cast<std::size_t>(limit.rlim_cur) / 2, 8, most);
#endif
    return most;
  }();
  std::mutex mutex;
  std::list<FileSource*> idle;  // open and not being read, most recently used first
  std::size_t open = 0;
  void makeRoom();  // closes idle handles while the pool is full (mutex held)
};

#ifndef _WIN32
// A file mapped whole, read-only. A file cut while mapped would end the process with SIGBUS
// at the first touch of a page past its new end: the handler maps zeros over that page and
// marks the mapping cut. (The tail of the page the file now ends in reads as zeros with no
// fault at all: the source also asks the file's size.) A cut mapping is handed out no more
// (readAt() then says what is missing), and what a loader read from it while it was cut is
// refused. A fault outside every mapping goes to the handler there was before. (Windows
// refuses to cut a mapped file; it reads, as before.)
class Mapping {
public:
  static std::shared_ptr<Mapping> of(int fd, std::uint64_t size) {
    if (size == 0 || size > SIZE_MAX || !installGuard()) return nullptr;
    void* at = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
    if (at == MAP_FAILED) return nullptr;
    auto m = std::shared_ptr<Mapping>(new Mapping(static_cast<const std::byte*>(at), static_cast<std::size_t>(size)));
    if (!m->slot_) return nullptr;  // every slot taken: read instead
    return m;
  }
  ~Mapping() {
    if (slot_) {
      slot_->begin.store(nullptr, std::memory_order_release);
      slot_->used.store(false, std::memory_order_release);
    }
    ::munmap(const_cast<std::byte*>(bytes_.data()), bytes_.size());
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  std::span<const std::byte> bytes() const { return bytes_; }
  bool cut() const { return slot_->cut.load(std::memory_order_acquire); }
  void markCut() const { slot_->cut.store(true, std::memory_order_release); }
#if defined(MADV_POPULATE_READ)
  void populate(std::span<const std::byte> range) const {
    const auto begin = reinterpret_cast<std::uintptr_t>(range.data()) & pageMask;
    const auto end = reinterpret_cast<std::uintptr_t>(range.data()) + range.size();
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);  // a failure: faults later
  }
#endif

private:
  // What the handler may read: fixed slots, no locks, no allocation.
  struct Slot {
    std::atomic<bool> used{false};
    std::atomic<const std::byte*> begin{nullptr};  // set last: the handler looks at slots with one
    std::atomic<std::size_t> size{0};
    std::atomic<bool> cut{false};
  };
  static constexpr std::size_t kSlots = 4096;  // more files at once are read, not mapped
  static Slot slots[kSlots];
  static inline std::uintptr_t pageMask = 0;
  static inline struct sigaction previous {};

  Mapping(const std::byte* at, std::size_t size) : bytes_(at, size) {
    for (auto& s : slots) {
      bool free = false;
      if (!s.used.compare_exchange_strong(free, true, std::memory_order_acq_rel)) continue;
      s.size.store(size, std::memory_order_relaxed);
      s.cut.store(false, std::memory_order_relaxed);
      s.begin.store(at, std::memory_order_release);
      slot_ = &s;
      return;
    }
  }

  static void onBus(int signal, siginfo_t* info, void* context) {
    const auto* address = static_cast<const std::byte*>(info->si_addr);
    for (auto& s : slots) {
      const std::byte* begin = s.begin.load(std::memory_order_acquire);
      if (!begin || address < begin || address >= begin + s.size.load(std::memory_order_relaxed)) continue;
      void* page = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(address) & pageMask);
      if (::mmap(page, ~pageMask + 1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
        s.cut.store(true, std::memory_order_release);
        return;  // the read goes on, and sees zeros
      }
    }
    // Not ours: to the handler there was before, else the fault repeats and ends the process.
    if (previous.sa_flags & SA_SIGINFO) {
      if (previous.sa_sigaction) previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
      previous.sa_handler(signal);
    } else {
      ::signal(SIGBUS, SIG_DFL);
    }
  }

  static bool installGuard() {
    static const bool installed = [] {
      const long page = ::sysconf(_SC_PAGESIZE);
      if (page <= 0) return false;
      pageMask = ~static_cast<std::uintptr_t>(page - 1);
      struct sigaction guard {};
      guard.sa_sigaction = onBus;
      guard.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset(&guard.sa_mask);
      return ::sigaction(SIGBUS, &guard, &previous) == 0;
    }();
    return installed;
  }

  std::span<const std::byte> bytes_;
  Slot* slot_ = nullptr;
};
Mapping::Slot Mapping::slots[Mapping::kSlots];
#endif

class FileSource final : public ByteSource {
public:
  FileSource(std::filesystem::path path, FileHandle h, std::uint64_t size, std::string name)
      : path_(absolutePath(path)), h_(h), size_(size), name_(std::move(name)) {
    auto& pool = HandlePool::instance();
    std::lock_guard lock(pool.mutex);
    ++pool.open;
    pool.idle.push_front(this);
    idleAt_ = pool.idle.begin();
    pool.makeRoom();
#ifndef _WIN32
    map_ = Mapping::of(h, size_);
#endif
  }
#ifndef _WIN32
  bool endsBefore(std::uint64_t offset) const override {
    if (!map_) return false;
    FileHandle h{};
    if (!acquire(h)) return map_->markCut(), true;  // opened again by the pool: its size differs
    const std::int64_t now = handleSize(h);
    release();
    if (now < static_cast<std::int64_t>(size_)) map_->markCut();
    return now < static_cast<std::int64_t>(std::min(offset, size_));
  }
#endif
  MappedBytes mapped() const override {
#ifndef _WIN32
    if (map_ && !map_->cut()) return {map_->bytes(), map_};
#endif
    return {};
  }
  void prefault(std::span<const std::byte> range) const override {
#if defined(MADV_POPULATE_READ)  // Linux 5.14; elsewhere the pages fault in as they are read
    if (map_ && !range.empty()) map_->populate(range);
#else
    (void)range;
#endif
  }
  ~FileSource() override {
    auto& pool = HandlePool::instance();
    std::lock_guard lock(pool.mutex);
    if (isOpen_) {
      pool.idle.erase(idleAt_);
      closeHandle(h_);
      --pool.open;
    }
  }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  Result<void> readAt(std::uint64_t offset, std::span<std::byte> out) const override {
    if (offset > size_ || out.size() > size_ - offset) return rangeError(name_, offset, out.size(), size_);
    if (out.empty()) return {};
    FileHandle h{};
    if (auto r = acquire(h); !r) return r;
    std::size_t done = 0;
    Result<void> result;
    while (done < out.size()) {
      std::string why;
      std::size_t got = readSome(h, offset + done, out.data() + done, out.size() - done, why);
      if (got == 0) {
        Error e = makeError(ErrorCode::Io, why.empty() ? "file ended early (was it truncated while open?)" : why,
                            static_cast<std::int64_t>(offset + done));
        e.file = name_;
        result = e;
        break;
      }
      done += got;
    }
    release();
    return result;
  }

  // Closes the handle (pool mutex held; not being read).
  void closeIdle() {
    closeHandle(h_);
    isOpen_ = false;
  }

private:
  // The handle, opened again if the pool took it back; held open until release().
  Result<void> acquire(FileHandle& h) const {
    auto& pool = HandlePool::instance();
    std::lock_guard lock(pool.mutex);
    if (!isOpen_) {
      std::string why;
      FileHandle reopened{};
      if (!openHandle(path_, reopened, why) || handleSize(reopened) != static_cast<std::int64_t>(size_)) {
        if (why.empty()) closeHandle(reopened);
        Error e = makeError(ErrorCode::Io, why.empty() ? "it changed since it was opened (its size differs)"
                                                       : why + " (opening it again to read)");
        e.file = name_;
        return e;
      }
      ++pool.open;
      h_ = reopened;
      isOpen_ = true;
    } else if (users_ == 0) {
      pool.idle.erase(idleAt_);
    }
    ++users_;
    h = h_;
    pool.makeRoom();
    return {};
  }
  void release() const {
    auto& pool = HandlePool::instance();
    std::lock_guard lock(pool.mutex);
    if (--users_ > 0) return;
    pool.idle.push_front(const_cast<FileSource*>(this));
    idleAt_ = pool.idle.begin();
    pool.makeRoom();
  }

  std::filesystem::path path_;
  // Guarded by the pool's mutex.
  mutable FileHandle h_;
  mutable bool isOpen_ = true;
  mutable std::size_t users_ = 0;
  mutable std::list<FileSource*>::iterator idleAt_;
  std::uint64_t size_;
  std::string name_;
#ifndef _WIN32
  std::shared_ptr<Mapping> map_;
#endif
};

void HandlePool::makeRoom() {
  while (open > maxOpen && !idle.empty()) {
    FileSource* oldest = idle.back();
    idle.pop_back();
    oldest->closeIdle();
    --open;
  }
}

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
  HANDLE h{};
  std::string why;
  if (!openHandle(path, h, why)) return fail(ErrorCode::Io, why);
  LARGE_INTEGER size{};
  if (!GetFileSizeEx(h, &size)) {
    CloseHandle(h);
    return fail(ErrorCode::Io, "cannot read file size");
  }
  return std::unique_ptr<ByteSource>(
      std::make_unique<FileSource>(path, h, static_cast<std::uint64_t>(size.QuadPart), name));
#else
  int fd = -1;
  std::string why;
  if (!openHandle(path, fd, why)) return fail(ErrorCode::Io, why);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return fail(ErrorCode::Io, "cannot stat: " + systemErrorText(errno));
  }
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return std::unique_ptr<ByteSource>(
      std::make_unique<FileSource>(path, fd, static_cast<std::uint64_t>(st.st_size), name));
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

Result<std::span<const std::byte>> bytesAt(const ByteSource& source, const MappedBytes& mapped, std::uint64_t offset,
                                           std::uint64_t n, ByteBuffer& buffer, bool whole) {
  if (mapped.bytes.empty()) {
    BAGSCOPE_TRY(readExactly(source, offset, n, buffer));
    return std::span<const std::byte>(buffer.span());
  }
  if (offset > mapped.bytes.size() || n > mapped.bytes.size() - offset)
    return rangeError(source.name(), offset, n, mapped.bytes.size());
  auto in = mapped.bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(n));
  if (whole) source.prefault(in);
  return in;
}

bool cutSince(const ByteSource& source, const MappedBytes& mapped, std::span<const std::byte> bytes,
              std::uint64_t offset) {
  if (mapped.bytes.empty()) return false;
  if (!bytes.empty()) (void)*static_cast<const volatile std::byte*>(&bytes.back());  // past a cut: zeros, and marked
  return source.endsBefore(offset + bytes.size());
}

std::filesystem::path executableFolder() {
#if defined(_WIN32)
  std::wstring path(32768, L'\0');
  DWORD n = GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
  path.resize(n);
  return std::filesystem::path(path).parent_path();
#elif defined(__APPLE__)
  std::uint32_t size = 0;
  _NSGetExecutablePath(nullptr, &size);
  std::string path(size, '\0');
  if (_NSGetExecutablePath(path.data(), &size) != 0) return {};
  std::error_code ec;
  auto resolved = std::filesystem::canonical(path.c_str(), ec);
  return ec ? std::filesystem::path(path.c_str()).parent_path() : resolved.parent_path();
#else
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self.parent_path();
#endif
}

}  // namespace bagscope
