#pragma once
// WireCursor: bounds-checked reads in either wire format. ROS 1 is packed little-endian;
// CDR (XCDR1, as ROS 2 writes it) aligns each primitive to its size (8 at most), measured
// from the start of the payload after the 4-byte encapsulation header, in either byte order.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "core/base/result.hpp"
#include "core/decode/decoder.hpp"

namespace bagscope::decode::detail {

class WireCursor {
public:
  WireCursor(std::span<const std::byte> bytes, std::size_t pos, bool cdr, bool bigEndian)
      : bytes_(bytes),
        pos_(pos),
        origin_(pos),
        cdr_(cdr),
        swap_(bigEndian != (std::endian::native == std::endian::big)) {}

  std::size_t pos() const noexcept { return pos_; }
  std::size_t remaining() const noexcept { return bytes_.size() - pos_; }
  bool cdr() const noexcept { return cdr_; }
  std::span<const std::byte> bytes() const noexcept { return bytes_; }
  void seek(std::size_t pos) noexcept { pos_ = pos <= bytes_.size() ? pos : bytes_.size(); }

  /// CDR: skips the padding before a primitive of `size` bytes. ROS 1: nothing.
  bool align(std::size_t size) noexcept {
    if (!cdr_ || size <= 1) return true;
    std::size_t pad = (size - (pos_ - origin_) % size) % size;
    return skip(pad);
  }

  template <typename T>
  bool read(T& out) noexcept {
    if (!align(sizeof(T)) || remaining() < sizeof(T)) [[unlikely]]
      return false;
    std::memcpy(&out, bytes_.data() + pos_, sizeof(T));
    if constexpr (sizeof(T) > 1) {
      if (swap_) out = byteswap(out);
    }
    pos_ += sizeof(T);
    return true;
  }
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
  template <typename T>
  static T byteswap(T v) noexcept {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) {
      unsigned char t = b[i];
      b[i] = b[sizeof(T) - 1 - i];
      b[sizeof(T) - 1 - i] = t;
    }
    std::memcpy(&v, b, sizeof(T));
    return v;
  }

  std::span<const std::byte> bytes_;
  std::size_t pos_;
  std::size_t origin_;
  bool cdr_;
  bool swap_;
};

/// A cursor at the first field of `bytes` in `format` (after a CDR header, whose byte
/// order it adopts). Errors (Decode) for a missing or unsupported header.
Result<WireCursor> openWire(std::span<const std::byte> bytes, WireFormat format);

}  // namespace bagscope::decode::detail
