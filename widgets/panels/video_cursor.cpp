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
  const bool same = session_ == &s && topic_ == topic;
  if (same && asked_ == row) return last_;
  // A frame ahead goes on from where the decoder is, unless a keyframe after that is nearer.
  const bool ahead = same && decoder_ && (!asked_ || row > *asked_);
  for (std::size_t back = 0; back <= kMaxGop && back <= row; ++back) {
    if (ahead && row - back < next_) return decodeTo(s, topic, row);
    decode::Value keep;
    auto p = packetAt(s, topic, row - back, keep);
    if (!p) return atMessage(p.error(), row - back);
    if (!p->keyframe) continue;
    auto opened = sensors::VideoDecoder::open(p->codec);
    BAGSCOPE_TRY(opened);
    decoder_.emplace(std::move(opened).value());
    session_ = &s;
    topic_ = topic;
    next_ = row - back;
    return decodeTo(s, topic, row);
  }
  return makeError(ErrorCode::InvalidArgument, "message " + std::to_string(row) + ": no keyframe in the " +
                                                   std::to_string(std::min(row, kMaxGop) + 1) +
                                                   " messages up to it: it cannot be decoded");
}

Result<sensors::ImageFrame> VideoCursor::decodeTo(const session::Session& s, session::TopicId topic, std::size_t row) {
  const auto wanted = [row](std::int64_t i) { return i >= static_cast<std::int64_t>(row); };  // others not converted
  const std::size_t count = s.index(topic).size();
  last_ = makeError(ErrorCode::InvalidArgument, "the decoder gave no picture for it");
  for (bool found = false; !found;) {
    while (!found && decoder_->ready()) {  // the frames before it are passed over; those after it stay
      auto [i, frame] = decoder_->take();
      if (static_cast<std::size_t>(i) == row) last_ = std::move(frame), found = true;
    }
    if (found || (next_ >= count && decoder_->queueEmpty())) break;
    if (next_ >= count) {  // the stream's end: what the decoder holds (it then needs a keyframe again)
      decoder_->end(wanted);
      continue;
    }
    const std::size_t r = next_++;
    decode::Value keep;
    decoder_->queue(packetAt(s, topic, r, keep), static_cast<std::int64_t>(r), wanted);
  }
  if (!last_) last_ = atMessage(last_.error(), row);
  asked_ = row;
  return last_;
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
