// bagscope-opencv: the pixel work of the sensors module, done by OpenCV (core, imgproc,
// imgcodecs, videoio; never highgui, which pulls in Qt 5). Loaded by
// core/sensors/opencv_loader.cpp on the first image; see detail/opencv_module.hpp.

#include <exception>
#include <memory>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "core/sensors/detail/opencv_module.hpp"

namespace bagscope::sensors::detail {
namespace {

int cvDepth(PixelDepth d) {
  switch (d) {
    case PixelDepth::U8: return CV_8U;
    case PixelDepth::S8: return CV_8S;
    case PixelDepth::U16: return CV_16U;
    case PixelDepth::S16: return CV_16S;
    case PixelDepth::S32: return CV_32S;
    case PixelDepth::F32: return CV_32F;
    case PixelDepth::F64: return CV_64F;
  }
  return CV_8U;
}

bool fromCvDepth(int depth, PixelDepth& out) {
  switch (depth) {
    case CV_8U: out = PixelDepth::U8; return true;
    case CV_8S: out = PixelDepth::S8; return true;
    case CV_16U: out = PixelDepth::U16; return true;
    case CV_16S: out = PixelDepth::S16; return true;
    case CV_32S: out = PixelDepth::S32; return true;
    case CV_32F: out = PixelDepth::F32; return true;
    case CV_64F: out = PixelDepth::F64; return true;
  }
  return false;
}

// A view of our pixels (no copy; OpenCV's API takes non-const data).
cv::Mat asMat(const Image& in) {
  return cv::Mat(in.height, in.width, CV_MAKETYPE(cvDepth(in.depth), in.channels), const_cast<std::byte*>(in.data),
                 in.step);
}

}  // namespace

#if defined(BAGSCOPE_VIDEO)
// libav_video.cpp
VideoSource* openLibavDecoder(const std::string& codec, std::string& error);
VideoSink* openH264Mp4(const std::string& path, double fps, int width, int height, const VideoEncoding& encoding,
                       std::string& error);
PacketSink* openMp4Remux(const std::string& path, const std::string& codec, std::string& error);
#endif

cv::Mat bgr8Of(const Image& in);  // below, for libav_video.cpp

// The matrix's pixels as an Image that keeps the matrix (and so its buffer) alive.
bool toImage(cv::Mat m, Image& out, std::string& error) {
  PixelDepth depth;
  if (!fromCvDepth(m.depth(), depth)) return error = "unexpected pixel type from OpenCV", false;
  out = Image{m.cols, m.rows, m.channels(), depth, m.step[0], reinterpret_cast<const std::byte*>(m.data), {}};
  out.owner = std::make_shared<const cv::Mat>(std::move(m));
  return true;
}

namespace {

// 8-bit for JPEG and video; 16-bit kept for PNG; float depth (m) as 16-bit mm in PNG.
cv::Mat forFormat(const cv::Mat& in, StillFormat f) {
  cv::Mat out;
  if (in.depth() == CV_8U) return in;
  if (f == StillFormat::Png) {
    if (in.depth() == CV_16U) return in;
    if (in.depth() == CV_32F) {
      cv::Mat mm;
      in.convertTo(mm, CV_32F, 1000.0);
      cv::patchNaNs(mm, 0);
      mm.convertTo(out, CV_16U);
      return out;
    }
    in.convertTo(out, CV_16U, 1.0, 32768.0);  // 16SC1: offset into unsigned
    return out;
  }
  cv::Mat f32;
  in.convertTo(f32, CV_32F);
  cv::patchNaNs(f32, 0);
  cv::normalize(f32, out, 0, 255, cv::NORM_MINMAX, CV_8U);
  return out;
}

cv::Mat toBgr8(const cv::Mat& in) {
  cv::Mat eight = forFormat(in, StillFormat::Jpeg), out;
  if (eight.channels() == 1) cv::cvtColor(eight, out, cv::COLOR_GRAY2BGR);
  else if (eight.channels() == 4) cv::cvtColor(eight, out, cv::COLOR_BGRA2BGR);
  else out = eight;
  return out;
}

int colourCode(Conversion c) {
  switch (c) {
    case Conversion::RgbToBgr: return cv::COLOR_RGB2BGR;
    case Conversion::RgbaToBgra: return cv::COLOR_RGBA2BGRA;
    case Conversion::UyvyToBgr: return cv::COLOR_YUV2BGR_UYVY;
    case Conversion::YuyvToBgr: return cv::COLOR_YUV2BGR_YUY2;
    // OpenCV names Bayer patterns by the second row: ROS rggb is OpenCV's BG.
    case Conversion::BayerRggb: return cv::COLOR_BayerBG2BGR;
    case Conversion::BayerBggr: return cv::COLOR_BayerRG2BGR;
    case Conversion::BayerGbrg: return cv::COLOR_BayerGR2BGR;
    case Conversion::BayerGrbg: return cv::COLOR_BayerGB2BGR;
  }
  return cv::COLOR_RGB2BGR;
}

// Runs `work`, turning an OpenCV (or any) exception into `error`.
template <class Work>
bool guarded(std::string& error, Work&& work) {
  try {
    return work();
  } catch (const std::exception& e) {
    error = std::string("OpenCV: ") + e.what();
    return false;
  }
}

class Video final : public VideoSink {
public:
  cv::VideoWriter writer;
  cv::Size size;

  bool write(const Image& frame, std::string& error) override {
    return guarded(error, [&] {
      cv::Mat mat = toBgr8(asMat(frame));
      if (mat.size() != size) cv::resize(mat, mat, size);
      writer.write(mat);
      return true;
    });
  }
  void close() override {
    if (writer.isOpened()) writer.release();
  }
};

class Module final : public OpenCvModule {
public:
  const char* openCvVersion() override { return CV_VERSION; }

  bool convert(const Image& in, Conversion conversion, Image& out, std::string& error) override {
    return guarded(error, [&] {
      cv::Mat converted;
      cv::cvtColor(asMat(in), converted, colourCode(conversion));
      return toImage(std::move(converted), out, error);
    });
  }

  bool decode(std::span<const std::byte> bytes, Image& out, std::string& error) override {
    return guarded(error, [&] {
      cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8UC1, const_cast<std::byte*>(bytes.data()));
      cv::Mat decoded = cv::imdecode(raw, cv::IMREAD_UNCHANGED);
      if (decoded.empty()) return error = "cannot be decoded", false;
      return toImage(std::move(decoded), out, error);
    });
  }

  bool encode(const Image& in, StillFormat format, int jpegQuality, std::string& out, std::string& error) override {
    return guarded(error, [&] {
      std::vector<unsigned char> buf;
      std::vector<int> params;
      if (format == StillFormat::Jpeg) params = {cv::IMWRITE_JPEG_QUALITY, jpegQuality};
      if (!cv::imencode(format == StillFormat::Jpeg ? ".jpg" : ".png", forFormat(asMat(in), format), buf, params))
        return error = "OpenCV could not encode the image", false;
      out.assign(buf.begin(), buf.end());
      return true;
    });
  }

  VideoSink* openVideo(const std::string& utf8Path, VideoWriter::Codec codec, double fps, int width, int height,
                       const VideoEncoding& encoding, std::string& error) override {
    if (codec == VideoWriter::Codec::H264) {
#if defined(BAGSCOPE_VIDEO)
      return openH264Mp4(utf8Path, fps, width, height, encoding, error);
#else
      (void)encoding;
      error = "H.264 video is not in this build of Bagscope (built without FFmpeg's libraries): choose mp4v";
      return nullptr;
#endif
    }
    auto video = std::make_unique<Video>();
    video->size = cv::Size(width, height);
    bool opened = guarded(error, [&] {
      int fourcc = codec == VideoWriter::Codec::Mp4v ? cv::VideoWriter::fourcc('m', 'p', '4', 'v')
                                                     : cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
      if (video->writer.open(utf8Path, cv::CAP_FFMPEG, fourcc, fps, video->size, true) ||
          video->writer.open(utf8Path, fourcc, fps, video->size, true))
        return true;
      error = std::string("OpenCV cannot open a video writer") +
              (codec == VideoWriter::Codec::Mp4v ? " (MP4 needs OpenCV built with FFmpeg; AVI always works)" : "");
      return false;
    });
    return opened ? video.release() : nullptr;
  }

  PacketSink* openRemux(const std::string& utf8Path, const std::string& codec, std::string& error) override {
#if defined(BAGSCOPE_VIDEO)
    return openMp4Remux(utf8Path, codec, error);
#else
    (void)utf8Path;
    (void)codec;
    error = "compressed video is not in this build of Bagscope: it was built without FFmpeg's libraries";
    return nullptr;
#endif
  }

  VideoSource* openVideoDecoder(const std::string& codec, std::string& error) override {
#if defined(BAGSCOPE_VIDEO)
    return openLibavDecoder(codec, error);
#else
    (void)codec;
    error = "compressed video is not in this build of Bagscope: it was built without FFmpeg's libavcodec";
    return nullptr;
#endif
  }
};

}  // namespace

cv::Mat bgr8Of(const Image& in) { return toBgr8(asMat(in)); }

}  // namespace bagscope::sensors::detail

#if defined(_WIN32)
#define BAGSCOPE_MODULE_EXPORT extern "C" __declspec(dllexport)
#else
#define BAGSCOPE_MODULE_EXPORT extern "C" __attribute__((visibility("default")))
#endif

BAGSCOPE_MODULE_EXPORT bagscope::sensors::detail::OpenCvModule* bagscope_opencv_module(int version) {
  static bagscope::sensors::detail::Module module;
  return version == bagscope::sensors::detail::kOpenCvModuleVersion ? &module : nullptr;
}
