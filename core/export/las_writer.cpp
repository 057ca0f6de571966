// LAS 1.2 (ASPRS), point data record format 3: x, y, z as scaled integers, intensity, GPS
// time and RGB, the format LAS readers (PDAL, LAStools, CloudCompare, loaders.gl) all take.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "export.hpp"

namespace bagscope::exporters {
namespace {

constexpr std::uint16_t kHeaderSize = 227, kRecordLength = 34;
constexpr double kScale = 0.001;  // millimetres: what survey data uses, ±2,147 km about the offset

// Unix time to adjusted standard GPS time (GPS seconds - 10⁹): the GPS epoch is Unix
// 315964800, and GPS time has run 18 leap seconds ahead of UTC since 2017.
double adjustedGpsTime(std::int64_t stampNs) {
  return static_cast<double>(stampNs / 1'000'000'000 - 315'964'800 + 18 - 1'000'000'000) +
         static_cast<double>(stampNs % 1'000'000'000) / 1e9;
}

template <typename T>
void put(std::string& out, std::size_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof v);
}
template <typename T>
void append(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

Result<std::string> lasBytes(const sensors::PointCloud& cloud, const std::vector<bool>& keep) {
  auto channels = cloud.channels();
  const sensors::Channel* xyz[] = {channelNamed(channels, {"x"}), channelNamed(channels, {"y"}),
                                   channelNamed(channels, {"z"})};
  const sensors::Channel* intensity = channelNamed(channels, {"intensity", "i"});
  const sensors::Channel* rgb[] = {channelNamed(channels, {"r"}), channelNamed(channels, {"g"}),
                                   channelNamed(channels, {"b"})};
  auto value = [&](const sensors::Channel* c, std::size_t i) { return c ? cloud.value(i, *c) : 0.0; };

  // The offset is the floor of the smallest coordinate, so that integers stay small.
  std::array<double, 3> lo{}, hi{};
  lo.fill(std::numeric_limits<double>::infinity());
  hi.fill(-std::numeric_limits<double>::infinity());
  std::uint32_t count = 0;
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    if (!keep.empty() && !keep[i]) continue;
    ++count;
    for (int k = 0; k < 3; ++k) {
      double v = value(xyz[k], i);
      lo[k] = std::min(lo[k], v);
      hi[k] = std::max(hi[k], v);
    }
  }
  if (count == 0) lo.fill(0), hi.fill(0);
  std::array<double, 3> offset{std::floor(lo[0]), std::floor(lo[1]), std::floor(lo[2])};
  for (int k = 0; k < 3; ++k)
    if ((hi[k] - offset[k]) / kScale > std::numeric_limits<std::int32_t>::max())
      return makeError(ErrorCode::Unsupported, "the cloud spans " + std::to_string(hi[k] - lo[k]) +
                                                   " m along an axis: more than LAS's 32-bit millimetres hold");

  std::string out(kHeaderSize, '\0');
  out.replace(0, 4, "LASF");
  put<std::uint16_t>(out, 6, 1);   // global encoding: GPS time is adjusted standard GPS time
  out[24] = 1, out[25] = 2;        // version 1.2
  out.replace(26, 8, "Bagscope");  // system identifier
  out.replace(58, 8, "Bagscope");  // generating software
  // The creation date is the cloud's (its stamp), so that the same cloud gives the same file.
  using namespace std::chrono;
  const sys_days day = floor<days>(sys_time<nanoseconds>(nanoseconds(cloud.header.stampNs)));
  const year_month_day date{day};
  put<std::uint16_t>(out, 90, static_cast<std::uint16_t>((day - sys_days{date.year() / January / 1}).count() + 1));
  put<std::uint16_t>(out, 92, static_cast<std::uint16_t>(static_cast<int>(date.year())));
  put<std::uint16_t>(out, 94, kHeaderSize);
  put<std::uint32_t>(out, 96, kHeaderSize);  // point data right after the header: no VLRs
  out[104] = 3;                              // point data record format 3
  put<std::uint16_t>(out, 105, kRecordLength);
  put<std::uint32_t>(out, 107, count);
  put<std::uint32_t>(out, 111, count);  // all first returns
  for (int k = 0; k < 3; ++k) {
    put<double>(out, 131 + 8 * k, kScale);
    put<double>(out, 155 + 8 * k, offset[k]);
    put<double>(out, 179 + 16 * k, hi[k]);  // max x, min x, max y, …
    put<double>(out, 187 + 16 * k, lo[k]);
  }

  const double gpsTime = adjustedGpsTime(cloud.header.stampNs);
  out.reserve(out.size() + std::size_t{count} * kRecordLength);
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    if (!keep.empty() && !keep[i]) continue;
    for (int k = 0; k < 3; ++k)
      append(out, static_cast<std::int32_t>(std::llround((value(xyz[k], i) - offset[k]) / kScale)));
    double in = std::clamp(std::round(value(intensity, i)), 0.0, 65535.0);
    append(out, static_cast<std::uint16_t>(std::isfinite(in) ? in : 0));
    append(out, std::uint8_t{0b00'001'001});  // return 1 of 1
    append(out, std::uint8_t{0});             // classification: never classified
    append(out, std::int8_t{0});              // scan angle
    append(out, std::uint8_t{0});             // user data
    append(out, std::uint16_t{0});            // point source id
    append(out, gpsTime);
    for (const auto* c : rgb) {  // 8-bit colour to LAS's 16 bits: 255 becomes 65535
      double v = value(c, i);
      append(out, static_cast<std::uint16_t>(std::isfinite(v) ? std::clamp(v, 0.0, 255.0) * 257 : 0));
    }
  }
  return out;
}

}  // namespace bagscope::exporters
