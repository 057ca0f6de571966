#pragma once
// Definitions for bags that name types without defining them: the user's .msg folders
// (`--msg-path`), then the built-in type store, the standard ROS 2 interfaces
// (resources/ros2-interfaces, Apache-2.0) compiled into the binary.

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bagscope::schema {

/// The full definition of `type` ("pkg/Type" or "pkg/msg/Type") as a bag would store it:
/// its .msg text, then each dependency after a '=' line and "MSG: pkg/Type". Each type is
/// looked up in `msgPaths` (as DIR/<pkg>/msg/<Type>.msg, first match wins), then among the
/// standard interfaces. Empty when the type or one of its dependencies is found nowhere.
std::optional<std::string> findDefinition(std::string_view type, std::span<const std::filesystem::path> msgPaths = {});
/// The same, with `extra` (.msg texts by "pkg/Type") looked up after the standard interfaces:
/// definitions made for types ROS 2 does not have.
std::optional<std::string> findDefinition(std::string_view type, std::span<const std::filesystem::path> msgPaths,
                                          const std::map<std::string, std::string>& extra);

/// rosbag2 (Jazzy) records service events on topics of type "pkg/srv/Name_Event" and
/// stores the .srv text (request, "---", response, then dependency sections) as their
/// definition. This builds the message rosidl generates for it:
///   service_msgs/ServiceEventInfo info, Name_Request[<=1] request, Name_Response[<=1] response.
/// Empty when `type` is not a service event or the text has no "---" line.
std::optional<std::string> serviceEventDefinition(std::string_view type, std::string_view srvText);

/// The names under which a recording may store the definition of `type`: the type itself
/// and, for a service event "pkg/srv/Name_Event", the service "pkg/srv/Name" (rosbag2 keeps
/// the .srv text under that name in .db3 message_definitions; serviceEventDefinition()
/// expands it). Every reader looks definitions up through this.
std::vector<std::string> definitionNames(std::string_view type);

namespace detail {
struct BuiltinType {
  const char* name;  ///< "pkg/Type"
  const char* text;  ///< the .msg file
};
const std::vector<BuiltinType>& builtinTypeTable();  // generated at build time
}  // namespace detail

}  // namespace bagscope::schema
