#pragma once
// Every message of one topic decoded on a worker, for the panels that keep a whole topic
// (the log, diagnostics, the map, the 3D view's layers): `each` runs on the job's thread in
// log-time order, `done` on the GUI thread — unless the job was dropped (and so stopped)
// before it ended. A message that cannot be read or decoded is counted, not dropped silently.

#include <QString>

#include <functional>
#include <memory>

#include "core/decode/decoder.hpp"
#include "core/session/session.hpp"
#include "widgets/async/mailbox.hpp"

namespace bagscope::widgets {

struct TopicJobResult {
  std::uint64_t unreadable = 0;
  QString firstProblem;  ///< what went wrong with the first of them
};
/// What a topic job could not do, for a panel's status line: why it failed, or how many
/// messages could not be read and the first's problem; empty when all went well.
QString problemText(const Result<TopicJobResult>& result);

std::shared_ptr<Job> decodeTopic(std::shared_ptr<const session::Session> session, std::shared_ptr<Mailbox> mailbox,
                                 session::TopicId topic,
                                 std::function<void(qint64 logTimeNs, const decode::Value&)> each,
                                 std::function<void(Result<TopicJobResult>)> done);

}  // namespace bagscope::widgets
