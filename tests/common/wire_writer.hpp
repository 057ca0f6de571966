#pragma once
// Builds little-endian byte strings by hand, for tests whose expected values are written
// down next to the bytes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace bagscope::test {

class WireWriter {
public:
  template <typename T>
  WireWriter& put(T v) {
    return append(&v, sizeof(T));  // tests run on little-endian machines
  }
  WireWriter& u8(std::uint8_t v) { return put(v); }
  WireWriter& u32(std::uint32_t v) { return put(v); }
  WireWriter& u64(std::uint64_t v) { return put(v); }
  WireWriter& raw(std::string_view s) { return append(s.data(), s.size()); }
  WireWriter& raw(const std::vector<std::byte>& b) { return append(b.data(), b.size()); }
  /// A ROS 1 string: uint32 length, then the bytes.
  WireWriter& str(std::string_view s) { return u32(static_cast<std::uint32_t>(s.size())).raw(s); }

  std::vector<std::byte> bytes;

private:
  WireWriter& append(const void* p, std::size_t n) {
    std::size_t at = bytes.size();
    bytes.resize(at + n);
    if (n) std::memcpy(bytes.data() + at, p, n);
    return *this;
  }
};

}  // namespace bagscope::test
