#pragma once
// SHA-256 (FIPS 180-4) and Base64 (RFC 4648), for printing large byte arrays compactly.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace bagscope {

std::array<std::uint8_t, 32> sha256(std::span<const std::byte> data);
std::string sha256Hex(std::span<const std::byte> data);
std::string base64(std::span<const std::byte> data);

}  // namespace bagscope
