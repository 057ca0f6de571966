#include "builtin_types.hpp"

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "schema.hpp"

namespace bagscope::schema {
namespace {

std::string normalize(std::string_view name) {
  std::string s(name);
  if (auto pos = s.find("/msg/"); pos != std::string::npos) s.erase(pos, 4);
  return s;
}

// The message types a .msg text uses, qualified with `package` where they are bare.
std::vector<std::string> dependencies(std::string_view text, std::string_view package) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    line = line.substr(first);
    std::string_view type = line.substr(0, line.find_first_of(" \t"));
    type = type.substr(0, type.find_first_of("[<"));
    if (type.empty() || isPrimitiveName(type)) continue;
    out.push_back(type.find('/') == std::string_view::npos ? std::string(package) + "/" + std::string(type)
                                                           : normalize(type));
  }
  return out;
}

// One type's .msg text: from the user's folders, else built in.
std::optional<std::string> lookUp(const std::string& name, std::span<const std::filesystem::path> msgPaths) {
  static const std::map<std::string, const char*, std::less<>> kByName = [] {
    std::map<std::string, const char*, std::less<>> m;
    for (const auto& t : detail::builtinTypeTable()) m.emplace(t.name, t.text);
    return m;
  }();
  auto slash = name.find('/');
  if (slash != std::string::npos) {
    for (const auto& dir : msgPaths) {
      auto file = dir / std::filesystem::u8path(name.substr(0, slash)) / "msg" /
                  std::filesystem::u8path(name.substr(slash + 1) + ".msg");
      std::ifstream in(file, std::ios::binary);
      if (in) return std::string(std::istreambuf_iterator<char>(in), {});
    }
  }
  if (auto it = kByName.find(name); it != kByName.end()) return std::string(it->second);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> findDefinition(std::string_view type, std::span<const std::filesystem::path> msgPaths) {
  return findDefinition(type, msgPaths, {});
}

std::optional<std::string> findDefinition(std::string_view type, std::span<const std::filesystem::path> msgPaths,
                                          const std::map<std::string, std::string>& extra) {
  auto lookUp = [&](const std::string& name) -> std::optional<std::string> {
    if (auto text = schema::lookUp(name, msgPaths)) return text;
    if (auto it = extra.find(name); it != extra.end()) return it->second;
    return std::nullopt;
  };
  std::string root = normalize(type);
  auto rootText = lookUp(root);
  if (!rootText) return std::nullopt;
  std::string out = *rootText;
  // Dependencies depth first, each once, as rosbag2 writes them.
  std::set<std::string> done{root};
  std::vector<std::string> pending = dependencies(*rootText, root.substr(0, root.find('/')));
  while (!pending.empty()) {
    std::string dep = pending.front();
    pending.erase(pending.begin());
    if (!done.insert(dep).second) continue;
    auto text = lookUp(dep);
    if (!text) return std::nullopt;
    out += "\n" + std::string(80, '=') + "\nMSG: " + dep + "\n" + *text;
    auto more = dependencies(*text, dep.substr(0, dep.find('/')));
    pending.insert(pending.begin(), more.begin(), more.end());
  }
  return out;
}

std::vector<std::string> definitionNames(std::string_view type) {
  std::vector<std::string> names{std::string(type)};
  if (type.find("/srv/") != std::string_view::npos && type.ends_with("_Event"))
    names.emplace_back(type.substr(0, type.size() - 6));
  return names;
}

std::optional<std::string> serviceEventDefinition(std::string_view type, std::string_view srvText) {
  std::string name = normalize(type);  // "pkg/srv/Name_Event" stays as it is: no "/msg/"
  auto srv = name.find("/srv/");
  if (srv == std::string::npos || !name.ends_with("_Event")) return std::nullopt;
  std::string package = name.substr(0, srv);
  std::string service = name.substr(srv + 5, name.size() - srv - 5 - 6);
  // The .srv text ends where the first dependency section starts.
  std::string_view body = srvText, dependencies;
  for (std::size_t pos = 0; pos < srvText.size();) {
    auto end = srvText.find('\n', pos);
    if (end == std::string_view::npos) end = srvText.size();
    std::string_view line = srvText.substr(pos, end - pos);
    if (line.size() >= 3 && line.find_first_not_of('=') == std::string_view::npos) {
      body = srvText.substr(0, pos);
      dependencies = srvText.substr(pos);
      break;
    }
    pos = end + 1;
  }
  std::size_t split = std::string_view::npos;
  for (std::size_t pos = 0; pos < body.size();) {
    auto end = body.find('\n', pos);
    if (end == std::string_view::npos) end = body.size();
    std::string_view line = body.substr(pos, end - pos);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line == "---") {
      split = pos;
      break;
    }
    pos = end + 1;
  }
  if (split == std::string_view::npos) return std::nullopt;
  std::string_view request = body.substr(0, split);
  std::string_view response = body.substr(std::min(body.size(), body.find('\n', split) + 1));
  const std::string sep = "\n" + std::string(80, '=') + "\n";
  std::string out = "service_msgs/ServiceEventInfo info\n" + package + "/" + service + "_Request[<=1] request\n" +
                    package + "/" + service + "_Response[<=1] response\n";
  // ServiceEventInfo as rosidl defines it (service_msgs, rcl_interfaces; Apache-2.0).
  out += sep +
         "MSG: service_msgs/ServiceEventInfo\n"
         "uint8 REQUEST_SENT = 0\nuint8 REQUEST_RECEIVED = 1\nuint8 RESPONSE_SENT = 2\nuint8 RESPONSE_RECEIVED = 3\n"
         "uint8 event_type\nbuiltin_interfaces/Time stamp\nchar[16] client_gid\nint64 sequence_number\n";
  out += sep + "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";
  out += sep + "MSG: " + package + "/" + service + "_Request\n" + std::string(request);
  out += sep + "MSG: " + package + "/" + service + "_Response\n" + std::string(response);
  out += std::string(dependencies);
  return out;
}

}  // namespace bagscope::schema
