#pragma once
// rosbag2's sqlite3 storage plugin: the databases of a recording read as one source.

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "core/storage/source.hpp"
#include "metadata.hpp"

namespace bagscope::storage::rosbag2 {

/// Opens the databases `files` (one recording, split or not) read-only and immutable; what
/// `metadata` says is checked against them. `shownPath` names the recording in messages.
Result<std::unique_ptr<Source>> openSqlite(const std::vector<std::filesystem::path>& files,
                                           std::optional<BagMetadata> metadata, const std::filesystem::path& shownPath);

}  // namespace bagscope::storage::rosbag2
