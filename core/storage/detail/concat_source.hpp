#pragma once
// Several files of one recording (a rosbag2 MCAP bag split by --max-bag-size) as one Source:
// connections of the same topic and type are one connection, chunk numbers run on from
// file to file, and messages come in log-time order across the files.

#include <memory>
#include <string>
#include <vector>

#include "core/storage/source.hpp"

namespace bagscope::storage::detail {

/// `parts` in file order, each opened already; `info` describes the whole (path, format,
/// version); sizes, counts, times and the parts' problems (prefixed with their file names)
/// are added to it.
std::unique_ptr<Source> concatSources(std::vector<std::unique_ptr<Source>> parts, SourceInfo info);

}  // namespace bagscope::storage::detail
