// The export formats: one row each. Everything that names, offers or routes a format reads
// this table (the CLI's --format, the wizard's choices and option boxes, the panels' save
// dialogs, the exporter's per-message or per-topic plan).

#include <algorithm>

#include "detail/topic_writers.hpp"
#include "export.hpp"

namespace bagscope::exporters {
namespace {

using sensors::SensorKind;

constexpr std::uint32_t bit(SensorKind k) { return 1u << static_cast<unsigned>(k); }
constexpr std::uint32_t kClouds = bit(SensorKind::PointCloud) | bit(SensorKind::LaserScan);
constexpr std::uint32_t kImages = bit(SensorKind::Image) | bit(SensorKind::CompressedImage);
constexpr std::uint32_t kStills = kImages | bit(SensorKind::Video);  // video topics: their decoded frames

using sensors::PointCloud;
using Channels = std::vector<OutputChannel>;
using Keep = std::vector<bool>;

constexpr CloudFileWriter kPcd{
    [](const PointCloud& c, const Channels& ch, const Keep& keep, const ExportOptions& o,
       const std::string&) -> Result<std::string> { return pcdBytes(c, ch, keep, o.pcdEncoding); },
    false, true};
constexpr CloudFileWriter kPly{
    [](const PointCloud& c, const Channels& ch, const Keep& keep, const ExportOptions& o,
       const std::string& comment) -> Result<std::string> { return plyBytes(c, ch, keep, o.plyAscii, comment); }};
// KITTI has no way to mark a point missing and always drops the non-finite ones.
constexpr CloudFileWriter kKitti{[](const PointCloud& c, const Channels&, const Keep& keep, const ExportOptions&,
                                    const std::string&) -> Result<std::string> { return kittiBytes(c, keep); },
                                 true};
constexpr CloudFileWriter kNpy{[](const PointCloud& c, const Channels& ch, const Keep& keep, const ExportOptions&,
                                  const std::string&) -> Result<std::string> {
  std::string bytes = npyCloudBytes(c, ch, keep);
  if (bytes.empty()) return makeError(ErrorCode::Unsupported, "too many fields for a NumPy 1.0 header");
  return bytes;
}};
constexpr CloudFileWriter kLas{[](const PointCloud& c, const Channels&, const Keep& keep, const ExportOptions&,
                                  const std::string&) { return lasBytes(c, keep); },
                               true};

using detail::TopicWriterSetup;
using WriterPtr = Result<std::unique_ptr<detail::TopicWriter>>;

constexpr ImageFileWriter kPngFile{sensors::StillFormat::Png, "png"};
constexpr ImageFileWriter kJpegFile{sensors::StillFormat::Jpeg, "jpeg"};
constexpr TopicWriterFactory kCsvTable = [](const TopicWriterSetup& s) { return detail::makeCsvWriter(s); };
constexpr TopicWriterFactory kNpyTable = [](const TopicWriterSetup& s) -> WriterPtr {
  return detail::makeNpyTableWriter(s);
};
constexpr TopicWriterFactory kMp4Video = [](const TopicWriterSetup& s) -> WriterPtr {
  return detail::makeVideoWriter(
      s, s.options.videoCodec == "mp4v" ? sensors::VideoWriter::Codec::Mp4v : sensors::VideoWriter::Codec::H264);
};
constexpr TopicWriterFactory kAviVideo = [](const TopicWriterSetup& s) -> WriterPtr {
  return detail::makeVideoWriter(s, sensors::VideoWriter::Codec::Avi);
};

// Each row: the format, its names, what it is made for, the options it takes (ids of
// formatOptions()) and its writer.
constexpr FormatInfo kFormats[] = {
    {Format::Pcd, "pcd", nullptr, "pcd", "PCD", kClouds, true, false,
     "pcd-encoding fields normalise-intensity drop-nan frame axes", kPcd},
    {Format::Ply, "ply", nullptr, "ply", "PLY", kClouds, true, false,
     "ascii fields normalise-intensity drop-nan frame axes", kPly},
    {Format::KittiBin, "bin", "kitti", "bin", "KITTI .bin", kClouds, true, false, "frame axes", kKitti},
    {Format::Las, "las", nullptr, "las", "LAS 1.2", kClouds, true, false, "frame axes", kLas},
    {Format::Png, "png", nullptr, "png", "PNG", kStills, true, false, "", {}, kPngFile},
    {Format::Jpeg, "jpeg", "jpg", "jpg", "JPEG", kStills, true, false, "quality", {}, kJpegFile},
    {Format::Mp4,
     "mp4",
     nullptr,
     "mp4",
     "MP4 video",
     kStills,
     false,
     false,
     "fps codec crf preset video-time",
     {},
     {},
     kMp4Video},
    {Format::Avi, "avi", nullptr, "avi", "AVI video", kImages, false, false, "fps", {}, {}, kAviVideo},
    {Format::Csv,
     "csv",
     nullptr,
     "csv",
     "CSV",
     0,
     false,
     true,
     "time seconds array-limit field join on rate fill",
     {},
     {},
     kCsvTable},
    {Format::Npy,
     "npy",
     nullptr,
     "npy",
     "NumPy .npy",
     kClouds,
     true,
     true,
     "fields normalise-intensity drop-nan frame axes time seconds array-limit join on rate fill",
     kNpy,
     {},
     kNpyTable},
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
