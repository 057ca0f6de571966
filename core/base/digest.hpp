#pragma once
// SHA-256 (FIPS 180-4), Base64 (RFC 4648) and hex, for printing byte arrays compactly; CRC-32
// for the checksums MCAP files carry.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace bagscope {

std::array<std::uint8_t, 32> sha256(std::span<const std::byte> data);
std::string sha256Hex(std::span<const std::byte> data);
/// MD5 (RFC 1321) as 32 lower-case hex digits: how ROS 1 names a message definition.
std::string md5Hex(std::span<const std::byte> data);
std::string base64(std::span<const std::byte> data);
/// CRC-32 (ISO-HDLC, as zlib and MCAP compute it) of `data`, continuing from `crc`.
std::uint32_t crc32(std::span<const std::byte> data, std::uint32_t crc = 0);
/// The CRC-32 of A followed by B from the CRC-32s of each and B's length (zlib's
/// crc32_combine): chunks checked on other threads make the whole file's CRC.
std::uint32_t crc32Combine(std::uint32_t first, std::uint32_t second, std::uint64_t secondLength);
/// Lower-case hex, two digits a byte; `spaced`: "0b 00", else "0b00".
std::string hexBytes(std::span<const std::byte> data, bool spaced = true);

}  // namespace bagscope
