#include "sensors.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <span>

#include "core/base/byte_source.hpp"
#include "core/base/text.hpp"
#include "core/schema/schema.hpp"
#include "core/sensors/detail/opencv_module.hpp"

namespace bagscope::sensors {
namespace {

using decode::Value;

Error bad(std::string why) { return makeError(ErrorCode::Decode, std::move(why)); }

double number(const Value* v, double fallback = 0) { return numberOf(v, fallback); }
std::string text(const Value* v) { return textOf(v); }

// A field whose name differs between ROS 1 and ROS 2 only by case ("K" and "k").
const Value* fieldAnyCase(const Value& v, std::string_view name) {
  if (const Value* f = field(v, name)) return f;
  std::string lower(name);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string upper(name);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (const Value* f = field(v, lower)) return f;
  return field(v, upper);
}

template <std::size_t N>
bool fixedArray(const Value* v, std::array<double, N>& out) {
  if (!v || v->kind != Value::Kind::Array || v->items.size() != N) return false;
  for (std::size_t i = 0; i < N; ++i) out[i] = number(&v->items[i]);
  return true;
}

template <typename T>
T load(const std::byte* p, bool bigEndian) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if (bigEndian != (std::endian::native == std::endian::big)) {
    auto* b = reinterpret_cast<unsigned char*>(&v);
    std::reverse(b, b + sizeof v);
  }
  return v;
}

}  // namespace

// ---- What a type is ----------------------------------------------------------------------

SensorKind kindOf(std::string_view type) {
  static const std::map<std::string, SensorKind, std::less<>> kKinds = {
      {"sensor_msgs/Image", SensorKind::Image},
      {"foxglove.RawImage", SensorKind::Image},
      {"sensor_msgs/CompressedImage", SensorKind::CompressedImage},
      {"foxglove.CompressedImage", SensorKind::CompressedImage},
      {"sensor_msgs/PointCloud2", SensorKind::PointCloud},
      {"foxglove.PointCloud", SensorKind::PointCloud},
      {"sensor_msgs/LaserScan", SensorKind::LaserScan},
      {"foxglove.LaserScan", SensorKind::LaserScan},
      {"sensor_msgs/CameraInfo", SensorKind::CameraInfo},
      {"tf2_msgs/TFMessage", SensorKind::Transforms},
      {"tf/tfMessage", SensorKind::Transforms},  // ROS 1 before tf2: many real bags
      {"foxglove.FrameTransform", SensorKind::Transforms},
      {"foxglove.FrameTransforms", SensorKind::Transforms},
      {"rosgraph_msgs/Log", SensorKind::Log},
      {"rcl_interfaces/Log", SensorKind::Log},
      {"foxglove.Log", SensorKind::Log},
      {"diagnostic_msgs/DiagnosticArray", SensorKind::Diagnostics},
      {"sensor_msgs/NavSatFix", SensorKind::NavSatFix},
      {"foxglove.LocationFix", SensorKind::NavSatFix},
      {"foxglove.CompressedVideo", SensorKind::Video},
      {"foxglove_msgs/CompressedVideo", SensorKind::Video},
      {"ffmpeg_image_transport_msgs/FFMPEGPacket", SensorKind::Video},
  };
  auto it = kKinds.find(normalTypeName(type));
  return it == kKinds.end() ? SensorKind::Other : it->second;
}

// ---- Decoded values ---------------------------------------------------------------------

double numberOf(const Value* v, double fallback) {
  if (!v) return fallback;
  switch (v->kind) {
    case Value::Kind::Bool: return v->b ? 1 : 0;
    case Value::Kind::Int: return static_cast<double>(v->i);
    case Value::Kind::UInt: return static_cast<double>(v->u);
    case Value::Kind::Float: return v->f;
    default: return fallback;
  }
}

std::string textOf(const Value* v) { return v && v->kind == Value::Kind::String ? v->text : std::string(); }

const Value* field(const Value& value, std::string_view name) {
  if (value.kind != Value::Kind::Struct || !value.type) return nullptr;
  const auto& fields = value.type->fields;
  for (std::size_t i = 0; i < fields.size() && i < value.items.size(); ++i)
    if (fields[i].name == name) return &value.items[i];
  return nullptr;
}

std::optional<std::int64_t> timeNs(const Value& v) {
  if (v.kind == Value::Kind::Time || v.kind == Value::Kind::Duration) return v.t.sec * 1'000'000'000 + v.t.nsec;
  const Value* sec = field(v, "sec");
  if (!sec) sec = field(v, "seconds");
  const Value* nsec = field(v, "nanosec");
  if (!nsec) nsec = field(v, "nsec");
  if (!nsec) nsec = field(v, "nanos");
  if (!sec || !nsec) return std::nullopt;
  return static_cast<std::int64_t>(number(sec)) * 1'000'000'000 + static_cast<std::int64_t>(number(nsec));
}

std::optional<Header> headerOf(const Value& message) {
  const Value* h = field(message, "header");
  if (!h) {
    // Foxglove's schemas: the stamp and frame at the top level.
    const Value* stamp = field(message, "timestamp");
    const Value* frame = field(message, "frame_id");
    if (!stamp || !frame) return std::nullopt;
    return Header{timeNs(*stamp).value_or(0), text(frame)};
  }
  Header out;
  if (const Value* stamp = field(*h, "stamp")) out.stampNs = timeNs(*stamp).value_or(0);
  out.frameId = text(field(*h, "frame_id"));
  return out;
}

// ---- PointCloud2 ------------------------------------------------------------------------

std::size_t sizeOf(PointType type) {
  switch (type) {
    case PointType::Int8:
    case PointType::UInt8: return 1;
    case PointType::Int16:
    case PointType::UInt16: return 2;
    case PointType::Int32:
    case PointType::UInt32:
    case PointType::Float32: return 4;
    case PointType::Float64: return 8;
  }
  return 0;
}

const char* pcdTypeLetter(PointType type) {
  switch (type) {
    case PointType::Int8:
    case PointType::Int16:
    case PointType::Int32: return "I";
    case PointType::UInt8:
    case PointType::UInt16:
    case PointType::UInt32: return "U";
    default: return "F";
  }
}

const PointField* PointCloud::find(std::string_view name) const {
  for (const auto& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<Channel> PointCloud::channels(bool unpackColour) const {
  std::vector<Channel> out;
  for (const auto& f : fields) {
    bool packed = unpackColour && (f.name == "rgb" || f.name == "rgba") && f.count == 1 &&
                  (f.type == PointType::Float32 || f.type == PointType::UInt32 || f.type == PointType::Int32);
    if (packed) {
      // Packed as 0xAARRGGBB in a 4-byte value: b is its lowest byte.
      const char* names[] = {"b", "g", "r", "a"};
      for (int byte : {2, 1, 0})
        out.push_back({names[byte], PointType::UInt8, f.offset, static_cast<std::int8_t>(byte)});
      if (f.name == "rgba") out.push_back({"a", PointType::UInt8, f.offset, 3});
      continue;
    }
    for (std::uint32_t e = 0; e < f.count; ++e)
      out.push_back({f.count == 1 ? f.name : f.name + "_" + std::to_string(e), f.type,
                     f.offset + e * static_cast<std::uint32_t>(sizeOf(f.type)), -1});
  }
  return out;
}

double PointCloud::value(std::size_t i, const Channel& c) const {
  const std::byte* p = point(i) + c.offset;
  if (c.colourByte >= 0) {
    auto packed = load<std::uint32_t>(p, bigEndian);
    return static_cast<double>((packed >> (8 * c.colourByte)) & 0xFF);
  }
  switch (c.type) {
    case PointType::Int8: return static_cast<double>(static_cast<std::int8_t>(*p));
    case PointType::UInt8: return static_cast<double>(static_cast<std::uint8_t>(*p));
    case PointType::Int16: return load<std::int16_t>(p, bigEndian);
    case PointType::UInt16: return load<std::uint16_t>(p, bigEndian);
    case PointType::Int32: return load<std::int32_t>(p, bigEndian);
    case PointType::UInt32: return load<std::uint32_t>(p, bigEndian);
    case PointType::Float32: return static_cast<double>(load<float>(p, bigEndian));
    case PointType::Float64: return load<double>(p, bigEndian);
  }
  return 0;
}

std::string PointCloud::layout() const {
  std::string s;
  for (const auto& f : fields)
    s += f.name + ":" + std::to_string(f.offset) + ":" + std::to_string(static_cast<int>(f.type)) + ":" +
         std::to_string(f.count) + " ";
  return s + "step " + std::to_string(pointStep) + (bigEndian ? " big-endian" : "");
}

Result<PointCloud> readPointCloud(const Value& m) {
  PointCloud c;
  if (auto h = headerOf(m)) c.header = *h;
  const Value* data = field(m, "data");
  const Value* fields = field(m, "fields");
  if (!data || data->kind != Value::Kind::Bytes || !fields || fields->kind != Value::Kind::Array)
    return bad("not a sensor_msgs/PointCloud2 (no fields or data)");
  // foxglove.PointCloud: one row of point_stride-byte points filling data (its pose, which
  // places the points in frame_id, is not applied); field types numbered in another order.
  const Value* stride = field(m, "point_stride");
  c.height = stride ? 1 : static_cast<std::uint32_t>(number(field(m, "height")));
  c.pointStep = static_cast<std::uint32_t>(number(stride ? stride : field(m, "point_step")));
  c.width = stride ? (c.pointStep ? static_cast<std::uint32_t>(data->bytes.size() / c.pointStep) : 0)
                   : static_cast<std::uint32_t>(number(field(m, "width")));
  c.rowStep = stride ? c.width * c.pointStep : static_cast<std::uint32_t>(number(field(m, "row_step")));
  c.bigEndian = number(field(m, "is_bigendian")) != 0;
  c.dense = number(field(m, "is_dense")) != 0;
  c.data = data->bytes;
  for (const auto& f : fields->items) {
    PointField pf;
    pf.name = text(field(f, "name"));
    pf.offset = static_cast<std::uint32_t>(number(field(f, "offset")));
    auto datatype = static_cast<int>(number(field(f, stride ? "type" : "datatype")));
    if (stride && datatype >= 1 && datatype <= 6) datatype += datatype % 2 ? 1 : -1;  // UINT8=1, INT8=2, ...
    pf.count = static_cast<std::uint32_t>(number(field(f, "count"), 1));
    if (datatype < 1 || datatype > 8)
      return bad("field '" + pf.name + "' has unknown datatype " + std::to_string(datatype));
    pf.type = static_cast<PointType>(datatype);
    if (pf.count == 0) continue;  // some drivers write count 0 for unused fields
    if (std::uint64_t{pf.offset} + std::uint64_t{pf.count} * sizeOf(pf.type) > c.pointStep)
      return bad("field '" + pf.name + "' (offset " + std::to_string(pf.offset) + ", " + std::to_string(pf.count) +
                 " x " + std::to_string(sizeOf(pf.type)) + " bytes) does not fit in point_step " +
                 std::to_string(c.pointStep));
    c.fields.push_back(std::move(pf));
  }
  if (c.size() == 0) return c;
  if (std::uint64_t{c.width} * c.pointStep > c.rowStep)
    return bad("row_step " + std::to_string(c.rowStep) + " is less than width " + std::to_string(c.width) +
               " x point_step " + std::to_string(c.pointStep));
  std::uint64_t needed = std::uint64_t{c.height - 1} * c.rowStep + std::uint64_t{c.width} * c.pointStep;
  if (c.data.size() < needed)
    return bad("data holds " + std::to_string(c.data.size()) + " bytes, " + std::to_string(c.height) + " x " +
               std::to_string(c.width) + " points need " + std::to_string(needed));
  return c;
}

Result<std::vector<ScanPoint>> laserScanPoints(const Value& m) {
  const Value* ranges = field(m, "ranges");
  if (!ranges || ranges->kind != Value::Kind::Array) return bad("not a sensor_msgs/LaserScan (no ranges)");
  const Value* intensities = field(m, "intensities");
  double angle = number(field(m, "angle_min")), step = number(field(m, "angle_increment"));
  double lo = number(field(m, "range_min")), hi = number(field(m, "range_max"));
  if (const Value* start = field(m, "start_angle")) {
    // foxglove.LaserScan: ranges spread evenly from start_angle to end_angle; no range limits.
    angle = number(start);
    std::size_t n = ranges->items.size();
    step = n > 1 ? (number(field(m, "end_angle")) - angle) / static_cast<double>(n - 1) : 0.0;
    lo = 0.0;
    hi = std::numeric_limits<double>::infinity();
  }
  std::vector<ScanPoint> out;
  for (std::size_t i = 0; i < ranges->items.size(); ++i) {
    double r = number(&ranges->items[i]);
    double a = angle + static_cast<double>(i) * step;
    if (!std::isfinite(r) || r < lo || r > hi) continue;
    float in = intensities && i < intensities->items.size() ? static_cast<float>(number(&intensities->items[i])) : 0.f;
    out.push_back({static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a)), 0.f, in});
  }
  return out;
}

// ---- Images -----------------------------------------------------------------------------

std::size_t sizeOf(PixelDepth depth) {
  switch (depth) {
    case PixelDepth::U8:
    case PixelDepth::S8: return 1;
    case PixelDepth::U16:
    case PixelDepth::S16: return 2;
    case PixelDepth::S32:
    case PixelDepth::F32: return 4;
    case PixelDepth::F64: return 8;
  }
  return 1;
}

double Image::value(int x, int y, int c) const {
  const std::byte* p =
      row(y) + static_cast<std::size_t>(x) * pixelBytes() + static_cast<std::size_t>(c) * sizeOf(depth);
  auto read = [p]<class T>(T) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  };
  switch (depth) {
    case PixelDepth::U8: return read(std::uint8_t{});
    case PixelDepth::S8: return read(std::int8_t{});
    case PixelDepth::U16: return read(std::uint16_t{});
    case PixelDepth::S16: return read(std::int16_t{});
    case PixelDepth::S32: return read(std::int32_t{});
    case PixelDepth::F32: return read(float{});
    case PixelDepth::F64: return read(double{});
  }
  return 0;
}

Image Image::copy() const {
  Image out = *this;
  std::size_t rowBytes = static_cast<std::size_t>(width) * pixelBytes();
  auto pixels = std::make_shared<std::vector<std::byte>>(rowBytes * static_cast<std::size_t>(std::max(height, 0)));
  for (int y = 0; y < height; ++y)
    std::memcpy(pixels->data() + rowBytes * static_cast<std::size_t>(y), row(y), rowBytes);
  out.step = rowBytes;
  out.data = pixels->data();
  out.owner = std::move(pixels);
  return out;
}

Result<ImageFrame> readImage(const Value& m) {
  ImageFrame f;
  if (auto h = headerOf(m)) f.header = *h;
  const Value* data = field(m, "data");
  if (!data || data->kind != Value::Kind::Bytes) return bad("not a sensor_msgs/Image (no data)");
  f.encoding = text(field(m, "encoding"));
  auto height = static_cast<int>(number(field(m, "height")));
  auto width = static_cast<int>(number(field(m, "width")));
  auto step = static_cast<std::size_t>(number(field(m, "step")));
  bool bigEndian = number(field(m, "is_bigendian")) != 0;
  std::string e = f.encoding;
  for (auto& ch : e) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));

  // The pixels as they are, and the conversion (if any) to BGR(A).
  int channels = 0;
  PixelDepth depth = PixelDepth::U8;
  std::optional<detail::Conversion> convert;
  using detail::Conversion;
  if (e == "rgb8") channels = 3, convert = Conversion::RgbToBgr;
  else if (e == "bgr8" || e == "8uc3") channels = 3;
  else if (e == "rgba8") channels = 4, convert = Conversion::RgbaToBgra;
  else if (e == "bgra8" || e == "8uc4") channels = 4;
  else if (e == "mono8" || e == "8uc1") channels = 1;
  else if (e == "mono16" || e == "16uc1") channels = 1, depth = PixelDepth::U16;
  else if (e == "16sc1") channels = 1, depth = PixelDepth::S16;
  else if (e == "32fc1") channels = 1, depth = PixelDepth::F32;
  else if (e == "yuv422" || e == "uyvy") channels = 2, convert = Conversion::UyvyToBgr;
  else if (e == "yuv422_yuy2" || e == "yuyv") channels = 2, convert = Conversion::YuyvToBgr;
  else if (e.starts_with("bayer_") && (e.ends_with("8") || e.ends_with("16"))) {
    std::string pattern = e.substr(6, 4);
    channels = 1;
    depth = e.ends_with("16") ? PixelDepth::U16 : PixelDepth::U8;
    if (pattern == "rggb") convert = Conversion::BayerRggb;
    else if (pattern == "bggr") convert = Conversion::BayerBggr;
    else if (pattern == "gbrg") convert = Conversion::BayerGbrg;
    else if (pattern == "grbg") convert = Conversion::BayerGrbg;
    else channels = 0;
  }
  if (channels == 0) return makeError(ErrorCode::Unsupported, "image encoding '" + f.encoding + "' is not supported");
  if (height <= 0 || width <= 0)
    return bad("image of " + std::to_string(width) + " x " + std::to_string(height) + " pixels");
  Image view{width, height, channels, depth, step, data->bytes.data(), {}};
  std::size_t rowBytes = static_cast<std::size_t>(width) * view.pixelBytes();
  if (step < rowBytes)
    return bad("step " + std::to_string(step) + " is less than a row of " + std::to_string(rowBytes) + " bytes");
  std::size_t needed = (static_cast<std::size_t>(height) - 1) * step + rowBytes;
  if (data->bytes.size() < needed)
    return bad("image data holds " + std::to_string(data->bytes.size()) + " bytes, " + std::to_string(width) + " x " +
               std::to_string(height) + " " + f.encoding + " needs " + std::to_string(needed));
  // Multi-byte samples at an odd address (anywhere in a message) are copied to aligned memory.
  std::size_t sample = sizeOf(depth);
  if (sample > 1 && (reinterpret_cast<std::uintptr_t>(data->bytes.data()) % sample != 0 || step % sample != 0))
    view = view.copy();
  if (bigEndian && sample > 1) {
    // Multi-byte samples stored big-endian: swap into a copy.
    if (!view.owner) view = view.copy();
    auto* bytes = const_cast<std::byte*>(view.data);  // our own copy
    for (int r = 0; r < height; ++r) {
      std::byte* row = bytes + view.step * static_cast<std::size_t>(r);
      for (std::size_t i = 0; i + sample <= rowBytes; i += sample) std::reverse(row + i, row + i + sample);
    }
  }
  if (!convert) {
    f.image = std::move(view);
    return f;
  }
  auto module = detail::openCvModule();
  BAGSCOPE_TRY(module);
  std::string error;
  if (!(*module)->convert(view, *convert, f.image, error)) return bad(f.encoding + " image: " + error);
  return f;
}

Result<CompressedFrame> readCompressedImage(const Value& m) {
  CompressedFrame f;
  if (auto h = headerOf(m)) f.header = *h;
  const Value* data = field(m, "data");
  if (!data || data->kind != Value::Kind::Bytes) return bad("not a sensor_msgs/CompressedImage (no data)");
  f.format = text(field(m, "format"));
  f.bytes = data->bytes;
  if (f.format.find("compressedDepth") != std::string::npos) {
    // compressed_depth_image_transport: a 12-byte header (format, depth quantisation) first.
    if (f.bytes.size() < 12) return bad("compressedDepth data shorter than its 12-byte header");
    f.bytes = f.bytes.subspan(12);
  }
  static const unsigned char png[] = {0x89, 'P', 'N', 'G'};
  static const unsigned char jpeg[] = {0xFF, 0xD8};
  auto starts = [&](const unsigned char* magic, std::size_t n) {
    return f.bytes.size() >= n && std::memcmp(f.bytes.data(), magic, n) == 0;
  };
  if (starts(png, 4)) f.codec = "png";
  else if (starts(jpeg, 2)) f.codec = "jpeg";
  else return makeError(ErrorCode::Unsupported, "compressed image is neither JPEG nor PNG (format '" + f.format + "')");
  return f;
}

Result<ImageFrame> readAnyImage(const Value& message, SensorKind kind) {
  if (kind != SensorKind::CompressedImage) return readImage(message);
  auto compressed = readCompressedImage(message);
  BAGSCOPE_TRY(compressed);
  auto image = decodeCompressed(*compressed);
  BAGSCOPE_TRY(image);
  return ImageFrame{compressed->header, compressed->format, std::move(image).value()};
}

// ---- Compressed video ------------------------------------------------------------------

std::string videoCodecOf(std::string_view format) {
  std::string f;
  for (char c : format) f += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (f.find("264") != std::string::npos || f.find("avc") != std::string::npos) return "h264";
  if (f.find("265") != std::string::npos || f.find("hevc") != std::string::npos) return "hevc";
  if (f.find("av1") != std::string::npos) return "av1";
  return {};
}

Result<VideoPacket> readVideoPacket(const Value& m) {
  VideoPacket p;
  if (auto h = headerOf(m)) p.header = *h;
  const Value* data = field(m, "data");
  if (data && data->kind == Value::Kind::Array) {  // JSON's base64 comes as an array of bytes
    auto owned = std::make_shared<std::vector<std::byte>>();
    owned->reserve(data->items.size());
    for (const Value& b : data->items) {
      if (b.kind != Value::Kind::UInt || b.u > 255) return bad("not a video packet (data is not bytes)");
      owned->push_back(static_cast<std::byte>(b.u));
    }
    p.owner = owned;
  } else if (!data || data->kind != Value::Kind::Bytes) {
    return bad("not a video packet (no data)");
  }
  // CompressedVideo and CompressedImage say "format", FFMPEGPacket the encoder ("encoding").
  const std::string format = field(m, "format") ? text(field(m, "format")) : text(field(m, "encoding"));
  p.codec = videoCodecOf(format);
  if (p.codec.empty()) return makeError(ErrorCode::Unsupported, "video of format '" + format + "' is not decoded");
  p.bytes = p.owner ? std::span<const std::byte>(*p.owner) : data->bytes;
  p.keyframe = isKeyframe(p.codec, p.bytes);
  return p;
}

namespace {
bool hasStartCode(std::span<const std::byte> bytes) {
  static const std::byte code[] = {std::byte{0}, std::byte{0}, std::byte{1}};
  return std::search(bytes.begin(), bytes.end(), std::begin(code), std::end(code)) != bytes.end();
}
}  // namespace

bool isKeyframe(std::string_view codec, std::span<const std::byte> bytes) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  if (codec == "av1") {  // OBUs: a sequence header (type 1) that fits makes the packet a starting point
    for (std::size_t at = 0; at < n;) {
      const unsigned header = b[at];
      const unsigned type = (header >> 3) & 0xF;
      const bool extension = header & 4, sized = header & 2;
      std::size_t i = at + 1 + (extension ? 1 : 0);
      if (!sized) return type == 1 && i <= n;  // the last OBU: to the packet's end
      std::uint64_t size = 0;
      bool ended = false;
      for (int k = 0; k < 8 && i < n && !ended; ++k, ++i) {  // leb128
        size |= static_cast<std::uint64_t>(b[i] & 0x7F) << (7 * k);
        ended = !(b[i] & 0x80);
      }
      if (!ended || size > n - i) return false;
      if (type == 1) return true;
      at = i + static_cast<std::size_t>(size);
    }
    return false;
  }
  // Annex B: NAL units after 00 00 01 start codes.
  for (std::size_t i = 0; i + 3 < n; ++i) {
    if (b[i] != 0 || b[i + 1] != 0 || b[i + 2] != 1) continue;
    const unsigned nal = b[i + 3];
    if (codec == "h264" && (nal & 0x1F) == 5) return true;  // IDR slice
    if (codec == "hevc") {
      const unsigned type = (nal >> 1) & 0x3F;
      if (type >= 16 && type <= 21) return true;  // IRAP: BLA, IDR, CRA
    }
    i += 2;
  }
  return false;
}

VideoDecoder::VideoDecoder(std::unique_ptr<detail::VideoSource> source) : source_(std::move(source)) {}
VideoDecoder::VideoDecoder(VideoDecoder&&) noexcept = default;
VideoDecoder& VideoDecoder::operator=(VideoDecoder&&) noexcept = default;
VideoDecoder::~VideoDecoder() = default;

Result<VideoDecoder> VideoDecoder::open(const std::string& codec) {
  auto module = detail::mediaModule();
  BAGSCOPE_TRY(module);
  std::string error;
  std::unique_ptr<detail::VideoSource> source((*module)->openVideoDecoder(codec, error));
  if (!source) return makeError(ErrorCode::Unsupported, error);
  return VideoDecoder(std::move(source));
}

Result<std::vector<VideoDecoder::Frame>> VideoDecoder::push(const VideoPacket& packet, std::int64_t index,
                                                            const Wanted& convert) {
  if (!keyed_ && !packet.keyframe)
    return makeError(ErrorCode::InvalidArgument, "not decoded: no keyframe before it in the stream");
  if (packet.codec != "av1" && !hasStartCode(packet.bytes)) {  // the decoder would pass over it in silence
    keyed_ = false;
    return makeError(ErrorCode::InvalidArgument,
                     "the " + packet.codec + " packet holds no NAL unit (no Annex B start code)");
  }
  keyed_ = true;
  std::vector<Frame> out;
  std::string error;
  const bool decoded = source_->decode(packet.bytes, index, convert, out, error);
  if (!decoded) keyed_ = false;  // what follows may refer to it: wait for a keyframe
  if (!decoded && out.empty())
    return makeError(ErrorCode::InvalidArgument, "the " + packet.codec + " packet: " + error);
  return out;
}

std::vector<VideoDecoder::Frame> VideoDecoder::finish(const Wanted& convert) {
  std::vector<Frame> frames;
  source_->flush(convert, frames);
  keyed_ = false;
  return frames;
}

void VideoDecoder::queue(const Result<VideoPacket>& packet, std::int64_t index, const Wanted& convert) {
  auto& q = queued_.emplace_back();
  q.index = index;
  if (!packet) {
    q.frame = packet.error();
    return;
  }
  q.header = packet->header;
  q.codec = packet->codec;
  auto frames = push(*packet, index, convert);
  if (frames) place(*frames);
  else q.frame = std::move(frames).error();
  if (queued_.size() > kMaxDelay && !queued_.front().frame)  // long overdue: the decoder dropped it
    queued_.front().frame = makeError(ErrorCode::InvalidArgument, "the decoder gave no picture for it");
}

std::pair<std::int64_t, Result<ImageFrame>> VideoDecoder::take() {
  Queued q = std::move(queued_.front());
  queued_.pop_front();
  return {q.index, std::move(*q.frame)};
}

void VideoDecoder::end(const Wanted& convert) {
  auto rest = finish(convert);
  place(rest);
  for (auto& q : queued_)
    if (!q.frame) q.frame = makeError(ErrorCode::InvalidArgument, "the decoder gave no picture for it");
}

void VideoDecoder::place(std::vector<Frame>& frames) {
  for (auto& f : frames) {
    auto q =
        std::find_if(queued_.begin(), queued_.end(), [&](const Queued& x) { return x.index == f.index && !x.frame; });
    if (q == queued_.end()) continue;
    if (f.problem.empty()) q->frame = ImageFrame{q->header, q->codec, std::move(f.image)};
    else q->frame = makeError(ErrorCode::InvalidArgument, f.problem);
  }
}

Result<Image> decodeCompressed(const CompressedFrame& f) {
  auto module = detail::openCvModule();
  BAGSCOPE_TRY(module);
  Image out;
  std::string error;
  switch ((*module)->decode(f.bytes, out, error)) {
    case detail::OpenCvModule::Decoded::Done: return out;
    case detail::OpenCvModule::Decoded::Failed: return bad("the " + f.codec + " data " + error);
    case detail::OpenCvModule::Decoded::Elsewhere: break;  // neither JPEG nor PNG of the usual kinds
  }
  auto media = detail::mediaModule();
  BAGSCOPE_TRY(media);
  if (!(*media)->decode(f.bytes, out, error)) return bad("the " + f.codec + " data " + error);
  return out;
}

Result<std::string> openCvVersion() {
  auto module = detail::openCvModule();
  BAGSCOPE_TRY(module);
  return std::string((*module)->openCvVersion());
}

Result<std::string> encodeImage(const Image& image, StillFormat format, int jpegQuality) {
  auto module = detail::openCvModule();
  BAGSCOPE_TRY(module);
  std::string out, error;
  if (!(*module)->encode(image, format, jpegQuality, out, error)) return makeError(ErrorCode::Unsupported, error);
  return out;
}

VideoWriter::VideoWriter(std::unique_ptr<detail::VideoSink> sink) : sink_(std::move(sink)) {}
VideoWriter::VideoWriter(VideoWriter&&) noexcept = default;
VideoWriter& VideoWriter::operator=(VideoWriter&&) noexcept = default;
VideoWriter::~VideoWriter() { close(); }

Result<VideoWriter> VideoWriter::open(const std::filesystem::path& path, Codec codec, double fps, int width, int height,
                                      const VideoEncoding& encoding) {
  auto module = detail::mediaModule();
  BAGSCOPE_TRY(module);
  std::string error;
  std::unique_ptr<detail::VideoSink> sink((*module)->openVideo(utf8(path), codec, fps, width, height, encoding, error));
  if (!sink) return makeError(ErrorCode::Write, error);
  return VideoWriter(std::move(sink));
}

Result<void> VideoWriter::write(const Image& frame) {
  std::string error;
  if (!sink_ || !sink_->write(frame, error)) return makeError(ErrorCode::Write, sink_ ? error : "the video is closed");
  return {};
}

void VideoWriter::close() {
  if (sink_) sink_->close();
}

VideoRemux::VideoRemux(std::unique_ptr<detail::PacketSink> sink) : sink_(std::move(sink)) {}
VideoRemux::VideoRemux(VideoRemux&&) noexcept = default;
VideoRemux& VideoRemux::operator=(VideoRemux&&) noexcept = default;
VideoRemux::~VideoRemux() {
  if (sink_) (void)close();
}

Result<VideoRemux> VideoRemux::open(const std::filesystem::path& path, const std::string& codec) {
  auto module = detail::mediaModule();
  BAGSCOPE_TRY(module);
  std::string error;
  std::unique_ptr<detail::PacketSink> sink((*module)->openRemux(utf8(path), codec, error));
  if (!sink) return makeError(ErrorCode::Unsupported, error);
  return VideoRemux(std::move(sink));
}

Result<void> VideoRemux::write(const VideoPacket& packet, std::int64_t timeNs) {
  std::string error;
  if (!sink_ || !sink_->write(packet.bytes, timeNs, packet.keyframe, error))
    return makeError(ErrorCode::InvalidArgument, sink_ ? error : "the video is closed");
  return {};
}

Result<void> VideoRemux::close() {
  std::string error;
  if (sink_ && !sink_->close(error)) return makeError(ErrorCode::Write, error);
  return {};
}

// ---- Camera model and transforms --------------------------------------------------------

Result<CameraInfo> readCameraInfo(const Value& m) {
  CameraInfo c;
  if (auto h = headerOf(m)) c.header = *h;
  c.width = static_cast<std::uint32_t>(number(field(m, "width")));
  c.height = static_cast<std::uint32_t>(number(field(m, "height")));
  c.distortionModel = text(field(m, "distortion_model"));
  if (const Value* d = fieldAnyCase(m, "D"); d && d->kind == Value::Kind::Array)
    for (const auto& v : d->items) c.d.push_back(number(&v));
  if (!fixedArray(fieldAnyCase(m, "K"), c.k) || !fixedArray(fieldAnyCase(m, "R"), c.r) ||
      !fixedArray(fieldAnyCase(m, "P"), c.p))
    return bad("not a sensor_msgs/CameraInfo (K, R, P missing)");
  return c;
}

Transform Transform::inverse() const {
  Transform t;  // rotation conjugated, translation -R^-1 t
  t.rotation = {-rotation[0], -rotation[1], -rotation[2], rotation[3]};
  auto r = t.apply(translation);
  t.translation = {-r[0], -r[1], -r[2]};
  return t;
}

std::array<double, 3> Transform::apply(const std::array<double, 3>& v) const {
  // v' = q v q* + t, expanded.
  const auto [x, y, z, w] = rotation;
  double tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return {v[0] + w * tx + (y * tz - z * ty) + translation[0], v[1] + w * ty + (z * tx - x * tz) + translation[1],
          v[2] + w * tz + (x * ty - y * tx) + translation[2]};
}

Transform Transform::operator*(const Transform& o) const {
  Transform t;
  const auto [x1, y1, z1, w1] = rotation;
  const auto [x2, y2, z2, w2] = o.rotation;
  t.rotation = {w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2, w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2};
  t.translation = apply(o.translation);
  return t;
}

void TfBuffer::add(const Value& tfMessage, bool isStatic) {
  // tf2_msgs/TFMessage and foxglove.FrameTransforms hold a list; foxglove.FrameTransform is one.
  const Value* transforms = field(tfMessage, "transforms");
  std::span<const Value> list;
  if (transforms && transforms->kind == Value::Kind::Array) list = transforms->items;
  else if (field(tfMessage, "parent_frame_id")) list = std::span<const Value>(&tfMessage, 1);
  for (const auto& ts : list) {
    // geometry_msgs/TransformStamped: header.frame_id, transform.{translation, rotation};
    // foxglove.FrameTransform: timestamp, parent_frame_id, translation, rotation.
    const Value* parentId = field(ts, "parent_frame_id");
    const Value* stamp = parentId ? field(ts, "timestamp") : nullptr;
    auto header =
        parentId ? std::optional<Header>(Header{stamp ? timeNs(*stamp).value_or(0) : 0, text(parentId)}) : headerOf(ts);
    const Value* tf = field(ts, "transform");  // older foxglove.FrameTransform nests it too
    if (!tf && parentId) tf = &ts;
    if (!header || !tf) continue;
    const Value* tr = field(*tf, "translation");
    const Value* rot = field(*tf, "rotation");
    if (!tr || !rot) continue;
    Transform t;
    t.translation = {number(field(*tr, "x")), number(field(*tr, "y")), number(field(*tr, "z"))};
    t.rotation = {number(field(*rot, "x")), number(field(*rot, "y")), number(field(*rot, "z")),
                  number(field(*rot, "w"), 1)};
    std::string child = text(field(ts, "child_frame_id"));
    auto strip = [](std::string s) { return !s.empty() && s[0] == '/' ? s.substr(1) : s; };
    Edge& e = edges_[strip(child)];
    e.parent = strip(header->frameId);
    e.isStatic = e.isStatic || isStatic;
    Sample s{header->stampNs, t};
    auto at = std::upper_bound(e.samples.begin(), e.samples.end(), s.timeNs,
                               [](std::int64_t v, const Sample& x) { return v < x.timeNs; });
    e.samples.insert(at, s);
  }
}

std::vector<std::string> TfBuffer::frames() const {
  std::set<std::string> names;
  for (const auto& [child, edge] : edges_) {
    names.insert(child);
    if (!edge.parent.empty()) names.insert(edge.parent);
  }
  return {names.begin(), names.end()};
}

Result<Transform> TfBuffer::toParent(const std::string& child, std::int64_t timeNs, std::string& parent) const {
  auto it = edges_.find(child);
  if (it == edges_.end() || it->second.samples.empty())
    return makeError(ErrorCode::InvalidArgument, "no transform for frame '" + child + "'");
  const Edge& e = it->second;
  parent = e.parent;
  const auto& s = e.samples;
  if (e.isStatic || s.size() == 1) return s.back().transform;
  auto after =
      std::lower_bound(s.begin(), s.end(), timeNs, [](const Sample& x, std::int64_t v) { return x.timeNs < v; });
  constexpr std::int64_t kTolerance = 500'000'000;  // nearest sample within 0.5 s of either end
  if (after == s.begin()) {
    if (s.front().timeNs - timeNs > kTolerance)
      return makeError(ErrorCode::InvalidArgument, "no transform of '" + child + "' that early");
    return s.front().transform;
  }
  if (after == s.end()) {
    if (timeNs - s.back().timeNs > kTolerance)
      return makeError(ErrorCode::InvalidArgument, "no transform of '" + child + "' that late");
    return s.back().transform;
  }
  const Sample& a = *(after - 1);
  const Sample& b = *after;
  double u =
      b.timeNs == a.timeNs ? 0 : static_cast<double>(timeNs - a.timeNs) / static_cast<double>(b.timeNs - a.timeNs);
  Transform t;
  for (int i = 0; i < 3; ++i) t.translation[i] = a.transform.translation[i] * (1 - u) + b.transform.translation[i] * u;
  // Slerp along the shorter arc.
  auto qa = a.transform.rotation, qb = b.transform.rotation;
  double dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
  if (dot < 0) {
    for (auto& v : qb) v = -v;
    dot = -dot;
  }
  double wa = 1 - u, wb = u;
  if (dot < 0.9995) {
    double theta = std::acos(dot);
    wa = std::sin((1 - u) * theta) / std::sin(theta);
    wb = std::sin(u * theta) / std::sin(theta);
  }
  double norm = 0;
  for (int i = 0; i < 4; ++i) norm += (t.rotation[i] = qa[i] * wa + qb[i] * wb) * t.rotation[i];
  for (auto& v : t.rotation) v /= std::sqrt(norm);
  return t;
}

Result<Transform> TfBuffer::lookup(const std::string& target, const std::string& source, std::int64_t timeNs) const {
  // Each frame up to its root: T_root_frame.
  auto toRoot = [&](std::string frame, std::string& root) -> Result<Transform> {
    Transform acc;
    for (int depth = 0; depth < 64; ++depth) {
      if (!edges_.contains(frame)) {
        root = frame;
        return acc;
      }
      std::string parent;
      auto t = toParent(frame, timeNs, parent);
      if (!t) return t;
      acc = *t * acc;
      frame = parent;
    }
    return makeError(ErrorCode::InvalidArgument, "the transform tree has a loop");
  };
  std::string rootA, rootB;
  auto a = toRoot(source, rootA);
  if (!a) return a;
  auto b = toRoot(target, rootB);
  if (!b) return b;
  if (rootA != rootB)
    return makeError(ErrorCode::InvalidArgument, "frames '" + source + "' and '" + target + "' are not connected");
  return b->inverse() * *a;
}

}  // namespace bagscope::sensors
