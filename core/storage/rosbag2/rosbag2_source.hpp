#pragma once
// rosbag2 recordings (ROS 2): a folder with metadata.yaml and its storage files, or a
// single .db3 file. SQLite storage is read here; MCAP storage by the MCAP reader.

#include <filesystem>
#include <memory>

#include "core/storage/source.hpp"

namespace bagscope::storage {

/// Opens `path`: a rosbag2 folder, its metadata.yaml, or a storage file (.db3, or
/// .db3.zstd / .mcap.zstd compressed whole, which are decompressed into a temporary
/// folder first) with or without a metadata.yaml beside it. Split bags (several files) read as one recording. Databases
/// are opened read-only and immutable: nothing is created or changed next to them.
/// Where metadata.yaml and the database disagree, the database wins and SourceInfo
/// reports the difference.
Result<std::unique_ptr<Source>> openRosbag2(const std::filesystem::path& path);

/// True for rosbag2 storage files: .db3, .mcap, and their whole-file .zstd copies.
bool isStorageFile(const std::filesystem::path& path);

/// The rosbag2 container: its row of the readers' registry (source.cpp).
const ContainerFormat& rosbag2Container();

}  // namespace bagscope::storage
