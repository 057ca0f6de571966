#include "widgets/panels/video_cursor.hpp"

#include <algorithm>
#include <string>

namespace bagscope::widgets {
namespace {

Result<sensors::VideoPacket> packetAt(const session::Session& s, session::TopicId topic, std::size_t row,
                                      decode::Value& keep) {
  auto m = s.read(topic, row);
  BAGSCOPE_TRY(m);
  auto d = s.decoder(*m->connection);
  BAGSCOPE_TRY(d);
  auto v = (*d)->decode(m->bytes);
  BAGSCOPE_TRY(v);
  keep = std::move(v).value();  // the packet views its bytes
  return sensors::readVideoPacket(keep);
}

Error atMessage(const Error& e, std::size_t row) {
  Error out = e;
  out.message = "message " + std::to_string(row) + ": " + e.message;
  return out;
}

}  // namespace

bool VideoCursor::isVideo(const session::Session& s, session::TopicId topic, std::size_t row) {
  const auto kind = sensors::kindOf(s.topics()[topic].type);
  if (kind == sensors::SensorKind::Video) return true;
  if (kind != sensors::SensorKind::CompressedImage) return false;
  decode::Value keep;
  return packetAt(s, topic, row, keep).has_value();
}

Result<sensors::ImageFrame> VideoCursor::frameAt(const session::Session& s, session::TopicId topic, std::size_t row) {
  std::lock_guard lock(mutex_);
  // A step forwards within reach goes on from where the decoder is.
  if (decoder_ && session_ == &s && topic_ == topic && next_ <= row && row - next_ < 64)
    return decodeTo(s, topic, next_, row);
  // Else from the keyframe at or before it.
  decoder_.reset();
  session_ = &s;
  topic_ = topic;
  for (std::size_t back = 0; back <= kMaxGop && back <= row; ++back) {
    decode::Value keep;
    auto p = packetAt(s, topic, row - back, keep);
    if (!p) return atMessage(p.error(), row - back);
    if (!p->keyframe) continue;
    auto opened = sensors::VideoDecoder::open(p->codec, true);
    BAGSCOPE_TRY(opened);
    decoder_.emplace(std::move(opened).value());
    return decodeTo(s, topic, row - back, row);
  }
  return makeError(ErrorCode::InvalidArgument, "message " + std::to_string(row) + ": no keyframe in the " +
                                                   std::to_string(std::min(row, kMaxGop) + 1) +
                                                   " messages up to it: it cannot be decoded");
}

Result<sensors::ImageFrame> VideoCursor::decodeTo(const session::Session& s, session::TopicId topic, std::size_t from,
                                                  std::size_t row) {
  for (std::size_t r = from; r < row; ++r) {  // the frames before it: decoded, not converted to BGR
    decode::Value keep;
    if (auto p = packetAt(s, topic, r, keep)) (void)decoder_->push(*p, static_cast<std::int64_t>(r), false);
  }
  decode::Value keep;
  auto p = packetAt(s, topic, row, keep);
  auto out = p ? decoder_->frameOf(*p, static_cast<std::int64_t>(row)) : Result<sensors::ImageFrame>(p.error());
  next_ = row + 1;
  if (out) return out;
  decoder_.reset();  // its state is not to be trusted further
  return atMessage(out.error(), row);
}

Result<std::vector<std::int64_t>> videoKeyframes(const session::Session& s, session::TopicId topic, StopToken stop) {
  std::vector<std::int64_t> out;
  if (s.index(topic).empty() || !VideoCursor::isVideo(s, topic, 0)) return out;
  std::mutex mutex;
  auto r = s.forEachParallel(
      {{topic}},
      [&](session::TopicId, std::size_t, const Result<session::Message>& m) {
        if (!m) return;
        auto d = s.decoder(*m->connection);
        if (!d) return;
        auto v = (*d)->decode(m->bytes);
        if (!v) return;
        if (auto p = sensors::readVideoPacket(*v); p && p->keyframe) {
          std::lock_guard lock(mutex);
          out.push_back(m->logTimeNs);
        }
      },
      std::move(stop));
  BAGSCOPE_TRY(r);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace bagscope::widgets
