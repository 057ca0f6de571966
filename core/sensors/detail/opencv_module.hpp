#pragma once
// What the sensors module asks of its two modules (built from core/sensors/opencv/), shared
// libraries loaded on first use, so that programs that never decode or write a pixel load
// neither: bagscope-opencv (OpenCV's core and imgproc, libjpeg, libpng: ~25 libraries,
// loaded in a few ms) for pixels, JPEG and PNG; bagscope-media (OpenCV's imgcodecs and
// videoio, FFmpeg: ~240 libraries, ~0.2 s to load) for video and other still formats. The
// interfaces hold plain types only: the modules are built with the same compiler from the
// same tree, and nothing in them calls back into the core.

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
  enum class Decoded { Done, Failed, Elsewhere };
  virtual const char* openCvVersion() = 0;
  virtual bool convert(const Image& in, Conversion conversion, Image& out, std::string& error) = 0;
  /// JPEG and PNG as imgcodecs decodes them; Elsewhere for what only the media module reads.
  virtual Decoded decode(std::span<const std::byte> bytes, Image& out, std::string& error) = 0;
  virtual bool encode(const Image& in, StillFormat format, int jpegQuality, std::string& out, std::string& error) = 0;

protected:
  ~OpenCvModule() = default;  // the module's own object; never deleted through this
};

class MediaModule {
public:
  /// Any still format OpenCV's imgcodecs reads.
  virtual bool decode(std::span<const std::byte> bytes, Image& out, std::string& error) = 0;
  /// A writer, or null with `error` set.
  virtual VideoSink* openVideo(const std::string& utf8Path, VideoWriter::Codec codec, double fps, int width, int height,
                               const VideoEncoding& encoding, std::string& error) = 0;
  /// An MP4 of `codec`'s packets ("h264", "hevc", "av1"), or null with `error` set.
  virtual PacketSink* openRemux(const std::string& utf8Path, const std::string& codec, std::string& error) = 0;
  /// A decoder of `codec` ("h264", "hevc", "av1") on every core, or null with `error` set.
  virtual VideoSource* openVideoDecoder(const std::string& codec, std::string& error) = 0;

protected:
  ~MediaModule() = default;
};

/// Bumped whenever an interface above changes: a module of another version is refused.
inline constexpr int kModuleVersion = 4;
/// Each module's one exported function: `extern "C" OpenCvModule* bagscope_opencv_module(int
/// version)`, `extern "C" MediaModule* bagscope_media_module(int version)`, null when
/// `version` is not its own.
inline constexpr const char* kOpenCvModuleEntry = "bagscope_opencv_module";
inline constexpr const char* kMediaModuleEntry = "bagscope_media_module";

/// The modules, each loaded on its first call (beside the executable, in
/// ../lib/bagscope/modules, or in a macOS bundle's PlugIns); an error naming where it was
/// looked for when it cannot be.
Result<OpenCvModule*> openCvModule();
Result<MediaModule*> mediaModule();

}  // namespace bagscope::sensors::detail
