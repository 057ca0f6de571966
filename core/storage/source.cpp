#include "source.hpp"

#include <algorithm>
#include <cstring>

#include "mcap/mcap_source.hpp"
#include "rosbag2/rosbag2_source.hpp"
#include "ros1/ros1_source.hpp"

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
  Error e = makeError(ErrorCode::Unsupported, info().format + " files have no chunks (asked for chunk " +
                                                  std::to_string(index) + ")");
  e.file = info().path;
  return e;
}

Result<std::unique_ptr<Source>> openSource(std::unique_ptr<ByteSource> bytes) {
  std::byte head[8] = {};
  std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes->size(), sizeof head));
  if (auto r = bytes->readAt(0, std::span(head, n)); !r) return std::move(r).error();
  auto fail = [&](ErrorCode code, std::string why) {
    Error e = makeError(code, std::move(why), 0);
    e.file = bytes->name();
    return e;
  };
  std::string_view text(reinterpret_cast<const char*>(head), n);
  if (n == 0) return fail(ErrorCode::Format, "the file is empty (0 bytes), not a recording");
  if (text.starts_with("#ROSBAG")) return openRos1(std::move(bytes));
  if (text.starts_with("\x89MCAP")) return openMcap(std::move(bytes));
  if (text.starts_with("SQLite f"))
    return fail(ErrorCode::InvalidArgument, "an SQLite file: open it by its path (a rosbag2 .db3) or its folder");
  return fail(ErrorCode::Format, "not a recording Bagscope knows (ROS 1 bags start with '#ROSBAG', MCAP files with '\\x89MCAP')");
}

Result<std::unique_ptr<Source>> openSource(const std::filesystem::path& path) {
  // rosbag2 recordings are folders (or a .db3/metadata.yaml inside one).
  std::error_code ec;
  if (isRosbag2Folder(path) || path.extension() == ".db3" || path.extension() == ".zstd" ||
      path.filename() == "metadata.yaml")
    return openRosbag2(path);
  if (std::filesystem::is_directory(path, ec)) {
    Error e = makeError(ErrorCode::InvalidArgument, "is a folder without a rosbag2 recording in it");
    auto s = path.u8string();
    e.file.assign(s.begin(), s.end());
    return e;
  }
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    // /dev/zero, a pipe, /proc/...: never read (endless, or sizes that lie).
    Error e = makeError(ErrorCode::InvalidArgument, "is not a regular file (a device, pipe or special file); only recordings are read");
    auto s = path.u8string();
    e.file.assign(s.begin(), s.end());
    return e;
  }
  auto bytes = openFile(path);
  if (!bytes) return std::move(bytes).error();
  return openSource(std::move(bytes).value());
}

}  // namespace bagscope::storage
