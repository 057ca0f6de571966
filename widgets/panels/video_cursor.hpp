#pragma once
// The frames of a compressed video topic at any of its messages, for the image viewer: a
// frame needs the packets before it back to a keyframe, so a seek decodes from the keyframe
// at or before the message, and a step forwards goes on from the last frame decoded.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/sensors/sensors.hpp"
#include "core/session/session.hpp"

namespace bagscope::widgets {

class VideoCursor {
public:
  /// Whether `row` of `topic` is a video packet (a video type, or a CompressedImage whose
  /// format names a video codec).
  static bool isVideo(const session::Session& session, session::TopicId topic, std::size_t row);
  /// The frame of message `row` with its packet's header and codec. Errors name the message
  /// and why (no keyframe within reach before it, a packet that cannot be decoded, a damaged
  /// picture). Safe from any thread; one frame at a time.
  Result<sensors::ImageFrame> frameAt(const session::Session& session, session::TopicId topic, std::size_t row);

  /// How far back a keyframe is looked for (messages).
  static constexpr std::size_t kMaxGop = 600;

private:
  Result<sensors::ImageFrame> decodeTo(const session::Session& session, session::TopicId topic, std::size_t row);

  std::mutex mutex_;
  const session::Session* session_ = nullptr;  // what the decoder's state belongs to
  session::TopicId topic_ = 0;
  // On every core: a seek's packets from the keyframe are decoded by frame threads, and the
  // frames after the one asked for come out ahead, ready for the next steps.
  std::optional<sensors::VideoDecoder> decoder_;
  std::size_t next_ = 0;              // the row the decoder takes next
  std::optional<std::size_t> asked_;  // the last row asked for, kept to be asked again (a new style)
  Result<sensors::ImageFrame> last_ = makeError(ErrorCode::InvalidArgument, "");
};

/// The log times of a video topic's keyframes (where a seek can start), on every core; empty
/// for a topic that is not video. Packets that cannot be read are passed over.
Result<std::vector<std::int64_t>> videoKeyframes(const session::Session& session, session::TopicId topic,
                                                 StopToken stop = {});

}  // namespace bagscope::widgets
