// bagscope-media: video by OpenCV's videoio and FFmpeg's libraries (libav_video.cpp), and
// still formats other than JPEG and PNG by imgcodecs. Loaded by core/sensors/opencv_loader.cpp
// on first use; see detail/opencv_module.hpp.

#include <memory>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "mats.hpp"

namespace bagscope::sensors::detail {

#if defined(BAGSCOPE_VIDEO)
// libav_video.cpp
VideoSource* openLibavDecoder(const std::string& codec, std::string& error);
VideoSink* openH264Mp4(const std::string& path, double fps, int width, int height, const VideoEncoding& encoding,
                       std::string& error);
PacketSink* openMp4Remux(const std::string& path, const std::string& codec, std::string& error);
#endif

namespace {

class Video final : public VideoSink {
public:
  cv::VideoWriter writer;
  cv::Size size;

  bool write(const Image& frame, std::string& error) override {
    return guarded(error, [&] {
      cv::Mat mat = bgr8Of(frame);
      if (mat.size() != size) cv::resize(mat, mat, size);
      writer.write(mat);
      return true;
    });
  }
  void close() override {
    if (writer.isOpened()) writer.release();
  }
};

class Module final : public MediaModule {
public:
  bool decode(std::span<const std::byte> bytes, Image& out, std::string& error) override {
    return guarded(error, [&] {
      cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8UC1, const_cast<std::byte*>(bytes.data()));
      cv::Mat decoded = cv::imdecode(raw, cv::IMREAD_UNCHANGED);
      if (decoded.empty()) return error = "cannot be decoded", false;
      return toImage(std::move(decoded), out, error);
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
}  // namespace bagscope::sensors::detail

BAGSCOPE_MODULE_EXPORT bagscope::sensors::detail::MediaModule* bagscope_media_module(int version) {
  static bagscope::sensors::detail::Module module;
  return version == bagscope::sensors::detail::kModuleVersion ? &module : nullptr;
}
