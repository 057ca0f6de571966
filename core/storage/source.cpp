#include "source.hpp"

#include <cstring>

#include "mcap/mcap_source.hpp"
#include "ros1/ros1_source.hpp"

namespace bagscope::storage {

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
    return fail(ErrorCode::Unsupported, "rosbag2 SQLite files cannot be opened yet (only ROS 1 bags)");
  return fail(ErrorCode::Format, "not a recording Bagscope knows (ROS 1 bags start with '#ROSBAG', MCAP files with '\\x89MCAP')");
}

Result<std::unique_ptr<Source>> openSource(const std::filesystem::path& path) {
  auto bytes = openFile(path);
  if (!bytes) return std::move(bytes).error();
  return openSource(std::move(bytes).value());
}

}  // namespace bagscope::storage
