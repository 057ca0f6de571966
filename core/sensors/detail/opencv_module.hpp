#pragma once
// What the sensors module asks of the OpenCV module (bagscope-opencv, built from
// core/sensors/opencv/): a shared library loaded on the first image, so that OpenCV and the
// ~240 libraries Debian's build of it pulls in are not loaded by programs that never decode
// or write a pixel. The interface holds plain types only: the module is built with the same
// compiler from the same tree, and nothing in it calls back into the core.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/base/result.hpp"
#include "core/sensors/sensors.hpp"

namespace bagscope::sensors::detail {

/// Colour conversions of raw images, to BGR(A) as the rest of the core expects.
enum class Conversion : std::uint8_t {
  RgbToBgr,
  RgbaToBgra,
  UyvyToBgr,
  YuyvToBgr,
  BayerRggb,
  BayerBggr,
  BayerGbrg,
  BayerGrbg
};

class VideoSink {
public:
  virtual ~VideoSink() = default;
  virtual bool write(const Image& frame, std::string& error) = 0;
  virtual void close() = 0;
};

/// A compressed video stream decoded by libavcodec: packets in, 8-bit BGR frames out, each
/// with the index its packet was given (B-frames come out after later packets); a picture
/// that is damaged or cannot be converted comes out empty, with the reason.
class VideoSource {
public:
  virtual ~VideoSource() = default;
  /// Feeds one packet (an access unit); the frames it completes are appended to `frames`.
  /// False with `error` for a packet the decoder refuses; the stream goes on after it.
  /// `convert` says which frames are converted (all when empty); the others' images stay empty.
  virtual bool decode(std::span<const std::byte> packet, std::int64_t index, const VideoDecoder::Wanted& convert,
                      std::vector<VideoDecoder::Frame>& frames, std::string& error) = 0;
  /// The frames the decoder still holds, at the stream's end.
  virtual void flush(const VideoDecoder::Wanted& convert, std::vector<VideoDecoder::Frame>& frames) = 0;
};

/// Compressed video packets written into an MP4 as they are (no re-encoding).
class PacketSink {
public:
  virtual ~PacketSink() = default;
  /// A packet at `timeNs` (from any origin; increasing). False with `error` when it cannot be.
  virtual bool write(std::span<const std::byte> packet, std::int64_t timeNs, bool keyframe, std::string& error) = 0;
  virtual bool close(std::string& error) = 0;
};

/// Each call catches OpenCV's exceptions and says what failed in `error`.
class OpenCvModule {
public:
  virtual const char* openCvVersion() = 0;
  virtual bool convert(const Image& in, Conversion conversion, Image& out, std::string& error) = 0;
  virtual bool decode(std::span<const std::byte> bytes, Image& out, std::string& error) = 0;
  virtual bool encode(const Image& in, StillFormat format, int jpegQuality, std::string& out, std::string& error) = 0;
  /// A writer, or null with `error` set.
  virtual VideoSink* openVideo(const std::string& utf8Path, VideoWriter::Codec codec, double fps, int width, int height,
                               const VideoEncoding& encoding, std::string& error) = 0;
  /// An MP4 of `codec`'s packets ("h264", "hevc", "av1"), or null with `error` set.
  virtual PacketSink* openRemux(const std::string& utf8Path, const std::string& codec, std::string& error) = 0;
  /// A decoder of `codec` ("h264", "hevc", "av1") on every core, or null with `error` set.
  virtual VideoSource* openVideoDecoder(const std::string& codec, std::string& error) = 0;

protected:
  ~OpenCvModule() = default;  // the module's own object; never deleted through this
};

/// Bumped whenever the interface above changes: a module of another version is refused.
inline constexpr int kOpenCvModuleVersion = 3;
/// The module's one exported function: `extern "C" OpenCvModule* bagscope_opencv_module(int version)`,
/// null when `version` is not its own.
inline constexpr const char* kOpenCvModuleEntry = "bagscope_opencv_module";

/// The module, loaded on the first call (beside the executable, in ../lib/bagscope/modules, or
/// in a macOS bundle's PlugIns); an error naming where it was looked for when it cannot be.
Result<OpenCvModule*> openCvModule();

}  // namespace bagscope::sensors::detail
