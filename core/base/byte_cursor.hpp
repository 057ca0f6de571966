#pragma once
// ByteCursor: bounds-checked little-endian reads from a byte span. Every read says whether it
// fitted; nothing is read past the end. Values are copied with memcpy (no unaligned casts).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

namespace bagscope {

/// Reads a little-endian arithmetic value from `p` (which must hold sizeof(T) bytes).
template <typename T>
inline T loadLE(const std::byte* p) noexcept {
  static_assert(std::is_arithmetic_v<T>);
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    auto* b = reinterpret_cast<unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  return v;
}

class ByteCursor {
public:
  explicit ByteCursor(std::span<const std::byte> bytes, std::size_t pos = 0) noexcept
      : bytes_(bytes), pos_(pos <= bytes.size() ? pos : bytes.size()) {}

  std::size_t pos() const noexcept { return pos_; }
  std::size_t remaining() const noexcept { return bytes_.size() - pos_; }
  bool atEnd() const noexcept { return pos_ == bytes_.size(); }
  std::span<const std::byte> bytes() const noexcept { return bytes_; }

  template <typename T>
  bool read(T& out) noexcept {
    if (remaining() < sizeof(T)) [[unlikely]]
      return false;
    out = loadLE<T>(bytes_.data() + pos_);
    pos_ += sizeof(T);
    return true;
  }
  /// A view of the next `n` bytes; false (and no move) when fewer remain.
  bool take(std::size_t n, std::span<const std::byte>& out) noexcept {
    if (remaining() < n) [[unlikely]]
      return false;
    out = bytes_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  bool skip(std::size_t n) noexcept {
    if (remaining() < n) [[unlikely]]
      return false;
    pos_ += n;
    return true;
  }

private:
  std::span<const std::byte> bytes_;
  std::size_t pos_;
};

inline std::string_view asText(std::span<const std::byte> bytes) noexcept {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace bagscope
