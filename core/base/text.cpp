#include "text.hpp"

#include <charconv>
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

namespace {

// The length of the well-formed UTF-8 sequence at the start of `s`, or 0.
std::size_t sequenceLength(std::string_view s) {
  auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i)
    if ((b(i) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(1) > 0x9F) return 0;  // surrogates
  if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(1) > 0x8F) return 0;  // past U+10FFFF
  return n;
}

}  // namespace

bool isValidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = sequenceLength(text.substr(i));
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string withValidUtf8(std::string_view text, char replacement) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = sequenceLength(text.substr(i));
    if (n == 0) {
      out += replacement;
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

bool parseSeconds(std::string_view s, std::int64_t& ns) {
  bool negative = !s.empty() && s.front() == '-';
  if (negative) s.remove_prefix(1);
  auto dot = s.find('.');
  std::string_view whole = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
  if (whole.empty() && frac.empty()) return false;
  std::int64_t sec = 0;
  if (!whole.empty()) {
    auto r = std::from_chars(whole.data(), whole.data() + whole.size(), sec);
    if (r.ec != std::errc() || r.ptr != whole.data() + whole.size() || sec > 9'000'000'000) return false;
  }
  std::int64_t sub = 0;
  for (std::size_t i = 0; i < 9; ++i) {
    char c = i < frac.size() ? frac[i] : '0';
    if (c < '0' || c > '9') return false;
    sub = sub * 10 + (c - '0');
  }
  for (std::size_t i = 9; i < frac.size(); ++i)
    if (frac[i] < '0' || frac[i] > '9') return false;
  ns = sec * 1'000'000'000 + sub;
  if (negative) ns = -ns;
  return true;
}

bool parseTimeArgument(std::string_view arg, std::int64_t recordingStartNs, std::int64_t& ns) {
  bool relative = arg.starts_with('+');
  if (relative) arg.remove_prefix(1);
  if (!parseSeconds(arg, ns)) return false;
  if (relative) ns += recordingStartNs;
  return true;
}

}  // namespace bagscope
