#include "widgets/async/decoded_message.hpp"

#include <QObject>

#include "core/sensors/sensors.hpp"
#include "widgets/qt_text.hpp"

namespace bagscope::widgets {
namespace {

// The stamp of a std_msgs/Header that starts the message (ROS 1 time or ROS 2 Time).
std::optional<qint64> headerStamp(const decode::Value& root) {
  if (root.kind != decode::Value::Kind::Struct || !root.type || !schema::startsWithHeader(*root.type))
    return std::nullopt;
  auto h = sensors::headerOf(root);
  return h ? std::optional<qint64>(h->stampNs) : std::nullopt;
}

}  // namespace

std::shared_ptr<const DecodedMessage> readDecoded(const session::Session& session, session::TopicId topic,
                                                  std::size_t row) {
  auto out = std::make_shared<DecodedMessage>();
  const auto& t = session.topics()[topic];
  out->topic = toQt(t.name);
  out->type = toQt(t.type);
  out->row = row;
  out->count = t.messageCount;
  auto message = session.read(topic, row);
  if (!message) {
    out->error = toQt(message.error().describe());
    return out;
  }
  out->message = std::move(message).value();
  // Why a message is not shown, with what it is: its place and raw size.
  auto undecoded = [&](const Error& e) {
    out->error = QObject::tr("%1 (topic %2, message %3: %4 bytes, not decoded)")
                     .arg(toQt(e.describe()), out->topic)
                     .arg(row + 1)
                     .arg(static_cast<qulonglong>(out->message.bytes.size()));
    return out;
  };
  auto decoder = session.decoder(*out->message.connection);
  if (!decoder) return undecoded(decoder.error());
  out->decoder = std::move(decoder).value();
  auto value = out->decoder->decode(out->message.bytes);
  if (!value) return undecoded(value.error());
  out->value = std::move(value).value();
  out->stampNs = headerStamp(out->value);
  return out;
}

}  // namespace bagscope::widgets
