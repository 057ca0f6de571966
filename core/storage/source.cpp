#include "source.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "bagscope/recording_types.hpp"
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

Result<void> Source::loadChunk(std::uint32_t index, LoadedChunk&, LoadContext&) const {
  Error e = makeError(ErrorCode::Unsupported,
                      info().format + " files have no chunks (asked for chunk " + std::to_string(index) + ")");
  e.file = info().path;
  return e;
}

namespace {

// The readers that recognise a file by its first bytes. rosbag2 recordings are folders (or
// files in one) and are recognised by name (isRosbag2Path).
struct FileReader {
  PathKind kind;
  std::string_view magic;
  Result<std::unique_ptr<Source>> (*open)(std::unique_ptr<ByteSource>);
};
const FileReader kFileReaders[] = {
    {PathKind::Ros1, "#ROSBAG", openRos1},
    {PathKind::Mcap, "\x89MCAP", openMcap},
};

// SQLite storage and whole-file .zstd copies belong to a rosbag2 recording; .mcap files are
// recordings of their own unless a metadata.yaml says otherwise.
bool isRosbag2Storage(const std::filesystem::path& p) { return p.extension() == ".db3" || p.extension() == ".zstd"; }

bool isRosbag2Folder(const std::filesystem::path& folder) {
  std::error_code ec;
  if (std::filesystem::exists(folder / "metadata.yaml", ec)) return true;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec))
    if (isRosbag2Storage(e.path())) return true;
  return false;
}

std::string firstBytes(ByteSource& bytes, std::size_t n) {
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), n)), '\0');
  if (!bytes.readAt(0, std::as_writable_bytes(std::span(head)))) return {};
  return head;
}

Error pathError(const std::filesystem::path& path, std::string why) {
  Error e = makeError(ErrorCode::InvalidArgument, std::move(why));
  e.file = utf8(path);
  return e;
}

}  // namespace

namespace {

// What the name and the file system say, without reading: nullopt for a regular file, which
// its first bytes tell (a special file is Other: never read).
std::optional<PathKind> kindWithoutReading(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return PathKind::Missing;
  if (fs::is_directory(status)) return isRosbag2Folder(path) ? PathKind::Rosbag2 : PathKind::Folder;
  if (path.filename() == "metadata.yaml" || isRosbag2Storage(path)) return PathKind::Rosbag2;
  if (!fs::is_regular_file(status)) return PathKind::Other;
  return std::nullopt;
}

// The reader whose magic `head` starts with, or null.
const FileReader* readerFor(std::string_view head) {
  for (const auto& r : kFileReaders)
    if (head.starts_with(r.magic)) return &r;
  return nullptr;
}

}  // namespace

PathKind classify(const std::filesystem::path& path) {
  if (auto kind = kindWithoutReading(path)) return *kind;
  auto bytes = openFile(path);
  if (!bytes) return PathKind::Other;
  const FileReader* reader = readerFor(firstBytes(**bytes, 8));
  return reader ? reader->kind : PathKind::Other;
}

bool isFolderOfRecordings(const std::filesystem::path& path) { return kindWithoutReading(path) == PathKind::Folder; }

bool hasRecordingName(const std::filesystem::path& path) {
  auto extension = path.extension().string();
  for (const auto& t : build::recordingTypes)
    if (extension == t.extension) return true;
  return false;
}

std::string recordingFilePatterns() {
  std::string out;
  for (const auto& t : build::recordingTypes) out += "*" + std::string(t.extension) + " ";
  return out + "metadata.yaml";
}

Result<std::unique_ptr<Source>> openSource(std::unique_ptr<ByteSource> bytes) {
  auto fail = [&](ErrorCode code, std::string why) {
    Error e = makeError(code, std::move(why), 0);
    e.file = bytes->name();
    return e;
  };
  std::byte bytesRead[8] = {};
  std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes->size(), sizeof bytesRead));
  if (auto r = bytes->readAt(0, std::span(bytesRead, n)); !r) return std::move(r).error();
  if (n == 0) return fail(ErrorCode::Format, "the file is empty (0 bytes), not a recording");
  std::string_view head(reinterpret_cast<const char*>(bytesRead), n);
  if (const FileReader* reader = readerFor(head)) return reader->open(std::move(bytes));
  if (head.starts_with("SQLite f"))
    return fail(ErrorCode::InvalidArgument, "an SQLite file: open it by its path (a rosbag2 .db3) or its folder");
  return fail(ErrorCode::Format,
              "not a recording Bagscope knows (ROS 1 bags start with '#ROSBAG', MCAP files with '\\x89MCAP')");
}

Result<std::unique_ptr<Source>> openSource(const std::filesystem::path& path) {
  auto kind = kindWithoutReading(path);
  if (kind == PathKind::Rosbag2) return openRosbag2(path);
  if (kind == PathKind::Folder)
    return pathError(path,
                     "is a folder without a rosbag2 recording in it (open the recordings in it, or the folder as a "
                     "session)");
  if (kind == PathKind::Other)
    // /dev/zero, a pipe, /proc/...: never read (endless, or sizes that lie).
    return pathError(path, "is not a regular file (a device, pipe or special file); only recordings are read");
  // A regular file (read once, by openSource(bytes), which says why one is not a recording),
  // or nothing there (openFile's error names it).
  auto bytes = openFile(path);
  if (!bytes) return std::move(bytes).error();
  return openSource(std::move(bytes).value());
}

}  // namespace bagscope::storage
