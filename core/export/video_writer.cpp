// MP4 (H.264 or mp4v) and AVI: one video per image topic, frames decoded by the sensors module;
// a compressed video topic's packets remuxed into an MP4 as they are.

#include <cmath>

#include "core/base/byte_source.hpp"
#include "detail/topic_writers.hpp"

namespace bagscope::exporters::detail {
namespace {

class VideoTopicWriter final : public TopicWriter {
public:
  VideoTopicWriter(const TopicWriterSetup& setup, sensors::VideoWriter::Codec codec) : setup_(setup), codec_(codec) {}

  std::optional<RowFailure> add(const TopicRow& row) override {
    // A compressed video topic's packets go into an MP4 as they are (H.264 format only).
    if (remux_ || (!video_ && codec_ == sensors::VideoWriter::Codec::H264 && setup_.kind != sensors::SensorKind::Image))
      if (auto packet = sensors::readVideoPacket(row.value); packet || remux_) {
        if (!packet) return RowFailure{"video packet cannot be read", packet.error().describe()};
        if (!remux_) {
          auto opened = sensors::VideoRemux::open(setup_.temp, packet->codec);
          if (!opened)
            return RowFailure{"video cannot be written", opened.error().message + " for " + utf8(setup_.path), true};
          remux_ = std::move(opened).value();
        }
        const std::int64_t at = setup_.options.videoStampTime ? packet->header.stampNs : row.message.logTimeNs;
        if (auto w = remux_->write(*packet, at); !w)
          return RowFailure{"video packet not written", w.error().describe()};
        return std::nullopt;
      }
    auto frame = sensors::readAnyImage(row.value, setup_.kind);
    if (!frame) return RowFailure{"image cannot be decoded", frame.error().describe()};
    const sensors::Image& image = frame->image;
    if (!video_) {
      // The frame rate: the topic's mean rate over the exported range, unless given; the size
      // of the first frame.
      double fps = setup_.options.fps > 0 ? setup_.options.fps : setup_.meanRate / setup_.options.every;
      if (!(fps > 0) || !std::isfinite(fps)) fps = 10;
      auto opened = sensors::VideoWriter::open(setup_.temp, codec_, fps, image.width, image.height,
                                               {setup_.options.crf, setup_.options.preset});
      if (!opened)
        return RowFailure{"video cannot be written", opened.error().message + " for " + utf8(setup_.path), true};
      video_ = std::move(opened).value();
    }
    if (auto w = video_->write(image); !w) return RowFailure{"video cannot be written", w.error().describe(), true};
    return std::nullopt;
  }

  Result<void> finish() override {
    if (video_) video_->close();
    if (remux_) return remux_->close();
    return {};
  }

private:
  const TopicWriterSetup& setup_;
  sensors::VideoWriter::Codec codec_;
  std::optional<sensors::VideoWriter> video_;
  std::optional<sensors::VideoRemux> remux_;  // a video topic's packets, not re-encoded
};

}  // namespace

std::unique_ptr<TopicWriter> makeVideoWriter(const TopicWriterSetup& setup, sensors::VideoWriter::Codec codec) {
  return std::make_unique<VideoTopicWriter>(setup, codec);
}

}  // namespace bagscope::exporters::detail
