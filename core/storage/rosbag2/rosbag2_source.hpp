#pragma once
// rosbag2 recordings (ROS 2): a folder with metadata.yaml and its storage files, or a
// single .db3 file. SQLite storage is read here; MCAP storage by the MCAP reader.

#include <filesystem>
#include <memory>

#include "core/storage/source.hpp"

namespace bagscope::storage {

/// Opens `path`: a rosbag2 folder, its metadata.yaml, or a .db3 file (with or without a
/// metadata.yaml beside it). Split bags (several files) read as one recording. Databases
/// are opened read-only and immutable: nothing is created or changed next to them.
/// Where metadata.yaml and the database disagree, the database wins and SourceInfo
/// reports the difference.
Result<std::unique_ptr<Source>> openRosbag2(const std::filesystem::path& path);

/// True when `path` is a folder that holds a rosbag2 recording.
bool isRosbag2Folder(const std::filesystem::path& path);

}  // namespace bagscope::storage
