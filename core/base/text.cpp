#include "text.hpp"

#include <cstdio>

namespace bagscope {

std::string formatBytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return std::to_string(bytes) + " B";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", v, units[u]);
  return text;
}

std::string normalTypeName(std::string_view type) {
  auto slash = type.find('/');
  if (slash != std::string_view::npos && type.substr(slash, 5) == "/msg/")
    return std::string(type.substr(0, slash)) + std::string(type.substr(slash + 4));
  return std::string(type);
}

}  // namespace bagscope
