#pragma once
// A message read and decoded for a panel or the inspector (on a worker: NewestRead), holding
// what its decoded value points into.

#include <QString>

#include <cstddef>
#include <memory>
#include <optional>

#include "core/decode/decoder.hpp"
#include "core/session/session.hpp"

namespace bagscope::widgets {

/// A message read and decoded off the GUI thread. Keeps what its Value points into alive.
struct DecodedMessage {
  session::Message message;  // pins the chunk the bytes live in
  std::shared_ptr<const decode::Decoder> decoder;
  decode::Value value;
  QString error;  ///< why it could not be read or decoded (then value is empty)
  QString topic;
  QString type;
  std::size_t row = 0;            ///< position in its topic
  std::size_t count = 0;          ///< messages in its topic
  std::optional<qint64> stampNs;  ///< header.stamp, when the type has a header
};

/// Reads and decodes message `row` of `topic` (on the calling thread).
std::shared_ptr<const DecodedMessage> readDecoded(const session::Session& session, session::TopicId topic,
                                                  std::size_t row);

}  // namespace bagscope::widgets
