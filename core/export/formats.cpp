// The export formats: one row each. Everything that names, offers or routes a format reads
// this table (the CLI's --format, the wizard's choices and option boxes, the panels' save
// dialogs, the exporter's per-message or per-topic plan).

#include <algorithm>

#include "export.hpp"

namespace bagscope::exporters {
namespace {

using sensors::SensorKind;

constexpr std::uint32_t bit(SensorKind k) { return 1u << static_cast<unsigned>(k); }
constexpr std::uint32_t kClouds = bit(SensorKind::PointCloud) | bit(SensorKind::LaserScan);
constexpr std::uint32_t kImages = bit(SensorKind::Image) | bit(SensorKind::CompressedImage);

constexpr FormatInfo kFormats[] = {
    {Format::Pcd, "pcd", nullptr, "pcd", "PCD", kClouds, true, false, FormatOptions::Cloud},
    {Format::Ply, "ply", nullptr, "ply", "PLY", kClouds, true, false, FormatOptions::Cloud},
    {Format::KittiBin, "bin", "kitti", "bin", "KITTI .bin", kClouds, true, false, FormatOptions::Cloud},
    {Format::Png, "png", nullptr, "png", "PNG", kImages, true, false, FormatOptions::Image},
    {Format::Jpeg, "jpeg", "jpg", "jpg", "JPEG", kImages, true, false, FormatOptions::Image},
    {Format::Mp4, "mp4", nullptr, "mp4", "MP4 video", kImages, false, false, FormatOptions::Image},
    {Format::Avi, "avi", nullptr, "avi", "AVI video", kImages, false, false, FormatOptions::Image},
    {Format::Csv, "csv", nullptr, "csv", "CSV", 0, false, true, FormatOptions::Table},
    {Format::Npy, "npy", nullptr, "npy", "NumPy .npy", kClouds, true, true, FormatOptions::Cloud},
};

}  // namespace

std::span<const FormatInfo> formats() { return kFormats; }

const FormatInfo& formatInfo(Format format) {
  return *std::find_if(std::begin(kFormats), std::end(kFormats),
                       [&](const FormatInfo& f) { return f.format == format; });
}

Result<Format> formatFromName(std::string_view name) {
  for (const auto& f : kFormats)
    if (name == f.name || (f.alias && name == f.alias)) return f.format;
  return fileError(ErrorCode::InvalidArgument, "unknown format '" + std::string(name) + "' (" + formatNames() + ")");
}

const char* formatName(Format format) { return formatInfo(format).name; }
const char* extension(Format format) { return formatInfo(format).extension; }

std::string formatNames() {
  std::string out;
  for (const auto& f : kFormats) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

bool accepts(Format format, std::string_view type) { return formatInfo(format).anyTopic || madeFor(format, type); }

std::vector<Format> formatsFor(std::string_view type) {
  const std::uint32_t kind = bit(sensors::kindOf(type));
  std::vector<Format> madeFor, others;
  for (const auto& f : kFormats) {
    if ((f.kinds & kind) != 0) madeFor.push_back(f.format);
    else if (f.anyTopic) others.push_back(f.format);
  }
  madeFor.insert(madeFor.end(), others.begin(), others.end());
  return madeFor;
}

bool madeFor(Format format, std::string_view type) {
  return (formatInfo(format).kinds & bit(sensors::kindOf(type))) != 0;
}

bool filePerMessage(Format format, std::string_view type) {
  return formatInfo(format).filePerMessage && madeFor(format, type);
}

}  // namespace bagscope::exporters
