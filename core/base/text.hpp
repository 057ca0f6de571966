#pragma once
// Small text helpers every layer shows to people or reads from them: sizes, ROS type names, times.

#include <cstdint>
#include <string>
#include <string_view>

namespace bagscope {

/// "2.1 MB" (powers of 1024, as rosbag prints sizes); "512 B" below 1 KB.
std::string formatBytes(std::uint64_t bytes);

/// The type name without ROS 2's "/msg/": "sensor_msgs/msg/Image" -> "sensor_msgs/Image",
/// so that ROS 1 and ROS 2 spellings of a type compare equal.
std::string normalTypeName(std::string_view type);

/// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool isValidUtf8(std::string_view text);
/// `text` with every byte that is not part of well-formed UTF-8 replaced by `replacement`.
std::string withValidUtf8(std::string_view text, char replacement = '?');

/// "1700000000.25" -> ns, exactly (no floating point); false when malformed.
bool parseSeconds(std::string_view s, std::int64_t& ns);
/// A time as people give it: seconds since the epoch, or "+S" seconds after `recordingStartNs`.
bool parseTimeArgument(std::string_view arg, std::int64_t recordingStartNs, std::int64_t& ns);

}  // namespace bagscope
