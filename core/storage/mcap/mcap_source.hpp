#pragma once
// MCAP reader (https://mcap.dev/spec, major version 0), written here: no packaged C++
// library exists.

#include <memory>

#include "core/storage/source.hpp"

namespace bagscope::storage {

/// Opens an MCAP file from its summary section (schemas, channels, statistics, chunk
/// indexes) without touching messages. A file with no summary, a cut file, or one whose
/// messages sit outside chunks is scanned once, recovering every complete message, and
/// SourceInfo says so. Chunks may be uncompressed, lz4 or zstd.
Result<std::unique_ptr<Source>> openMcap(std::unique_ptr<ByteSource> bytes);

/// The MCAP container: its row of the readers' registry (source.cpp).
const ContainerFormat& mcapContainer();

}  // namespace bagscope::storage
