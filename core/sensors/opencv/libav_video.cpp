// Compressed video by FFmpeg's libraries, for the OpenCV module: decoding (H.264, H.265, AV1)
// by libavcodec, bit-exact with `ffmpeg` itself, frames converted to BGR by libswscale as
// `ffmpeg -pix_fmt bgr24` converts them (bicubic); and H.264 MP4s (libx264, yuv420p, muxed by
// libavformat) that browsers and QuickTime play, which OpenCV's writer does not make.

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include <opencv2/core.hpp>

#include "core/sensors/detail/opencv_module.hpp"

namespace bagscope::sensors::detail {

bool toImage(cv::Mat m, Image& out, std::string& error);  // opencv_module.cpp
cv::Mat bgr8Of(const Image& in);                          // opencv_module.cpp

namespace {

// FFmpeg's own log stays quiet: what fails is said through our errors, per topic and message.
void quietLog() { av_log_set_level(AV_LOG_QUIET); }

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
    quietLog();
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
    context_->thread_count = 0;  // every core: frame threads (a few frames late), slice threads
    if (int r = avcodec_open2(context_, decoder, nullptr); r < 0)
      return error = "cannot open the " + codec + " decoder: " + avError(r), false;
    return true;
  }

  bool decode(std::span<const std::byte> bytes, std::int64_t index, const VideoDecoder::Wanted& convert,
              std::vector<VideoDecoder::Frame>& frames, std::string& error) override {
    if (bytes.empty()) return true;
    if (bytes.size() > static_cast<std::size_t>(INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE))
      return error = "a video packet of " + std::to_string(bytes.size()) + " bytes is beyond FFmpeg's limit", false;
    av_packet_unref(packet_);
    if (av_new_packet(packet_, static_cast<int>(bytes.size())) < 0) return error = "out of memory for a packet", false;
    std::memcpy(packet_->data, bytes.data(), bytes.size());  // padded with zeros, as the decoder reads ahead
    packet_->pts = packet_->dts = index;
    int r = avcodec_send_packet(context_, packet_);
    if (r == AVERROR(EAGAIN)) {  // frames to take first (frame threading)
      if (!receive(frames, convert, error)) return false;
      r = avcodec_send_packet(context_, packet_);
    }
    const bool sent = r >= 0;
    if (!sent) error = avError(r);
    std::string more;
    if (!receive(frames, convert, more) && sent) return error = more, false;
    return sent;
  }

  void flush(const VideoDecoder::Wanted& convert, std::vector<VideoDecoder::Frame>& frames) override {
    avcodec_send_packet(context_, nullptr);
    std::string ignored;
    receive(frames, convert, ignored);
    avcodec_flush_buffers(context_);
  }

private:
  bool receive(std::vector<VideoDecoder::Frame>& frames, const VideoDecoder::Wanted& convert, std::string& error) {
    for (;;) {
      int r = avcodec_receive_frame(context_, frame_);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
      if (r < 0) return error = avError(r), false;
      VideoDecoder::Frame out{frame_->pts, {}, {}};  // its own packet's (the best effort guesses from dts)
      if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags != 0)
        out.problem = "damaged: the decoder concealed errors or lacked a picture it refers to";
      else if (std::string why; (!convert || convert(out.index)) && !toBgr(out.image, why)) out.problem = why;
      av_frame_unref(frame_);
      frames.push_back(std::move(out));
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

// An MP4 file written by libavformat: made by open(), its streams added, then start() writes
// its header and finish() its index; freed with it.
struct Mp4File {
  AVFormatContext* format = nullptr;
  std::string path;
  bool started = false;

  ~Mp4File() { avformat_free_context(format); }
  bool open(const std::string& utf8Path, std::string& error) {
    path = utf8Path;
    if (avformat_alloc_output_context2(&format, nullptr, "mp4", path.c_str()) < 0 || !format)
      return error = "FFmpeg has no MP4 muxer", false;
    return true;
  }
  bool start(std::string& error) {
    if (int r = avio_open(&format->pb, path.c_str(), AVIO_FLAG_WRITE); r < 0)
      return error = "cannot create " + path + ": " + avError(r), false;
    if (int r = avformat_write_header(format, nullptr); r < 0)
      return error = "cannot start the MP4: " + avError(r), false;
    started = true;
    return true;
  }
  bool finish(std::string& error) {
    if (!started) return true;
    started = false;
    const int r = av_write_trailer(format);
    avio_closep(&format->pb);
    if (r < 0) return error = "cannot finish the MP4: " + avError(r), false;
    return true;
  }
};

// BGR frames encoded as H.264 (libx264, yuv420p) into an MP4 file.
class H264Mp4 final : public VideoSink {
public:
  ~H264Mp4() override {
    close();
    sws_freeContext(scale_);
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&encoder_);
  }

  bool open(const std::string& path, double fps, int width, int height, const VideoEncoding& encoding,
            std::string& error) {
    quietLog();
    const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
    if (!codec) return error = "this build of FFmpeg has no H.264 encoder (libx264)", false;
    if (!file_.open(path, error)) return false;
    encoder_ = avcodec_alloc_context3(codec);
    frame_ = av_frame_alloc();
    packet_ = av_packet_alloc();
    stream_ = avformat_new_stream(file_.format, nullptr);
    if (!encoder_ || !frame_ || !packet_ || !stream_) return error = "out of memory for a video", false;
    // yuv420p halves the chroma: an odd width or height loses its last column or row.
    encoder_->width = width & ~1;
    encoder_->height = height & ~1;
    if (encoder_->width < 2 || encoder_->height < 2) return error = "a frame too small for H.264", false;
    encoder_->pix_fmt = AV_PIX_FMT_YUV420P;
    // Frame n at n / fps s, in ms-exact ticks.
    encoder_->time_base = AVRational{1000, static_cast<int>(std::lround(fps * 1000))};
    encoder_->framerate = AVRational{encoder_->time_base.den, encoder_->time_base.num};
    if (file_.format->oformat->flags & AVFMT_GLOBALHEADER) encoder_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    av_opt_set(encoder_->priv_data, "preset", encoding.preset.c_str(), 0);
    av_opt_set_int(encoder_->priv_data, "crf", encoding.crf, 0);
    if (int r = avcodec_open2(encoder_, codec, nullptr); r < 0)
      return error = "cannot open the H.264 encoder: " + avError(r), false;
    if (avcodec_parameters_from_context(stream_->codecpar, encoder_) < 0) return error = "H.264 parameters", false;
    stream_->time_base = encoder_->time_base;
    if (!file_.start(error)) return false;
    frame_->format = encoder_->pix_fmt;
    frame_->width = encoder_->width;
    frame_->height = encoder_->height;
    if (av_frame_get_buffer(frame_, 0) < 0) return error = "out of memory for a frame", false;
    open_ = true;
    return true;
  }

  bool write(const Image& image, std::string& error) override {
    if (!open_) return error = "the video is closed", false;
    cv::Mat bgr = bgr8Of(image);
    if (av_frame_make_writable(frame_) < 0) return error = "out of memory for a frame", false;
    // Frames of another size are scaled to the first one's, as the OpenCV writer does.
    scale_ = sws_getCachedContext(scale_, bgr.cols, bgr.rows, AV_PIX_FMT_BGR24, encoder_->width, encoder_->height,
                                  AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (!scale_) return error = "cannot convert the frame to yuv420p", false;
    const std::uint8_t* planes[4] = {bgr.data, nullptr, nullptr, nullptr};
    const int strides[4] = {static_cast<int>(bgr.step[0]), 0, 0, 0};
    sws_scale(scale_, planes, strides, 0, bgr.rows, frame_->data, frame_->linesize);
    frame_->pts = next_++;
    return encode(frame_, error);
  }

  void close() override {
    if (!open_) return;
    open_ = false;
    std::string ignored;
    encode(nullptr, ignored);  // the frames the encoder still holds
    file_.finish(ignored);
  }

private:
  // Sends a frame (null: the end) and writes the packets that come out.
  bool encode(AVFrame* frame, std::string& error) {
    if (int r = avcodec_send_frame(encoder_, frame); r < 0) return error = "H.264: " + avError(r), false;
    for (;;) {
      int r = avcodec_receive_packet(encoder_, packet_);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
      if (r < 0) return error = "H.264: " + avError(r), false;
      if (packet_->duration == 0) packet_->duration = 1;  // one frame: else the MP4's edit list drops the last
      av_packet_rescale_ts(packet_, encoder_->time_base, stream_->time_base);
      packet_->stream_index = stream_->index;
      r = av_interleaved_write_frame(file_.format, packet_);  // takes the packet's data
      if (r < 0) return error = "cannot write the MP4: " + avError(r), false;
    }
  }

  Mp4File file_;
  AVCodecContext* encoder_ = nullptr;
  AVStream* stream_ = nullptr;
  AVFrame* frame_ = nullptr;
  AVPacket* packet_ = nullptr;
  SwsContext* scale_ = nullptr;
  std::int64_t next_ = 0;
  bool open_ = false;
};

// Packets of a compressed stream muxed into an MP4 as they are. The MP4 muxer turns Annex B
// into length-prefixed units itself and takes the parameter sets from the first packet; the
// size comes from the stream's own parameter sets (libavcodec's parser). Each packet lasts
// until the next one (the last as long as the one before it).
class Mp4Remux final : public PacketSink {
public:
  ~Mp4Remux() override {
    std::string ignored;
    close(ignored);
    av_packet_free(&pending_);
  }

  bool open(const std::string& path, const std::string& codec, std::string& error) {
    quietLog();
    id_ = codec == "h264"   ? AV_CODEC_ID_H264
          : codec == "hevc" ? AV_CODEC_ID_HEVC
          : codec == "av1"  ? AV_CODEC_ID_AV1
                            : AV_CODEC_ID_NONE;
    if (id_ == AV_CODEC_ID_NONE) return error = "no MP4 of " + codec + " packets", false;
    if (!file_.open(path, error)) return false;
    pending_ = av_packet_alloc();
    if (!pending_) return error = "out of memory for a packet", false;
    return true;
  }

  bool write(std::span<const std::byte> bytes, std::int64_t timeNs, bool keyframe, std::string& error) override {
    if (bytes.empty() || bytes.size() > static_cast<std::size_t>(INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE))
      return error = "a packet of " + std::to_string(bytes.size()) + " bytes", false;
    if (!file_.started && !start(bytes, error)) return false;
    if (havePending_) {
      if (timeNs <= pendingNs_) return error = "a packet not later than the one before it", false;
      if (!flushPending(timeNs - pendingNs_, error)) return false;
    }
    av_packet_unref(pending_);
    if (av_new_packet(pending_, static_cast<int>(bytes.size())) < 0) return error = "out of memory", false;
    std::memcpy(pending_->data, bytes.data(), bytes.size());
    if (keyframe) pending_->flags |= AV_PKT_FLAG_KEY;
    pendingNs_ = timeNs;
    havePending_ = true;
    return true;
  }

  bool close(std::string& error) override {
    if (!file_.started) return true;
    const bool flushed = !havePending_ || flushPending(lastDurationNs_ > 0 ? lastDurationNs_ : 1'000'000, error);
    std::string finishing;
    const bool finished = file_.finish(finishing);
    if (flushed && !finished) error = finishing;
    return flushed && finished;
  }

private:
  // The stream's size from its first packet's parameter sets, then the file's header.
  bool start(std::span<const std::byte> first, std::string& error) {
    int width = 0, height = 0;
    if (id_ != AV_CODEC_ID_AV1) {
      AVCodecParserContext* parser = av_parser_init(id_);
      AVCodecContext* context = avcodec_alloc_context3(nullptr);
      if (parser && context) {
        parser->flags |= PARSER_FLAG_COMPLETE_FRAMES;  // a packet is a whole access unit
        std::vector<std::uint8_t> padded(first.size() + AV_INPUT_BUFFER_PADDING_SIZE, 0);
        std::memcpy(padded.data(), first.data(), first.size());
        std::uint8_t* out = nullptr;
        int outSize = 0;
        av_parser_parse2(parser, context, &out, &outSize, padded.data(), static_cast<int>(first.size()), AV_NOPTS_VALUE,
                         AV_NOPTS_VALUE, 0);
        width = parser->width > 0 ? parser->width : context->width;
        height = parser->height > 0 ? parser->height : context->height;
      }
      av_parser_close(parser);
      avcodec_free_context(&context);
      if (width <= 0 || height <= 0 || width > kMaxVideoSide || height > kMaxVideoSide)
        return error = "the first packet gives no picture size (no parameter sets, or absurd ones)", false;
    }
    stream_ = avformat_new_stream(file_.format, nullptr);
    if (!stream_) return error = "out of memory for a stream", false;
    stream_->codecpar->codec_type = AVMEDIA_TYPE_VIDEO;
    stream_->codecpar->codec_id = id_;
    stream_->codecpar->width = width;
    stream_->codecpar->height = height;
    stream_->time_base = AVRational{1, 90000};  // MP4's usual video clock; the muxer may refine it
    return file_.start(error);
  }

  bool flushPending(std::int64_t durationNs, std::string& error) {
    const AVRational ns{1, 1'000'000'000};
    if (firstNs_ == INT64_MIN) firstNs_ = pendingNs_;
    pending_->pts = pending_->dts = av_rescale_q(pendingNs_ - firstNs_, ns, stream_->time_base);
    pending_->duration = std::max<std::int64_t>(1, av_rescale_q(durationNs, ns, stream_->time_base));
    pending_->stream_index = stream_->index;
    lastDurationNs_ = durationNs;
    havePending_ = false;
    if (int r = av_write_frame(file_.format, pending_); r < 0)
      return error = "cannot write the MP4: " + avError(r), false;
    return true;
  }

  Mp4File file_;
  AVStream* stream_ = nullptr;
  AVCodecID id_ = AV_CODEC_ID_NONE;
  AVPacket* pending_ = nullptr;  // written once the next one says how long it lasts
  std::int64_t pendingNs_ = 0, firstNs_ = INT64_MIN, lastDurationNs_ = 0;
  bool havePending_ = false;
};

}  // namespace

PacketSink* openMp4Remux(const std::string& path, const std::string& codec, std::string& error) {
  auto remux = std::make_unique<Mp4Remux>();
  return remux->open(path, codec, error) ? remux.release() : nullptr;
}

VideoSink* openH264Mp4(const std::string& path, double fps, int width, int height, const VideoEncoding& encoding,
                       std::string& error) {
  auto video = std::make_unique<H264Mp4>();
  return video->open(path, fps, width, height, encoding, error) ? video.release() : nullptr;
}

VideoSource* openLibavDecoder(const std::string& codec, std::string& error) {
  auto source = std::make_unique<LibavSource>();
  return source->open(codec, error) ? source.release() : nullptr;
}

}  // namespace bagscope::sensors::detail
