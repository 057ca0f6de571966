#include "source.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>

#include "mcap/mcap_source.hpp"
#include "ros1/ros1_source.hpp"
#include "rosbag2/rosbag2_source.hpp"

namespace bagscope::storage {
namespace {

struct TimeOrder {
  bool operator()(const ChunkMessage& m, std::int64_t t) const { return m.logTimeNs < t; }
  bool operator()(std::int64_t t, const ChunkMessage& m) const { return t < m.logTimeNs; }
};

}  // namespace

const ChunkMessage* findMessage(const LoadedChunk& chunk, const IndexEntry& entry) {
  // Messages are sorted by log time: look among those with the entry's time first, then
  // everywhere (an index whose time disagrees with the record still finds its message).
  const auto& msgs = chunk.messages;
  auto byTime = std::equal_range(msgs.begin(), msgs.end(), entry.logTimeNs, TimeOrder{});
  auto atOffset = [&](const ChunkMessage& m) { return m.recordOffset == entry.location.offset; };
  if (auto it = std::find_if(byTime.first, byTime.second, atOffset); it != byTime.second) return &*it;
  auto it = std::find_if(msgs.begin(), msgs.end(), atOffset);
  return it == msgs.end() ? nullptr : &*it;
}

Result<std::vector<ConnectionSpan>> Source::connectionSpans() {
  auto index = messageIndex();
  BAGSCOPE_TRY(index);
  std::vector<ConnectionSpan> spans;
  for (const auto& entries : **index)
    spans.push_back(entries.empty()
                        ? ConnectionSpan{}
                        : ConnectionSpan{entries.size(), entries.front().logTimeNs, entries.back().logTimeNs});
  return spans;
}

Result<void> Source::loadChunk(std::uint32_t index, LoadedChunk&, LoadContext&) const {
  Error e = makeError(ErrorCode::Unsupported,
                      info().format + " files have no chunks (asked for chunk " + std::to_string(index) + ")");
  e.file = info().path;
  return e;
}

// ---- The registry of containers ----------------------------------------------------------

namespace {

// How many of a file's first bytes are read to tell its container.
constexpr std::size_t kMaxMagic = 16;

// The containers registered at run time; a deque, so that the pointers handed out stay valid
// as more are added.
struct Registry {
  std::mutex mutex;
  std::deque<ContainerFormat> added;
};
Registry& registry() {
  static Registry r;
  return r;
}

// The containers Bagscope reads: one line each.
const std::array<const ContainerFormat*, 3>& builtInContainers() {
  static const std::array<const ContainerFormat*, 3> formats = {&ros1Container(), &mcapContainer(),
                                                                &rosbag2Container()};
  return formats;
}

}  // namespace

std::vector<const ContainerFormat*> containerFormats() {
  std::vector<const ContainerFormat*> out(std::begin(builtInContainers()), std::end(builtInContainers()));
  std::lock_guard lock(registry().mutex);
  for (const auto& f : registry().added) out.push_back(&f);
  return out;
}

Result<void> registerContainerFormat(ContainerFormat format) {
  auto refuse = [&](const std::string& why) {
    return makeError(ErrorCode::InvalidArgument, "container '" + std::string(format.id) + "' " + why);
  };
  if (!(format.magic.empty() ? format.claims && format.openPath : format.openBytes != nullptr))
    return refuse("needs magic and openBytes, or claims and openPath");
  if (format.magic.size() > kMaxMagic)
    return refuse("has magic longer than the " + std::to_string(kMaxMagic) + " bytes read to tell containers apart");
  std::lock_guard lock(registry().mutex);  // held from the check to the push: one of two alike wins
  auto& added = registry().added;
  bool taken = std::any_of(added.begin(), added.end(), [&](const ContainerFormat& f) { return f.id == format.id; });
  for (const ContainerFormat* f : builtInContainers()) taken = taken || f->id == format.id;
  if (taken) return refuse("is already registered");
  added.push_back(std::move(format));
  return {};
}

namespace {

std::string firstBytes(ByteSource& bytes, std::size_t n) {
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), n)), '\0');
  if (!bytes.readAt(0, std::as_writable_bytes(std::span(head)))) return {};
  return head;
}

// Magic as C writes it: \x89MCAP.
std::string printable(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  return out;
}

Error pathError(const std::filesystem::path& path, std::string why) {
  Error e = makeError(ErrorCode::InvalidArgument, std::move(why));
  e.file = utf8(path);
  return e;
}

// What a path is by its name and the file system, without reading a file.
struct WithoutReading {
  PathKind kind;
  const ContainerFormat* container = nullptr;  // a container known by name
};
// kind is Recording with no container for a regular file: its first bytes tell (a special
// file is Other: never read).
WithoutReading kindWithoutReading(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return {PathKind::Missing};
  bool folder = fs::is_directory(status);
  for (const ContainerFormat* f : containerFormats())
    if (f->claims && f->claims(path, folder)) return {PathKind::Recording, f};
  if (folder) return {PathKind::Folder};
  if (!fs::is_regular_file(status)) return {PathKind::Other};
  return {PathKind::Recording};
}

// The container whose magic `head` starts with, or null.
const ContainerFormat* containerByMagic(std::string_view head) {
  for (const ContainerFormat* f : containerFormats())
    if (!f->magic.empty() && head.starts_with(f->magic)) return f;
  return nullptr;
}

const ContainerFormat* containerOfFile(const std::filesystem::path& path) {
  auto bytes = openFile(path);
  return bytes ? containerByMagic(firstBytes(**bytes, kMaxMagic)) : nullptr;
}

}  // namespace

const ContainerFormat* containerFormatOf(const std::filesystem::path& path) {
  auto seen = kindWithoutReading(path);
  if (seen.kind != PathKind::Recording) return nullptr;
  return seen.container ? seen.container : containerOfFile(path);
}

PathKind classify(const std::filesystem::path& path) {
  auto seen = kindWithoutReading(path);
  if (seen.kind != PathKind::Recording || seen.container) return seen.kind;
  return containerOfFile(path) ? PathKind::Recording : PathKind::Other;
}

bool isFolderOfRecordings(const std::filesystem::path& path) {
  return kindWithoutReading(path).kind == PathKind::Folder;
}

bool hasRecordingName(const std::filesystem::path& path) {
  const std::string name = utf8(path.filename());  // by suffix: ".bag.active" is two extensions
  for (const ContainerFormat* f : containerFormats())
    for (std::string_view e : f->extensions)
      if (name.size() > e.size() && name.ends_with(e)) return true;
  return false;
}

std::string recordingFilePatterns() {
  std::string out;
  for (const ContainerFormat* f : containerFormats())
    for (std::string_view e : f->extensions) out += "*" + std::string(e) + " ";
  return out + "metadata.yaml";
}

Result<std::unique_ptr<Source>> openSource(std::unique_ptr<ByteSource> bytes) {
  auto fail = [&](ErrorCode code, std::string why) {
    Error e = makeError(code, std::move(why), 0);
    e.file = bytes->name();
    return e;
  };
  std::byte bytesRead[kMaxMagic] = {};
  std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes->size(), sizeof bytesRead));
  BAGSCOPE_TRY(bytes->readAt(0, std::span(bytesRead, n)));
  if (n == 0) return fail(ErrorCode::Format, "the file is empty (0 bytes), not a recording");
  std::string_view head(reinterpret_cast<const char*>(bytesRead), n);
  if (const ContainerFormat* f = containerByMagic(head)) return f->openBytes(std::move(bytes));
  if (head.starts_with("SQLite f"))
    return fail(ErrorCode::InvalidArgument, "an SQLite file: open it by its path (a rosbag2 .db3) or its folder");
  std::string known;
  for (const ContainerFormat* f : containerFormats())
    if (!f->magic.empty())
      known += (known.empty() ? "" : ", ") + std::string(f->label) + "s start with '" + printable(f->magic) + "'";
  return fail(ErrorCode::Format, "not a recording Bagscope knows (" + known + ")");
}

Result<std::unique_ptr<Source>> openSource(const std::filesystem::path& path) {
  auto seen = kindWithoutReading(path);
  if (seen.container) return seen.container->openPath(path);
  if (seen.kind == PathKind::Folder)
    return pathError(path,
                     "is a folder without a rosbag2 recording in it (open the recordings in it, or the folder as a "
                     "session)");
  if (seen.kind == PathKind::Other)
    // /dev/zero, a pipe, /proc/...: never read (endless, or sizes that lie).
    return pathError(path, "is not a regular file (a device, pipe or special file); only recordings are read");
  // A regular file (read once, by openSource(bytes), which says why one is not a recording),
  // or nothing there (openFile's error names it).
  auto bytes = openFile(path);
  BAGSCOPE_TRY(bytes);
  return openSource(std::move(bytes).value());
}

}  // namespace bagscope::storage
