// rosbag2's metadata.yaml.

#include "metadata.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iterator>

namespace bagscope::storage::rosbag2 {
namespace fs = std::filesystem;

std::string u8(const fs::path& p) {
  auto s = p.u8string();
  return std::string(s.begin(), s.end());
}

Error fail(ErrorCode code, std::string message, const fs::path& file) {
  return fileError(code, std::move(message), u8(file));
}

// metadata.yaml, or the same YAML text from a database's metadata table.
Result<BagMetadata> parseMetadata(const std::string& text, const fs::path& origin) {
  try {
    YAML::Node root = YAML::Load(text);
    // metadata.yaml wraps the fields in rosbag2_bagfile_information; the table does not.
    YAML::Node info = root.IsMap() && root["rosbag2_bagfile_information"] ? root["rosbag2_bagfile_information"] : root;
    if (!info.IsMap() || !info["version"])
      return fail(ErrorCode::Format, "no 'rosbag2_bagfile_information' in the metadata", origin);
    BagMetadata m;
    m.version = info["version"].as<int>(0);
    m.storage = info["storage_identifier"].as<std::string>("");
    if (info["relative_file_paths"])
      for (const auto& f : info["relative_file_paths"]) m.files.push_back(f.as<std::string>());
    if (info["topics_with_message_count"]) {
      for (const auto& t : info["topics_with_message_count"]) {
        TopicMetadata tm;
        const auto& md = t["topic_metadata"];
        tm.name = md["name"].as<std::string>("");
        tm.type = md["type"].as<std::string>("");
        tm.serialization = md["serialization_format"].as<std::string>("cdr");
        // YAML text before version 9, a YAML list since: kept as text either way.
        if (const auto& q = md["offered_qos_profiles"]; q && q.IsScalar()) {
          tm.qos = q.as<std::string>();
        } else if (q) {
          YAML::Emitter e;
          e << q;
          tm.qos = e.c_str();
        }
        tm.typeHash = md["type_description_hash"].as<std::string>("");
        tm.messageCount = t["message_count"].as<std::uint64_t>(0);
        m.topics.push_back(std::move(tm));
      }
    }
    m.compressionFormat = info["compression_format"].as<std::string>("");
    m.compressionMode = info["compression_mode"].as<std::string>("");
    return m;
  } catch (const std::exception& e) {
    return fail(ErrorCode::Format, std::string("the metadata is not readable YAML: ") + e.what(), origin);
  }
}

Result<BagMetadata> readMetadata(const fs::path& yamlPath) {
  std::ifstream in(yamlPath, std::ios::binary);
  if (!in) return fail(ErrorCode::Io, "cannot read", yamlPath);
  return parseMetadata(std::string(std::istreambuf_iterator<char>(in), {}), yamlPath);
}

// "file:" URI with immutable=1: read-only, no locks, no -wal/-shm files beside the database.

}  // namespace bagscope::storage::rosbag2
