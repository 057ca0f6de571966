#pragma once
// Little-endian records as the writers lay them out: appends to a std::string.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace bagscope::write::detail {

template <typename T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  for (std::size_t i = 0; i < sizeof(T); ++i)
    bytes[i] = static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xFF);
  out.append(bytes, sizeof(T));
}
inline void putBytes(std::string& out, std::span<const std::byte> bytes) {
  out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}
/// uint32 length, then the bytes (MCAP strings and byte arrays).
inline void putString(std::string& out, std::string_view s) {
  put(out, static_cast<std::uint32_t>(s.size()));
  out += s;
}
/// Overwrites the little-endian value at `at`.
template <typename T>
void patch(std::string& out, std::size_t at, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out[at + i] = static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xFF);
}
inline std::span<const std::byte> bytesOf(std::string_view s) { return std::as_bytes(std::span(s.data(), s.size())); }

}  // namespace bagscope::write::detail
