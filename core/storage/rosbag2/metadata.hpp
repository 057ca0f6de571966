#pragma once
// rosbag2's metadata.yaml (versions 1-9), and the same YAML text that databases since Iron keep
// in a table: the recording's storage plugin, files and topics.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/base/result.hpp"

namespace bagscope::storage::rosbag2 {

struct TopicMetadata {
  std::string name, type, serialization = "cdr", qos, typeHash;
  std::uint64_t messageCount = 0;
};

struct BagMetadata {
  int version = 0;
  std::string storage;  // "sqlite3", "mcap"
  std::vector<std::string> files;
  std::vector<TopicMetadata> topics;
  std::string compressionFormat, compressionMode;
};

/// metadata.yaml, or the same YAML text from a database's metadata table; errors name `origin`.
Result<BagMetadata> parseMetadata(const std::string& text, const std::filesystem::path& origin);
Result<BagMetadata> readMetadata(const std::filesystem::path& yamlPath);

/// A path as UTF-8, and an error about a file.
std::string u8(const std::filesystem::path& p);
Error fail(ErrorCode code, std::string message, const std::filesystem::path& file);

}  // namespace bagscope::storage::rosbag2
