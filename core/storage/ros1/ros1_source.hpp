#pragma once
// ROS 1 bag reader (format 2.0, http://wiki.ros.org/Bags/Format/2.0).

#include <memory>

#include "core/storage/source.hpp"

namespace bagscope::storage {

/// Opens a ROS 1 bag. An indexed bag is opened from its header, connection records and
/// chunk infos only; a bag without a usable index (not closed, cut short, crashed) is
/// scanned once, recovering every complete message, and SourceInfo says what was lost.
/// Errors: Unsupported for other bag versions, Format/Truncated when not even the file
/// header is readable.
Result<std::unique_ptr<Source>> openRos1(std::unique_ptr<ByteSource> bytes);

/// The ROS 1 bag container: its row of the readers' registry (source.cpp).
const ContainerFormat& ros1Container();

}  // namespace bagscope::storage
