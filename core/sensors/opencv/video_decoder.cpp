// Compressed video decoded by FFmpeg's libavcodec (H.264, H.265, AV1) for the OpenCV module:
// the well-kept decoders, bit-exact with `ffmpeg` itself. Frames are converted to BGR by
// libswscale as `ffmpeg -pix_fmt bgr24` converts them (bicubic), into OpenCV matrices.

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

#include <cstring>
#include <memory>

#include <opencv2/core.hpp>

#include "core/sensors/detail/opencv_module.hpp"

namespace bagscope::sensors::detail {

bool toImage(cv::Mat m, Image& out, std::string& error);  // opencv_module.cpp

namespace {

std::string avError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

class LibavSource final : public VideoSource {
public:
  ~LibavSource() override {
    sws_freeContext(scale_);
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&context_);
  }

  bool open(const std::string& codec, std::string& error) {
    const AVCodec* decoder = nullptr;
    if (codec == "h264") decoder = avcodec_find_decoder(AV_CODEC_ID_H264);
    else if (codec == "hevc") decoder = avcodec_find_decoder(AV_CODEC_ID_HEVC);
    else if (codec == "av1") {
      decoder = avcodec_find_decoder_by_name("libdav1d");
      if (!decoder) decoder = avcodec_find_decoder(AV_CODEC_ID_AV1);
    }
    if (!decoder) return error = "this build of FFmpeg decodes no " + codec, false;
    context_ = avcodec_alloc_context3(decoder);
    packet_ = av_packet_alloc();
    frame_ = av_frame_alloc();
    if (!context_ || !packet_ || !frame_) return error = "out of memory for a video decoder", false;
    context_->max_pixels = static_cast<std::int64_t>(kMaxVideoSide) * kMaxVideoSide;  // absurd sizes refused
    context_->thread_count = 0;                                                       // every core
    if (int r = avcodec_open2(context_, decoder, nullptr); r < 0)
      return error = "cannot open the " + codec + " decoder: " + avError(r), false;
    return true;
  }

  bool decode(std::span<const std::byte> bytes, std::int64_t index, std::vector<std::pair<std::int64_t, Image>>& frames,
              std::string& error) override {
    if (bytes.empty()) return true;
    if (bytes.size() > static_cast<std::size_t>(INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE))
      return error = "a video packet of " + std::to_string(bytes.size()) + " bytes is beyond FFmpeg's limit", false;
    av_packet_unref(packet_);
    if (av_new_packet(packet_, static_cast<int>(bytes.size())) < 0) return error = "out of memory for a packet", false;
    std::memcpy(packet_->data, bytes.data(), bytes.size());  // padded with zeros, as the decoder reads ahead
    packet_->pts = packet_->dts = index;
    int r = avcodec_send_packet(context_, packet_);
    if (r == AVERROR(EAGAIN)) {  // frames to take first (frame threading)
      if (!receive(frames, error)) return false;
      r = avcodec_send_packet(context_, packet_);
    }
    const bool sent = r >= 0;
    if (!sent) error = avError(r);
    std::string more;
    if (!receive(frames, more) && sent) return error = more, false;
    return sent;
  }

  void flush(std::vector<std::pair<std::int64_t, Image>>& frames) override {
    avcodec_send_packet(context_, nullptr);
    std::string ignored;
    receive(frames, ignored);
    avcodec_flush_buffers(context_);
  }

private:
  bool receive(std::vector<std::pair<std::int64_t, Image>>& frames, std::string& error) {
    for (;;) {
      int r = avcodec_receive_frame(context_, frame_);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
      if (r < 0) return error = avError(r), false;
      Image image;  // empty: a damaged picture (concealed errors, a reference missing), not shown
      const bool damaged = (frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags != 0;
      const bool converted = damaged || toBgr(image, error);
      const std::int64_t index = frame_->best_effort_timestamp;
      av_frame_unref(frame_);
      if (!converted) return false;
      frames.emplace_back(index, std::move(image));
    }
  }

  bool toBgr(Image& out, std::string& error) {
    const int w = frame_->width, h = frame_->height;
    if (w <= 0 || h <= 0 || w > kMaxVideoSide || h > kMaxVideoSide)
      return error = "a frame of " + std::to_string(w) + " x " + std::to_string(h) + " pixels", false;
    scale_ = sws_getCachedContext(scale_, w, h, static_cast<AVPixelFormat>(frame_->format), w, h, AV_PIX_FMT_BGR24,
                                  SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (!scale_) return error = "cannot convert frames of pixel format " + std::to_string(frame_->format), false;
    cv::Mat bgr(h, w, CV_8UC3);
    std::uint8_t* planes[4] = {bgr.data, nullptr, nullptr, nullptr};
    int strides[4] = {static_cast<int>(bgr.step[0]), 0, 0, 0};
    sws_scale(scale_, frame_->data, frame_->linesize, 0, h, planes, strides);
    return toImage(std::move(bgr), out, error);
  }

  AVCodecContext* context_ = nullptr;
  AVPacket* packet_ = nullptr;
  AVFrame* frame_ = nullptr;
  SwsContext* scale_ = nullptr;
};

}  // namespace

VideoSource* openLibavDecoder(const std::string& codec, std::string& error) {
  auto source = std::make_unique<LibavSource>();
  return source->open(codec, error) ? source.release() : nullptr;
}

}  // namespace bagscope::sensors::detail
