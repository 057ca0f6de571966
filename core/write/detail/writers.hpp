#pragma once
// The writers of each container, completing their output where it is (write.cpp moves it
// into place): one function each, registered in write.cpp's table.

#include <memory>
#include <optional>
#include <string>

#include "core/base/output_file.hpp"
#include "core/write/write.hpp"

namespace bagscope::write {

struct WriterTarget {
  std::optional<OutputFile> file;  ///< a container written as one file: created, empty
  std::filesystem::path folder;    ///< else a folder: created, empty
  std::string name;                ///< the final name's last part
};

}  // namespace bagscope::write

namespace bagscope::write::detail {

/// What tells two connections apart in an output: equal ones share a channel.
std::string connectionKey(const storage::Connection& c);

struct McapLayout {
  std::string profile;  ///< header profile
  compress::Codec codec = compress::Codec::Zstd;
  std::uint64_t chunkBytes = 4u << 20;
  bool rosbag2 = false;  ///< rosbag2's MCAP storage: every cdr channel has offered_qos_profiles
};
std::unique_ptr<RecordingWriter> makeMcapWriter(OutputFile file, const McapLayout& layout);

std::unique_ptr<RecordingWriter> makeRos1Writer(OutputFile file, compress::Codec codec, std::uint64_t chunkBytes);

/// A rosbag2 recording in `folder` (created empty by the caller), its files named after
/// `name` (the final folder's name): name_0.mcap or name_0.db3, then _1, … when split.
std::unique_ptr<RecordingWriter> makeRosbag2Writer(const std::filesystem::path& folder, const std::string& name,
                                                   const WriterOptions& options);

/// The library name writers put in their headers: "bagscope 0.1.0".
std::string libraryName();

/// The size of a finished output: a file's, or the sum of a rosbag2 folder's files.
std::uint64_t outputSize(const std::filesystem::path& output);

}  // namespace bagscope::write::detail
