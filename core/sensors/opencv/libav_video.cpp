// Compressed video by FFmpeg's libraries, for the media module: decoding (H.264, H.265, AV1)
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

#include "mats.hpp"

namespace bagscope::sensors::detail {

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
// size comes from the stream's own parameter sets (libavcodec's parser). Packets come in
// decoding order at their messages' times; with B-frames a picture is shown in another place
// than it is decoded: the parser's picture order count (POC) says where. So the packets from
// one IDR to the next (where the POC starts again) are held, and the k-th shown takes the k-th
// time, each lasting until the next one shown (the last as long as the one before it); the
// decoding times are moved back by the deepest reordering so none is after its showing.
class Mp4Remux final : public PacketSink {
public:
  ~Mp4Remux() override {
    std::string ignored;
    close(ignored);
    for (auto& h : held_) av_packet_free(&h.packet);
    av_parser_close(parser_);
    avcodec_free_context(&parsed_);
  }

  bool open(const std::string& path, const std::string& codec, std::string& error) {
    quietLog();
    id_ = codec == "h264"   ? AV_CODEC_ID_H264
          : codec == "hevc" ? AV_CODEC_ID_HEVC
          : codec == "av1"  ? AV_CODEC_ID_AV1
                            : AV_CODEC_ID_NONE;
    if (id_ == AV_CODEC_ID_NONE) return error = "no MP4 of " + codec + " packets", false;
    if (!file_.open(path, error)) return false;
    if (id_ != AV_CODEC_ID_AV1) {  // AV1 packets are shown in their order
      parser_ = av_parser_init(id_);
      parsed_ = avcodec_alloc_context3(nullptr);
      if (!parser_ || !parsed_) return error = "out of memory for a parser", false;
      parser_->flags |= PARSER_FLAG_COMPLETE_FRAMES;  // a packet is a whole access unit
    }
    return true;
  }

  bool write(std::span<const std::byte> bytes, std::int64_t timeNs, bool keyframe, std::string& error) override {
    if (bytes.empty() || bytes.size() > static_cast<std::size_t>(INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE))
      return error = "a packet of " + std::to_string(bytes.size()) + " bytes", false;
    if (!held_.empty() && timeNs <= held_.back().timeNs)
      return error = "a packet not later than the one before it", false;
    AVPacket* packet = av_packet_alloc();
    if (!packet || av_new_packet(packet, static_cast<int>(bytes.size())) < 0)
      return av_packet_free(&packet), error = "out of memory", false;
    std::memcpy(packet->data, bytes.data(), bytes.size());
    if (keyframe) packet->flags |= AV_PKT_FLAG_KEY;
    const int poc = pictureOrder(packet);
    if (!file_.started && !start(error)) return av_packet_free(&packet), false;
    if (!held_.empty()) {
      lastGapNs_ = timeNs - held_.back().timeNs;
      // An IDR starts the count again: what is held is complete. A long stream of open GOPs is
      // let go at a keyframe, one without keyframes anywhere.
      if (((keyframe && (poc == 0 || held_.size() >= kMaxHeld)) || held_.size() >= 4 * kMaxHeld) &&
          !writeHeld(lastGapNs_, error))
        return av_packet_free(&packet), false;
    }
    held_.push_back({packet, timeNs, poc});
    return true;
  }

  bool close(std::string& error) override {
    if (!file_.started) return true;
    const bool written = writeHeld(lastGapNs_ > 0 ? lastGapNs_ : 1'000'000, error);
    std::string finishing;
    const bool finished = file_.finish(finishing);
    if (written && !finished) error = finishing;
    return written && finished;
  }

private:
  static constexpr std::size_t kMaxHeld = 1024;
  struct Held {
    AVPacket* packet;
    std::int64_t timeNs;
    int poc;
  };

  // The packet's picture order count, from its slice header (0 when it has none, or for AV1),
  // and the stream's size from its parameter sets.
  int pictureOrder(AVPacket* packet) {
    if (!parser_) return 0;
    std::uint8_t* out = nullptr;
    int outSize = 0;
    parser_->output_picture_number = 0;
    av_parser_parse2(parser_, parsed_, &out, &outSize, packet->data, packet->size, AV_NOPTS_VALUE, AV_NOPTS_VALUE, 0);
    if (width_ <= 0) width_ = parser_->width > 0 ? parser_->width : parsed_->width;
    if (height_ <= 0) height_ = parser_->height > 0 ? parser_->height : parsed_->height;
    return parser_->output_picture_number;
  }

  // The file's header, once the first packet has given the size.
  bool start(std::string& error) {
    if (id_ != AV_CODEC_ID_AV1 && (width_ <= 0 || height_ <= 0 || width_ > kMaxVideoSide || height_ > kMaxVideoSide))
      return error = "the first packet gives no picture size (no parameter sets, or absurd ones)", false;
    stream_ = avformat_new_stream(file_.format, nullptr);
    if (!stream_) return error = "out of memory for a stream", false;
    stream_->codecpar->codec_type = AVMEDIA_TYPE_VIDEO;
    stream_->codecpar->codec_id = id_;
    stream_->codecpar->width = std::max(width_, 0);
    stream_->codecpar->height = std::max(height_, 0);
    stream_->time_base = AVRational{1, 90000};  // MP4's usual video clock; the muxer may refine it
    return file_.start(error);
  }

  // The held packets, in decoding order, each at the time of its place in showing order.
  bool writeHeld(std::int64_t lastDurationNs, std::string& error) {
    const std::size_t n = held_.size();
    std::vector<std::size_t> shown(n);  // shown[k]: the packet shown k-th
    for (std::size_t i = 0; i < n; ++i) shown[i] = i;
    std::stable_sort(shown.begin(), shown.end(),
                     [&](std::size_t a, std::size_t b) { return held_[a].poc < held_[b].poc; });
    if (firstNs_ == INT64_MIN && n) firstNs_ = held_.front().timeNs;
    for (std::size_t k = 0; k < n; ++k)  // decoded at its own time, shown at the k-th: never shown before decoded
      reorderNs_ = std::max(reorderNs_, held_[shown[k]].timeNs - held_[k].timeNs);
    const AVRational ns{1, 1'000'000'000};
    bool ok = true;
    std::vector<std::int64_t> ptsOf(n), durationOf(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t end = k + 1 < n ? held_[k + 1].timeNs : held_[k].timeNs + lastDurationNs;
      ptsOf[shown[k]] = held_[k].timeNs;
      durationOf[shown[k]] = end - held_[k].timeNs;
    }
    for (std::size_t i = 0; i < n; ++i) {
      AVPacket* p = held_[i].packet;
      p->pts = av_rescale_q(ptsOf[i] - firstNs_, ns, stream_->time_base);
      p->dts = av_rescale_q(held_[i].timeNs - firstNs_ - reorderNs_, ns, stream_->time_base);
      p->duration = std::max<std::int64_t>(1, av_rescale_q(durationOf[i], ns, stream_->time_base));
      p->stream_index = stream_->index;
      if (int r = ok ? av_write_frame(file_.format, p) : 0; r < 0)
        error = "cannot write the MP4: " + avError(r), ok = false;
      av_packet_free(&p);
    }
    held_.clear();
    return ok;
  }

  Mp4File file_;
  AVStream* stream_ = nullptr;
  AVCodecID id_ = AV_CODEC_ID_NONE;
  AVCodecParserContext* parser_ = nullptr;
  AVCodecContext* parsed_ = nullptr;
  int width_ = 0, height_ = 0;
  std::vector<Held> held_;  // since the last IDR, in decoding order
  std::int64_t firstNs_ = INT64_MIN, reorderNs_ = 0, lastGapNs_ = 0;
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
