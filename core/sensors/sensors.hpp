#pragma once
// Typed views of sensor messages, from decoded values: PointCloud2 as per-point channels,
// Image and CompressedImage as pixel images, LaserScan as points, CameraInfo, and a TF
// buffer. ROS 1 and ROS 2 spellings of the types are both accepted.
//
// OpenCV does the pixel work (colour conversion, JPEG/PNG, video) but stays behind this
// header: it lives in a module (bagscope-opencv) loaded on the first image, so that a
// program that never touches pixels (bagscope-cli info) never loads OpenCV's ~240 libraries.

#include <array>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/decode/decoder.hpp"

namespace bagscope::sensors {

// ---- What a type is ----------------------------------------------------------------------

enum class SensorKind : std::uint8_t {
  Other,
  Image,
  CompressedImage,
  PointCloud,
  LaserScan,
  CameraInfo,
  Transforms,
  Log,          ///< rosgraph_msgs/Log, rcl_interfaces/msg/Log, foxglove.Log
  Diagnostics,  ///< diagnostic_msgs/DiagnosticArray
  NavSatFix,    ///< sensor_msgs/NavSatFix, foxglove.LocationFix
  Video,        ///< foxglove.CompressedVideo (and foxglove_msgs'), ffmpeg_image_transport_msgs/FFMPEGPacket
};

/// What the panels and exporters make of a message type: the ROS 1 and ROS 2 spellings of the
/// sensor_msgs / tf2_msgs types, and Foxglove's schemas (foxglove.RawImage, CompressedImage,
/// PointCloud, LaserScan, FrameTransform(s)) as MCAP carries them in protobuf or JSON.
SensorKind kindOf(std::string_view type);

// ---- Decoded values ---------------------------------------------------------------------

/// The field `name` of a struct value, or null.
const decode::Value* field(const decode::Value& value, std::string_view name);
/// A bool, integer or float value as a double; `fallback` for none or another kind.
double numberOf(const decode::Value* value, double fallback = 0);
/// A string value's text; empty for none or another kind.
std::string textOf(const decode::Value* value);
/// A time value (ROS 1 time, ROS 2 builtin_interfaces/Time, google.protobuf.Timestamp,
/// Foxglove's JSON {sec, nsec}) in ns; nullopt if not one.
std::optional<std::int64_t> timeNs(const decode::Value& value);

struct Header {
  std::int64_t stampNs = 0;  ///< 0 when unset
  std::string frameId;
};
/// The message's `header` field, if it has one; Foxglove's schemas: its `timestamp` and
/// `frame_id`.
std::optional<Header> headerOf(const decode::Value& message);

// ---- PointCloud2 ------------------------------------------------------------------------

enum class PointType : std::uint8_t { Int8 = 1, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };
std::size_t sizeOf(PointType type);
const char* pcdTypeLetter(PointType type);  ///< "I", "U", "F"

struct PointField {
  std::string name;
  std::uint32_t offset = 0;
  PointType type = PointType::Float32;
  std::uint32_t count = 1;
};

/// One exported value per point: a field element, or a byte of a packed rgb/rgba float.
struct Channel {
  std::string name;             ///< "x", "intensity", "normal_1" (count > 1), "r" (from rgb)
  PointType type;               ///< of the value as exported
  std::uint32_t offset;         ///< of the value (or of the packed colour) within a point
  std::int8_t colourByte = -1;  ///< 0..3: byte of a packed rgb(a) (b, g, r, a order); -1: none
};

struct PointCloud {
  Header header;
  std::uint32_t height = 0, width = 0, pointStep = 0, rowStep = 0;
  bool bigEndian = false;
  bool dense = false;
  std::vector<PointField> fields;
  std::span<const std::byte> data;  ///< a view into the message bytes

  std::size_t size() const { return std::size_t{height} * width; }
  bool organized() const { return height > 1; }
  /// The bytes of point i (row-major), honouring row_step padding.
  const std::byte* point(std::size_t i) const {
    return data.data() + (i / width) * std::size_t{rowStep} + (i % width) * std::size_t{pointStep};
  }
  const PointField* find(std::string_view name) const;
  /// Channels in field order; `rgb`/`rgba` packed floats become r, g, b(, a) as uint8.
  std::vector<Channel> channels(bool unpackColour = true) const;
  /// The value of channel `c` at point i, as double.
  double value(std::size_t i, const Channel& c) const;
  /// Fields, steps and endianness as text: equal for clouds with the same layout.
  std::string layout() const;
};

/// A sensor_msgs/PointCloud2, checked: every field inside point_step, row_step and data
/// long enough for height x width points. Errors say what does not fit.
Result<PointCloud> readPointCloud(const decode::Value& message);

/// LaserScan ranges as points (x, y, z = 0, intensity when present) in the scan's frame;
/// beams out of [range_min, range_max] or not finite are left out.
struct ScanPoint {
  float x, y, z, intensity;
};
Result<std::vector<ScanPoint>> laserScanPoints(const decode::Value& message);

// ---- Images -----------------------------------------------------------------------------

enum class PixelDepth : std::uint8_t { U8, S8, U16, S16, S32, F32, F64 };
std::size_t sizeOf(PixelDepth depth);

/// Pixels: `height` rows of `width` pixels of `channels` samples of `depth`, rows `step`
/// bytes apart. `owner` keeps `data` alive; when null, `data` views message bytes and is
/// valid as long as they are.
struct Image {
  int width = 0, height = 0, channels = 0;
  PixelDepth depth = PixelDepth::U8;
  std::size_t step = 0;
  const std::byte* data = nullptr;
  std::shared_ptr<const void> owner;

  bool empty() const { return data == nullptr || width <= 0 || height <= 0; }
  std::size_t pixelBytes() const { return sizeOf(depth) * static_cast<std::size_t>(channels); }
  const std::byte* row(int y) const { return data + step * static_cast<std::size_t>(y); }
  /// Sample `c` of pixel (x, y), as double.
  double value(int x, int y, int c = 0) const;
  /// A copy that owns its pixels (rows packed).
  Image copy() const;
};

/// A decoded image: 8-bit BGR/BGRA/mono, or 16-bit mono, or 32-bit float mono, as the
/// encoding says. `image` may view the message bytes (valid as long as they are).
struct ImageFrame {
  Header header;
  std::string encoding;  ///< as the message gives it
  Image image;
};

/// sensor_msgs/Image: rgb8, rgba8, bgr8, bgra8, mono8, mono16, 8UC1/3/4, 16UC1, 16SC1,
/// 32FC1, bayer_*8/16 (demosaiced to BGR), yuv422/uyvy, yuv422_yuy2/yuyv; honours step and
/// is_bigendian. Colour comes out as BGR(A), as OpenCV writes it.
Result<ImageFrame> readImage(const decode::Value& message);

/// sensor_msgs/CompressedImage: jpeg, png, and compressedDepth (PNG after a 12-byte header).
/// `format` is what the message says; `bytes` the compressed data.
struct CompressedFrame {
  Header header;
  std::string format;
  std::string codec;  ///< "jpeg" or "png": what `bytes` are
  std::span<const std::byte> bytes;
};
Result<CompressedFrame> readCompressedImage(const decode::Value& message);
/// Decodes the compressed bytes (16-bit PNG depth kept 16-bit).
Result<Image> decodeCompressed(const CompressedFrame& frame);

/// An Image or CompressedImage message (`kind` says which) as pixels: readImage, or
/// readCompressedImage then decodeCompressed (its `encoding` is then the message's format).
Result<ImageFrame> readAnyImage(const decode::Value& message, SensorKind kind);

// ---- Compressed video ------------------------------------------------------------------

/// Frames wider or taller than this are refused (a damaged SPS can claim any size).
inline constexpr int kMaxVideoSide = 8192;

/// One packet of a compressed video stream: an access unit of H.264 or H.265 (Annex B) or AV1
/// (OBUs), from foxglove.CompressedVideo (format h264, h265, av1), FFMPEGPacket (its encoding:
/// libx264, hevc_nvenc, …) or a CompressedImage whose format names a video codec.
struct VideoPacket {
  Header header;
  std::string codec;  ///< "h264", "hevc" or "av1"
  std::span<const std::byte> bytes;
  std::shared_ptr<const std::vector<std::byte>> owner;  ///< holds `bytes` when the message could not (JSON)
  bool keyframe = false;  ///< decodes on its own (H.264 IDR, H.265 IRAP, AV1 sequence header)
};
/// The codec a format or encoding names ("h264", "hevc", "av1"), or empty.
std::string videoCodecOf(std::string_view format);
/// Errors (InvalidArgument, Unsupported) say what the message lacks or which codec it names.
Result<VideoPacket> readVideoPacket(const decode::Value& message);
/// Whether an Annex B (H.264, H.265) or OBU (AV1) packet starts a picture that needs no other.
bool isKeyframe(std::string_view codec, std::span<const std::byte> bytes);

namespace detail {
class VideoSource;
}
/// A compressed video stream decoded in order (FFmpeg's libavcodec, in the OpenCV module, on
/// every core): packets in, 8-bit BGR frames out, each with the index its packet was given.
/// Packets before the stream's first keyframe are not decoded (they would show a grey or
/// green picture as if good); push() says so.
class VideoDecoder {
public:
  static Result<VideoDecoder> open(const std::string& codec);
  VideoDecoder(VideoDecoder&&) noexcept;
  VideoDecoder& operator=(VideoDecoder&&) noexcept;
  ~VideoDecoder();
  struct Frame {
    std::int64_t index;
    Image image;  ///< empty when damaged: `problem` says why
    std::string problem;
  };
  /// Which frames (by index) are converted to BGR; the others' images stay empty (decoded
  /// for the ones after them only). Every frame when empty.
  using Wanted = std::function<bool(std::int64_t index)>;
  /// Frames the packet completes (none, or more than one: frame threads and B-frames give
  /// them a few packets late and out of order). An error for a packet that cannot be decoded,
  /// or comes before any keyframe; after a packet that cannot be decoded, the stream waits
  /// for the next keyframe again.
  Result<std::vector<Frame>> push(const VideoPacket& packet, std::int64_t index, const Wanted& convert = {});
  /// The frames still held at the stream's end; the decoder then waits for a keyframe.
  std::vector<Frame> finish(const Wanted& convert = {});

  /// The same in the packets' order: queue() packets (or why a message is none, kept in its
  /// place), and take() each one's picture (with its header and codec) or why there is none,
  /// oldest first, once ready(). end(), at the stream's end, makes every queued packet ready.
  void queue(const Result<VideoPacket>& packet, std::int64_t index, const Wanted& convert = {});
  bool ready() const { return !queued_.empty() && queued_.front().frame.has_value(); }
  std::pair<std::int64_t, Result<ImageFrame>> take();
  void end(const Wanted& convert = {});
  bool queueEmpty() const { return queued_.empty(); }
  /// Packets after its own by which a picture must have come out, or it is missing.
  static constexpr std::size_t kMaxDelay = 40;

private:
  explicit VideoDecoder(std::unique_ptr<detail::VideoSource> source);
  void place(std::vector<Frame>& frames);
  std::unique_ptr<detail::VideoSource> source_;
  bool keyed_ = false;  // a keyframe was decoded, and no packet failed since
  struct Queued {
    std::int64_t index = 0;
    Header header;
    std::string codec;
    std::optional<Result<ImageFrame>> frame;  // once out of the decoder
  };
  std::deque<Queued> queued_;
};

enum class StillFormat : std::uint8_t { Jpeg, Png };
/// An image as JPEG or PNG bytes. JPEG takes 8 bits: deeper images are scaled over their
/// range. PNG keeps 16-bit samples, writes float depth (m) as 16-bit mm and 16SC1 offset
/// by 32768.
Result<std::string> encodeImage(const Image& image, StillFormat format, int jpegQuality = 95);

/// The version of OpenCV that does the pixel work (loading it), or why it cannot be loaded.
Result<std::string> openCvVersion();

namespace detail {
class VideoSink;
}
/// How H.264 is encoded (libx264's constant rate factor, 0-51, lower is better, and its preset).
struct VideoEncoding {
  int crf = 23;
  std::string preset = "medium";
};
/// A video written frame by frame: H.264 (libx264, yuv420p, every player opens it; an odd
/// width or height loses its last column or row) or MPEG-4 Part 2 in .mp4, Motion JPEG in
/// .avi. Frames become 8-bit BGR at the size given (others are scaled to it).
class VideoWriter {
public:
  enum class Codec : std::uint8_t { H264, Mp4v, Avi };
  static Result<VideoWriter> open(const std::filesystem::path& path, Codec codec, double fps, int width, int height,
                                  const VideoEncoding& encoding = {});
  VideoWriter(VideoWriter&&) noexcept;
  VideoWriter& operator=(VideoWriter&&) noexcept;
  ~VideoWriter();  ///< closes the file
  Result<void> write(const Image& frame);
  void close();

private:
  explicit VideoWriter(std::unique_ptr<detail::VideoSink> sink);
  std::unique_ptr<detail::VideoSink> sink_;
};

namespace detail {
class PacketSink;
}
/// A compressed video stream's packets written into an MP4 as they are (no re-encoding): the
/// codec's own bytes, each at its time (the first at 0), lasting until the next.
class VideoRemux {
public:
  static Result<VideoRemux> open(const std::filesystem::path& path, const std::string& codec);
  VideoRemux(VideoRemux&&) noexcept;
  VideoRemux& operator=(VideoRemux&&) noexcept;
  ~VideoRemux();  ///< closes the file
  /// Errors: a packet that is empty or not later than the one before, a first packet without
  /// the stream's parameter sets, a file that cannot be written.
  Result<void> write(const VideoPacket& packet, std::int64_t timeNs);
  Result<void> close();

private:
  explicit VideoRemux(std::unique_ptr<detail::PacketSink> sink);
  std::unique_ptr<detail::PacketSink> sink_;
};

// ---- Camera model and transforms --------------------------------------------------------

struct CameraInfo {
  Header header;
  std::uint32_t width = 0, height = 0;
  std::string distortionModel;
  std::vector<double> d;
  std::array<double, 9> k{}, r{};
  std::array<double, 12> p{};
};
Result<CameraInfo> readCameraInfo(const decode::Value& message);

/// The pixel (u, v) where a point in the camera's optical frame (x right, y down, z ahead)
/// appears: in the raw image through K and the distortion D ("plumb_bob",
/// "rational_polynomial", "equidistant"; none or an unknown model: K alone), or with
/// `rectified` through P. Nothing for a point behind the camera (z <= 0) or one the fisheye
/// model cannot take.
std::optional<std::array<double, 2>> projectPoint(const CameraInfo& camera, const std::array<double, 3>& p,
                                                  bool rectified);
/// For each pixel of the rectified image (width × height, row by row), the raw image's pixel
/// (u, v) it comes from (through P's intrinsics, R, D and K): what undistorting remaps.
std::vector<float> undistortionMap(const CameraInfo& camera);

struct Transform {
  std::array<double, 3> translation{0, 0, 0};
  std::array<double, 4> rotation{0, 0, 0, 1};  ///< quaternion x, y, z, w
  Transform inverse() const;
  Transform operator*(const Transform& other) const;  ///< this after other
  std::array<double, 3> apply(const std::array<double, 3>& p) const;
};

/// Transforms from /tf and /tf_static, answering "frame A in frame B at time t" by
/// interpolating (linear translation, slerp rotation) between the samples around t.
class TfBuffer {
public:
  /// Adds every transform of a tf2_msgs/TFMessage; `isStatic` for /tf_static.
  void add(const decode::Value& tfMessage, bool isStatic);
  /// The transform taking points in `source` frame to `target` frame at `timeNs`.
  Result<Transform> lookup(const std::string& target, const std::string& source, std::int64_t timeNs) const;
  bool empty() const { return edges_.empty(); }
  /// Every frame named (as child or parent), sorted.
  std::vector<std::string> frames() const;
  /// Each frame that has a parent: the parent, static or not, and its samples' count and span.
  struct EdgeInfo {
    std::string child, parent;
    bool isStatic = false;
    std::size_t samples = 0;
    std::int64_t firstNs = 0, lastNs = 0;
  };
  std::vector<EdgeInfo> edges() const;

private:
  struct Sample {
    std::int64_t timeNs;
    Transform transform;  ///< child in parent
  };
  struct Edge {
    std::string parent;
    bool isStatic = false;
    std::vector<Sample> samples;  ///< sorted by time
  };
  Result<Transform> toParent(const std::string& child, std::int64_t timeNs, std::string& parent) const;
  std::map<std::string, Edge> edges_;  ///< by child frame
};

// ---- Satellite fixes ----------------------------------------------------------------------

struct NavSatFix {
  std::int64_t stampNs = 0;
  double latitude = 0, longitude = 0, altitude = 0;  ///< degrees, metres (NaN: no position)
  int status = 0;                                    ///< -1 no fix, 0 fix, 1 SBAS, 2 GBAS (foxglove: 0)
  std::array<double, 9> covariance{};                ///< east, north, up (m²), row by row
  int covarianceType = 0;                            ///< 0 unknown, 1 approximated, 2 diagonal known, 3 known
};
/// sensor_msgs/NavSatFix or foxglove.LocationFix.
Result<NavSatFix> readNavSatFix(const decode::Value& message);

/// East, north, up (m) of a WGS-84 position from `origin` (latitude, longitude in degrees,
/// altitude in metres), through earth-centred coordinates: exact, not a flat-earth guess.
std::array<double, 3> enuFrom(const std::array<double, 3>& origin, const std::array<double, 3>& position);

// ---- Logs (rosout) and diagnostics --------------------------------------------------------

enum class LogLevel : std::uint8_t { Debug, Info, Warn, Error, Fatal, Unknown };
const char* levelName(LogLevel level);  ///< "DEBUG" … "FATAL", "?"

struct LogEntry {
  std::int64_t stampNs = 0;
  LogLevel level = LogLevel::Unknown;
  std::string node, message, file, function;
  std::uint32_t line = 0;
};
/// A log line: rosgraph_msgs/Log (levels 1, 2, 4, 8, 16; `name`, `msg`), rcl_interfaces/msg/Log
/// (10, 20, 30, 40, 50; `stamp`) or foxglove.Log (1–5; `timestamp`, `name`). Errors when it
/// is none of them.
Result<LogEntry> readLog(const decode::Value& message);

struct DiagnosticStatus {
  int level = 0;  ///< 0 OK, 1 WARN, 2 ERROR, 3 STALE
  std::string name, message, hardwareId;
  std::vector<std::pair<std::string, std::string>> values;
};
/// The statuses of a diagnostic_msgs/DiagnosticArray.
Result<std::vector<DiagnosticStatus>> readDiagnostics(const decode::Value& message);

}  // namespace bagscope::sensors
